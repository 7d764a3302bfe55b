#!/usr/bin/env bash
# TPC-C over the wire, DuetDB against PostgreSQL 15 in one run, as docs/benchmarks.md
# records it:
#
#   bench/tpcc/compare_with_postgres.sh [WAREHOUSES [SECONDS]]
#
# Starts duetd (build/bin, a scratch data directory, port 56190 or DUET_PORT) and a scratch
# PostgreSQL 15 (tests/scratch_pg.py, synchronous_commit = off), then for each server: the
# C++ driver at 1, 4 and 16 connections (run_driver.sh: a fresh load per run), and one load
# followed by the pgbench scripts at 1, 4 and 16 clients (run_pgbench.sh). Consistency
# conditions are checked after every run; exits non-zero if any run failed.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
W=${1:-1}
SECS=${2:-10}
DUET_PORT=${DUET_PORT:-56190}
cd "$ROOT"

source bench/tpcc/lib.sh
start_duetd_and_postgres "$ROOT" "$DUET_PORT"

status=0
for server in "duetdb $DUET_PORT" "postgres $PG_PORT"; do
  set -- $server
  echo "### $1, W=$W: duet_tpcc_driver"
  TPCC_WAREHOUSES=$W TPCC_CONNECTIONS="1 4 16" TPCC_SECONDS=$SECS \
    bench/tpcc/run_driver.sh 127.0.0.1 "$2" || status=1
  echo "### $1, W=$W: pgbench scripts"
  psql -X -q -h 127.0.0.1 -p "$2" -U postgres -d postgres \
    -c "DROP DATABASE IF EXISTS tpcc" -c "CREATE DATABASE tpcc" 2>/dev/null
  psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$2" -U postgres -d tpcc \
    -f bench/tpcc/schema.sql -f bench/tpcc/procedures.sql || status=1
  build/bin/duet_tpcc_load --host 127.0.0.1 --port "$2" --dbname tpcc --warehouses "$W" --threads 2 >/dev/null || status=1
  for clients in 1 4 16; do
    echo "-- $clients clients"
    TPCC_DB=tpcc bench/tpcc/run_pgbench.sh 127.0.0.1 "$2" "$W" "$clients" "$SECS" || status=1
  done
done
exit $status
