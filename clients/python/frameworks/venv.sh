#!/usr/bin/env bash
# Prints the path of a virtual environment holding exactly the packages of
# clients/python/requirements-test.lock (installed with --require-hashes),
# creating it first when this machine has none for this lock file yet.
# The environment lives outside the repository, in a cache folder named by
# the lock file's hash and the interpreter's version, so a changed lock file
# gets a new one and every later run on the machine reuses it: google-adk's
# tree is large and is installed once per machine, not once per run.
# Debian's /usr/bin/python3 with python3-venv (tools/install-deps.sh --test).
# Usage: clients/python/frameworks/venv.sh   (MNEMO_PY_CACHE overrides the cache folder)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
lock="$here/requirements-test.lock"
python=/usr/bin/python3
if ! "$python" -c 'import venv, ensurepip' 2>/dev/null; then
  echo "venv.sh: $python cannot create a virtual environment; run tools/install-deps.sh --test (python3-venv)" >&2
  exit 1
fi
version=$("$python" -c 'import sys; print("%d.%d.%d" % sys.version_info[:3])')
key=$( (cat "$lock"; echo "$version") | sha256sum | cut -c1-16)
cache="${MNEMO_PY_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mnemo/python-frameworks}"
venv="$cache/$key"
if [ ! -f "$venv/.complete" ]; then
  mkdir -p "$cache"
  # One installer at a time (ctest may start several suites at once); the
  # marker is written last, so an interrupted install is done again.
  exec 9>"$cache/.lock"
  flock 9
  if [ ! -f "$venv/.complete" ]; then
    rm -rf "$venv"
    echo "venv.sh: installing $lock into $venv (once per machine)" >&2
    "$python" -m venv "$venv"
    # PIP_FIND_LINKS and other local wheel folders stay out: only the registry's files, checked by hash.
    PIP_FIND_LINKS= "$venv/bin/pip" install --quiet --no-input --require-hashes --only-binary=:all: \
      -r "$lock" >&2
    "$venv/bin/pip" check >&2
    touch "$venv/.complete"
  fi
  exec 9>&-
fi
echo "$venv"
