#!/usr/bin/env bash
# The .deb: built with CPack from a separate /usr build of this source tree,
# installed with dpkg -i (unit enabled, not started, mnemod user created),
# the installed /usr/bin/mnemod started directly (no systemd in CI) as the
# mnemod user on the shipped config moved to scratch paths, /healthz called,
# and the package purged. The machine is left as it was, also on failure: the
# package is purged and a mnemod user this test created is deleted.
# Needs root (dpkg); skipped (exit 77) otherwise.
source "$(dirname "$0")/common.sh"

if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP: the .deb test installs a package with dpkg -i and needs root; run ctest as root"
  exit 77
fi
# Any state dpkg knows other than not-installed (installed, or config files left).
package_present() {
  local status
  status=$(dpkg-query -W -f='${Status}' mnemod 2>/dev/null || true)
  [ -n "$status" ] && [ "${status##* }" != not-installed ]
}
if package_present; then
  fail "a mnemod package is already installed here; this test would replace and purge it. Remove it first (dpkg --purge mnemod)"
fi
for tool in cpack dpkg-deb dpkg-shlibdeps; do
  command -v "$tool" > /dev/null || fail "$tool not found (tools/install-deps.sh installs cmake and dpkg-dev)"
done

tmp=$(mktemp -d /tmp/mnemo-deb-XXXXXX)
chmod 755 "$tmp"
DAEMON_PID=""
user_existed=no
getent passwd mnemod > /dev/null && user_existed=yes
group_existed=no
getent group mnemod > /dev/null && group_existed=yes
cleanup() {
  if [ -n "$DAEMON_PID" ]; then stop_daemon "$DAEMON_PID"; fi
  if package_present; then dpkg --purge mnemod > /dev/null 2>&1 || true; fi
  if [ "$user_existed" = no ] && getent passwd mnemod > /dev/null; then userdel mnemod || true; fi
  if [ "$group_existed" = no ] && getent group mnemod > /dev/null; then groupdel mnemod || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

if [ "$MNEMO_PREFIX" = /usr ]; then
  # The tested build already has the package's prefix (tools/test.sh): package it as it is.
  build=$MNEMO_BUILD_DIR
  echo "== packaging the tested build $build"
else
  echo "== building the package (CMAKE_INSTALL_PREFIX=/usr) in $MNEMO_BUILD_DIR/package-deb"
  build=$MNEMO_BUILD_DIR/package-deb
  cmake -S "$MNEMO_SOURCE_DIR" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_INSTALL_PREFIX=/usr \
    -DMNEMO_TESTS=OFF -DMNEMO_BENCH=OFF > "$tmp/configure.log" 2>&1 || fail "configure failed: $(cat "$tmp/configure.log")"
  cmake --build "$build" -j"$(nproc)" > "$tmp/build.log" 2>&1 || fail "build failed: $(tail -50 "$tmp/build.log")"
fi
rm -f "$build"/mnemod_*.deb
(cd "$build" && cpack -G DEB > "$tmp/cpack.log" 2>&1) || fail "cpack failed: $(cat "$tmp/cpack.log")"
deb=$(ls "$build"/mnemod_*.deb)
echo "$deb"

echo "== package metadata and contents"
depends=$(dpkg-deb -f "$deb" Depends)
for needed in libuv1 libsqlite3-0 libsystemd0 libyaml-cpp0.7 libc6 libstdc++6; do
  echo "$depends" | grep -q "\b$needed\b" || fail "Depends lacks $needed: $depends"
done
dpkg-deb -e "$deb" "$tmp/control"
grep -qx /etc/mnemod/mnemod.yaml "$tmp/control/conffiles" || fail "/etc/mnemod/mnemod.yaml is not a conffile"
dpkg-deb -c "$deb" > "$tmp/contents"
plugin_dir=$(sed -n 's#.* \./\(usr/lib/.*mnemod/plugins\)/mnemo_sqlite.so$#/\1#p' "$tmp/contents")
[ -n "$plugin_dir" ] || fail "no mnemo_sqlite.so under /usr/lib in the package: $(cat "$tmp/contents")"
for path in ./usr/bin/mnemod ./usr/include/mnemo_plugin.h ./etc/mnemod/mnemod.yaml ./lib/systemd/system/mnemod.service \
  ./lib/systemd/system/mnemod.socket ./usr/lib/sysusers.d/mnemod.conf ./usr/share/mnemod/scripts/README.md; do
  grep -q " $path\$" "$tmp/contents" || fail "the package lacks $path"
done
# The pages and the reference as the package holds them (a minimal image's dpkg
# may be told not to unpack /usr/share/man, so they are checked in the .deb itself).
dpkg-deb -x "$deb" "$tmp/unpacked"
check_man_pages_and_docs "$tmp/unpacked/usr/share/man" "$tmp/unpacked/usr/share/doc/mnemod"

echo "== dpkg -i"
dpkg -i "$deb" > "$tmp/dpkg-i.log" 2>&1 || fail "dpkg -i failed: $(cat "$tmp/dpkg-i.log")"
getent passwd mnemod > /dev/null || fail "postinst created no mnemod user"
[ -L /etc/systemd/system/multi-user.target.wants/mnemod.service ] || fail "mnemod.service is not enabled"
if command -v systemd-analyze > /dev/null; then
  systemd-analyze verify /lib/systemd/system/mnemod.service /lib/systemd/system/mnemod.socket > "$tmp/verify.out" 2>&1 ||
    fail "systemd-analyze verify on the installed units: $(cat "$tmp/verify.out")"
fi
dpkg -L mnemod > "$tmp/files"

echo "== the installed /usr/bin/mnemod as the mnemod user"
port=$(free_port)
adjust_production_config /etc/mnemod/mnemod.yaml "$tmp/run-dir" "$port"
chown -R mnemod:mnemod "$tmp/run-dir/state" "$tmp/run-dir/run"
RUN_AS="setpriv --reuid=mnemod --regid=mnemod --init-groups --" exercise_daemon /usr/bin/mnemod "$tmp/run-dir" "$port"
grep -q "storage plugin sqlite .* loaded from $plugin_dir/mnemo_sqlite.so" "$tmp/run-dir/mnemod.log" ||
  fail "the sqlite plugin was not loaded from $plugin_dir: $(cat "$tmp/run-dir/mnemod.log")"
grep -q "scripts loaded from /usr/share/mnemod/scripts" "$tmp/run-dir/mnemod.log" ||
  fail "the installed scripts were not found without configuration: $(cat "$tmp/run-dir/mnemod.log")"
echo "== the installed /usr/bin/mnemoctl (root is always served)"
out=$(/usr/bin/mnemoctl --config "$tmp/run-dir/mnemod.yaml" -e 'return 6 * 7' 2>&1) || fail "mnemoctl failed: $out"
[ "$out" = 42 ] || fail "mnemoctl printed '$out', expected 42"
stop_daemon "$DAEMON_PID"
DAEMON_PID=""
[ "$STOPPED_CODE" = 0 ] || fail "mnemod exited $STOPPED_CODE after SIGTERM: $(cat "$tmp/run-dir/mnemod.log")"

echo "== dpkg --purge"
dpkg --purge mnemod > "$tmp/purge.log" 2>&1 || fail "dpkg --purge failed: $(cat "$tmp/purge.log")"
while read -r path; do
  [ -d "$path" ] && continue  # shared folders like /usr/bin stay
  [ ! -e "$path" ] || fail "$path is still there after the purge"
done < "$tmp/files"
[ ! -e /etc/systemd/system/multi-user.target.wants/mnemod.service ] || fail "the enable symlink survived the purge"
[ ! -e /etc/mnemod ] || fail "/etc/mnemod survived the purge"
! package_present || fail "dpkg still knows mnemod after the purge"
echo "PASS: the .deb builds, installs, serves and purges"
