#!/usr/bin/env bash
# Prints the path of a virtual environment holding exactly the packages of
# the given lock files (pip-compile --generate-hashes format, installed with
# --require-hashes from the registry), creating it first when this machine
# has none for these lock files yet. It lives outside the repository, in a
# cache folder named by the lock files' hash and the interpreter's version,
# so a changed lock file gets a new one and every later run reuses it.
# Debian's /usr/bin/python3 with python3-venv (tools/install-deps.sh --test).
#   tools/python-venv.sh PREFIX LOCK [NO_DEPS_LOCK]
# PREFIX names it under the cache (`python-frameworks/` -> ~/.cache/mnemo/python-frameworks/<hash>);
# NO_DEPS_LOCK is installed after LOCK without its packages' declared
# dependencies (and `pip check` is then skipped: they are missing on purpose).
# MNEMO_PY_CACHE overrides the cache folder (default ~/.cache/mnemo).
set -euo pipefail
prefix="$1"
locks=("${@:2}")
python=/usr/bin/python3
if ! "$python" -c 'import venv, ensurepip' 2>/dev/null; then
  echo "python-venv.sh: $python cannot create a virtual environment;" \
    "run tools/install-deps.sh --test (python3-venv)" >&2
  exit 1
fi
version=$("$python" -c 'import sys; print("%d.%d.%d" % sys.version_info[:3])')
key=$( (cat "${locks[@]}"; echo "$version") | sha256sum | cut -c1-16)
cache="${MNEMO_PY_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mnemo}"
venv="$cache/$prefix$key"
if [ ! -f "$venv/.complete" ]; then
  mkdir -p "$(dirname "$venv")"
  # One installer at a time (ctest may start several suites at once); the
  # marker is written last, so an interrupted install is done again.
  exec 9>"$(dirname "$venv")/.lock"
  flock 9
  if [ ! -f "$venv/.complete" ]; then
    rm -rf "$venv"
    echo "python-venv.sh: installing ${locks[*]} into $venv (once per machine)" >&2
    "$python" -m venv "$venv"
    # PIP_FIND_LINKS and other local wheel folders stay out: only the registry's files, checked by hash.
    pip=(env PIP_FIND_LINKS= "$venv/bin/pip" install --quiet --no-input --require-hashes --only-binary=:all:)
    "${pip[@]}" -r "${locks[0]}" >&2
    if [ "${#locks[@]}" -gt 1 ]; then
      "${pip[@]}" --no-deps -r "${locks[1]}" >&2
    else
      "$venv/bin/pip" check >&2
    fi
    touch "$venv/.complete"
  fi
  exec 9>&-
fi
echo "$venv"
