#!/usr/bin/env bash
# The Connect conformance suite against the platform's own RPC server and client (README.md beside
# this file). Installs the pinned runner with `go install` into .cache/go-bin on first use, then runs
# it in server mode and in client mode; exits non-zero if any test case fails.
set -euo pipefail
cd "$(dirname "$0")/../../.."
VERSION=v1.0.7
BIN_DIR="$PWD/.cache/go-bin"
RUNNER="$BIN_DIR/connectconformance"
STAMP="$BIN_DIR/connectconformance.version"
if [ ! -x "$RUNNER" ] || [ "$(cat "$STAMP" 2>/dev/null)" != "$VERSION" ]; then
  command -v go >/dev/null || { echo "conformance: Go is needed to install connectconformance" >&2; exit 1; }
  GOBIN="$BIN_DIR" go install "connectrpc.com/conformance/cmd/connectconformance@$VERSION"
  echo "$VERSION" > "$STAMP"
fi
DIR=test/transport/conformance
NODE=(node --conditions=source --import tsx)
# Known-failing lists stay empty: every case of the claimed features must pass.
echo "== conformance: the platform's RPC server"
"$RUNNER" --mode server --conf "$DIR/server-config.yaml" -- "${NODE[@]}" "$DIR/server.ts"
echo "== conformance: the platform's RPC client"
"$RUNNER" --mode client --conf "$DIR/client-config.yaml" -- "${NODE[@]}" "$DIR/client.ts"
