#!/usr/bin/env bash
# pgbench against a server: initialise scale 1, run the TPC-B-like script with 4 clients for
# 10 s in each query mode (simple, extended, prepared); each run must exit 0 and report no
# failed transactions. Then the balances must agree with the history: every transaction adds
# the same delta to one account, teller and branch and logs it in pgbench_history.
# Usage: pgbench_test.sh HOST PORT [SECONDS]
set -uo pipefail
HOST=${1:?usage: pgbench_test.sh HOST PORT [SECONDS]}
PORT=${2:?usage: pgbench_test.sh HOST PORT [SECONDS]}
SECONDS_PER_MODE=${3:-10}
export PGCONNECT_TIMEOUT=10
CONN=(-h "$HOST" -p "$PORT" -U postgres)

failures=0
checks=0
fail() { failures=$((failures + 1)); echo "FAIL $*"; }

checks=$((checks + 1))
if ! init_out=$(pgbench "${CONN[@]}" -i -s 1 -q postgres 2>&1); then
  fail "pgbench -i -s 1"; echo "$init_out"
fi

for mode in simple extended prepared; do
  checks=$((checks + 1))
  out=$(pgbench "${CONN[@]}" -n -c 4 -T "$SECONDS_PER_MODE" -M "$mode" postgres 2>&1)
  rc=$?
  processed=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' <<<"$out")
  # pgbench 15 prints "number of failed transactions: N (x%)"; older ones print nothing.
  failed=$(sed -n 's/^number of failed transactions: \([0-9]*\).*/\1/p' <<<"$out")
  tps=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' <<<"$out")
  if [ "$rc" -ne 0 ] || [ -z "$processed" ] || [ "$processed" -eq 0 ] || [ "${failed:-0}" -ne 0 ]; then
    fail "pgbench -M $mode: exit $rc, processed ${processed:-?}, failed ${failed:-?}"
    echo "$out" | tail -20
  else
    echo "pgbench -M $mode: $processed transactions, tps $tps"
  fi
done

# sum(delta) in the history must equal the sum of balances at each level.
check_sum() {   # check_sum TABLE COLUMN
  checks=$((checks + 1))
  local balance history
  balance=$(psql -X -A -t "${CONN[@]}" -d postgres -c "SELECT coalesce(sum($2), 0) FROM $1")
  history=$(psql -X -A -t "${CONN[@]}" -d postgres -c "SELECT coalesce(sum(delta), 0) FROM pgbench_history")
  if [ -z "$balance" ] || [ "$balance" != "$history" ]; then
    fail "sum($2) of $1 is '$balance' but sum(delta) of pgbench_history is '$history'"
  fi
}
check_sum pgbench_accounts abalance
check_sum pgbench_tellers tbalance
check_sum pgbench_branches bbalance

psql -X -q "${CONN[@]}" -d postgres -c \
  'DROP TABLE IF EXISTS pgbench_accounts; DROP TABLE IF EXISTS pgbench_branches;
   DROP TABLE IF EXISTS pgbench_tellers; DROP TABLE IF EXISTS pgbench_history' >/dev/null 2>&1

echo "pgbench: $((checks - failures)) passed, $failures failed"
[ "$failures" -eq 0 ]
