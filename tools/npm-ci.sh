#!/usr/bin/env bash
# Installs the npm packages of one folder (tests/mcp, clients/typescript),
# pinned by its package-lock.json, with `npm ci`; again only when the lock
# file changed since the last install. Needs Node >= 20 and its npm, which
# these machines come with: Debian 12's own nodejs (18) is too old for these
# packages and its npm package conflicts with the installed node, so never
# install those.
# Usage: tools/npm-ci.sh DIR
set -euo pipefail
dir=${1:?usage: tools/npm-ci.sh DIR}
cd "$dir"
if ! command -v node >/dev/null 2>&1; then
  echo "$dir: node is not installed; these tests need Node >= 20 with npm (not Debian's nodejs 18)" >&2
  exit 1
fi
version=$(node --version)
major=${version#v}
major=${major%%.*}
if [ "$major" -lt 20 ]; then
  echo "$dir: node $version is too old; these tests need Node >= 20 (the packages they use do not run on it)" >&2
  exit 1
fi
if ! command -v npm >/dev/null 2>&1; then
  echo "$dir: npm is not installed; it comes with Node >= 20 (do not install Debian's npm package)" >&2
  exit 1
fi
stamp=node_modules/.mnemo-package-lock
if [ -f "$stamp" ] && cmp -s package-lock.json "$stamp"; then exit 0; fi
npm ci --no-audit --no-fund --loglevel=error
cp package-lock.json "$stamp"
