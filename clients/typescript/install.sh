#!/usr/bin/env bash
# Installs the TypeScript client's npm packages (tsc, vitest, the frameworks
# whose adapters it tests), pinned by package-lock.json (tools/npm-ci.sh:
# Node >= 20 needed).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
exec "$here/../../tools/npm-ci.sh" "$here"
