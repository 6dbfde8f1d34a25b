#!/usr/bin/env bash
# Runs BENCH.md workload E: search over BENCH_EVENTS (1,000,000) events of
# realistic text (search/fill_search.py: English sentences with paths, URLs,
# commands, identifiers and tool calls; 100 events per session), filled
# through mnemod's HTTP API, on the sqlite and the memory backend. Measures
# p50/p99 of a word query (`rollback`, in ~1 event of 1,000) and of a path
# query (`/etc/nginx/nginx.conf`, ~1 of 2,000), limit=10&context=1, one
# connection, BENCH_ROUNDS rounds each; for sqlite also the size of the
# search index (FTS5 tables, by dbstat) against the rest of the database.
# Then the cost of indexing on workload A: append.lua (50 connections) on a
# fresh sqlite database as shipped, alternating with the same backend built
# to store events without indexing them (mnemo_sqlite_unindexed.so, whose
# inserts skip the search backlog) on a database whose search triggers were
# dropped (search/drop_search_triggers.py). Prints one table of medians. A
# manual tool: never run in CI.
# Settings (environment): BENCH_EVENTS (1000000), BENCH_SECONDS (10, per
# query run), BENCH_A_SECONDS (30, per append run), BENCH_ROUNDS (3),
# BENCH_CONNECTIONS (50, workload A), BENCH_THREADS (2, wrk threads for A),
# BENCH_FILL_CONNECTIONS (2), BENCH_BACKENDS ("sqlite memory"),
# BENCH_PARTS ("queries indexing": either alone runs one half),
# BENCH_BUILD_DIR (build-bench-e; needs daemon/mnemod and the plugins),
# BENCH_KEEP=1 keeps the work folder.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build_dir=${BENCH_BUILD_DIR:-$root/build-bench-e}
events=${BENCH_EVENTS:-1000000}
query_seconds=${BENCH_SECONDS:-10}
append_seconds=${BENCH_A_SECONDS:-30}
rounds=${BENCH_ROUNDS:-3}
connections=${BENCH_CONNECTIONS:-50}
wrk_threads=${BENCH_THREADS:-2}
fill_connections=${BENCH_FILL_CONNECTIONS:-2}
backends=${BENCH_BACKENDS:-sqlite memory}
parts=${BENCH_PARTS:-queries indexing}

word_query="/v1/apps/bench/search?q=rollback&limit=10&context=1"
path_query="/v1/apps/bench/search?q=%2Fetc%2Fnginx%2Fnginx.conf&limit=10&context=1"

work=$(mktemp -d /tmp/mnemo-bench-e.XXXXXX)
results=$work/results.tsv
mnemod_pid=""

bench_name=bench-e
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
  local tool plugin
  for tool in wrk python3 curl; do
    command -v "$tool" >/dev/null || fail "$tool not found; install it (Debian: apt-get install wrk python3 curl)"
  done
  local plugins=$backends
  [[ " $parts " == *" indexing "* && " $backends " == *" sqlite "* ]] && plugins+=" sqlite_unindexed"
  for plugin in $plugins; do
    [[ -x $build_dir/daemon/mnemod && -f $build_dir/plugins/mnemo_$plugin.so ]] ||
      fail "$build_dir/daemon/mnemod or plugins/mnemo_$plugin.so not found; build them: cmake -S $root -B $build_dir -DCMAKE_BUILD_TYPE=Release -DMNEMO_TESTS=OFF -DMNEMO_BENCH=ON && cmake --build $build_dir --target mnemod mnemo_sqlite mnemo_sqlite_unindexed mnemo_memory"
  done
}

# Loopback only, no hooks (empty scripts folder), no summaries, no eviction.
write_mnemod_config() {  # folder port plugin
  local options="{}" plugin=$3
  [[ $3 == sqlite* ]] && options="{path: $1/mnemo.db, synchronous: normal}"
  [[ $3 == sqlite_unindexed ]] && plugin=$build_dir/plugins/mnemo_sqlite_unindexed.so  # not a built-in name
  mkdir -p "$1/scripts"
  cat >"$1/mnemod.yaml" <<EOF_CONFIG
server:
  listen: ["127.0.0.1:$2"]
  idle_timeout: 3s
  admin_socket: $1/admin.sock
storage:
  plugin: $plugin
  plugin_dir: $build_dir/plugins
  options: $options
limits:
  event_limit: 0
summary:
  enabled: false
scripts:
  dir: $1/scripts
log:
  level: warn
EOF_CONFIG
}

start_mnemod() {  # folder plugin
  mnemod_port=$(free_port)
  write_mnemod_config "$1" "$mnemod_port" "$2"
  "$build_dir/daemon/mnemod" --config "$1/mnemod.yaml" >>"$1/mnemod.log" 2>&1 &
  mnemod_pid=$!
  for _ in $(seq 300); do
    curl -sf "http://127.0.0.1:$mnemod_port/readyz" >/dev/null 2>&1 && {
      log "mnemod pid $mnemod_pid on 127.0.0.1:$mnemod_port ($2)"
      return 0
    }
    sleep 0.1
  done
  fail "mnemod did not become ready within 30 s; see $1/mnemod.log"
}

stop_mnemod() {
  [[ -n $mnemod_pid ]] || return 0
  kill "$mnemod_pid" 2>/dev/null || true
  wait "$mnemod_pid" 2>/dev/null || true
  mnemod_pid=""
}


run_wrk() {  # output seconds threads connections script url args...
  local out=$1 seconds=$2 threads=$3 conns=$4 script=$5 url=$6; shift 6
  wrk -t"$threads" -c"$conns" -d"${seconds}s" --latency -s "$script" "$url" -- "$@" >"$out" 2>&1 ||
    fail "wrk failed; see $out"
  grep -q '^BENCH ' "$out" || fail "no result line in $out"
}


# --- search latency ----------------------------------------------------------

# The answer must hold results, or the latency measures an empty search.
check_found() {  # query
  local body
  body=$(curl -sf "http://127.0.0.1:$mnemod_port$1") || fail "GET $1 failed"
  [[ $body == *'"hits":[{'* ]] || fail "GET $1 found nothing: ${body:0:300}"
}

run_query() {  # backend word|path path round
  local out=$work/query-$1-$2-$4.txt
  run_wrk "$out" "$query_seconds" 1 1 "$here/search/query.lua" "http://127.0.0.1:$mnemod_port" "$3"
  printf 'query\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$4" "$(bench_field "$out" p50_us)" \
    "$(bench_field "$out" p99_us)" "$(bench_field "$out" rps)" "$(errors_of "$out")" >>"$results"
}

workload_e() {  # backend
  local folder=$work/e-$1 round started
  start_mnemod "$folder" "$1"
  log "$1: filling $events events through the HTTP API"
  started=$(date +%s)
  python3 "$here/search/fill_search.py" "http://127.0.0.1:$mnemod_port" --events "$events" \
    --connections "$fill_connections" || fail "filling $1 failed"
  printf 'fill\t%s\t%s\t%s\n' "$1" "$events" "$(($(date +%s) - started))" >>"$results"
  check_found "$word_query"
  check_found "$path_query"
  for round in $(seq "$rounds"); do
    log "$1, round $round/$rounds: word query, then path query (${query_seconds} s each)"
    run_query "$1" word "$word_query" "$round"
    run_query "$1" path "$path_query" "$round"
  done
  stop_mnemod  # a clean stop checkpoints the WAL into the file
  if [[ $1 == sqlite ]]; then
    printf 'size\tsqlite\t%s\n' "$(python3 "$here/search/db_sizes.py" "$folder/mnemo.db")" >>"$results"
  fi
  rm -rf "$folder"
}

# --- the cost of indexing on workload A ----------------------------------------

prepare_unindexed() {  # folder
  start_mnemod "$1" sqlite_unindexed  # creates the database at the current schema
  stop_mnemod
  python3 "$here/search/drop_search_triggers.py" "$1/mnemo.db" || fail "dropping the FTS triggers failed"
}

run_append() {  # indexed|unindexed folder round
  local out=$work/append-$1-$3.txt plugin=sqlite
  [[ $1 == unindexed ]] && plugin=sqlite_unindexed
  start_mnemod "$2" "$plugin"
  run_wrk "$out" "$append_seconds" "$wrk_threads" "$connections" "$here/append.lua" \
    "http://127.0.0.1:$mnemod_port" 1000
  stop_mnemod
  printf 'append\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$3" "$(bench_field "$out" rps)" "$(bench_field "$out" p50_us)" \
    "$(bench_field "$out" p99_us)" "$(errors_of "$out")" >>"$results"
}

indexing_cost() {
  local round
  prepare_unindexed "$work/a-unindexed"
  for round in $(seq "$rounds"); do
    log "workload A, round $round/$rounds: sqlite with the search index, then without (${append_seconds} s each)"
    run_append indexed "$work/a-indexed" "$round"
    run_append unindexed "$work/a-unindexed" "$round"
  done
}

main() {
  require_tools
  local backend
  if [[ " $parts " == *" queries "* ]]; then
    for backend in $backends; do workload_e "$backend"; done
  fi
  if [[ " $parts " == *" indexing "* && " $backends " == *" sqlite "* ]]; then indexing_cost; fi
  python3 "$here/search/table_e.py" "$results" --events "$events" --seconds "$query_seconds" \
    --append-seconds "$append_seconds" --connections "$connections"
}

main "$@"
