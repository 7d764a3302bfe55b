#!/usr/bin/env bash
# The TPC-C mix with duet_tpcc_driver, each run on a fresh load, then the consistency checks:
#
#   bench/tpcc/run_driver.sh [HOST PORT]
#
# Without HOST PORT it starts a scratch PostgreSQL 15 (tests/scratch_pg.py) with
# synchronous_commit = off and stops it at the end. For each connection count it creates the
# database (dropping it first), loads schema.sql, procedures.sql and W warehouses, runs the
# driver and check.py. Settings from the environment: TPCC_WAREHOUSES (1), TPCC_CONNECTIONS
# ("1 4", a run for each), TPCC_SECONDS (10), TPCC_WARMUP (2), TPCC_DB (tpcc_driver),
# TPCC_DRIVER_ARGS (more driver options, e.g. "--json /tmp/run.json"), TPCC_LOADER and
# TPCC_DRIVER (the binaries, default build/bin/). Exits non-zero if the driver reports an
# error or a consistency condition is broken.
set -euo pipefail
[ $# -eq 0 ] || [ $# -eq 2 ] || { sed -n '2,13s/^# \{0,1\}//p' "$0" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
WAREHOUSES=${TPCC_WAREHOUSES:-1}
CONNECTIONS=${TPCC_CONNECTIONS:-1 4}
SECONDS_=${TPCC_SECONDS:-10}
WARMUP=${TPCC_WARMUP:-2}
DB=${TPCC_DB:-tpcc_driver}
LOADER=${TPCC_LOADER:-$ROOT/build/bin/duet_tpcc_load}
DRIVER=${TPCC_DRIVER:-$ROOT/build/bin/duet_tpcc_driver}
for binary in "$LOADER" "$DRIVER"; do
  [ -x "$binary" ] || { echo "$binary not found: build it (ninja -C build duet_tpcc_load duet_tpcc_driver)" >&2; exit 1; }
done
source "$HERE/lib.sh"
PYTHON=$(tpcc_python "$ROOT")

if [ $# -eq 2 ]; then
  HOST=$1 PORT=$2
else
  read -r SCRATCH PORT < <(python3 "$ROOT/tests/scratch_pg.py" start)
  trap 'python3 "$ROOT/tests/scratch_pg.py" stop "$SCRATCH"' EXIT
  HOST=127.0.0.1
  # As the README's figures: commits do not wait for the WAL flush (fsync is off anyway).
  psql -X -q -h "$HOST" -p "$PORT" -U postgres -d postgres \
    -c "ALTER SYSTEM SET synchronous_commit = off" -c "SELECT pg_reload_conf()" >/dev/null
fi

psql_on() { psql -X -q -v ON_ERROR_STOP=1 -h "$HOST" -p "$PORT" -U postgres "$@"; }
status=0
for connections in $CONNECTIONS; do
  echo "== W=$WAREHOUSES, $connections connection(s), ${WARMUP} s warmup + ${SECONDS_} s, database $DB on $HOST:$PORT"
  psql_on -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
  psql_on -d "$DB" -f "$HERE/schema.sql" -f "$HERE/procedures.sql"
  "$LOADER" --host "$HOST" --port "$PORT" --dbname "$DB" --warehouses "$WAREHOUSES" --threads 2 >/dev/null
  # shellcheck disable=SC2086 # TPCC_DRIVER_ARGS is a list of options
  "$DRIVER" --host "$HOST" --port "$PORT" --dbname "$DB" --warehouses "$WAREHOUSES" \
    --connections "$connections" --duration "$SECONDS_" --warmup "$WARMUP" --progress 5 \
    ${TPCC_DRIVER_ARGS:-} || status=1
  "$PYTHON" "$HERE/check.py" --host "$HOST" --port "$PORT" --dbname "$DB" || status=1
done
exit $status
