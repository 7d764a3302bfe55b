#!/usr/bin/env bash
# The mixed run of issue 4 in one command: starts duetd and a scratch PostgreSQL 15
# (synchronous_commit = off), loads TPC-C with W warehouses into both, and runs
# bench/snapshots/mixed.py on both (TPC-C alone, then with analytic streams), same run.
# Usage: bench/snapshots/mixed.sh [WAREHOUSES [SECONDS [CONNECTIONS [STREAMS]]]]   (Release build in build/)
set -euo pipefail
cd "$(dirname "$0")/../.."
W=${1:-1}; S=${2:-15}; C=${3:-1}; STREAMS=${4:-1}
PORT=${DUET_PORT:-56585}
DATA=$(mktemp -d /tmp/duet-mixed.XXXXXX)
PY=${PY:-.venv/bin/python}
build/bin/duetd --port "$PORT" --data-dir "$DATA" --redo-log false >"$DATA.log" 2>&1 &
DUET_PID=$!
read -r SCRATCH PG_PORT < <(python3 tests/scratch_pg.py start)
trap 'kill $DUET_PID 2>/dev/null; wait $DUET_PID 2>/dev/null; rm -rf "$DATA" "$DATA.log"; python3 tests/scratch_pg.py stop "$SCRATCH"' EXIT
psql -X -q -h 127.0.0.1 -p "$PG_PORT" -U postgres -d postgres \
  -c "ALTER SYSTEM SET synchronous_commit = off" -c "SELECT pg_reload_conf()" >/dev/null
for _ in $(seq 1 100); do pg_isready -q -h 127.0.0.1 -p "$PORT" && break; sleep 0.1; done
for port in "$PORT" "$PG_PORT"; do
  psql -X -q -h 127.0.0.1 -p "$port" -U postgres -c "CREATE DATABASE tpcc"
  psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U postgres -d tpcc \
    -f bench/tpcc/schema.sql -f bench/tpcc/procedures.sql
  build/bin/duet_tpcc_load --host 127.0.0.1 --port "$port" --dbname tpcc --warehouses "$W" --threads 2 >/dev/null 2>&1
done
echo "W=$W, $(nproc) cores, commit $(git log --format=%h -1)"
"$PY" bench/snapshots/mixed.py --server "duetdb=$PORT" --server "postgres=$PG_PORT" --warehouses "$W" \
  --seconds "$S" --connections "$C" --streams "$STREAMS"
