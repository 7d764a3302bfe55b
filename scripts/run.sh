#!/usr/bin/env bash
# Builds DuetDB (Release) and runs duetd in the foreground on 127.0.0.1:5432 with its data
# in ./duet-data. On first start it loads the demo into database postgres: TPC-C with one
# warehouse and CH-benCHmark's three extra tables (bench/tpcc/schema.sql, duet_tpcc_load)
# and the five TPC-C transactions as PL/pgSQL functions (bench/tpcc/procedures.sql), so
# the README's quickstart has real tables to describe, procedures to call and rows to
# analyse. Ctrl-C stops it; the next start finds the data and skips the load.
# DUET_PORT and DUET_DATA_DIR choose another port and data directory; DUET_RUN_NO_BUILD=1
# uses build/ as it is (tests/clients/demo_test.sh, after scripts/test.sh's build).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

if [ "${DUET_RUN_NO_BUILD:-0}" != "1" ]; then
  bash scripts/setup.sh
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
  cmake --build build --target duetd duet_tpcc_load
fi

PORT=${DUET_PORT:-5432}
DATA_DIR=${DUET_DATA_DIR:-./duet-data}
mkdir -p "$DATA_DIR"
build/bin/duetd --data-dir "$DATA_DIR" --listen 127.0.0.1 --port "$PORT" &
SERVER_PID=$!
trap 'kill "$SERVER_PID" 2>/dev/null; wait "$SERVER_PID"' INT TERM
if ! wait_ready "$PORT" "$SERVER_PID"; then
  echo "duetd did not start accepting connections on port $PORT" >&2
  kill "$SERVER_PID" 2>/dev/null || true
  exit 1
fi

psql_demo() { psql -X -q -A -t -h 127.0.0.1 -p "$PORT" -U postgres -d postgres -v ON_ERROR_STOP=1 "$@"; }
# The load is one step: the tables, the functions and the rows. A start that finds the
# schema without its rows (a load cut short) loads again; schema.sql drops what it creates.
if [ "$(psql_demo -c "SELECT count(*) FROM pg_tables WHERE tablename = 'warehouse'")" = "0" ] ||
  [ "$(psql_demo -c 'SELECT count(*) FROM warehouse')" = "0" ]; then
  echo "Loading the demo: TPC-C with one warehouse and the CH-benCHmark tables..."
  psql_demo -f bench/tpcc/schema.sql -f bench/tpcc/procedures.sql
  build/bin/duet_tpcc_load --host 127.0.0.1 --port "$PORT" --dbname postgres --warehouses 1 --threads 2
fi

cat <<MSG
duetd is running (pid $SERVER_PID), data in $DATA_DIR. Try (README.md, "The first minute"):
  psql -h 127.0.0.1 -p $PORT -U postgres
  postgres=# \\d district
  postgres=# SELECT new_order(1, 3, 42, 2, ARRAY[1001, 2002], ARRAY[1, 1], ARRAY[5, 7]);
  postgres=# EXPLAIN SELECT ol_number, count(*) FROM order_line GROUP BY ol_number;
  postgres=# \\i bench/ch/queries/q05.sql
Press Ctrl-C to stop it.
MSG
wait "$SERVER_PID"
