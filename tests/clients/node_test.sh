#!/usr/bin/env bash
# node-postgres and postgres.js (tests/clients/node/, versions pinned by its package-lock):
# installs them from the npm registry on first use, then runs node_clients_test.mjs.
# Usage: node_test.sh HOST PORT
set -euo pipefail
HOST=${1:?usage: node_test.sh HOST PORT}
PORT=${2:?usage: node_test.sh HOST PORT}
cd "$(dirname "$0")/node"
[ -d node_modules/pg ] && [ -d node_modules/postgres ] || npm ci --silent --no-audit --no-fund
exec node node_clients_test.mjs "$HOST" "$PORT"
