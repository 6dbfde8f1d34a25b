#!/usr/bin/env bash
# Prints the path of a virtual environment holding exactly the packages of
# clients/python/requirements-test.lock, created once per machine under
# ~/.cache/mnemo/python-frameworks/ (tools/python-venv.sh): google-adk's tree
# is large and is installed once per machine, not once per run.
# Usage: clients/python/frameworks/venv.sh   (MNEMO_PY_CACHE overrides the cache folder)
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
exec "$root/tools/python-venv.sh" python-frameworks/ "$root/clients/python/requirements-test.lock"
