#!/usr/bin/env bash
# The systemd files as configured for this build: `systemd-analyze verify` on
# mnemod.service and mnemod.socket, the hardening score of
# `systemd-analyze security`, and the sysusers entry applied to a scratch root.
source "$(dirname "$0")/common.sh"

command -v systemd-analyze > /dev/null ||
  fail "systemd-analyze not found; install the Debian package systemd (tools/install-deps.sh --test)"
tmp=$(mktemp -d /tmp/mnemo-units-XXXXXX)
trap 'rm -rf "$tmp"' EXIT

units=$tmp/units
mkdir -p "$units"
service=$MNEMO_BUILD_DIR/systemd/mnemod.service
require_file "$service" "configured from systemd/mnemod.service.in"
# verify checks that ExecStart= exists: point it at this build's binary.
sed "s#$MNEMO_BINDIR/mnemod#$MNEMO_BUILD_DIR/daemon/mnemod#g" "$service" > "$units/mnemod.service"
cp "$MNEMO_BUILD_DIR/systemd/mnemod.socket" "$units/mnemod.socket"

echo "== systemd-analyze verify"
if ! systemd-analyze verify "$units/mnemod.service" "$units/mnemod.socket" > "$tmp/verify.out" 2>&1; then
  fail "systemd-analyze verify failed: $(cat "$tmp/verify.out")"
fi
[ ! -s "$tmp/verify.out" ] || fail "systemd-analyze verify complained: $(cat "$tmp/verify.out")"

echo "== the directives issue 9 asks for"
for directive in Type=notify NotifyAccess=main "ExecReload=/bin/kill -HUP \$MAINPID" WatchdogSec=30s User=mnemod \
  StateDirectory=mnemod RuntimeDirectory=mnemod ConfigurationDirectory=mnemod NoNewPrivileges=yes \
  ProtectSystem=strict ProtectHome=yes PrivateTmp=yes "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6" \
  SystemCallFilter=@system-service MemoryDenyWriteExecute=yes; do
  grep -qxF "$directive" "$units/mnemod.service" || fail "mnemod.service lacks $directive"
done

echo "== systemd-analyze security"
systemd-analyze security --offline=yes --no-pager "$units/mnemod.service" > "$tmp/security.out" 2>&1 || true
exposure=$(sed -n 's/.*Overall exposure level for mnemod.service: \([0-9.]*\).*/\1/p' "$tmp/security.out")
[ -n "$exposure" ] || fail "no exposure level from systemd-analyze security: $(cat "$tmp/security.out")"
awk -v e="$exposure" 'BEGIN { exit !(e <= 2.0) }' ||
  fail "exposure level $exposure is above 2.0 (OK); see: $(grep '✗' "$tmp/security.out")"
echo "exposure level $exposure"

echo "== sysusers.d entry"
mkdir -p "$tmp/sysroot/etc"
systemd-sysusers --root="$tmp/sysroot" "$MNEMO_SOURCE_DIR/systemd/mnemod.sysusers" > "$tmp/sysusers.out" 2>&1 ||
  fail "systemd-sysusers rejected the entry: $(cat "$tmp/sysusers.out")"
grep -q '^mnemod:x:[0-9]*:[0-9]*:mnemod session and memory daemon:/var/lib/mnemod:' "$tmp/sysroot/etc/passwd" ||
  fail "no mnemod user with home /var/lib/mnemod: $(cat "$tmp/sysroot/etc/passwd" 2>/dev/null)"
grep -q '^mnemod:x:' "$tmp/sysroot/etc/group" || fail "no mnemod group"
echo "PASS: units verify, exposure $exposure, sysusers entry"
