#!/usr/bin/env bash
# Installs the MCP tests' npm packages (the official TypeScript MCP SDK),
# pinned by package-lock.json, with `npm ci`; again only when the lock file
# changed since the last install. Needs Node >= 20 and its npm, which these
# machines come with: Debian 12's own nodejs (18) is too old for the SDK and
# its npm package conflicts with the installed node, so never install those.
set -euo pipefail
cd "$(dirname "$0")"
if ! command -v node >/dev/null 2>&1; then
  echo "tests/mcp: node is not installed; the MCP tests need Node >= 20 with npm (not Debian's nodejs 18)" >&2
  exit 1
fi
version=$(node --version)
major=${version#v}
major=${major%%.*}
if [ "$major" -lt 20 ]; then
  echo "tests/mcp: node $version is too old; the MCP tests need Node >= 20 (the MCP SDK does not run on it)" >&2
  exit 1
fi
if ! command -v npm >/dev/null 2>&1; then
  echo "tests/mcp: npm is not installed; it comes with Node >= 20 (do not install Debian's npm package)" >&2
  exit 1
fi
stamp=node_modules/.mnemo-package-lock
if [ -f "$stamp" ] && cmp -s package-lock.json "$stamp"; then exit 0; fi
npm ci --no-audit --no-fund --loglevel=error
cp package-lock.json "$stamp"
