#!/usr/bin/env bash
# Installs what the tests need, builds mnemod twice (release with warnings as
# errors, then ASan+UBSan) and runs every test with ctest in both builds.
# Usage: tools/test.sh            (from the repository root)
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh --test
jobs=$(nproc)

run_suite() {
  local dir=$1; shift
  cmake -S . -B "$dir" -DMNEMO_WERROR=ON "$@" >/dev/null
  cmake --build "$dir" -j"$jobs"
  # Test binaries share no port or file (each daemon and MariaDB gets its own); the .deb test runs alone.
  ctest --test-dir "$dir" --output-on-failure --timeout 900 -j"$jobs"
}

echo "== release build (RelWithDebInfo, -Werror)"
# Prefix /usr: the .deb test packages this very build instead of compiling another.
run_suite build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_INSTALL_PREFIX=/usr
echo "== sanitizer build (ASan + UBSan)"
# MNEMO_TEST_CLOCK here only: the tests of TTLs and time windows then move mnemod's clock instead of
# sleeping; the release build above, which the .deb packages, never has it.
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  run_suite build-asan -DCMAKE_BUILD_TYPE=Debug -DMNEMO_SANITIZE=ON -DMNEMO_TEST_CLOCK=ON
