#!/usr/bin/env bash
# Fuzzes one libFuzzer target for a while: tests/fuzz/run.sh TARGET SECONDS
# (TARGET: a tests/fuzz/TARGET_fuzz.cpp, e.g. jsonrpc).
# Builds build-fuzz/ with clang (libFuzzer, ASan, UBSan), starts from the seed
# corpus tests/fuzz/corpus/TARGET and grows a scratch corpus in
# build-fuzz/corpus/TARGET (the tree keeps only the seeds). A crash leaves its
# input in build-fuzz/artifacts/TARGET/: once fixed, copy it into
# tests/fuzz/corpus/TARGET/ so the replay test of the normal builds keeps it.
# FUZZ_CMAKE_ARGS adds cmake arguments (e.g. a compiler launcher).
set -euo pipefail
cd "$(dirname "$0")/../.."
usage="usage: tests/fuzz/run.sh TARGET SECONDS"
target=${1:?$usage}
seconds=${2:?$usage}
if [ ! -f "tests/fuzz/${target}_fuzz.cpp" ]; then
  echo "no fuzz target '$target': expected tests/fuzz/${target}_fuzz.cpp" >&2
  exit 2
fi
tools/install-deps.sh --fuzz
# shellcheck disable=SC2086  # FUZZ_CMAKE_ARGS is a list of arguments
cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DMNEMO_FUZZ=ON -DMNEMO_TESTS=OFF -DMNEMO_BENCH=OFF -DMNEMO_WERROR=OFF ${FUZZ_CMAKE_ARGS:-} >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target "fuzz_${target}"
mkdir -p "build-fuzz/corpus/${target}" "build-fuzz/artifacts/${target}"
exec "build-fuzz/tests/fuzz/fuzz_${target}" -max_total_time="${seconds}" -print_final_stats=1 \
  -artifact_prefix="build-fuzz/artifacts/${target}/" "build-fuzz/corpus/${target}" "tests/fuzz/corpus/${target}"
