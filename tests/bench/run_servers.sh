#!/usr/bin/env bash
# Workload A (BENCH.md) against the mysql backend with pool_size 8 through one
# mnemod and through two mnemods sharing the database (wrk's connections split
# between them), next to the sqlite backend (synchronous normal) in the same
# run, alternating the three, medians of BENCH_ROUNDS. The MariaDB server is a
# private one in the work folder (tests/mysql_fixture/mariadb.sh), durable per
# second (innodb_flush_log_at_trx_commit=2, as sqlite normal is durable per
# checkpoint). A manual tool: never run in CI.
# Settings (environment): BENCH_SECONDS (30), BENCH_ROUNDS (3),
# BENCH_CONNECTIONS (50), BENCH_THREADS (2), BENCH_POOL (8), BENCH_BUILD_DIR
# (build-bench; needs daemon/mnemod, plugins/mnemo_sqlite.so, plugins/mnemo_mysql.so),
# BENCH_KEEP=1 keeps the work folder.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build_dir=${BENCH_BUILD_DIR:-$root/build-bench}
run_seconds=${BENCH_SECONDS:-30}
rounds=${BENCH_ROUNDS:-3}
connections=${BENCH_CONNECTIONS:-50}
wrk_threads=${BENCH_THREADS:-2}
pool=${BENCH_POOL:-8}

work=$(mktemp -d /tmp/mnemo-bench-mysql.XXXXXX)
results=$work/results.tsv
pids=()
mysql_socket=""
started_port=""

bench_name=bench-mysql
# shellcheck source=common.sh
source "$here/common.sh"

stop_daemons() {
  local pid
  for pid in "${pids[@]}"; do
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  pids=()
}

cleanup() {
  local status=$?
  stop_daemons
  [[ -n $mysql_socket ]] && "$root/tests/mysql_fixture/mariadb.sh" stop "$work/mariadb" || true
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
  for tool in wrk python3 curl mariadbd mariadb; do
    command -v "$tool" >/dev/null || fail "$tool not found; install it (Debian: apt-get install wrk python3 curl mariadb-server)"
  done
  [[ -x $build_dir/daemon/mnemod && -f $build_dir/plugins/mnemo_sqlite.so && -f $build_dir/plugins/mnemo_mysql.so ]] ||
    fail "mnemod or its sqlite/mysql plugins not found in $build_dir; build them: cmake -S $root -B $build_dir -DCMAKE_BUILD_TYPE=Release -DMNEMO_TESTS=OFF && cmake --build $build_dir --target mnemod mnemo_sqlite mnemo_mysql"
}


storage_yaml() {  # sqlite|mysql folder
  if [[ $1 == sqlite ]]; then
    printf '  plugin: sqlite\n  options: {path: %s/mnemo.db, synchronous: normal}\n' "$2"
  else
    printf '  plugin: mysql\n  options: {socket: "%s", user: root, password: "", database: bench, pool_size: %s}\n' \
      "$mysql_socket" "$pool"
  fi
}

start_daemon() {  # backend folder; sets started_port
  local port
  port=$(free_port)
  mkdir -p "$2/scripts"
  cat >"$2/mnemod.yaml" <<YAML
server:
  listen: ["127.0.0.1:$port"]
  idle_timeout: 3s
  admin_socket: $2/admin.sock
storage:
  plugin_dir: $build_dir/plugins
$(storage_yaml "$1" "$2")
limits:
  event_limit: 1000
summary:
  enabled: false
scripts:
  dir: $2/scripts
log:
  level: warn
YAML
  "$build_dir/daemon/mnemod" --config "$2/mnemod.yaml" >"$2/mnemod.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 100); do
    curl -sf "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && { started_port=$port; return 0; }
    sleep 0.1
  done
  fail "mnemod did not become ready; see $2/mnemod.log"
}


wrk_append() {  # out port connections
  wrk -t"$wrk_threads" -c"$3" -d"${run_seconds}s" --latency -s "$here/append.lua" "http://127.0.0.1:$2" -- 1000 \
    >"$1" 2>&1 || fail "wrk failed; see $1"
  grep -q '^BENCH ' "$1" || fail "no result line in $1"
}


record() {  # setup round rps p50_us p99_us errors
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >>"$results"
}

run_one() {  # backend round
  local out=$work/wrk-$1-$2.txt
  start_daemon "$1" "$work/$1-$2"
  wrk_append "$out" "$started_port" "$connections"
  stop_daemons
  record "$1" "$2" "$(bench_field "$out" rps)" "$(bench_field "$out" p50_us)" "$(bench_field "$out" p99_us)" \
    "$(errors_of "$out")"
}

# Two daemons on one database, half the connections each, at the same time.
run_two() {  # round
  local a b out_a=$work/wrk-two-a-$1.txt out_b=$work/wrk-two-b-$1.txt
  start_daemon mysql "$work/two-a-$1"
  a=$started_port
  start_daemon mysql "$work/two-b-$1"
  b=$started_port
  wrk_append "$out_a" "$a" $((connections / 2)) &
  local wrk_a=$!
  wrk_append "$out_b" "$b" $((connections - connections / 2))
  wait "$wrk_a"
  stop_daemons
  local rps p50 p99
  rps=$(python3 -c "print($(bench_field "$out_a" rps) + $(bench_field "$out_b" rps))")
  p50=$(python3 -c "print(max($(bench_field "$out_a" p50_us), $(bench_field "$out_b" p50_us)))")
  p99=$(python3 -c "print(max($(bench_field "$out_a" p99_us), $(bench_field "$out_b" p99_us)))")
  record mysql-two "$1" "$rps" "$p50" "$p99" $(($(errors_of "$out_a") + $(errors_of "$out_b")))
}

main() {
  require_tools
  mysql_socket=$("$root/tests/mysql_fixture/mariadb.sh" start "$work/mariadb" bench)
  log "MariaDB on $mysql_socket"
  local round
  for round in $(seq "$rounds"); do
    log "round $round/$rounds: sqlite, mysql one daemon, mysql two daemons (${run_seconds} s each)"
    run_one sqlite "$round"
    run_one mysql "$round"
    run_two "$round"
  done
  python3 - "$results" "$run_seconds" "$connections" "$pool" <<'PY'
import statistics, sys
from collections import defaultdict
path, seconds, connections, pool = sys.argv[1:]
rows = defaultdict(list)
for line in open(path):
    setup, _round, rps, p50, p99, errors = line.split("\t")
    rows[setup].append((float(rps), float(p50) / 1000, float(p99) / 1000, int(errors)))
med = lambda setup, i: statistics.median(r[i] for r in rows[setup])
base = med("sqlite", 0)
print(f"Workload A, {connections} connections, {seconds} s runs, mysql pool_size {pool}; medians")
print("| setup | req/s | ratio to sqlite | p50 ms | p99 ms | errors |")
print("|---|---|---|---|---|---|")
for setup, name in (("sqlite", "sqlite (normal), one mnemod"), ("mysql", "mysql, one mnemod"), ("mysql-two", "mysql, two mnemods")):
    print(f"| {name} | {med(setup, 0):,.0f} | {med(setup, 0) / base:.2f} | {med(setup, 1):.2f} | {med(setup, 2):.2f} "
          f"| {sum(r[3] for r in rows[setup])} |")
PY
}

main "$@"
