#!/usr/bin/env bash
# Installs the TypeScript client's npm packages (tsc, the frameworks whose
# adapters it tests), pinned by package-lock.json, with `npm ci`; again only
# when the lock file changed since the last install. Needs Node >= 20 and its
# npm, which these machines come with: Debian 12's own nodejs (18) is too old
# and its npm package conflicts with the installed node, so never install those.
set -euo pipefail
cd "$(dirname "$0")"
if ! command -v node >/dev/null 2>&1; then
  echo "clients/typescript: node is not installed; the client needs Node >= 20 with npm (not Debian's nodejs 18)" >&2
  exit 1
fi
version=$(node --version)
major=${version#v}
major=${major%%.*}
if [ "$major" -lt 20 ]; then
  echo "clients/typescript: node $version is too old; the client needs Node >= 20 (built-in fetch, the frameworks' engines)" >&2
  exit 1
fi
if ! command -v npm >/dev/null 2>&1; then
  echo "clients/typescript: npm is not installed; it comes with Node >= 20 (do not install Debian's npm package)" >&2
  exit 1
fi
stamp=node_modules/.mnemo-package-lock
if [ -f "$stamp" ] && cmp -s package-lock.json "$stamp"; then exit 0; fi
npm ci --no-audit --no-fund --loglevel=error
cp package-lock.json "$stamp"
