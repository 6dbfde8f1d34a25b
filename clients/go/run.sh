#!/usr/bin/env bash
# Vets and tests every Go module under clients/go (the client, then each
# framework adapter) with the race detector, against this build's mnemod:
# the tests start their own daemons (memory and sqlite storage). Module
# downloads come from the Go module proxy, pinned by each module's go.sum.
# Usage: clients/go/run.sh MNEMOD PLUGIN_DIR   (ctest passes the build's own)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
export MNEMO_MNEMOD="${1:?usage: clients/go/run.sh MNEMOD PLUGIN_DIR}"
export MNEMO_PLUGIN_DIR="${2:?usage: clients/go/run.sh MNEMOD PLUGIN_DIR}"
# go.sum pins every download; the machine's own Go is used, never one fetched.
export GOFLAGS=-mod=readonly GOTOOLCHAIN=local
# Go comes with these machines in /usr/local/go (see tools/install-deps.sh).
PATH="$PATH:/usr/local/go/bin"
if ! command -v go >/dev/null; then
  echo "clients/go/run.sh: no go command: install Go >= 1.26 (https://go.dev/doc/install)" >&2
  exit 1
fi
# go test -vet=all runs every go vet check on each package it tests, on the
# same (race) build of the dependencies: a separate go vet would compile the
# adapters' large dependency graphs a second time. go test vets no package
# without tests, so the one such package is vetted on its own.
go -C "$here" vet ./internal/...
for module in "$here" "$here"/adk "$here"/trpc; do
  echo "== $(go -C "$module" list -m)"
  go -C "$module" test -race -vet=all -count=1 ./...
done
