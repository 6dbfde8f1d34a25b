#!/usr/bin/env bash
# BENCH.md workload F: workload A (append one ~500-byte event to one of 1,000
# sessions, 50 keep-alive connections) against mnemod on the memory backend
# with 0, 1 and 10 trivial Lua append hooks. One daemon per hook count; the
# three are measured in alternation, BENCH_ROUNDS rounds, medians reported
# with the ratio of each to 0 hooks. Manual tool: nothing asserts a duration.
# Settings: BENCH_SECONDS (30), BENCH_ROUNDS (3), BENCH_CONNECTIONS (50),
# BENCH_THREADS (2), BENCH_BUILD_DIR (build-bench), BENCH_KEEP=1 keeps the work folder.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
bench=$(cd "$here/.." && pwd)
root=$(cd "$here/../../.." && pwd)
build_dir=${BENCH_BUILD_DIR:-$root/build-bench}
run_seconds=${BENCH_SECONDS:-30}
rounds=${BENCH_ROUNDS:-3}
connections=${BENCH_CONNECTIONS:-50}
wrk_threads=${BENCH_THREADS:-2}
hook_counts=(0 1 10)

work=$(mktemp -d /tmp/mnemo-bench-f.XXXXXX)
declare -A pids ports

log() { printf '[bench F] %s\n' "$*" >&2; }
fail() { log "error: $*"; exit 1; }

cleanup() {
  local status=$?
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  if [[ $status -ne 0 || ${BENCH_KEEP:-0} == 1 ]]; then log "work folder kept: $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# scripts/hooks/ with n copies of the trivial hook; summaries off so only hooks differ.
start_daemon() {
  local n=$1 dir=$work/hooks-$1 port
  mkdir -p "$dir/scripts/hooks"
  for i in $(seq "$n"); do cp "$here/trivial_hook.lua" "$dir/scripts/hooks/$(printf 'h%02d.lua' "$i")"; done
  port=$(free_port)
  cat >"$dir/mnemod.yaml" <<YAML
server:
  listen: ["127.0.0.1:$port"]
  admin_socket: $dir/admin.sock
storage:
  plugin: memory
  plugin_dir: $build_dir/plugins
summary:
  enabled: false
scripts:
  dir: $dir/scripts
log:
  level: warn
YAML
  "$build_dir/daemon/mnemod" --config "$dir/mnemod.yaml" >"$dir/mnemod.log" 2>&1 &
  pids[$n]=$!
  ports[$n]=$port
  for _ in $(seq 100); do
    curl -sf "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  fail "mnemod with $n hooks did not come up; see $dir/mnemod.log"
}

run_one() {  # hooks round
  local out=$work/wrk-$1-$2.txt
  wrk -t"$wrk_threads" -c"$connections" -d"${run_seconds}s" --latency -s "$bench/append.lua" \
    "http://127.0.0.1:${ports[$1]}" -- 1000 >"$out" 2>&1 || fail "wrk failed; see $out"
  grep '^BENCH ' "$out" | sed "s/^BENCH /hooks=$1 /" >>"$work/results.txt"
}

main() {
  command -v wrk >/dev/null || fail "wrk not found (Debian: apt-get install wrk)"
  [[ -x $build_dir/daemon/mnemod ]] || fail "$build_dir/daemon/mnemod not found; build it (Release): cmake -S $root -B $build_dir -DCMAKE_BUILD_TYPE=Release -DMNEMO_TESTS=OFF && cmake --build $build_dir --target mnemod mnemo_memory"
  for n in "${hook_counts[@]}"; do start_daemon "$n"; done
  for round in $(seq "$rounds"); do
    for n in "${hook_counts[@]}"; do
      log "round $round/$rounds: $n hook(s), ${run_seconds} s"
      run_one "$n" "$round"
    done
  done
  python3 - "$work/results.txt" "$run_seconds" "$connections" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    fields = dict(kv.split("=") for kv in line.split())
    rows.setdefault(int(fields["hooks"]), []).append(fields)
def median(n, key):
    return statistics.median(float(r[key]) for r in rows[n])
base = median(0, "rps")
print(f"Workload F: append, memory backend, {sys.argv[2]} s x {len(rows[0])} rounds, {sys.argv[3]} connections (medians)")
print(f"{'hooks':>5} {'req/s':>10} {'p50 ms':>8} {'p99 ms':>8} {'p99.9 ms':>9} {'errors':>7} {'ratio':>6}")
for n in sorted(rows):
    errors = sum(int(r["non2xx"]) + int(r["socket_errors"]) for r in rows[n])
    print(f"{n:>5} {median(n, 'rps'):>10.0f} {median(n, 'p50_us') / 1000:>8.2f} {median(n, 'p99_us') / 1000:>8.2f} "
          f"{median(n, 'p999_us') / 1000:>9.2f} {errors:>7} {median(n, 'rps') / base:>6.2f}")
PY
}

main "$@"
