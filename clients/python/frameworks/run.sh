#!/usr/bin/env bash
# Runs one suite that proves an adapter on its real framework, with the pinned
# packages of clients/python/requirements-test.lock (frameworks/venv.sh
# installs them once per machine into a cache folder), against the mnemod
# and plugins given; the tests start their own daemons (memory and sqlite).
# Usage: clients/python/frameworks/run.sh MNEMOD PLUGIN_DIR SUITE
#   SUITE: adk (tests/adk_contract and test_adk.py), openai_agents, langgraph, mcp_sdk
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
# Absolute: the suite runs from clients/python.
MNEMOD_BIN="$(realpath "${1:?usage: run.sh MNEMOD PLUGIN_DIR SUITE}")"
MNEMO_PLUGIN_DIR="$(realpath "${2:?usage: run.sh MNEMOD PLUGIN_DIR SUITE}")"
export MNEMOD_BIN MNEMO_PLUGIN_DIR
suite="${3:?usage: run.sh MNEMOD PLUGIN_DIR SUITE (adk, openai_agents, langgraph, mcp_sdk)}"
case "$suite" in
  adk) paths=(tests/adk_contract tests/test_adk.py) ;;
  openai_agents) paths=(tests/openai_agents_sdk tests/test_openai_agents.py) ;;
  langgraph) paths=(tests/langgraph_suite) ;;
  mcp_sdk) paths=(tests/mcp_sdk) ;;
  *) echo "run.sh: unknown suite '$suite'; use adk, openai_agents, langgraph or mcp_sdk" >&2; exit 2 ;;
esac
venv="$("$here/frameworks/venv.sh")"
cd "$here"
export PYTHONDONTWRITEBYTECODE=1
# The tests run offline: no trace export from the OpenAI Agents SDK.
export OPENAI_AGENTS_DISABLE_TRACING=1
exec "$venv/bin/python" -m pytest -q -p no:cacheprovider -o asyncio_default_fixture_loop_scope=function \
  "${paths[@]}"
