#!/usr/bin/env bash
# Installs every Debian 12 package mnemod needs to build, run and test.
# Usage: tools/install-deps.sh [--test] [--fuzz]
#   --test adds the test-only servers and tools; --fuzz adds clang and its
#   libFuzzer runtime (tests/fuzz/run.sh). The MCP tests also need Node >= 20
#   with its npm, which come with these machines, never from Debian (its
#   nodejs is too old); tools/npm-ci.sh checks the version and installs the
#   pinned packages of tests/mcp and clients/typescript with `npm ci`.
#   The Go client's tests need Go >= 1.26, which also comes with these
#   machines (/usr/local/go); clients/go/run.sh fetches its modules, pinned by go.sum.
set -euo pipefail
runtime_and_build=(
  build-essential cmake pkg-config ca-certificates curl
  libuv1-dev liblua5.4-dev libsqlite3-dev libmysqlcppconn-dev libyaml-cpp-dev
  libsimdjson-dev libhttp-parser-dev libsystemd-dev libspdlog-dev libfmt-dev
  libcli11-dev libedit-dev libhowardhinnant-date-dev libabsl-dev
  libhnswlib-dev libcurl4-openssl-dev libstemmer-dev libpq-dev
)
test_only=(
  libgtest-dev libgmock-dev libbenchmark-dev mariadb-server wrk redis-server
  postgresql-15  # the postgres tests start their own server from /usr/lib/postgresql/15/bin
  tmux util-linux python3 systemd dpkg-dev
  python3-pytest python3-setuptools python3-wheel python3-venv mypy  # the Python client: tests, offline install, types
  python3-jsonschema python3-yaml  # docs/openapi.yaml: its schemas checked against real answers
  mandoc man-db  # the manual pages: mandoc -T lint (ctest man_lint), man -l (tests/package)
  chromium  # the web console's browser tests (tests/ui), driven headless by playwright-core
)
fuzz_only=(clang libclang-rt-14-dev)
packages=("${runtime_and_build[@]}")
for arg in "$@"; do
  case "$arg" in
    --test) packages+=("${test_only[@]}") ;;
    --fuzz) packages+=("${fuzz_only[@]}") ;;
    *) echo "install-deps.sh: unknown option $arg (use --test, --fuzz)" >&2; exit 2 ;;
  esac
done
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
