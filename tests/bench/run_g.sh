#!/usr/bin/env bash
# Runs BENCH.md workload G: BENCH_MEMORIES (1,000,000) memories with
# client-given 384-dim clustered unit vectors, 1,000 users, one app, on the
# sqlite backend, through mnemod's HTTP API (memory/memory_api_bench.cpp):
#   1. load, batches of 100, BENCH_CONNECTIONS (8) at once: memories/s;
#   2. how long the vector index takes to hold and link everything after;
#   3. per-user hybrid and app-wide semantic recall p50/p99, and app-wide
#      recall@10 against the exact top-10 of the same vectors (a C++ loop,
#      also timed as the speed reference);
#   4. peak RSS of mnemod per memory;
#   5. a graceful restart: seconds from process start to the first answered
#      recall (the index loads its checkpoint, then follows the feed).
# Settings (environment): BENCH_MEMORIES, BENCH_QUERIES (200),
# BENCH_CONNECTIONS, BENCH_BUILD_DIR (build-bench-g: Release with
# -DMNEMO_BENCH=ON), BENCH_KEEP=1 keeps the work folder. A manual tool:
# never run in CI.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build_dir=${BENCH_BUILD_DIR:-$root/build-bench-g}
memories=${BENCH_MEMORIES:-1000000}
queries=${BENCH_QUERIES:-200}
connections=${BENCH_CONNECTIONS:-8}
bench=$build_dir/tests/bench/memory/mnemo_bench_memory_api

work=$(mktemp -d /tmp/mnemo-bench-g.XXXXXX)
mnemod_pid=""
bench_name=bench-g
# shellcheck source=common.sh
source "$here/common.sh"

cleanup() {
  local status=$?
  stop_mnemod
  if [[ $status -ne 0 || ${BENCH_KEEP:-0} == 1 ]]; then log "logs kept in $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

[[ -x $build_dir/daemon/mnemod && -x $bench && -f $build_dir/plugins/mnemo_sqlite.so ]] ||
  fail "build first: cmake -S $root -B $build_dir -DCMAKE_BUILD_TYPE=Release -DMNEMO_TESTS=OFF -DMNEMO_BENCH=ON && cmake --build $build_dir --target mnemod mnemo_sqlite mnemo_bench_memory_api"
command -v curl >/dev/null || fail "curl not found (Debian: apt-get install curl)"

port=$(free_port)
mkdir -p "$work/scripts"
cat >"$work/mnemod.yaml" <<EOF_CONFIG
server:
  listen: ["127.0.0.1:$port"]
  admin_socket: $work/admin.sock
storage:
  plugin: sqlite
  plugin_dir: $build_dir/plugins
  options: {path: $work/mnemo.db, synchronous: normal}
memory:
  dimensions: 384
  index_dir: $work/memory-index
summary:
  enabled: false
scripts:
  dir: $work/scripts
log:
  level: warn
EOF_CONFIG

start_mnemod() {
  "$build_dir/daemon/mnemod" --config "$work/mnemod.yaml" >>"$work/mnemod.log" 2>&1 &
  mnemod_pid=$!
}
stop_mnemod() {
  [[ -n $mnemod_pid ]] || return 0
  kill "$mnemod_pid" 2>/dev/null || true
  wait "$mnemod_pid" 2>/dev/null || true
  mnemod_pid=""
}
peak_rss_kib() { awk '/^VmHWM:/ {print $2}' "/proc/$mnemod_pid/status"; }

start_mnemod
for _ in $(seq 300); do curl -sf "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break; sleep 0.1; done
log "mnemod pid $mnemod_pid on 127.0.0.1:$port; loading $memories memories"
"$bench" "$port" load "$memories" "$queries" "$connections"
"$bench" "$port" catchup "$memories"
"$bench" "$port" recall "$memories" "$queries" "$connections"
rss=$(peak_rss_kib)
awk -v kib="$rss" -v n="$memories" 'BEGIN {printf "peak RSS: %d MiB, %.0f bytes per memory\n", kib / 1024, kib * 1024 / n}'

log "graceful restart"
stop_mnemod
started=$(date +%s.%N)
start_mnemod
"$bench" "$port" first "$memories"
awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN {printf "restart: first answered recall %.2f s after the process started\n", b - a}'
