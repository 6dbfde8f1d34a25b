#!/usr/bin/env bash
# Runs BENCH.md workload C: workload A (append one ~500-byte event to one of
# 1,000 sessions, wrk, 50 keep-alive connections) against mnemod on the sqlite
# backend with synchronous normal and then full, alternating each run with the
# raw SQLite reference (sqlite/raw_sqlite.cpp: the same rows, search index
# included, prepared statements, WAL; 64 events per transaction with normal,
# 1 with full) and, for context, the raw rows without the search index.
# Then synchronous full again on a disk whose flush costs BENCH_FLUSH_US more
# (sqlite/slow_flush.c preloaded into both sides; this VM flushes in ~0.1 ms).
# Also measures reading the newest 50 events of a session of BENCH_READ_EVENTS
# events against one of 100 (p50 ratio) and the database size per 1,000
# events. Prints one table of medians. A manual tool: never run in CI.
# Settings (environment): BENCH_SECONDS (30), BENCH_ROUNDS (3),
# BENCH_CONNECTIONS (50), BENCH_THREADS (2, wrk threads),
# BENCH_READ_EVENTS (100000), BENCH_READ_CONNECTIONS (1), BENCH_FLUSH_US
# (2000; 0 skips the slow-flush runs), BENCH_BUILD_DIR (build-bench; needs
# daemon/mnemod, plugins/mnemo_sqlite.so and tests/bench/sqlite/
# mnemo_bench_raw_sqlite, mnemo_bench_slow_flush.so), BENCH_RAW (the
# reference binary, to override), BENCH_KEEP=1 keeps the work folder.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build_dir=${BENCH_BUILD_DIR:-$root/build-bench}
raw=${BENCH_RAW:-$build_dir/tests/bench/sqlite/mnemo_bench_raw_sqlite}
run_seconds=${BENCH_SECONDS:-30}
rounds=${BENCH_ROUNDS:-3}
connections=${BENCH_CONNECTIONS:-50}
wrk_threads=${BENCH_THREADS:-2}
read_events=${BENCH_READ_EVENTS:-100000}
read_connections=${BENCH_READ_CONNECTIONS:-1}
flush_us=${BENCH_FLUSH_US:-2000}
slow_flush=$build_dir/tests/bench/sqlite/mnemo_bench_slow_flush.so
small_events=100

work=$(mktemp -d /tmp/mnemo-bench-c.XXXXXX)
results=$work/results.tsv
mnemod_pid=""

bench_name=bench-c
# shellcheck source=common.sh
source "$here/common.sh"

cleanup() {
  local status=$?
  stop_mnemod
  if [[ $status -ne 0 || ${BENCH_KEEP:-0} == 1 ]]; then
    log "logs and raw outputs kept in $work"
  else
    rm -rf "$work"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM


require_tools() {
  local tool
  for tool in wrk python3 curl; do
    command -v "$tool" >/dev/null || fail "$tool not found; install it (Debian: apt-get install wrk python3 curl)"
  done
  [[ -x $build_dir/daemon/mnemod && -f $build_dir/plugins/mnemo_sqlite.so ]] ||
    fail "$build_dir/daemon/mnemod or plugins/mnemo_sqlite.so not found; build them: cmake -S $root -B $build_dir -DCMAKE_BUILD_TYPE=Release -DMNEMO_TESTS=OFF -DMNEMO_BENCH=ON && cmake --build $build_dir --target mnemod mnemo_sqlite mnemo_bench_raw_sqlite"
  [[ -x $raw ]] || fail "$raw not found; build the target mnemo_bench_raw_sqlite (-DMNEMO_BENCH=ON) or set BENCH_RAW"
  [[ $flush_us == 0 || -f $slow_flush ]] ||
    fail "$slow_flush not found; build the target mnemo_bench_slow_flush (-DMNEMO_BENCH=ON) or set BENCH_FLUSH_US=0"
}

# sqlite backend in its own folder, loopback only, no hooks (empty scripts
# folder) and no summaries: the reference does neither. wrk's connections are
# never idle during a run; the short idle_timeout only keeps the stop between
# phases quick (mnemod waits for idle keep-alive timers when it drains).
write_mnemod_config() {  # folder port synchronous event_limit
  mkdir -p "$1/scripts"
  cat >"$1/mnemod.yaml" <<EOF
server:
  listen: ["127.0.0.1:$2"]
  idle_timeout: 3s
  admin_socket: $1/admin.sock
storage:
  plugin: sqlite
  plugin_dir: $build_dir/plugins
  options: {path: $1/mnemo.db, synchronous: $3}
limits:
  event_limit: $4
summary:
  enabled: false
scripts:
  dir: $1/scripts
log:
  level: warn
EOF
}

# Commands run with with_disk: plain, or with the slow-flush shim when
# disk_flush_us is set.
disk_flush_us=0
with_disk() {
  if [[ $disk_flush_us == 0 ]]; then
    "$@"
  else
    LD_PRELOAD=$slow_flush MNEMO_BENCH_FLUSH_US=$disk_flush_us "$@"
  fi
}

start_mnemod() {  # folder synchronous event_limit
  mnemod_port=$(free_port)
  write_mnemod_config "$1" "$mnemod_port" "$2" "$3"
  # exec: the background job becomes mnemod itself, so $! is its pid.
  with_disk exec "$build_dir/daemon/mnemod" --config "$1/mnemod.yaml" >"$1/mnemod.log" 2>&1 &
  mnemod_pid=$!
  for _ in $(seq 100); do
    curl -sf "http://127.0.0.1:$mnemod_port/readyz" >/dev/null 2>&1 && {
      log "mnemod pid $mnemod_pid on 127.0.0.1:$mnemod_port (sqlite, synchronous $2)"
      return 0
    }
    sleep 0.1
  done
  fail "mnemod did not become ready within 10 s; see $1/mnemod.log"
}

stop_mnemod() {
  [[ -n $mnemod_pid ]] || return 0
  kill "$mnemod_pid" 2>/dev/null || true
  wait "$mnemod_pid" 2>/dev/null || true
  mnemod_pid=""
}


run_wrk() {  # output threads connections script url args...
  local out=$1 threads=$2 conns=$3 script=$4 url=$5; shift 5
  wrk -t"$threads" -c"$conns" -d"${run_seconds}s" --latency -s "$script" "$url" -- "$@" >"$out" 2>&1 ||
    fail "wrk failed; see $out"
  grep -q '^BENCH ' "$out" || fail "no result line in $out"
}


file_bytes() { stat -c %s "$1" 2>/dev/null || echo 0; }

# --- workload A against mnemod, alternating with the raw reference ------------

run_raw() {  # phase synchronous batch index(yes|no) round
  local name=$1-$4-$5
  local out=$work/raw-$name.txt
  with_disk "$raw" --db "$work/raw-$name.db" --synchronous "$2" --batch "$3" --search-index "$4" \
    --seconds "$run_seconds" >"$out" 2>&1 || fail "the raw reference failed; see $out"
  local rate size system=raw-index
  [[ $4 == yes ]] || system=raw-plain
  rate=$(tr ' ' '\n' <"$out" | awk -F= '$1 == "events_per_s" {print $2}')
  size=$(tr ' ' '\n' <"$out" | awk -F= '$1 == "bytes_per_1000_events" {print $2}')
  printf 'write\t%s\t%s\t%s\t%s\t0\t0\t0\n' "$1" "$system" "$5" "$rate" >>"$results"
  printf 'size\t%s-%s\t%s\n' "$system" "$3" "$size" >>"$results"
  rm -f "$work/raw-$name.db"*
}

run_append() {  # phase round
  local out=$work/wrk-$1-$2.txt
  run_wrk "$out" "$wrk_threads" "$connections" "$here/append.lua" "http://127.0.0.1:$mnemod_port" 1000
  printf 'write\t%s\tmnemod\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$(bench_field "$out" rps)" \
    "$(bench_field "$out" p50_us)" "$(bench_field "$out" p99_us)" "$(errors_of "$out")" >>"$results"
}

# One phase: rounds of raw with the index, raw without (skipped on the slow
# disk, where it adds nothing), then mnemod.
workload_c() {  # phase synchronous batch
  local folder=$work/mnemod-$1 round
  start_mnemod "$folder" "$2" 1000
  for round in $(seq "$rounds"); do
    log "$1, round $round/$rounds: raw SQLite ($3 per transaction), then mnemod (${run_seconds} s each)"
    run_raw "$1" "$2" "$3" yes "$round"
    [[ $disk_flush_us != 0 ]] || run_raw "$1" "$2" "$3" no "$round"
    run_append "$1" "$round"
  done
  stop_mnemod
}

# --- reads of a long and a short session; size per 1,000 events -------------

session_path() { echo "/v1/apps/bench/users/reader/sessions/$1"; }

run_read() {  # big|small round
  local out=$work/read-$1-$2.txt
  run_wrk "$out" 1 "$read_connections" "$here/sqlite/read_one.lua" "http://127.0.0.1:$mnemod_port" \
    "$(session_path "$1")?num_recent_events=50"
  printf 'read\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$(bench_field "$out" p50_us)" "$(bench_field "$out" p99_us)" \
    "$(bench_field "$out" rps)" "$(errors_of "$out")" >>"$results"
}

reads_and_size() {
  local folder=$work/mnemod-reads round
  start_mnemod "$folder" normal 0
  log "filling a session with $read_events events and one with $small_events"
  python3 "$here/sqlite/fill_session.py" "http://127.0.0.1:$mnemod_port" "$(session_path big)" --events "$read_events" ||
    fail "filling the long session failed"
  python3 "$here/sqlite/fill_session.py" "http://127.0.0.1:$mnemod_port" "$(session_path small)" --events "$small_events" ||
    fail "filling the short session failed"
  for round in $(seq "$rounds"); do
    log "reads, round $round/$rounds: newest 50 of $read_events events, then of $small_events"
    run_read big "$round"
    run_read small "$round"
  done
  stop_mnemod  # a clean stop checkpoints the WAL into the file
  local bytes=$(($(file_bytes "$folder/mnemo.db") + $(file_bytes "$folder/mnemo.db-wal")))
  printf 'size\tmnemod\t%s\n' "$((bytes * 1000 / (read_events + small_events)))" >>"$results"
}

main() {
  require_tools
  workload_c normal normal 64
  workload_c full full 1
  if [[ $flush_us != 0 ]]; then
    disk_flush_us=$flush_us
    workload_c "full+${flush_us}us" full 1
    disk_flush_us=0
  fi
  reads_and_size
  python3 "$here/sqlite/table_c.py" "$results" --seconds "$run_seconds" --connections "$connections" \
    --read-events "$read_events"
}

main "$@"
