#!/usr/bin/env bash
# Workload A (BENCH.md) against the database-server backends (mysql,
# postgres) with pool_size 8, each through one mnemod and through two mnemods
# sharing the database (wrk's connections split between them), next to the
# sqlite backend (synchronous normal) in the same run, alternating all of
# them round by round, medians of BENCH_ROUNDS. The servers are private ones
# (tests/mysql_fixture/mariadb.sh, tests/postgres_fixture/postgres.sh), each
# durable within about a second (MariaDB innodb_flush_log_at_trx_commit=2,
# PostgreSQL synchronous_commit off with fsync on), as sqlite normal is
# durable per checkpoint. A manual tool: never run in CI.
# Settings (environment): BENCH_SERVERS ("mysql postgres"), BENCH_SECONDS (30),
# BENCH_ROUNDS (3), BENCH_CONNECTIONS (50), BENCH_THREADS (2), BENCH_POOL (8),
# BENCH_BUILD_DIR (build-bench; needs daemon/mnemod, plugins/mnemo_sqlite.so
# and the plugins of BENCH_SERVERS), BENCH_KEEP=1 keeps the work folder.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build_dir=${BENCH_BUILD_DIR:-$root/build-bench}
run_seconds=${BENCH_SECONDS:-30}
rounds=${BENCH_ROUNDS:-3}
connections=${BENCH_CONNECTIONS:-50}
wrk_threads=${BENCH_THREADS:-2}
pool=${BENCH_POOL:-8}
servers=${BENCH_SERVERS:-mysql postgres}

work=$(mktemp -d /tmp/mnemo-bench-servers.XXXXXX)
results=$work/results.tsv
pids=()
started_port=""

bench_name=bench-servers
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
  end_mysql
  end_postgres "$status"
  remove_unless_kept "$status" "$work" "logs and raw outputs"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

require_tools() {
  local tool server plugin targets="mnemod mnemo_sqlite"
  for tool in wrk python3 curl; do
    command -v "$tool" >/dev/null || fail "$tool not found; install it (Debian: apt-get install wrk python3 curl)"
  done
  for server in $servers; do
    [[ $server == mysql || $server == postgres ]] || fail "BENCH_SERVERS: $server is not mysql or postgres"
    targets+=" mnemo_$server"
  done
  local build="cmake -S $root -B $build_dir -DCMAKE_BUILD_TYPE=Release -DMNEMO_TESTS=OFF"
  build+=" && cmake --build $build_dir --target $targets"
  for plugin in sqlite $servers; do
    [[ -x $build_dir/daemon/mnemod && -f $build_dir/plugins/mnemo_$plugin.so ]] ||
      fail "mnemod or plugins/mnemo_$plugin.so not found in $build_dir; build them: $build"
  done
}


storage_yaml() {  # sqlite|mysql|postgres folder
  case $1 in
    sqlite) printf '  plugin: sqlite\n  options: {path: %s/mnemo.db, synchronous: normal}\n' "$2" ;;
    mysql) printf '  plugin: mysql\n  options: %s\n' "$(mysql_options bench "$pool")" ;;
    postgres)
      printf '  plugin: postgres\n  options: {host: "%s", port: 5432, user: postgres, dbname: bench, pool_size: %s}\n' \
        "$postgres_dir" "$pool" ;;
  esac
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
run_two() {  # backend round
  local a b out_a=$work/wrk-two-a-$1-$2.txt out_b=$work/wrk-two-b-$1-$2.txt
  start_daemon "$1" "$work/two-a-$1-$2"
  a=$started_port
  start_daemon "$1" "$work/two-b-$1-$2"
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
  record "$1-two" "$2" "$rps" "$p50" "$p99" $(($(errors_of "$out_a") + $(errors_of "$out_b")))
}

main() {
  require_tools
  local round server
  if [[ " $servers " == *" mysql "* ]]; then
    start_mysql "$work/mariadb" bench
  fi
  if [[ " $servers " == *" postgres "* ]]; then
    start_postgres bench
  fi
  for round in $(seq "$rounds"); do
    log "round $round/$rounds: sqlite, then one and two daemons on each of: $servers (${run_seconds} s each)"
    run_one sqlite "$round"
    for server in $servers; do
      run_one "$server" "$round"
      run_two "$server" "$round"
    done
  done
  python3 - "$results" "$run_seconds" "$connections" "$pool" $servers <<'PY'
import statistics, sys
from collections import defaultdict
path, seconds, connections, pool, *servers = sys.argv[1:]
rows = defaultdict(list)
for line in open(path):
    setup, _round, rps, p50, p99, errors = line.split("\t")
    rows[setup].append((float(rps), float(p50) / 1000, float(p99) / 1000, int(errors)))
med = lambda setup, i: statistics.median(r[i] for r in rows[setup])
base = med("sqlite", 0)
print(f"Workload A, {connections} connections, {seconds} s runs, server pool_size {pool}; medians")
print("| setup | req/s | ratio to sqlite | p50 ms | p99 ms | errors |")
print("|---|---|---|---|---|---|")
setups = [("sqlite", "sqlite (normal), one mnemod")]
for server in servers:
    setups += [(server, f"{server}, one mnemod"), (f"{server}-two", f"{server}, two mnemods")]
for setup, name in setups:
    print(f"| {name} | {med(setup, 0):,.0f} | {med(setup, 0) / base:.2f} | {med(setup, 1):.2f} | {med(setup, 2):.2f} "
          f"| {sum(r[3] for r in rows[setup])} |")
PY
}

main "$@"
