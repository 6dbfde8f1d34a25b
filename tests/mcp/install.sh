#!/usr/bin/env bash
# Installs the MCP tests' npm packages (the official TypeScript MCP SDK),
# pinned by package-lock.json (tools/npm-ci.sh: Node >= 20 needed).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
exec "$here/../../tools/npm-ci.sh" "$here"
