#!/usr/bin/env bash
# Starts or stops a private MariaDB server in a folder, the way the C++
# fixture (mariadb_server.cpp) does, for manual runs and benchmarks.
# Usage: tests/mysql_fixture/mariadb.sh start DIR [DATABASE]   (prints the socket path)
#        tests/mysql_fixture/mariadb.sh stop DIR
set -euo pipefail
cmd=${1:?usage: mariadb.sh start|stop DIR [DATABASE]}
dir=${2:?usage: mariadb.sh start|stop DIR [DATABASE]}
db=${3:-mnemo}
tuning=(--innodb-buffer-pool-size=32M --innodb-log-file-size=8M --innodb-flush-log-at-trx-commit=2
        --innodb-doublewrite=0 --max-connections=500 --skip-name-resolve)
user=(); [ "$(id -u)" -eq 0 ] && user=(--user=root)
case "$cmd" in
  start)
    mkdir -p "$dir"
    if [ ! -d "$dir/data/mysql" ]; then
      mariadb-install-db --no-defaults --datadir="$dir/data" --auth-root-authentication-method=normal \
        --skip-test-db "${user[@]}" "${tuning[@]}" >"$dir/install.log" 2>&1
    fi
    mariadbd --no-defaults --datadir="$dir/data" --socket="$dir/mysqld.sock" --skip-networking \
      --skip-grant-tables --pid-file="$dir/mysqld.pid" --log-error="$dir/mysqld.err" "${user[@]}" \
      "${tuning[@]}" >"$dir/mysqld.out" 2>&1 &
    for _ in $(seq 600); do
      mariadb --no-defaults -S "$dir/mysqld.sock" -uroot -e "SELECT 1" >/dev/null 2>&1 && break
      sleep 0.1
    done
    mariadb --no-defaults -S "$dir/mysqld.sock" -uroot \
      -e "CREATE DATABASE IF NOT EXISTS \`$db\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"
    echo "$dir/mysqld.sock"
    ;;
  stop)
    [ -f "$dir/mysqld.pid" ] && kill "$(cat "$dir/mysqld.pid")" 2>/dev/null || true
    for _ in $(seq 600); do [ -f "$dir/mysqld.pid" ] || break; sleep 0.1; done
    ;;
  *) echo "usage: mariadb.sh start|stop DIR [DATABASE]" >&2; exit 2 ;;
esac
