# Helpers the package tests share; sourced, not run. The test's environment
# (tests/package/CMakeLists.txt) names the build folder and the install paths.
set -euo pipefail

fail() { echo "FAIL: $*" >&2; exit 1; }

# A free loopback TCP port.
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# HTTP status of a request to 127.0.0.1:$port; the body goes to the file $out.
http_status() {
  local port=$1 method=$2 path=$3 out=$4 body=${5:-}
  curl -s -m 10 -o "$out" -w '%{http_code}' -X "$method" ${body:+-d "$body"} "http://127.0.0.1:$port$path" || true
}

# Waits (bounded) until /healthz answers 200, or the process $pid has exited.
wait_healthy() {
  local port=$1 pid=$2 scratch
  scratch=$(mktemp)
  for _ in $(seq 1 500); do
    if [ "$(http_status "$port" GET /healthz "$scratch")" = 200 ]; then rm -f "$scratch"; return 0; fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.02
  done
  rm -f "$scratch"
  return 1
}

# Stops $1 (a child of this shell) with SIGTERM, bounded, then SIGKILL; its exit
# code lands in STOPPED_CODE (not printed: `wait` only works in this very shell).
stop_daemon() {
  local pid=$1
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 750); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.02
  done
  kill -KILL "$pid" 2>/dev/null || true
  STOPPED_CODE=0
  wait "$pid" || STOPPED_CODE=$?
}

require_file() { [ -e "$1" ] || fail "expected $1 to exist${2:+ ($2)}"; }

# The installed manual pages under the man folder $1 (.../share/man), each
# rendered by man -l with its NAME line, and the reference and the copyright file
# (each license's text) under the doc folder $2.
check_man_pages_and_docs() {
  local mandir=$1 docdir=$2 entry page name text
  for entry in man8/mnemod.8:mnemod man1/mnemoctl.1:mnemoctl man5/mnemod.yaml.5:mnemod.yaml; do
    page=$mandir/${entry%%:*}.gz
    name=${entry##*:}
    require_file "$page" "the manual page $name"
    text=$(MANWIDTH=80 man -l "$page" 2>&1) || fail "man -l $page failed: $text"
    grep -q "^ *$name - " <<< "$text" || fail "man -l $page shows no NAME line for $name: $(head -5 <<< "$text")"
  done
  for doc in configuration console scripting operations plugins architecture; do
    require_file "$docdir/docs/$doc.md" "the reference page the manual pages point to"
  done
  require_file "$docdir/copyright" "the licenses, as Debian policy wants them"
  for text in "License: Apache-2.0" "License: Expat" "License: BSD-3-clause" " Permission is hereby granted" \
    " Redistribution and use in source and binary forms"; do
    grep -qx "$text.*" "$docdir/copyright" || fail "$docdir/copyright lacks '$text'"
  done
  if grep -q "@MNEMO_" "$docdir/copyright"; then fail "unfilled @MNEMO_...@ in $docdir/copyright"; fi
}

# The production config (installed as etc/mnemod/mnemod.yaml) moved to scratch
# paths: state in $2/state, runtime in $2/run, the API on port $3.
adjust_production_config() {
  local installed=$1 dir=$2 port=$3
  mkdir -p "$dir/state" "$dir/run"
  sed -e "s#/var/lib/mnemod#$dir/state#g" -e "s#/run/mnemod#$dir/run#g" -e "s#127.0.0.1:7420#127.0.0.1:$port#g" \
    "$installed" > "$dir/mnemod.yaml"
  grep -q "path: $dir/state/mnemo.db" "$dir/mnemod.yaml" || fail "the production config names no /var/lib/mnemod database path"
  grep -q "admin_socket: $dir/run/admin.sock" "$dir/mnemod.yaml" || fail "the production config names no /run/mnemod admin socket"
  grep -q "127.0.0.1:$port" "$dir/mnemod.yaml" || fail "the production config does not listen on 127.0.0.1:7420"
}

# Starts $1 (a mnemod binary) on the adjusted config in $2, checks it serves and
# stores a session in SQLite, stops it and checks the exit code. Extra words
# before the binary (e.g. setpriv ...) come in $RUN_AS.
exercise_daemon() {
  local binary=$1 dir=$2 port=$3
  ${RUN_AS:-} "$binary" --check-config --config "$dir/mnemod.yaml" > "$dir/check.out" 2>&1 ||
    fail "--check-config refused the shipped production config: $(cat "$dir/check.out")"
  ${RUN_AS:-} "$binary" --config "$dir/mnemod.yaml" 2> "$dir/mnemod.log" &
  local pid=$!
  DAEMON_PID=$pid  # for the caller's cleanup, also when a check below fails
  wait_healthy "$port" "$pid" || fail "mnemod did not answer /healthz; its log: $(cat "$dir/mnemod.log")"
  local status
  status=$(http_status "$port" POST /v1/apps/shop/users/u1/sessions "$dir/body" '{"id":"deployed"}')
  [ "$status" = 201 ] || fail "creating a session answered $status: $(cat "$dir/body")"
  status=$(http_status "$port" GET /v1/apps/shop/users/u1/sessions/deployed "$dir/body")
  [ "$status" = 200 ] || fail "reading the session answered $status: $(cat "$dir/body")"
}
