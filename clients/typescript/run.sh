#!/usr/bin/env bash
# Builds the client with tsc and runs its tests against the real mnemod:
# the client and adapter tests (node's test runner, memory and sqlite
# storage), then LangGraph's own checkpoint validation suite (sqlite).
# Usage: clients/typescript/run.sh MNEMOD PLUGIN_DIR   (ctest passes the build's own)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
"$here/install.sh"
export MNEMO_MNEMOD="${1:?usage: clients/typescript/run.sh MNEMOD PLUGIN_DIR}"
export MNEMO_PLUGIN_DIR="${2:?usage: clients/typescript/run.sh MNEMOD PLUGIN_DIR}"
cd "$here"
rm -rf dist
npx tsc -p tsconfig.json
node --test --test-concurrency=1 test/*.test.mjs
# LangGraph's own conformance suite for checkpoint savers, under vitest (sqlite storage).
MNEMO_TS_VALIDATE_STORAGE=sqlite npx vitest run
