#!/usr/bin/env bash
# The web console's browser tests: Debian's chromium (tools/install-deps.sh
# --test), headless, driven by playwright-core against this build's mnemod
# with seeded data; then the check that ui/vendor/uplot is the pinned npm
# uPlot. Screenshots go to $MNEMO_UI_SCREENSHOTS (default: screenshots/ here);
# --update-docs also copies the README's one to docs/console.png.
# Usage: tests/ui/run.sh MNEMOD PLUGIN_DIR [--update-docs]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
"$here/../../tools/npm-ci.sh" "$here"
MNEMO_MNEMOD="$(realpath "${1:?usage: tests/ui/run.sh MNEMOD PLUGIN_DIR [--update-docs]}")"
MNEMO_PLUGIN_DIR="$(realpath "${2:?usage: tests/ui/run.sh MNEMOD PLUGIN_DIR [--update-docs]}")"
export MNEMO_MNEMOD MNEMO_PLUGIN_DIR
export MNEMO_UI_SCREENSHOTS="${MNEMO_UI_SCREENSHOTS:-$here/screenshots}"
if [ "${3:-}" = "--update-docs" ]; then export MNEMO_UI_UPDATE_DOCS=1; fi
if [ ! -x /usr/bin/chromium ]; then
  echo "tests/ui: /usr/bin/chromium is missing; install it with tools/install-deps.sh --test" >&2
  exit 1
fi
cd "$here"
exec node --test --test-concurrency=1 ./*.test.mjs
