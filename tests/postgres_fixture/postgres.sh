#!/usr/bin/env bash
# Starts or stops a private PostgreSQL server in a folder, the way the C++
# fixture (postgres_server.cpp) does, for manual runs and benchmarks: a
# cluster made by initdb on the first start, the server on a Unix socket in
# the folder only (listen_addresses ''), run as Debian's postgres user when
# started by root (initdb and postgres refuse root; then DIR's parents must
# let that user through: a folder right under /tmp does). Unlike the tests'
# server it keeps fsync on and commits asynchronously (synchronous_commit
# off: durable within a second, as the benchmarks' MariaDB and sqlite
# normal are).
# Usage: tests/postgres_fixture/postgres.sh start DIR [DATABASE]   (prints the socket folder)
#        tests/postgres_fixture/postgres.sh createdb DIR DATABASE    (when it does not exist yet)
#        tests/postgres_fixture/postgres.sh stop DIR
set -euo pipefail
usage="usage: postgres.sh start DIR [DATABASE] | createdb DIR DATABASE | stop DIR"
cmd=${1:?$usage}
dir=${2:?$usage}
db=${3:-mnemo}
bin=$(find /usr/lib/postgresql -mindepth 2 -maxdepth 2 -name bin 2>/dev/null | sort -V | tail -1)
[[ -n $bin && -x $bin/postgres ]] ||
  { echo "no PostgreSQL server in /usr/lib/postgresql; install it (Debian: apt-get install postgresql)" >&2; exit 1; }
as_server=()
[ "$(id -u)" -eq 0 ] && as_server=(runuser -u postgres --)

create_database() {  # name
  if [[ -z $("${as_server[@]}" "$bin/psql" -h "$dir" -U postgres -d postgres -qAt \
               -c "SELECT 1 FROM pg_database WHERE datname = '$1'") ]]; then
    "${as_server[@]}" "$bin/createdb" -h "$dir" -U postgres -E UTF8 -T template0 "$1"
  fi
}

case "$cmd" in
  start)
    mkdir -p "$dir"
    [ "$(id -u)" -eq 0 ] && chown postgres: "$dir"
    if [ ! -f "$dir/data/PG_VERSION" ]; then
      "${as_server[@]}" "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --no-locale >"$dir/initdb.log" 2>&1
    fi
    "${as_server[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/postgres.log" -w -t 60 \
      -o "-k $dir -p 5432 -c listen_addresses= -c synchronous_commit=off -c max_connections=200" start >/dev/null
    create_database "$db"
    echo "$dir"
    ;;
  createdb) create_database "${3:?$usage}" ;;
  stop)
    if [ -f "$dir/data/postmaster.pid" ]; then
      "${as_server[@]}" "$bin/pg_ctl" -D "$dir/data" -m fast -w -t 60 stop >/dev/null || true
    fi
    ;;
  *) echo "$usage" >&2; exit 2 ;;
esac
