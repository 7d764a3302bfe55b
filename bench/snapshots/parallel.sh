#!/usr/bin/env bash
# Analytic statements on one thread and on several, DuetDB (in a snapshot) against
# PostgreSQL 15 and DuckDB, same run (issue 4): starts duetd and a scratch PostgreSQL,
# loads TPC-C with W warehouses into both, copies the tables the queries read into DuckDB,
# and runs bench/snapshots/parallel.py with thread counts THREADS (default "1,2").
# Usage: bench/snapshots/parallel.sh [WAREHOUSES [THREADS]]   (Release build in build/)
set -euo pipefail
cd "$(dirname "$0")/../.."
W=${1:-10}; THREADS=${2:-1,2}
PORT=${DUET_PORT:-56580}
DATA=$(mktemp -d /tmp/duet-parallel.XXXXXX)
PY=${PY:-.venv/bin/python}
"$PY" -c 'import duckdb' 2>/dev/null || "$PY" -m pip install -q duckdb
build/bin/duetd --port "$PORT" --data-dir "$DATA" --redo-log false >"$DATA.log" 2>&1 &
DUET_PID=$!
read -r SCRATCH PG_PORT < <(python3 tests/scratch_pg.py start)
trap 'kill $DUET_PID 2>/dev/null; wait $DUET_PID 2>/dev/null; rm -rf "$DATA" "$DATA.log" /tmp/duet-parallel-*.csv; python3 tests/scratch_pg.py stop "$SCRATCH"' EXIT
for _ in $(seq 1 100); do pg_isready -q -h 127.0.0.1 -p "$PORT" && break; sleep 0.1; done
for port in "$PORT" "$PG_PORT"; do
  psql -X -q -h 127.0.0.1 -p "$port" -U postgres -c "CREATE DATABASE tpcc"
  psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U postgres -d tpcc \
    -f bench/tpcc/schema.sql -f bench/tpcc/procedures.sql
  build/bin/duet_tpcc_load --host 127.0.0.1 --port "$port" --dbname tpcc --warehouses "$W" --threads 2 >/dev/null
done
psql -X -q -h 127.0.0.1 -p "$PG_PORT" -U postgres -d tpcc -c "VACUUM ANALYZE"
echo "W=$W, $(nproc) cores, commit $(git log --format=%h -1)"
"$PY" bench/snapshots/parallel.py --server "duetdb=$PORT" --server "postgres=$PG_PORT" \
  --duckdb-from "$PORT" --threads "$THREADS"
