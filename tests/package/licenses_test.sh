#!/usr/bin/env bash
# The licenses every package ships: the Apache-2.0 text at the root and the
# same bytes in each client package's own folder (a Go module, the Python and
# the TypeScript package carry only their folder), the metadata of each saying
# Apache-2.0, and NOTICE pointing only at license texts that exist. Reads the
# source tree; /usr/bin/python3 for Debian's setuptools and json.
source "$(dirname "$0")/common.sh"
cd "$MNEMO_SOURCE_DIR"

grep -q "Apache License" LICENSE && grep -q "Version 2.0, January 2004" LICENSE || fail "LICENSE is not Apache-2.0"
for dir in clients/go clients/go/adk clients/go/trpc clients/python clients/typescript; do
  cmp -s LICENSE "$dir/LICENSE" || fail "$dir/LICENSE differs from the root LICENSE (or is missing); copy it"
done
for module in $(git ls-files '*go.mod' 2>/dev/null || find clients -name go.mod); do
  [ -e "$(dirname "$module")/LICENSE" ] || fail "the Go module $(dirname "$module") has no LICENSE file"
done
license=$(cd clients/python && /usr/bin/python3 -W ignore -c '
from setuptools.config.pyprojecttoml import read_configuration
project = read_configuration("pyproject.toml")["project"]
print(project["license"]["text"], "Apache" in " ".join(project["classifiers"]))')
[ "$license" = "Apache-2.0 True" ] || fail "clients/python/pyproject.toml: license and classifier say '$license'"
license=$(/usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["license"])' \
  clients/typescript/package.json)
[ "$license" = "Apache-2.0" ] || fail "clients/typescript/package.json: license is '$license'"
for text in $(grep -o 'licenses/[A-Za-z0-9_.-]*\.txt' NOTICE); do
  require_file "$text" "named in NOTICE"
done
for text in licenses/*.txt; do
  grep -q "$text" NOTICE || fail "NOTICE does not name $text"
done
echo "licenses: ok"
