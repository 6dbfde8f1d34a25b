#!/usr/bin/env bash
# The crash soak's long form: N SIGKILLs of mnemod per backend (sqlite with
# synchronous full and normal, mysql and postgres with a restart of their
# database server in the middle)
# under concurrent appends with client ids; prints kills, acknowledged
# batches and events, lost, duplicated and partial batches per backend.
# ctest runs the short form (5 kills per backend) of the same binary.
#
# Usage: tests/soak/run.sh [--kills N] [--writers W] [--seconds S] [--seed X]
#                          [--backend full|normal|mysql|postgres|all] [--build DIR]
#   --kills    SIGKILLs per backend (default 50)
#   --writers  writer threads, each appending to its own 3 sessions (default 8)
#   --seconds  appending time per backend, spread over the kills (default 1.2 per kill)
#   --build    the build folder holding tests/soak/soak_tests (default build)
set -euo pipefail
cd "$(dirname "$0")/../.."
kills=50 writers=8 seconds="" seed="" backend=all build=build
while [ $# -gt 0 ]; do
  case "$1" in
    --kills) kills=$2; shift 2 ;;
    --writers) writers=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --backend) backend=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    *) echo "unknown option $1 (see the usage at the top of $0)" >&2; exit 2 ;;
  esac
done
case "$backend" in
  full) filter='Soak.SqliteSynchronousFull' ;;
  normal) filter='Soak.SqliteSynchronousNormal' ;;
  mysql|postgres) filter="Backends/SharedSoak.WithADatabaseRestart/$backend" ;;
  all) filter='Soak.*:Backends/SharedSoak.*' ;;
  *) echo "--backend $backend: use full, normal, mysql, postgres or all" >&2; exit 2 ;;
esac
binary=$build/tests/soak/soak_tests
if [ ! -x "$binary" ]; then
  echo "$binary not found: build it first (cmake --build $build --target soak_tests)" >&2
  exit 1
fi
export MNEMO_SOAK_KILLS=$kills MNEMO_SOAK_WRITERS=$writers
export MNEMO_SOAK_SECONDS=${seconds:-$(awk "BEGIN {print 1.2 * $kills}")}
[ -n "$seed" ] && export MNEMO_SOAK_SEED=$seed
exec "$binary" --gtest_filter="$filter"
