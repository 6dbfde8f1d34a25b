#!/usr/bin/env bash
# Mixed workload on the sqlite backend (synchronous normal): appends
# (append.lua), state patches (patch.lua), memory writes (memory_write.lua)
# and reads of the newest 50 events (read.lua) at once, four wrk processes
# against one mnemod, on BENCH_SESSIONS
# sessions pre-filled with BENCH_EVENTS events each. Compares two builds in one
# run, alternating them each round: BENCH_OLD_BUILD_DIR (before) and
# BENCH_BUILD_DIR (after; build-bench). Prints the medians of each kind's
# req/s and of the reads' p99. A manual tool: never run in CI.
# Settings (environment): BENCH_SECONDS (20), BENCH_ROUNDS (3),
# BENCH_APPEND_CONNECTIONS (20), BENCH_PATCH_CONNECTIONS (20),
# BENCH_MEMORY_CONNECTIONS (10; 0 leaves memory writes out), BENCH_READ_CONNECTIONS (10), BENCH_SESSIONS (1000), BENCH_EVENTS (60),
# BENCH_KEEP=1 keeps the work folder.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
new_build=${BENCH_BUILD_DIR:-$root/build-bench}
old_build=${BENCH_OLD_BUILD_DIR:-}
run_seconds=${BENCH_SECONDS:-20}
rounds=${BENCH_ROUNDS:-3}
append_connections=${BENCH_APPEND_CONNECTIONS:-20}
patch_connections=${BENCH_PATCH_CONNECTIONS:-20}
memory_connections=${BENCH_MEMORY_CONNECTIONS:-10}
read_connections=${BENCH_READ_CONNECTIONS:-10}
sessions=${BENCH_SESSIONS:-1000}
events=${BENCH_EVENTS:-60}

work=$(mktemp -d /tmp/mnemo-bench-mixed.XXXXXX)
results=$work/results.tsv
mnemod_pid=""

bench_name=bench-mixed
# shellcheck source=common.sh
source "$here/common.sh"

stop_mnemod() {
  if [[ -n $mnemod_pid ]]; then
    kill -TERM "$mnemod_pid" 2>/dev/null || true
    wait "$mnemod_pid" 2>/dev/null || true
    mnemod_pid=""
  fi
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

for tool in wrk python3 curl; do
  command -v "$tool" >/dev/null || fail "$tool not found; install it (Debian: apt-get install wrk python3 curl)"
done
[[ -n $old_build ]] || fail "set BENCH_OLD_BUILD_DIR to the build to compare against (daemon/mnemod, plugins/mnemo_sqlite.so)"
for build in "$old_build" "$new_build"; do
  [[ -x $build/daemon/mnemod && -f $build/plugins/mnemo_sqlite.so ]] ||
    fail "$build/daemon/mnemod or plugins/mnemo_sqlite.so not found; build the targets mnemod mnemo_sqlite there"
done

start_mnemod() {  # build folder
  local build=$1 folder=$2
  mkdir -p "$folder/scripts"
  mnemod_port=$(free_port)
  cat >"$folder/mnemod.yaml" <<YAML
server:
  listen: ["127.0.0.1:$mnemod_port"]
  idle_timeout: 3s
  admin_socket: $folder/admin.sock
storage:
  plugin: sqlite
  plugin_dir: $build/plugins
  options: {path: $folder/mnemo.db, synchronous: normal}
limits:
  event_limit: 0
summary:
  enabled: false
scripts:
  dir: $folder/scripts
log:
  level: warn
YAML
  exec "$build/daemon/mnemod" --config "$folder/mnemod.yaml" >"$folder/mnemod.log" 2>&1 &
  mnemod_pid=$!
  for _ in $(seq 100); do
    curl -sf "http://127.0.0.1:$mnemod_port/readyz" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  fail "mnemod did not become ready within 10 s; see $folder/mnemod.log"
}

# One round of one build: a fresh database, pre-filled, then the wrk
# processes together.
measure() {  # label build round
  local label=$1 build=$2 round=$3 folder=$work/$1-$3
  start_mnemod "$build" "$folder"
  python3 "$here/prefill.py" "http://127.0.0.1:$mnemod_port" --sessions "$sessions" --events "$events" >/dev/null
  local url=http://127.0.0.1:$mnemod_port
  wrk -c"$append_connections" -t1 -d"${run_seconds}s" -s "$here/append.lua" "$url" -- "$sessions" >"$folder/append.out" &
  local append_wrk=$!
  wrk -c"$patch_connections" -t1 -d"${run_seconds}s" -s "$here/patch.lua" "$url" -- "$sessions" >"$folder/patch.out" &
  local patch_wrk=$!
  local kinds=(append patch read) others=("$append_wrk" "$patch_wrk")
  if ((memory_connections > 0)); then
    wrk -c"$memory_connections" -t1 -d"${run_seconds}s" -s "$here/memory_write.lua" "$url" -- "$sessions" >"$folder/memory.out" &
    others+=($!)
    kinds+=(memory)
  fi
  wrk -c"$read_connections" -t1 -d"${run_seconds}s" --latency -s "$here/read.lua" "$url" -- "$sessions" >"$folder/read.out"
  wait "${others[@]}"
  stop_mnemod
  local kind
  for kind in "${kinds[@]}"; do
    local out=$folder/$kind.out
    [[ $(errors_of "$out") == 0 ]] || log "warning: $label round $round: $(errors_of "$out") $kind errors (see $out)"
    printf '%s\t%s\t%s\t%s\n' "$label" "$kind" "$(bench_field "$out" rps)" "$(bench_field "$out" p99_us)" >>"$results"
  done
  local memory_figure=""
  ((memory_connections > 0)) && memory_figure=" memory $(bench_field "$folder/memory.out" rps)"
  log "$label round $round: append $(bench_field "$folder/append.out" rps) patch $(bench_field "$folder/patch.out" rps)$memory_figure read $(bench_field "$folder/read.out" rps) req/s, read p99 $(bench_field "$folder/read.out" p99_us) us; load $(uptime | sed 's/.*load average: //')"
}

for round in $(seq "$rounds"); do
  measure before "$old_build" "$round"
  measure after "$new_build" "$round"
done

python3 - "$results" <<'PY'
import statistics, sys
rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1])]
def median(label, kind, column):
    return statistics.median(float(r[column]) for r in rows if r[0] == label and r[1] == kind)
print("| kind | before req/s | after req/s | before p99 ms | after p99 ms |")
print("|---|---|---|---|---|")
for kind in ("append", "patch", "memory", "read"):
    if not any(r[1] == kind for r in rows):
        continue
    print("| %s | %.0f | %.0f | %.1f | %.1f |" % (kind, median("before", kind, 2), median("after", kind, 2),
                                               median("before", kind, 3) / 1000, median("after", kind, 3) / 1000))
PY
