#!/usr/bin/env bash
# Starts or stops a private MariaDB server in a folder, the way the C++
# fixture (mariadb_server.cpp) does, for manual runs and benchmarks: a data
# folder made by mariadb-install-db on the first start, the server on a Unix
# socket in the folder only (no TCP), no login checks (root, any password),
# the fixture's settings (small buffers; innodb_flush_log_at_trx_commit=2:
# commits durable within about a second). Databases are utf8mb4 with a binary
# collation.
# Usage: tests/mysql_fixture/mariadb.sh start DIR [DATABASE]   (prints the socket path)
#        tests/mysql_fixture/mariadb.sh createdb DIR DATABASE    (when it does not exist yet)
#        tests/mysql_fixture/mariadb.sh stop DIR
set -euo pipefail
usage="usage: mariadb.sh start DIR [DATABASE] | createdb DIR DATABASE | stop DIR"
cmd=${1:?$usage}
dir=${2:?$usage}
db=${3:-mnemo}
tuning=(--innodb-buffer-pool-size=32M --innodb-log-file-size=8M --innodb-flush-log-at-trx-commit=2
        --innodb-doublewrite=0 --max-connections=500 --skip-name-resolve)
user=(); [ "$(id -u)" -eq 0 ] && user=(--user=root)

client() {  # mariadb arguments...
  mariadb --no-defaults -S "$dir/mysqld.sock" -uroot "$@"
}

create_database() {  # name
  client -e "CREATE DATABASE IF NOT EXISTS \`$1\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"
}

case "$cmd" in
  start)
    for tool in mariadb-install-db mariadbd mariadb; do
      command -v "$tool" >/dev/null ||
        { echo "$tool not found; install it (Debian: apt-get install mariadb-server)" >&2; exit 1; }
    done
    mkdir -p "$dir"
    if [ ! -d "$dir/data/mysql" ]; then
      mariadb-install-db --no-defaults --datadir="$dir/data" --auth-root-authentication-method=normal \
        --skip-test-db "${user[@]}" "${tuning[@]}" >"$dir/install.log" 2>&1
    fi
    mariadbd --no-defaults --datadir="$dir/data" --socket="$dir/mysqld.sock" --skip-networking \
      --skip-grant-tables --pid-file="$dir/mysqld.pid" --log-error="$dir/mysqld.err" "${user[@]}" \
      "${tuning[@]}" >"$dir/mysqld.out" 2>&1 &
    for _ in $(seq 600); do
      client -e "SELECT 1" >/dev/null 2>&1 && break
      sleep 0.1
    done
    client -e "SELECT 1" >/dev/null 2>&1 ||
      { echo "MariaDB did not answer on $dir/mysqld.sock within 60 s; see $dir/mysqld.err" >&2; exit 1; }
    create_database "$db"
    echo "$dir/mysqld.sock"
    ;;
  createdb) create_database "${3:?$usage}" ;;
  stop)
    [ -f "$dir/mysqld.pid" ] && kill "$(cat "$dir/mysqld.pid")" 2>/dev/null || true
    for _ in $(seq 600); do [ -f "$dir/mysqld.pid" ] || break; sleep 0.1; done
    ;;
  *) echo "$usage" >&2; exit 2 ;;
esac
