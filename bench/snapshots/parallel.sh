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
PY=${PY:-.venv/bin/python}
"$PY" -c 'import duckdb' 2>/dev/null || "$PY" -m pip install -q duckdb
source bench/tpcc/lib.sh
start_duetd_and_postgres "$PWD" "$PORT" --redo-log false
trap 'kill $DUET_PID 2>/dev/null; wait $DUET_PID 2>/dev/null; rm -rf "$DUET_DATA" "$DUET_DATA.log" /tmp/duet-parallel-*.csv; python3 "$STOP_PG" stop "$PG_SCRATCH"' EXIT
for port in "$PORT" "$PG_PORT"; do load_tpcc "$PWD" "$port" "$W"; done
psql -X -q -h 127.0.0.1 -p "$PG_PORT" -U postgres -d tpcc -c "VACUUM ANALYZE"
echo "W=$W, $(nproc) cores, commit $(git log --format=%h -1)"
"$PY" bench/snapshots/parallel.py --server "duetdb=$PORT" --server "postgres=$PG_PORT" \
  --duckdb-from "$PORT" --threads "$THREADS"
