#!/usr/bin/env bash
# Runs BENCH.md workload D: the expiry sweep of the sqlite backend with
# 1,000,000 sessions of which 0.1%, 1% and 10% are expired. For each share:
# the time of one full sweep (expire + finalize pass, from mnemod's own
# "expiry sweep done" log line), the longest event-loop stall during the run
# (mnemo_loop_busy_max_seconds), and the p99 of workload A (wrk, append.lua)
# while the sweep runs, against the same run on the same database with the
# sweep not due (alternated, medians). A manual tool: never run in CI.
# Settings (environment): BENCH_SESSIONS (1000000), BENCH_SHARES ("0.001 0.01 0.1"),
# BENCH_SECONDS (20, one wrk run), BENCH_ROUNDS (3), BENCH_CONNECTIONS (50),
# BENCH_THREADS (2), BENCH_BUDGET (5ms, sweep.budget), BENCH_BUILD_DIR
# (build-bench; needs daemon/mnemod and plugins/mnemo_sqlite.so),
# BENCH_KEEP=1 keeps the work folder.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build_dir=${BENCH_BUILD_DIR:-$root/build-bench}
total_sessions=${BENCH_SESSIONS:-1000000}
shares=${BENCH_SHARES:-"0.001 0.01 0.1"}
run_seconds=${BENCH_SECONDS:-20}
rounds=${BENCH_ROUNDS:-3}
connections=${BENCH_CONNECTIONS:-50}
wrk_threads=${BENCH_THREADS:-2}
budget=${BENCH_BUDGET:-5ms}
sweep_after=3  # seconds from start to the first sweep

work=$(mktemp -d /tmp/mnemo-bench-d.XXXXXX)
results=$work/results.tsv
mnemod_pid=""

bench_name=bench-d
# shellcheck source=common.sh
source "$here/common.sh"

stop_mnemod() {
  [[ -n $mnemod_pid ]] || return 0
  kill "$mnemod_pid" 2>/dev/null || true
  wait "$mnemod_pid" 2>/dev/null || true
  mnemod_pid=""
}

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
  for tool in wrk python3 curl sqlite3; do
    command -v "$tool" >/dev/null || fail "$tool not found; install it (Debian: apt-get install wrk python3 curl sqlite3)"
  done
  [[ -x $build_dir/daemon/mnemod && -f $build_dir/plugins/mnemo_sqlite.so ]] ||
    fail "$build_dir/daemon/mnemod or plugins/mnemo_sqlite.so not found; build them: cmake -S $root -B $build_dir -DCMAKE_BUILD_TYPE=Release -DMNEMO_TESTS=OFF && cmake --build $build_dir --target mnemod mnemo_sqlite"
}


write_config() {  # folder port interval
  mkdir -p "$1/scripts"
  cat >"$1/mnemod.yaml" <<YAML
server:
  listen: ["127.0.0.1:$2"]
  idle_timeout: 3s
  admin_socket: $1/admin.sock
storage:
  plugin: sqlite
  plugin_dir: $build_dir/plugins
  options: {path: $1/mnemo.db, synchronous: normal}
limits:
  event_limit: 1000
summary:
  enabled: false
scripts:
  dir: $1/scripts
sweep:
  interval: $3
  budget: $budget
log:
  level: info
YAML
}

start_mnemod() {  # folder interval
  mnemod_port=$(free_port)
  write_config "$1" "$mnemod_port" "$2"
  "$build_dir/daemon/mnemod" --config "$1/mnemod.yaml" >"$1/mnemod.log" 2>&1 &
  mnemod_pid=$!
  for _ in $(seq 300); do
    curl -sf "http://127.0.0.1:$mnemod_port/readyz" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  fail "mnemod did not become ready within 30 s; see $1/mnemod.log"
}

metric() {  # name
  curl -sf "http://127.0.0.1:$mnemod_port/metrics" | awk -v m="$1" '$1 == m {print $2}'
}

# One database of $total_sessions sessions (no events), made by mnemod's own
# schema and then filled by sqlite3: every session has a TTL in the future.
make_base() {
  local folder=$work/base
  start_mnemod "$folder" 1h
  stop_mnemod
  local now_us=$(($(date +%s) * 1000000))
  log "filling $total_sessions sessions"
  sqlite3 "$folder/mnemo.db" <<SQL
PRAGMA journal_mode=WAL;
BEGIN;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $total_sessions)
INSERT INTO sessions (app, user, id, created_at, updated_at, expires_at, ttl_us)
SELECT 'sweep', 'u' || (i % 10000), 's' || i, $now_us, $now_us - i, $now_us + 86400000000, 86400000000 FROM n;
COMMIT;
PRAGMA wal_checkpoint(TRUNCATE);
SQL
  base_db=$folder/mnemo.db
}

# A copy of the base where the first share of sessions expired an hour ago.
prepare_copy() {  # folder share
  mkdir -p "$1"
  cp "$base_db" "$1/mnemo.db"
  local expired
  expired=$(python3 -c "print(int($total_sessions * $2))")
  local past_us=$((($(date +%s) - 3600) * 1000000))
  sqlite3 "$1/mnemo.db" "UPDATE sessions SET expires_at = $past_us WHERE sid <= $expired;"
  echo "$expired"
}

run_a() {  # out
  wrk -t"$wrk_threads" -c"$connections" -d"${run_seconds}s" --latency -s "$here/append.lua" \
    "http://127.0.0.1:$mnemod_port" -- 1000 >"$1" 2>&1 || fail "wrk failed; see $1"
  grep -q '^BENCH ' "$1" || fail "no result line in $1"
}


sweep_ms() {  # log
  { grep -o 'expiry sweep done in [0-9.]* ms' "$1" || true; } | head -1 | awk '{print $5}'
}

# The same database twice: once with the sweep due $sweep_after s into the
# wrk run, once with no sweep due during it.
one_round() {  # share round
  local folder=$work/d-$1-$2 mode
  for mode in sweep quiet; do
    local expired out=$work/wrk-$1-$2-$mode.txt
    rm -rf "$folder"
    expired=$(prepare_copy "$folder" "$1")
    if [[ $mode == sweep ]]; then start_mnemod "$folder" "${sweep_after}s"; else start_mnemod "$folder" 1h; fi
    run_a "$out"
    local ms="" stall
    if [[ $mode == sweep ]]; then
      for _ in $(seq 600); do
        ms=$(sweep_ms "$folder/mnemod.log")
        [[ -n $ms ]] && break
        sleep 0.5
      done
      [[ -n $ms ]] || fail "no finished sweep in $folder/mnemod.log"
    fi
    stall=$(metric mnemo_loop_busy_max_seconds)
    stop_mnemod
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$expired" "$mode" "$2" "${ms:-0}" "$stall" \
      "$(bench_field "$out" p99_us)" "$(bench_field "$out" rps)" >>"$results"
  done
}

main() {
  require_tools
  make_base
  local share round
  for share in $shares; do
    for round in $(seq "$rounds"); do
      log "share $share, round $round/$rounds"
      one_round "$share" "$round"
    done
  done
  python3 "$here/sweep/table_d.py" "$results" --sessions "$total_sessions" --budget "$budget"
}

main "$@"
