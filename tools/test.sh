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
  # Test binaries share no port or file (each daemon, MariaDB and PostgreSQL gets its own); the .deb test runs alone.
  ctest --test-dir "$dir" --output-on-failure --timeout 900 -j"$jobs"
}

echo "== release build (-O2, -Werror)"
# Prefix /usr: the .deb test packages this very build instead of compiling another.
# -O2 without -g (Release with -O2, as a distribution builds before it strips):
# debug info makes each compile about a third slower and the links much slower,
# and CI builds everything twice on two cores.
run_suite build -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" \
  -DCMAKE_C_FLAGS_RELEASE="-O2 -DNDEBUG" -DCMAKE_INSTALL_PREFIX=/usr
echo "== sanitizer build (ASan + UBSan)"
# The benchmark helpers are compiled (and kept compiling) by the release build.
# -g1: line tables and function names, all a sanitizer report needs, at a
# smaller compile and link than full debug info.
# MNEMO_TEST_CLOCK here only: the tests of TTLs and time windows then move mnemod's clock instead of
# sleeping; the release build above, which the .deb packages, never has it.
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  run_suite build-asan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-g1 -DCMAKE_C_FLAGS_DEBUG=-g1 \
  -DMNEMO_SANITIZE=ON -DMNEMO_BENCH=OFF -DMNEMO_TEST_CLOCK=ON
