#!/usr/bin/env bash
# Runs BENCH.md workload G: BENCH_MEMORIES (1,000,000) memories with
# client-given 384-dim clustered unit vectors and texts of a sentence or two
# (memory/memory_texts.h), 1,000 users, one app, on the sqlite and the memory
# backend, through mnemod's HTTP API (memory/memory_api_bench.cpp):
#   1. load, batches of 100, BENCH_CONNECTIONS (8) at once: memories/s;
#   2. how long the vector index takes to hold and link everything after;
#   3. a warm-up of BENCH_WARMUP_QUERIES (50) recalls of each kind per build,
#      not counted (the first round ran cold on whichever build loaded
#      last: 1.28x apart on one run, at par the next), then
#      BENCH_ROUNDS (3) rounds, each BENCH_RECALL_CONNECTIONS
#      (BENCH_CONNECTIONS) at once, BENCH_QUERIES recalls of each kind,
#      asking the natural questions of
#      search/questions.txt in turn: per-user hybrid recall (question and
#      vector), app-wide semantic recall (vector) with recall@10 against the
#      exact top-10 of the same vectors (a C++ loop, also timed as the speed
#      reference), per-user and app-wide keyword recall (question): p50/p99,
#      and the share of answers that hold a memory;
#   4. peak RSS of mnemod per memory;
#   5. sqlite only (the memory backend keeps nothing over a restart): a
#      graceful restart, seconds from process start to the first answered
#      recall (the index loads its checkpoint, then follows the feed).
# With BENCH_PREVIOUS_BUILD_DIR, each backend also runs on that build's
# mnemod (the reference, same memories from the same client): both daemons
# are loaded and stay up together, each round runs the previous build's
# recalls first, and the table (medians of the rounds) (memory/table_g.py) adds new / previous ratios and the
# issue's targets (keyword recall p50 <= 5 ms per user, <= 20 ms app-wide;
# per-user hybrid p50 no worse than the previous build).
# Settings (environment): BENCH_MEMORIES, BENCH_QUERIES (200), BENCH_WARMUP_QUERIES (50; 0: none),
# BENCH_CONNECTIONS, BENCH_RECALL_CONNECTIONS, BENCH_ROUNDS, BENCH_BACKENDS ("sqlite
# memory"), BENCH_BUILD_DIR (build-bench-g: Release with -DMNEMO_BENCH=ON;
# the bench client always comes from it), BENCH_PREVIOUS_BUILD_DIR (unset:
# no reference; needs daemon/mnemod and the backends' plugins),
# BENCH_QUESTIONS (search/questions.txt), BENCH_KEEP=1 keeps the work folder.
# A manual tool: never run in CI.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build_dir=${BENCH_BUILD_DIR:-$root/build-bench-g}
previous_build_dir=${BENCH_PREVIOUS_BUILD_DIR:-}
memories=${BENCH_MEMORIES:-1000000}
queries=${BENCH_QUERIES:-200}
warmup_queries=${BENCH_WARMUP_QUERIES:-50}
connections=${BENCH_CONNECTIONS:-8}
recall_connections=${BENCH_RECALL_CONNECTIONS:-$connections}
rounds=${BENCH_ROUNDS:-3}
backends=${BENCH_BACKENDS:-sqlite memory}
questions=${BENCH_QUESTIONS:-$here/search/questions.txt}
bench=$build_dir/tests/bench/memory/mnemo_bench_memory_api

work=$(mktemp -d /tmp/mnemo-bench-g.XXXXXX)
results=$work/results.tsv
bench_name=bench-g
# shellcheck source=common.sh
source "$here/common.sh"
declare_builds "$build_dir" "$previous_build_dir"

cleanup() {
  local status=$? label
  for label in "${!pid_of[@]}"; do stop_mnemod "$label"; done
  if [[ $status -ne 0 || ${BENCH_KEEP:-0} == 1 ]]; then log "logs kept in $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

[[ -x $build_dir/daemon/mnemod && -x $bench ]] ||
  fail "build first: cmake -S $root -B $build_dir -DCMAKE_BUILD_TYPE=Release -DMNEMO_TESTS=OFF -DMNEMO_BENCH=ON && cmake --build $build_dir --target mnemod mnemo_sqlite mnemo_memory mnemo_bench_memory_api"
for label in $labels; do
  for backend in $backends; do
    [[ -x ${build_of[$label]}/daemon/mnemod && -f ${build_of[$label]}/plugins/mnemo_$backend.so ]] ||
      fail "${build_of[$label]}/daemon/mnemod or plugins/mnemo_$backend.so not found ($label build)"
  done
done
[[ -s $questions ]] || fail "no questions file $questions"
command -v curl >/dev/null || fail "curl not found (Debian: apt-get install curl)"
(( memories % 1000 == 0 )) || fail "BENCH_MEMORIES must be a multiple of 1000 (memories per user are equal)"

folder_of() { echo "$work/$1-$2"; }  # backend label

write_config() {  # backend label
  local folder options="{}" port
  folder=$(folder_of "$1" "$2")
  port=$(free_port)
  port_of[$2]=$port
  [[ $1 == sqlite ]] && options="{path: $folder/mnemo.db, synchronous: normal}"
  mkdir -p "$folder/scripts"
  cat >"$folder/mnemod.yaml" <<EOF_CONFIG
server:
  listen: ["127.0.0.1:$port"]
  admin_socket: $folder/admin.sock
storage:
  plugin: $1
  plugin_dir: ${build_of[$2]}/plugins
  options: $options
memory:
  dimensions: 384
  index_dir: $folder/memory-index
summary:
  enabled: false
scripts:
  dir: $folder/scripts
log:
  level: warn
EOF_CONFIG
}

start_mnemod() {  # backend label
  local folder
  folder=$(folder_of "$1" "$2")
  "${build_of[$2]}/daemon/mnemod" --config "$folder/mnemod.yaml" >>"$folder/mnemod.log" 2>&1 &
  pid_of[$2]=$!
}
wait_ready() {  # backend label
  for _ in $(seq 300); do
    curl -sf "http://127.0.0.1:${port_of[$2]}/readyz" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  fail "mnemod ($1, $2 build) did not become ready within 30 s; see $(folder_of "$1" "$2")/mnemod.log"
}
stop_mnemod() {  # label
  [[ -n ${pid_of[$1]:-} ]] || return 0
  kill "${pid_of[$1]}" 2>/dev/null || true
  wait "${pid_of[$1]}" 2>/dev/null || true
  unset "pid_of[$1]"
}
peak_rss_kib() { awk '/^VmHWM:/ {print $2}' "/proc/${pid_of[$1]}/status"; }

# One phase of the bench client against one daemon: its sentences go to the
# terminal, its "G ..." line to the results.
run_bench() {  # backend label phase args...
  local out
  out=$(folder_of "$1" "$2")/bench-$3-$(date +%s%N).txt
  "$bench" "${port_of[$2]}" "$3" "${@:4}" >"$out" || { cat "$out"; fail "$3 failed ($1, $2 build)"; }
  grep -v '^G ' "$out" | sed "s/^/[$1, $2 build] /" || true
  grep '^G ' "$out" | sed "s/^G /$1\t$2\t/" >>"$results" || true
}

workload_g() {  # backend
  local label rss started seconds round
  for label in $labels; do
    write_config "$1" "$label"
    start_mnemod "$1" "$label"
    wait_ready "$1" "$label"
    log "$1, $label build: mnemod pid ${pid_of[$label]} on 127.0.0.1:${port_of[$label]}; loading $memories memories"
    run_bench "$1" "$label" load "$memories" "$queries" "$connections"
    run_bench "$1" "$label" catchup "$memories"
  done
  if ((warmup_queries > 0)); then
    for label in $labels; do
      log "$1, $label build: warm-up, $warmup_queries recalls of each kind (not counted)"
      "$bench" "${port_of[$label]}" recall "$memories" "$warmup_queries" "$recall_connections" "$questions" \
        >/dev/null || fail "the warm-up failed ($1, $label build)"
    done
  fi
  for round in $(seq "$rounds"); do
    for label in $labels; do
      log "$1, round $round/$rounds, $label build: recalls"
      run_bench "$1" "$label" recall "$memories" "$queries" "$recall_connections" "$questions"
    done
  done
  for label in $labels; do
    rss=$(peak_rss_kib "$label")
    awk -v kib="$rss" -v n="$memories" -v tag="[$1, $label build]" \
      'BEGIN {printf "%s peak RSS: %d MiB, %.0f bytes per memory\n", tag, kib / 1024, kib * 1024 / n}'
    printf '%s\t%s\tphase=rss peak_kib=%s bytes_per_memory=%s\n' "$1" "$label" "$rss" \
      "$(awk -v kib="$rss" -v n="$memories" 'BEGIN {printf "%.0f", kib * 1024 / n}')" >>"$results"
  done
  for label in $labels; do
    if [[ $1 == sqlite ]]; then
      log "$1, $label build: graceful restart"
      stop_mnemod "$label"
      started=$(date +%s.%N)
      start_mnemod "$1" "$label"
      run_bench "$1" "$label" first "$memories" 1 1 "$questions"
      seconds=$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN {printf "%.2f", b - a}')
      echo "[$1, $label build] restart: first answered recall $seconds s after the process started"
      printf '%s\t%s\tphase=restart seconds=%s\n' "$1" "$label" "$seconds" >>"$results"
    fi
    stop_mnemod "$label"
    [[ ${BENCH_KEEP:-0} == 1 ]] || rm -rf "$(folder_of "$1" "$label")"
  done
}

for backend in $backends; do workload_g "$backend"; done
echo
python3 "$here/memory/table_g.py" "$results" --memories "$memories" --queries "$queries" \
  --connections "$recall_connections" --rounds "$rounds"
