#!/usr/bin/env bash
# The mixed run of issue 4 in one command: starts duetd and a scratch PostgreSQL 15
# (synchronous_commit = off), loads TPC-C with W warehouses into both, and runs
# bench/snapshots/mixed.py on both (TPC-C alone, then with analytic streams), same run.
# Usage: bench/snapshots/mixed.sh [WAREHOUSES [SECONDS [CONNECTIONS [STREAMS]]]]   (Release build in build/)
set -euo pipefail
cd "$(dirname "$0")/../.."
W=${1:-1}; S=${2:-15}; C=${3:-1}; STREAMS=${4:-1}
PORT=${DUET_PORT:-56585}
PY=${PY:-.venv/bin/python}
source bench/tpcc/lib.sh
start_duetd_and_postgres "$PWD" "$PORT" --redo-log false
for port in "$PORT" "$PG_PORT"; do load_tpcc "$PWD" "$port" "$W"; done
echo "W=$W, $(nproc) cores, commit $(git log --format=%h -1)"
"$PY" bench/snapshots/mixed.py --server "duetdb=$PORT" --server "postgres=$PG_PORT" --warehouses "$W" \
  --seconds "$S" --connections "$C" --streams "$STREAMS"
