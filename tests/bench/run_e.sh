#!/usr/bin/env bash
# Runs BENCH.md workload E: search over BENCH_EVENTS (1,000,000) events of
# realistic text (search/fill_search.py: English sentences with paths, URLs,
# commands, identifiers and tool calls; 100 events per session), filled
# through mnemod's HTTP API, on the sqlite and the memory backend. Measures
# p50/p99 of a word query (`rollback`, in ~1 event of 1,000), of a path
# query (`/etc/nginx/nginx.conf`, ~1 of 2,000) and of natural questions (the
# 200 of search/questions.txt in turn, 5 to 8 words of the fill's
# vocabulary, search/questions.lua), limit=10&context=1, one connection,
# BENCH_ROUNDS rounds each, after a warm-up of each query kind
# (BENCH_WARMUP_SECONDS, 3 s each, not counted: an SQL backend's first
# question reads the app's events into memory); with postgres in BENCH_BACKENDS, on a private
# PostgreSQL (tests/postgres_fixture/postgres.sh: fsync on, commits durable
# within a second), with mysql on a private MariaDB in the work folder
# (tests/mysql_fixture/mariadb.sh: on a Unix socket, the C++ fixture's small
# buffers, innodb_flush_log_at_trx_commit=2: durable within a second), a
# database per build, pool_size 8; the table then adds each backend's ratios
# to sqlite's medians when sqlite ran too. For sqlite also the size of the
# search index
# (FTS5 tables, by dbstat) against the rest of the database. With
# BENCH_PREVIOUS_BUILD_DIR, the same queries also on that build's mnemod
# (the reference): both daemons are filled alike (the fill is seeded), stay
# up together, and each round runs the previous build's queries, then the
# new one's; the table adds new / previous ratios.
# Then the cost of indexing on workload A: append.lua (50 connections) on a
# fresh sqlite database as shipped, alternating with the same backend built
# to store events without indexing them (mnemo_sqlite_unindexed.so, whose
# inserts skip the search backlog) on a database whose search triggers were
# dropped (search/drop_search_triggers.py). Prints one table of medians. A
# manual tool: never run in CI.
# Settings (environment): BENCH_EVENTS (1000000), BENCH_SECONDS (10, per
# query run), BENCH_WARMUP_SECONDS (3; 0: none), BENCH_A_SECONDS (30, per append run), BENCH_ROUNDS (3),
# BENCH_CONNECTIONS (50, workload A), BENCH_THREADS (2, wrk threads for A),
# BENCH_FILL_CONNECTIONS (2), BENCH_BACKENDS ("sqlite memory"; also postgres, mysql),
# BENCH_PARTS ("queries indexing": either alone runs one half),
# BENCH_BUILD_DIR (build-bench-e; needs daemon/mnemod and the plugins),
# BENCH_PREVIOUS_BUILD_DIR (unset: no reference; its daemon/mnemod and
# plugins of BENCH_BACKENDS; it takes no part in the indexing half),
# BENCH_QUESTIONS (search/questions.txt), BENCH_KEEP=1 keeps the work folder.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build_dir=${BENCH_BUILD_DIR:-$root/build-bench-e}
previous_build_dir=${BENCH_PREVIOUS_BUILD_DIR:-}
questions=${BENCH_QUESTIONS:-$here/search/questions.txt}
events=${BENCH_EVENTS:-1000000}
query_seconds=${BENCH_SECONDS:-10}
warmup_seconds=${BENCH_WARMUP_SECONDS:-3}
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

bench_name=bench-e
# shellcheck source=common.sh
source "$here/common.sh"
declare_builds "$build_dir" "$previous_build_dir"

cleanup() {
  local status=$?
  local label
  for label in "${!pid_of[@]}"; do stop_mnemod "$label"; done
  end_mysql
  end_postgres "$status"
  remove_unless_kept "$status" "$work" "logs and raw outputs"
}
trap cleanup EXIT
trap 'exit 130' INT TERM


require_tools() {
  local tool plugin
  for tool in wrk python3 curl; do
    command -v "$tool" >/dev/null || fail "$tool not found; install it (Debian: apt-get install wrk python3 curl)"
  done
  [[ -s $questions ]] || fail "no questions file $questions"
  local plugins=$backends targets=mnemod
  [[ " $parts " == *" indexing "* && " $backends " == *" sqlite "* ]] && plugins+=" sqlite_unindexed"
  for plugin in $plugins; do targets+=" mnemo_$plugin"; done
  local build="cmake -S $root -B $build_dir -DCMAKE_BUILD_TYPE=Release -DMNEMO_TESTS=OFF -DMNEMO_BENCH=ON"
  build+=" && cmake --build $build_dir --target $targets"
  for plugin in $plugins; do
    [[ -x $build_dir/daemon/mnemod && -f $build_dir/plugins/mnemo_$plugin.so ]] ||
      fail "$build_dir/daemon/mnemod or plugins/mnemo_$plugin.so not found; build them: $build"
  done
  if [[ -n $previous_build_dir && " $parts " == *" queries "* ]]; then
    for plugin in $backends; do
      [[ -x $previous_build_dir/daemon/mnemod && -f $previous_build_dir/plugins/mnemo_$plugin.so ]] ||
        fail "BENCH_PREVIOUS_BUILD_DIR: $previous_build_dir/daemon/mnemod or plugins/mnemo_$plugin.so not found"
    done
  fi
}

# A database of the private server (PostgreSQL or MariaDB) per daemon
# folder, made on first use: each build's daemon fills its own.
server_database() {  # postgres|mysql folder
  local name
  name=$(basename "$2" | tr -c 'a-z0-9\n' '_')
  case $1 in
    postgres) "$root/tests/postgres_fixture/postgres.sh" createdb "$postgres_dir" "$name" >&2 ;;
    mysql) "$root/tests/mysql_fixture/mariadb.sh" createdb "$mysql_dir" "$name" >&2 ;;
  esac || fail "creating the $1 database $name failed"
  echo "$name"
}

# Loopback only, no hooks (empty scripts folder), no summaries, no eviction.
write_mnemod_config() {  # folder port plugin build_dir
  local options="{}" plugin=$3 build_dir=$4 database
  case $3 in
    sqlite*) options="{path: $1/mnemo.db, synchronous: normal}" ;;
    postgres)
      database=$(server_database postgres "$1")
      options="{host: \"$postgres_dir\", port: 5432, user: postgres, dbname: $database, pool_size: 8}" ;;
    mysql)
      database=$(server_database mysql "$1")
      options=$(mysql_options "$database" 8) ;;
  esac
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

start_mnemod() {  # folder plugin [label: new]
  local label=${3:-new} port
  port=$(free_port)
  write_mnemod_config "$1" "$port" "$2" "${build_of[$label]}"
  "${build_of[$label]}/daemon/mnemod" --config "$1/mnemod.yaml" >>"$1/mnemod.log" 2>&1 &
  pid_of[$label]=$!
  port_of[$label]=$port
  for _ in $(seq 300); do
    curl -sf "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && {
      log "mnemod pid ${pid_of[$label]} on 127.0.0.1:$port ($2, $label build)"
      return 0
    }
    sleep 0.1
  done
  fail "mnemod did not become ready within 30 s; see $1/mnemod.log"
}

stop_mnemod() {  # [label: new]
  local label=${1:-new}
  [[ -n ${pid_of[$label]:-} ]] || return 0
  kill "${pid_of[$label]}" 2>/dev/null || true
  wait "${pid_of[$label]}" 2>/dev/null || true
  unset "pid_of[$label]"
}


# A slow answer is measured, not counted as a socket error at wrk's 2 s
# default timeout (postgres and mysql answer some queries in seconds at
# 1,000,000).
run_wrk() {  # output seconds threads connections script url args...
  local out=$1 seconds=$2 threads=$3 conns=$4 script=$5 url=$6; shift 6
  wrk -t"$threads" -c"$conns" -d"${seconds}s" --timeout 60s --latency -s "$script" "$url" -- "$@" >"$out" 2>&1 ||
    fail "wrk failed; see $out"
  grep -q '^BENCH ' "$out" || fail "no result line in $out"
}


# --- search latency ----------------------------------------------------------

# The answer must hold results, or the latency measures an empty search.
check_found() {  # label query
  local body
  body=$(curl -sf "http://127.0.0.1:${port_of[$1]}$2") || fail "GET $2 failed ($1 build)"
  [[ $body == *'"hits":[{'* ]] || fail "GET $2 found nothing ($1 build): ${body:0:300}"
}

run_query() {  # backend label word|path|questions round|warmup
  local out=$work/query-$1-$2-$3-$4.txt script=$here/search/query.lua argument
  case $3 in
    word) argument=$word_query ;;
    path) argument=$path_query ;;
    questions) script=$here/search/questions.lua argument=$questions ;;
  esac
  if [[ $4 == warmup ]]; then
    # One request waited for whatever it takes (the first question builds
    # the cache: seconds at a million events, longer than a short run),
    # then the kind for a few seconds.
    local first=$argument
    [[ $3 == questions ]] && first="/v1/apps/bench/search?q=$(head -n 1 "$questions" |
      python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.stdin.read().strip(), safe=""))')&limit=10&context=1"
    curl -sf -o /dev/null --max-time 600 "http://127.0.0.1:${port_of[$2]}$first" || fail "GET $first failed ($2 build)"
    run_wrk "$out" "$warmup_seconds" 1 1 "$script" "http://127.0.0.1:${port_of[$2]}" "$argument"
    return
  fi
  run_wrk "$out" "$query_seconds" 1 1 "$script" "http://127.0.0.1:${port_of[$2]}" "$argument"
  printf 'query\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$(bench_field "$out" p50_us)" \
    "$(bench_field "$out" p99_us)" "$(bench_field "$out" rps)" "$(errors_of "$out")" \
    "$(bench_field "$out" requests)" "$(bench_field "$out" with_hits)" >>"$results"
}

workload_e() {  # backend
  local label round started kind sizes
  for label in $labels; do
    start_mnemod "$work/e-$1-$label" "$1" "$label"
    log "$1 ($label build): filling $events events through the HTTP API"
    started=$(date +%s.%N)
    python3 "$here/search/fill_search.py" "http://127.0.0.1:${port_of[$label]}" --events "$events" \
      --connections "$fill_connections" || fail "filling $1 ($label build) failed"
    printf 'fill\t%s\t%s\t%s\t%s\n' "$1" "$label" "$events" \
      "$(awk -v started="$started" -v now="$(date +%s.%N)" 'BEGIN {printf "%.1f", now - started}')" >>"$results"
    check_found "$label" "$word_query"
    check_found "$label" "$path_query"
  done
  if ((warmup_seconds > 0)); then
    for label in $labels; do
      log "$1, $label build: warm-up, each query kind for $warmup_seconds s (not counted)"
      for kind in word path questions; do run_query "$1" "$label" "$kind" warmup; done
    done
  fi
  for round in $(seq "$rounds"); do
    for label in $labels; do
      log "$1, round $round/$rounds, $label build: word query, path query, questions (${query_seconds} s each)"
      for kind in word path questions; do run_query "$1" "$label" "$kind" "$round"; done
    done
  done
  for label in $labels; do
    stop_mnemod "$label"  # a clean stop checkpoints the WAL into the file
    if [[ $1 == sqlite ]]; then
      if sizes=$(python3 "$here/search/db_sizes.py" "$work/e-$1-$label/mnemo.db"); then
        printf 'size\tsqlite\t%s\t%s\n' "$label" "$sizes" >>"$results"
      else
        log "db_sizes.py failed on the $label build's database (another schema?): no size line"
      fi
    fi
    rm -rf "$work/e-$1-$label"
  done
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
    "http://127.0.0.1:${port_of[new]}" 1000
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
  if [[ " $backends " == *" postgres "* ]]; then
    start_postgres
  fi
  if [[ " $backends " == *" mysql "* ]]; then
    start_mysql "$work/mariadb"
  fi
  if [[ " $parts " == *" queries "* ]]; then
    for backend in $backends; do workload_e "$backend"; done
  fi
  if [[ " $parts " == *" indexing "* && " $backends " == *" sqlite "* ]]; then indexing_cost; fi
  python3 "$here/search/table_e.py" "$results" --events "$events" --seconds "$query_seconds" \
    --append-seconds "$append_seconds" --connections "$connections"
}

main "$@"
