#!/usr/bin/env bash
# Installs what mnemod needs, builds it and starts it in the foreground on its
# zero-config default (API on 127.0.0.1:7420, data under ./data).
# Usage: tools/start.sh           (from the repository root)
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMNEMO_TESTS=OFF >/dev/null
cmake --build build -j"$(nproc)" --target mnemod mnemoctl mnemo_memory mnemo_sqlite
exec ./build/daemon/mnemod "$@"
