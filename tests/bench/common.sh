# Shell functions every bench script shares; sourced after it sets bench_name.
# log/fail print with the script's tag; free_port asks the kernel for a free
# loopback port; bench_field reads a field of report.lua's "BENCH k=v ..."
# line; errors_of sums what BENCH.md counts as errors (non-2xx and socket
# errors); remove_unless_kept ends a work folder at exit; start_postgres and
# end_postgres run a private PostgreSQL for the postgres backend, start_mysql
# and end_mysql a private MariaDB for the mysql backend.

log() { printf '[%s] %s\n' "$bench_name" "$*" >&2; }
fail() { log "error: $*"; exit 1; }

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

bench_field() {  # file field
  grep '^BENCH ' "$1" | tr ' ' '\n' | awk -F= -v k="$2" '$1 == k {print $2}'
}

errors_of() { echo $(($(bench_field "$1" non2xx) + $(bench_field "$1" socket_errors))); }

# At exit: a folder is kept for a look when the run failed or BENCH_KEEP=1,
# else removed.
remove_unless_kept() {  # exit_status folder what
  if [[ $1 -ne 0 || ${BENCH_KEEP:-0} == 1 ]]; then
    log "$3 kept in $2"
  else
    rm -rf "$2"
  fi
}

# The builds under test by label: "new" ($1) and, when $2 is set, "previous"
# ($2), measured first in every round; pid_of and port_of hold the running
# daemons by label.
declare_builds() {  # new_build_dir [previous_build_dir]
  declare -gA build_of=([new]=$1) pid_of=() port_of=()
  labels="new"
  if [[ -n ${2:-} ]]; then
    build_of[previous]=$2
    labels="previous new"
  fi
}

# A private PostgreSQL (tests/postgres_fixture/postgres.sh) in a folder of
# its own right under /tmp, which the postgres user reaches when the script
# runs as root; start_postgres sets postgres_dir (its socket folder),
# end_postgres stops it at exit.
postgres_dir=""
start_postgres() {
  postgres_dir=$(mktemp -d "/tmp/mnemo-$bench_name-postgres.XXXXXX")
  "$root/tests/postgres_fixture/postgres.sh" start "$postgres_dir" "${1:-mnemo}" >/dev/null
  log "PostgreSQL on $postgres_dir"
}

end_postgres() {  # exit_status
  [[ -n $postgres_dir ]] || return 0
  "$root/tests/postgres_fixture/postgres.sh" stop "$postgres_dir" || true
  remove_unless_kept "$1" "$postgres_dir" "PostgreSQL's folder"
}

# A private MariaDB (tests/mysql_fixture/mariadb.sh: its settings live there)
# with its data in $1, a folder of the bench's work folder (removed with it);
# start_mysql sets mysql_dir and mysql_socket, mysql_options writes the
# plugin's options for one of its databases, end_mysql stops it at exit.
mysql_dir=""
mysql_socket=""
start_mysql() {  # folder [database: mnemo]
  mysql_dir=$1
  mysql_socket=$("$root/tests/mysql_fixture/mariadb.sh" start "$mysql_dir" "${2:-mnemo}") ||
    fail "MariaDB did not start; see $mysql_dir/mysqld.err"
  log "MariaDB on $mysql_socket"
}

# The mysql plugin's storage.options for a database of that server.
mysql_options() {  # database pool_size
  printf '{socket: "%s", user: root, password: "", database: %s, pool_size: %s}' "$mysql_socket" "$1" "$2"
}

end_mysql() {
  [[ -n $mysql_dir ]] || return 0
  "$root/tests/mysql_fixture/mariadb.sh" stop "$mysql_dir" || true
}
