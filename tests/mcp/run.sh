#!/usr/bin/env bash
# Runs the MCP tests: the official TypeScript MCP SDK's Client with its
# StreamableHTTPClientTransport against the real mnemod binary.
# Usage: tests/mcp/run.sh MNEMOD PLUGIN_DIR   (ctest passes the build's own)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
"$here/install.sh"
export MNEMO_MNEMOD="${1:?usage: tests/mcp/run.sh MNEMOD PLUGIN_DIR}"
export MNEMO_PLUGIN_DIR="${2:?usage: tests/mcp/run.sh MNEMOD PLUGIN_DIR}"
cd "$here"
exec node --test --test-concurrency=1 ./*.test.mjs
