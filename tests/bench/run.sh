#!/usr/bin/env bash
# Runs BENCH.md workloads A (append) and B (read newest 50) against mnemod on
# the memory backend and against redis-server as the reference measured in the
# same run, alternating the two, and prints one table of medians. With
# BENCH_STORAGE=sqlite, mnemod runs on sqlite (synchronous normal) and redis
# with appendonly yes, appendfsync everysec, as BENCH.md pairs them.
# Settings (environment): BENCH_STORAGE (memory), BENCH_SECONDS (30), BENCH_ROUNDS (3),
# BENCH_CONNECTIONS (50), BENCH_THREADS (2, wrk threads), BENCH_WORKLOADS ("A B"),
# BENCH_READ_SESSIONS (1000; sessions pre-filled with 1,000 events for B),
# BENCH_BUILD_DIR (build-bench), BENCH_KEEP=1 keeps the work folder.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build_dir=${BENCH_BUILD_DIR:-$root/build-bench}
run_seconds=${BENCH_SECONDS:-30}
rounds=${BENCH_ROUNDS:-3}
connections=${BENCH_CONNECTIONS:-50}
wrk_threads=${BENCH_THREADS:-2}
workloads=${BENCH_WORKLOADS:-"A B"}
read_sessions=${BENCH_READ_SESSIONS:-1000}
storage=${BENCH_STORAGE:-memory}
[[ $storage == memory || $storage == sqlite ]] || { echo "BENCH_STORAGE must be memory or sqlite" >&2; exit 64; }
append_sessions=1000
events_per_session=1000
redis_value=$(printf 'v%.0s' $(seq 500))

work=$(mktemp -d /tmp/mnemo-bench.XXXXXX)
results=$work/results.tsv
mnemod_pid=""
redis_pid=""

bench_name=bench
# shellcheck source=common.sh
source "$here/common.sh"

stop_servers() {
  local status=$?
  for pid in $mnemod_pid $redis_pid; do
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  if [[ $status -ne 0 || ${BENCH_KEEP:-0} == 1 ]]; then
    log "logs and raw outputs kept in $work"
  else
    rm -rf "$work"
  fi
}
trap stop_servers EXIT
trap 'exit 130' INT TERM


require_tools() {
  local tool
  for tool in wrk redis-server redis-benchmark redis-cli python3 curl; do
    command -v "$tool" >/dev/null || fail "$tool not found; install it (Debian: apt-get install wrk redis-server python3 curl)"
  done
  [[ -x $build_dir/daemon/mnemod ]] ||
    fail "$build_dir/daemon/mnemod not found; build it: cmake -S $root -B $build_dir -DCMAKE_BUILD_TYPE=Release -DMNEMO_TESTS=OFF && cmake --build $build_dir --target mnemod mnemo_memory"
}

# BENCH_STORAGE's backend, loopback only, no hooks (empty scripts folder)
# and no summaries: the reference does neither, and workload F measures hooks.
write_mnemod_config() {
  mkdir -p "$work/scripts"
  cat >"$work/mnemod.yaml" <<EOF
server:
  listen: ["127.0.0.1:$1"]
  admin_socket: $work/admin.sock
storage:
  plugin: $storage
  plugin_dir: $build_dir/plugins
  options: $([[ $storage == sqlite ]] && echo "{path: $work/mnemo.db, synchronous: normal}" || echo "{}")
summary:
  enabled: false
scripts:
  dir: $work/scripts
log:
  level: warn
EOF
}

wait_until() {
  local what=$1; shift
  for _ in $(seq 100); do
    "$@" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  fail "$what did not come up within 10 s; see the logs in $work"
}

start_mnemod() {
  mnemod_port=$(free_port)
  write_mnemod_config "$mnemod_port"
  "$build_dir/daemon/mnemod" --config "$work/mnemod.yaml" >"$work/mnemod.log" 2>&1 &
  mnemod_pid=$!
  wait_until "mnemod on port $mnemod_port" curl -sf "http://127.0.0.1:$mnemod_port/v1/info"
  log "mnemod pid $mnemod_pid on 127.0.0.1:$mnemod_port"
}

start_redis() {
  redis_port=$(free_port)
  local persistence=(--appendonly no)
  [[ $storage == sqlite ]] && persistence=(--appendonly yes --appendfsync everysec)
  redis-server --port "$redis_port" --bind 127.0.0.1 --save "" "${persistence[@]}" \
    --dir "$work" --logfile "$work/redis.log" &
  redis_pid=$!
  wait_until "redis-server on port $redis_port" redis-cli -p "$redis_port" ping
  log "redis-server pid $redis_pid on 127.0.0.1:$redis_port"
}

# Peak RSS is per workload: the high-water mark is reset when a workload starts.
reset_peak_rss() { echo 5 >"/proc/$1/clear_refs" 2>/dev/null || log "cannot reset the peak RSS of pid $1; VmHWM covers the whole run"; }
peak_rss_kb() { awk '/^VmHWM:/ {print $2}' "/proc/$1/status"; }
# CPU time (user + system, all threads) in clock ticks: on a shared machine the
# server's CPU per request is steadier than requests/s.
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
clock_ticks_per_second=$(getconf CLK_TCK)

# --- one measured run of each system; each appends one row to $results ------

run_mnemod() {  # workload round script sessions
  local out=$work/wrk-$1-$2.txt ticks_before
  ticks_before=$(cpu_ticks "$mnemod_pid")
  wrk -t"$wrk_threads" -c"$connections" -d"${run_seconds}s" --latency -s "$here/$3" \
    "http://127.0.0.1:$mnemod_port" -- "$4" >"$out" 2>&1 || fail "wrk failed; see $out"
  local line
  line=$(grep '^BENCH ' "$out") || fail "no result line in $out"
  awk -v w="$1" -v r="$2" -v rss="$(peak_rss_kb "$mnemod_pid")" -v hz="$clock_ticks_per_second" \
      -v ticks="$(($(cpu_ticks "$mnemod_pid") - ticks_before))" '{
      for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
      printf "%s\tmnemod\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t%.1f\n", w, r, f["rps"], f["p50_us"], f["p99_us"],
             f["p999_us"], f["non2xx"] + f["socket_errors"], rss, ticks * 1e6 / hz / f["requests"] }' <<<"$line" >>"$results"
}

redis_bench() {  # requests sessions command...
  local requests=$1 sessions=$2; shift 2
  redis-benchmark -h 127.0.0.1 -p "$redis_port" -c "$connections" -P 1 -r "$sessions" \
    -n "$requests" --precision 3 "$@"
}

# redis-benchmark stops after a request count, not a time: size the count from
# a short calibration run so each run lasts about BENCH_SECONDS.
calibrate_redis() {  # sessions command...
  local rps
  rps=$(redis_bench 50000 "$@" | tr '\r' '\n' | awk '/throughput summary:/ {print int($3)}')
  [[ -n $rps ]] || fail "redis-benchmark calibration printed no throughput"
  echo $((rps * run_seconds))
}

run_redis() {  # workload round requests sessions command...
  local out=$work/redis-$1-$2.txt workload=$1 round=$2 requests=$3 ticks_before
  shift 2
  ticks_before=$(cpu_ticks "$redis_pid")
  redis_bench "$@" 2>&1 | tr '\r' '\n' >"$out" || fail "redis-benchmark failed; see $out"
  awk -v w="$workload" -v r="$round" -v rss="$(peak_rss_kb "$redis_pid")" -v hz="$clock_ticks_per_second" \
      -v ticks="$(($(cpu_ticks "$redis_pid") - ticks_before))" -v requests="$requests" '
      /^Latency by percentile distribution:/ { dist = 1; next }
      dist && /^$/ { dist = 0 }
      dist && p999 == "" { pct = $1; sub("%", "", pct); if (pct + 0 >= 99.9) p999 = $3 * 1000 }
      /Error from server/ { errors++ }
      /throughput summary:/ { rps = $3 }
      summary_next { p50 = $3 * 1000; p99 = $5 * 1000; summary_next = 0 }
      /avg +min +p50 +p95 +p99 +max/ { summary_next = 1 }
      END { if (rps == "") exit 1
            printf "%s\tredis\t%s\t%s\t%d\t%d\t%d\t%d\t%s\t%.1f\n", w, r, rps, p50, p99, p999, errors, rss,
                   ticks * 1e6 / hz / requests }' \
    "$out" >>"$results" || fail "cannot parse $out"
}

# --- workloads ----------------------------------------------------------------

alternate_rounds() {  # workload wrk-script sessions redis-command...
  local workload=$1 script=$2 sessions=$3; shift 3
  local requests round
  requests=$(calibrate_redis "$sessions" "$@")
  for round in $(seq "$rounds"); do
    log "workload $workload round $round/$rounds: redis ($requests requests), then mnemod (${run_seconds} s)"
    run_redis "$workload" "$round" "$requests" "$sessions" "$@"
    run_mnemod "$workload" "$round" "$script" "$sessions"
  done
}

workload_a() {
  reset_peak_rss "$mnemod_pid"; reset_peak_rss "$redis_pid"
  alternate_rounds A append.lua "$append_sessions" RPUSH key:__rand_int__ "$redis_value"
}

# A's lists grow without bound in redis: drop them and hand the memory back to
# the OS before B, so B's peak RSS is B's own.
flush_redis() {
  redis-cli -p "$redis_port" flushall >/dev/null
  redis-cli -p "$redis_port" memory purge >/dev/null
}

prefill_for_reads() {
  log "pre-filling $read_sessions sessions x $events_per_session events in mnemod and redis"
  python3 "$here/prefill.py" "http://127.0.0.1:$mnemod_port" --sessions "$read_sessions" \
    --events "$events_per_session" >&2 || fail "mnemod prefill failed"
  python3 "$here/redis_prefill.py" --sessions "$read_sessions" --items "$events_per_session" |
    redis-cli -p "$redis_port" --pipe >"$work/redis-prefill.txt" || fail "redis prefill failed; see $work/redis-prefill.txt"
}

workload_b() {
  flush_redis
  reset_peak_rss "$mnemod_pid"; reset_peak_rss "$redis_pid"
  prefill_for_reads
  alternate_rounds B read.lua "$read_sessions" LRANGE key:__rand_int__ -50 -1
}

main() {
  require_tools
  start_mnemod
  start_redis
  local workload
  for workload in $workloads; do
    case $workload in
      A) workload_a ;;
      B) workload_b ;;
      *) fail "unknown workload '$workload' in BENCH_WORKLOADS; known: A B" ;;
    esac
  done
  local compared="memory backend vs redis-server, no persistence"
  [[ $storage == sqlite ]] && compared="sqlite backend, synchronous normal, vs redis-server, appendfsync everysec"
  python3 "$here/table.py" "$results" --seconds "$run_seconds" --connections "$connections" \
    --read-sessions "$read_sessions" --storage "$compared"
}

main "$@"
