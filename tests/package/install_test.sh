#!/usr/bin/env bash
# `cmake --install` into a DESTDIR: the layout of issue 9, then the installed
# mnemod run from there on the shipped production config moved to scratch
# paths. No storage.plugin_dir is given: the daemon must find its plugins next
# to itself (<bin>/../<libdir>/mnemod/plugins), as an install that was moved.
# scripts.dir is given (see below).
source "$(dirname "$0")/common.sh"

tmp=$(mktemp -d /tmp/mnemo-install-XXXXXX)
DAEMON_PID=""
cleanup() {
  if [ -n "$DAEMON_PID" ]; then stop_daemon "$DAEMON_PID"; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

root=$tmp/root
DESTDIR=$root cmake --install "$MNEMO_BUILD_DIR" > "$tmp/install.log" 2>&1 ||
  fail "cmake --install failed: $(cat "$tmp/install.log")"

echo "== layout under DESTDIR (prefix $MNEMO_PREFIX)"
require_file "$root$MNEMO_BINDIR/mnemod"
[ -x "$root$MNEMO_BINDIR/mnemod" ] || fail "bin/mnemod is not executable"
require_file "$root$MNEMO_PLUGIN_INSTALL_DIR/mnemo_memory.so"
require_file "$root$MNEMO_PLUGIN_INSTALL_DIR/mnemo_sqlite.so"
for fake in mnemo_bad_abi.so mnemo_no_entry.so; do
  [ ! -e "$root$MNEMO_PLUGIN_INSTALL_DIR/$fake" ] || fail "the loader-test fake $fake was installed"
done
require_file "$root$MNEMO_INCLUDEDIR/mnemo_plugin.h"
require_file "$root$MNEMO_SCRIPTS_INSTALL_DIR/README.md" "the scripts folder"
require_file "$root$MNEMO_SYSCONFDIR/mnemod/mnemod.yaml" "the production config"
require_file "$root$MNEMO_DOCDIR/mnemod.example.yaml" "the documented example config the production one points to"
require_file "$root$MNEMO_SYSTEMD_UNIT_DIR/mnemod.service"
require_file "$root$MNEMO_SYSTEMD_UNIT_DIR/mnemod.socket"
require_file "$root$MNEMO_SYSUSERS_DIR/mnemod.conf"
grep -qx "ExecStart=$MNEMO_BINDIR/mnemod --config $MNEMO_SYSCONFDIR/mnemod/mnemod.yaml" \
  "$root$MNEMO_SYSTEMD_UNIT_DIR/mnemod.service" || fail "the installed unit does not start $MNEMO_BINDIR/mnemod"
if grep -q "@MNEMO_" "$root$MNEMO_SYSTEMD_UNIT_DIR/mnemod.service"; then fail "unfilled @MNEMO_...@ in mnemod.service"; fi
check_man_pages_and_docs "$root$MNEMO_MANDIR" "$root$MNEMO_DOCDIR"

echo "== the installed mnemod on the production config"
port=$(free_port)
adjust_production_config "$root$MNEMO_SYSCONFDIR/mnemod/mnemod.yaml" "$tmp/run-dir" "$port"
# The scripts fallback (config's ./scripts -> the install's share/mnemod/scripts)
# is the compiled-in path, which is not under DESTDIR; deb_test.sh checks it for real.
printf 'scripts:\n  dir: %s\n' "$root$MNEMO_SCRIPTS_INSTALL_DIR" >> "$tmp/run-dir/mnemod.yaml"
exercise_daemon "$root$MNEMO_BINDIR/mnemod" "$tmp/run-dir" "$port"
grep -q "storage plugin sqlite .* loaded from $root$MNEMO_PLUGIN_INSTALL_DIR/mnemo_sqlite.so" "$tmp/run-dir/mnemod.log" ||
  fail "the sqlite plugin was not loaded from the install next to the binary; log: $(cat "$tmp/run-dir/mnemod.log")"
require_file "$tmp/run-dir/state/mnemo.db" "the SQLite file in the StateDirectory stand-in"
grep -q "scripts loaded from $root$MNEMO_SCRIPTS_INSTALL_DIR" "$tmp/run-dir/mnemod.log" ||
  fail "the installed scripts were not loaded; log: $(cat "$tmp/run-dir/mnemod.log")"

echo "== the installed mnemoctl, finding the admin socket through the same config"
require_file "$root$MNEMO_BINDIR/mnemoctl" "the console client"
out=$("$root$MNEMO_BINDIR/mnemoctl" --config "$tmp/run-dir/mnemod.yaml" -e 'return 6 * 7' 2>&1) ||
  fail "mnemoctl failed: $out"
[ "$out" = 42 ] || fail "mnemoctl printed '$out', expected 42"
out=$("$root$MNEMO_BINDIR/mnemoctl" --config "$tmp/run-dir/mnemod.yaml" --json -e 'return stats().plugin' 2>&1) ||
  fail "mnemoctl stats() failed: $out"
[ "$out" = '"sqlite"' ] || fail "mnemoctl printed '$out', expected \"sqlite\""

stop_daemon "$DAEMON_PID"
DAEMON_PID=""
[ "$STOPPED_CODE" = 0 ] || fail "mnemod exited $STOPPED_CODE after SIGTERM; log: $(cat "$tmp/run-dir/mnemod.log")"
echo "PASS: installed layout and the installed daemon"
