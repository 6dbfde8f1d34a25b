#!/usr/bin/env bash
# Serves all-MiniLM-L6-v2 as an OpenAI-compatible embeddings API (server.py)
# from the virtual environment venv.sh creates once per machine.
#   tests/bench/embedder/serve.sh --port 8089 --quiet     # then: http://127.0.0.1:8089/v1
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
venv="$("$here/venv.sh")"
export HF_HUB_OFFLINE=1  # nothing here reaches a model hub; say so to any library that might try
exec "$venv/bin/python" "$here/server.py" "$@"
