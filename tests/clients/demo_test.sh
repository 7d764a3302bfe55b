#!/usr/bin/env bash
# The README's first minute, as a newcomer runs it: scripts/run.sh on a fresh data
# directory loads the TPC-C demo, then through psql: \d on a real table, a New-Order call
# read back by Order-Status, an analytic query that runs in a snapshot and sees that
# order, duet_snapshots, a CH-benCHmark query; then a stop and a second start that finds
# the data without loading it again. DuetDB only (snapshots are DuetDB's), after a build.
#   tests/clients/demo_test.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib.sh

TMP=$(mktemp -d /tmp/duet-demo.XXXXXX)
PORT=$(free_port)
RUN_PID=""
FAILED=0
cleanup() {
  [ -n "$RUN_PID" ] && kill -TERM "$RUN_PID" 2>/dev/null && wait "$RUN_PID" 2>/dev/null
  rm -rf "$TMP"
}
trap cleanup EXIT

check() {  # check LABEL EXPECTED ACTUAL: equality, reported either way
  if [ "$2" = "$3" ]; then
    echo "ok   $1"
  else
    echo "FAIL $1: expected [$2], got [$3]"
    FAILED=1
  fi
}
contains() {  # contains LABEL NEEDLE HAYSTACK
  if [[ "$3" == *"$2"* ]]; then
    echo "ok   $1"
  else
    echo "FAIL $1: [$2] not in:"
    echo "$3"
    FAILED=1
  fi
}

# start LOG: scripts/run.sh in the background until it says the server is running.
start() {
  DUET_RUN_NO_BUILD=1 DUET_PORT=$PORT DUET_DATA_DIR=$TMP/data bash scripts/run.sh >"$1" 2>&1 &
  RUN_PID=$!
  for _ in $(seq 1 600); do
    grep -q "duetd is running" "$1" && return 0
    kill -0 "$RUN_PID" 2>/dev/null || break
    sleep 0.5
  done
  echo "FAIL scripts/run.sh did not start the server:"
  cat "$1"
  exit 1
}
stop() {
  kill -TERM "$RUN_PID"
  wait "$RUN_PID" 2>/dev/null
  RUN_PID=""
}
q() { psql -X -A -t -h 127.0.0.1 -p "$PORT" -U postgres -d postgres -v ON_ERROR_STOP=1 "$@" 2>&1; }

start "$TMP/first.log"
contains "the first start loads the demo" "loaded 1 warehouse(s)" "$(cat "$TMP/first.log")"
contains "\\d district" '"district_pkey" PRIMARY KEY, btree (d_w_id, d_id)' \
  "$(psql -X -h 127.0.0.1 -p "$PORT" -U postgres -c '\d district' 2>&1)"
check "new_order" "371.16" \
  "$(q -c 'SELECT new_order(1, 3, 42, 2, ARRAY[1001, 2002], ARRAY[1, 1], ARRAY[5, 7])')"
check "order_status reads it back" "3001|1001|5|489.65
3001|2002|7|89.74" \
  "$(q -c 'SELECT order_id, item_id, quantity, amount FROM order_status(1, 3, 42, false, 0)')"
ANALYTIC="SELECT ol_number, count(*) AS lines, sum(ol_amount) AS amount
  FROM order_line WHERE ol_delivery_d IS NULL GROUP BY ol_number ORDER BY ol_number LIMIT 3"
contains "the analytic query runs in a snapshot" "Runs On: snapshot" "$(q -c "EXPLAIN $ANALYTIC")"
check "the snapshot sees the new order" "1|9001|44909675.25
2|9001|45274346.05
3|9000|44496424.74" "$(q -c "$ANALYTIC")"
check "duet_snapshots lists the snapshot" "t" "$(q -c 'SELECT count(*) > 0 FROM duet_snapshots')"
check "CH-benCHmark Q5" "23" "$(q -f bench/ch/queries/q05.sql | wc -l)"
stop

start "$TMP/second.log"
contains "the second start replays the log" "duetd: replayed" "$(cat "$TMP/second.log")"
if grep -q "Loading the demo" "$TMP/second.log"; then
  echo "FAIL the second start loaded the demo again"
  FAILED=1
fi
check "the data and the new order are there" "30001" "$(q -c 'SELECT count(*) FROM orders')"
stop

[ "$FAILED" = 0 ] && echo "demo: all checks passed"
exit "$FAILED"
