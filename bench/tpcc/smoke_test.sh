#!/usr/bin/env bash
# Quick functional test of the TPC-C kit against a running server:
#
#   bench/tpcc/smoke_test.sh HOST PORT
#
# Creates a fresh database tpcc_smoke, loads the schema, the procedures and W = 1 with
# build/bin/duet_tpcc_load (or $TPCC_LOADER), checks the consistency conditions on the fresh
# load, calls each transaction with inputs whose outcome is known and compares it with what
# plain SQL says, runs the pgbench mix for a few seconds (run_pgbench.sh, which checks the
# consistency conditions again), then build/bin/duet_tpcc_driver's mix (or $TPCC_DRIVER's)
# and the conditions once more, then build/bin/duet_tpcc_inprocess (or $TPCC_INPROCESS):
# W = 1 and its mix for 5 seconds on an engine of its own, no server involved. Drops the
# database; prints one line per check; exits 1 if any failed.
set -euo pipefail
[ $# -eq 2 ] || { sed -n '2,13s/^# \{0,1\}//p' "$0" >&2; exit 2; }
HOST=$1 PORT=$2
DB=tpcc_smoke
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
LOADER=${TPCC_LOADER:-$ROOT/build/bin/duet_tpcc_load}
DRIVER=${TPCC_DRIVER:-$ROOT/build/bin/duet_tpcc_driver}
INPROCESS=${TPCC_INPROCESS:-$ROOT/build/bin/duet_tpcc_inprocess}
for binary in "$LOADER" "$DRIVER" "$INPROCESS"; do
  [ -x "$binary" ] || { echo "$binary not found: build it (ninja -C build duet_tpcc_load duet_tpcc_driver duet_tpcc_inprocess)" >&2; exit 1; }
done

psql_db() { psql -X -q -v ON_ERROR_STOP=1 -h "$HOST" -p "$PORT" -U postgres "$@"; }
# q SQL: the result of one statement, unaligned, without headers (NULL prints as nothing).
q() { psql_db -At -d "$DB" -c "$1"; }

failures=0
# expect DESCRIPTION ACTUAL EXPECTED
expect() {
  if [ "$2" == "$3" ]; then
    echo "ok    $1"
  else
    echo "FAIL  $1: expected '$3', got '$2'"
    failures=$((failures + 1))
  fi
}

psql_db -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
psql_db -d "$DB" -f "$HERE/schema.sql" -f "$HERE/procedures.sql"
"$LOADER" --host "$HOST" --port "$PORT" --dbname "$DB" --warehouses 1 --threads 2 >/dev/null
export TPCC_DB=$DB
source "$HERE/lib.sh"
PYTHON=$(tpcc_python "$ROOT")
export PYTHON
"$PYTHON" "$HERE/check.py" --host "$HOST" --port "$PORT" --dbname "$DB" || failures=$((failures + 1))

ONES="ARRAY[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]"
LINES_1_TO_5="ARRAY[1,2,3,4,5,0,0,0,0,0,0,0,0,0,0]"

# New-Order of items 1..5, one unit each, for customer 1 of district 1.
next_o_id=$(q "SELECT d_next_o_id FROM district WHERE d_w_id = 1 AND d_id = 1")
stock_1=$(q "SELECT s_quantity, s_ytd, s_order_cnt FROM stock WHERE s_w_id = 1 AND s_i_id = 1")
expected_total=$(q "SELECT round(sum(i_price) * (1 - c_discount) * (1 + w_tax + d_tax), 2)
                    FROM item, customer, warehouse, district
                    WHERE i_id <= 5 AND c_w_id = 1 AND c_d_id = 1 AND c_id = 1 AND w_id = 1
                      AND d_w_id = 1 AND d_id = 1
                    GROUP BY c_discount, w_tax, d_tax")
expect "new_order returns the total amount" \
  "$(q "SELECT new_order(1, 1, 1, 5, $LINES_1_TO_5, $ONES, $ONES)")" "$expected_total"
expect "new_order takes D_NEXT_O_ID" \
  "$(q "SELECT d_next_o_id FROM district WHERE d_w_id = 1 AND d_id = 1")" "$((next_o_id + 1))"
expect "new_order inserts the order" \
  "$(q "SELECT o_c_id, o_carrier_id IS NULL, o_ol_cnt, o_all_local FROM orders
        WHERE o_w_id = 1 AND o_d_id = 1 AND o_id = $next_o_id")" "1|t|5|1"
expect "new_order inserts the NEW-ORDER row" \
  "$(q "SELECT count(*) FROM new_order WHERE no_w_id = 1 AND no_d_id = 1 AND no_o_id = $next_o_id")" "1"
expect "new_order inserts five lines" \
  "$(q "SELECT count(*), min(ol_number), max(ol_number), count(ol_delivery_d) FROM order_line
        WHERE ol_w_id = 1 AND ol_d_id = 1 AND ol_o_id = $next_o_id")" "5|1|5|0"
IFS='|' read -r quantity ytd order_cnt <<<"$stock_1"
if [ "$quantity" -ge 11 ]; then new_quantity=$((quantity - 1)); else new_quantity=$((quantity + 90)); fi
expect "new_order updates the stock" \
  "$(q "SELECT s_quantity, s_ytd, s_order_cnt FROM stock WHERE s_w_id = 1 AND s_i_id = 1")" \
  "$new_quantity|$((ytd + 1))|$((order_cnt + 1))"

# The same order with an unused item number last: NULL, and nothing changed.
stock_1=$(q "SELECT s_quantity, s_ytd, s_order_cnt FROM stock WHERE s_w_id = 1 AND s_i_id = 1")
expect "new_order with an unused item returns NULL" \
  "$(q "SELECT new_order(1, 1, 1, 5, ARRAY[1,2,3,4,100001,0,0,0,0,0,0,0,0,0,0], $ONES, $ONES) IS NULL")" "t"
expect "the rolled-back order leaves D_NEXT_O_ID" \
  "$(q "SELECT d_next_o_id FROM district WHERE d_w_id = 1 AND d_id = 1")" "$((next_o_id + 1))"
expect "the rolled-back order leaves the stock" \
  "$(q "SELECT s_quantity, s_ytd, s_order_cnt FROM stock WHERE s_w_id = 1 AND s_i_id = 1")" "$stock_1"
expect "the rolled-back order leaves no order" \
  "$(q "SELECT count(*) FROM orders WHERE o_w_id = 1 AND o_d_id = 1 AND o_id > $next_o_id")" "0"

# Order-Status of customer 1 of district 1: the order just made.
expect "order_status returns the last order's lines" \
  "$(q "SELECT count(*), min(order_id), min(customer_id), sum(quantity) FROM order_status(1, 1, 1, false, 0)")" \
  "5|$next_o_id|1|5"

# Payment by C_ID.
before=$(q "SELECT c_balance - 100, c_ytd_payment + 100, c_payment_cnt + 1 FROM customer
            WHERE c_w_id = 1 AND c_d_id = 2 AND c_id = 10")
w_ytd=$(q "SELECT w_ytd + 100 FROM warehouse WHERE w_id = 1")
history=$(q "SELECT count(*) + 1 FROM history")
expect "payment by C_ID returns the customer" "$(q "SELECT payment(1, 2, 1, 2, 10, false, 0, 100.00)")" "10"
expect "payment updates the customer" \
  "$(q "SELECT c_balance, c_ytd_payment, c_payment_cnt FROM customer WHERE c_w_id = 1 AND c_d_id = 2 AND c_id = 10")" \
  "$before"
expect "payment updates W_YTD" "$(q "SELECT w_ytd FROM warehouse WHERE w_id = 1")" "$w_ytd"
expect "payment inserts history" "$(q "SELECT count(*) FROM history")" "$history"

# Payment by last name 371 (PRICALLYOUGHT): the customer at position ceil(n/2) in C_FIRST order.
mapfile -t namesakes < <(q "SELECT c_id FROM customer
                            WHERE c_w_id = 1 AND c_d_id = 3 AND c_last = 'PRICALLYOUGHT' ORDER BY c_first")
expect "payment by last name takes the middle customer of ${#namesakes[@]}" \
  "$(q "SELECT payment(1, 3, 1, 3, 0, true, 371, 5.00)")" "${namesakes[$(( (${#namesakes[@]} - 1) / 2 ))]}"

# A bad-credit customer gets the payment in front of C_DATA.
bad=$(q "SELECT c_id FROM customer WHERE c_w_id = 1 AND c_d_id = 4 AND c_credit = 'BC' ORDER BY c_id LIMIT 1")
q "SELECT payment(1, 5, 1, 4, $bad, false, 0, 12.34)" >/dev/null
prefix="$bad 4 1 5 1 12.34 | "
expect "payment records itself in a bad-credit customer's C_DATA" \
  "$(q "SELECT c_data::varchar(${#prefix}), length(c_data) <= 500 FROM customer
        WHERE c_w_id = 1 AND c_d_id = 4 AND c_id = $bad")" "$prefix|t"

# Delivery: the oldest undelivered order of each district.
oldest=$(q "SELECT min(no_o_id) FROM new_order WHERE no_w_id = 1 AND no_d_id = 6")
customer=$(q "SELECT o_c_id FROM orders WHERE o_w_id = 1 AND o_d_id = 6 AND o_id = $oldest")
amount=$(q "SELECT sum(ol_amount) FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 6 AND ol_o_id = $oldest")
balance=$(q "SELECT c_balance + $amount FROM customer WHERE c_w_id = 1 AND c_d_id = 6 AND c_id = $customer")
new_orders=$(q "SELECT count(*) - 10 FROM new_order")
expect "delivery delivers in all 10 districts" "$(q "SELECT delivery(1, 7)")" "10"
expect "delivery removes 10 NEW-ORDER rows" "$(q "SELECT count(*) FROM new_order")" "$new_orders"
expect "delivery sets the carrier" \
  "$(q "SELECT o_carrier_id FROM orders WHERE o_w_id = 1 AND o_d_id = 6 AND o_id = $oldest")" "7"
expect "delivery dates the order's lines" \
  "$(q "SELECT count(*) FROM order_line
        WHERE ol_w_id = 1 AND ol_d_id = 6 AND ol_o_id = $oldest AND ol_delivery_d IS NULL")" "0"
expect "delivery credits the customer" \
  "$(q "SELECT c_balance FROM customer WHERE c_w_id = 1 AND c_d_id = 6 AND c_id = $customer")" "$balance"

# Stock-Level against the same count in plain SQL.
expect "stock_level counts the low-stock items of the last 20 orders" \
  "$(q "SELECT stock_level(1, 1, 15)")" \
  "$(q "SELECT count(DISTINCT s_i_id) FROM district, order_line, stock
        WHERE d_w_id = 1 AND d_id = 1 AND ol_w_id = 1 AND ol_d_id = 1
          AND ol_o_id >= d_next_o_id - 20 AND ol_o_id < d_next_o_id
          AND s_w_id = 1 AND s_i_id = ol_i_id AND s_quantity < 15")"

# expect_success DESCRIPTION COMMAND...: runs the command with its output in a log; prints ok,
# or FAIL and the log.
expect_success() {
  local description=$1 log=/tmp/tpcc-smoke-mix.$$
  shift
  if "$@" >"$log" 2>&1; then
    echo "ok    $description"
  else
    echo "FAIL  $description:"
    cat "$log"
    failures=$((failures + 1))
  fi
  rm -f "$log"
}

# The driver's mix: it exits non-zero if a call fails or New-Order's NULL results do not
# match the orders given the unused item. Then the conditions again.
driver_mix() {
  "$DRIVER" --host "$HOST" --port "$PORT" --dbname "$DB" --connections 2 --duration 3 --warmup 0 &&
    "$PYTHON" "$HERE/check.py" --host "$HOST" --port "$PORT" --dbname "$DB"
}

# Each mix for a few seconds; run_pgbench.sh checks the consistency conditions after it.
expect_success "pgbench mix, then consistency conditions 1-4" "$HERE/run_pgbench.sh" "$HOST" "$PORT" 1 2 3
expect_success "duet_tpcc_driver mix, then consistency conditions 1-4" driver_mix
# In-process: its own engine, load, checks before and after a 5-second mix; exits non-zero
# if a call fails or a condition breaks.
expect_success "duet_tpcc_inprocess W = 1, 5 s, consistency conditions 1-4" \
  "$INPROCESS" --warehouses 1 --duration 5 --warmup 0

if [ "$failures" -eq 0 ]; then
  psql_db -d postgres -c "DROP DATABASE $DB"
  echo "smoke test passed"
else
  echo "smoke test: $failures check(s) failed (database $DB kept for inspection)"
  exit 1
fi
