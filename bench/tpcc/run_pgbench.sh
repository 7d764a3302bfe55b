#!/usr/bin/env bash
# The TPC-C mix over the wire with pgbench: the five scripts in bench/tpcc/pgbench/ with the
# weights 45/43/4/4/4 (New-Order, Payment, Order-Status, Delivery, Stock-Level), then the
# consistency checks; prints total tps and New-Order throughput (tpmC).
#
#   bench/tpcc/run_pgbench.sh HOST PORT WAREHOUSES CLIENTS SECONDS
#
# The database (TPCC_DB, default tpcc) must hold a loaded TPC-C population of WAREHOUSES
# warehouses and the functions of procedures.sql. Each pgbench client is one terminal
# with a fixed home warehouse (client number mod WAREHOUSES). Exits non-zero if pgbench
# fails or a consistency condition is broken.
set -euo pipefail
[ $# -eq 5 ] || { sed -n '2,11s/^# \{0,1\}//p' "$0" >&2; exit 2; }
HOST=$1 PORT=$2 WAREHOUSES=$3 CLIENTS=$4 SECONDS_=$5
DB=${TPCC_DB:-tpcc}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)

# psycopg for check.py: $PYTHON, else the repository's .venv (made as scripts/test.sh does).
source "$HERE/lib.sh"
PYTHON=$(tpcc_python "$ROOT")

# NURand's run-time constants C (clause 2.1.6), the same for every terminal. C for C_LAST
# differs from the loader's (tpcc_random.h: kCLastLoad = 157) by 73, inside the 65..119
# the spec allows and neither 96 nor 112.
CONSTANTS=(-D c_for_c_last=84 -D c_for_c_id=259 -D c_for_ol_i_id=7911)

LOG=$(mktemp /tmp/tpcc-pgbench.XXXXXX)
trap 'rm -f "$LOG"' EXIT
echo "TPC-C mix with pgbench: $HOST:$PORT database $DB, W=$WAREHOUSES, $CLIENTS clients, $SECONDS_ s"
# Deadlocks between concurrent New-Orders (PostgreSQL locks stock rows in item order) are
# retried, up to 10 tries; anything else ends the client, and the run fails.
if ! pgbench -n -h "$HOST" -p "$PORT" -U postgres -M prepared -c "$CLIENTS" -j "$CLIENTS" -T "$SECONDS_" \
    -P 5 --max-tries=10 -D warehouses="$WAREHOUSES" "${CONSTANTS[@]}" \
    -f "$HERE/pgbench/new_order.sql@45" -f "$HERE/pgbench/payment.sql@43" \
    -f "$HERE/pgbench/order_status.sql@4" -f "$HERE/pgbench/delivery.sql@4" \
    -f "$HERE/pgbench/stock_level.sql@4" "$DB" 2>&1 | tee "$LOG"; then
  echo "FAIL: pgbench failed (a client aborted?)" >&2
  exit 1
fi

# Total tps is pgbench's; New-Order's is the one in the section of script 1 (new_order.sql).
total_tps=$(sed -n 's/^tps = \([0-9.]*\) (without initial connection time)/\1/p' "$LOG")
new_order_tps=$(awk '/^SQL script 1:/ {s = 1} s && /tps = / {sub(/.*tps = /, ""); sub(/\).*/, ""); print; exit}' "$LOG")
echo
echo "total:     $total_tps tps"
echo "New-Order: $new_order_tps tps = $(awk -v t="$new_order_tps" 'BEGIN {printf "%.0f", t * 60}') tpmC"
"$PYTHON" "$HERE/check.py" --host "$HOST" --port "$PORT" --dbname "$DB"
