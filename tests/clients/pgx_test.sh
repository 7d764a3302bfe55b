#!/usr/bin/env bash
# pgx v5 (tests/clients/pgx, modules pinned by go.mod and go.sum, fetched from the Go
# module proxy on first use): runs its test program against the server.
# Usage: pgx_test.sh HOST PORT
set -euo pipefail
HOST=${1:?usage: pgx_test.sh HOST PORT}
PORT=${2:?usage: pgx_test.sh HOST PORT}
cd "$(dirname "$0")/pgx"
command -v go >/dev/null || export PATH="$PATH:/usr/local/go/bin"
exec go run . "$HOST" "$PORT"
