#!/usr/bin/env bash
# pg_dump, then a restore with psql into a fresh database of the same server (and of a
# custom-format dump with pg_restore into another): a small
# TPC-C-like schema (SERIAL and identity keys, a standalone sequence, defaults, keys, CHECK
# and FOREIGN KEY constraints, comments, a schema of its own, an index, a view, a function and
# a procedure) and its rows
# come back identical, sequences standing where they stood, constraints enforced, and the
# restored routines run.
# Usage: pg_dump_test.sh HOST PORT
set -uo pipefail
HOST=${1:?usage: pg_dump_test.sh HOST PORT}
PORT=${2:?usage: pg_dump_test.sh HOST PORT}
export PGCONNECT_TIMEOUT=10 PGUSER=postgres

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failures=0
checks=0

q() { local db=$1; shift; psql -X -q -A -t -v ON_ERROR_STOP=1 -h "$HOST" -p "$PORT" -d "$db" "$@"; }

check() {   # check NAME EXPECTED ACTUAL
  checks=$((checks + 1))
  if [ "$2" != "$3" ]; then
    failures=$((failures + 1))
    printf 'FAIL %s\n  expected: %q\n  got:      %q\n' "$1" "$2" "$3"
  fi
}

q postgres -c 'DROP DATABASE IF EXISTS dump_source' -c 'DROP DATABASE IF EXISTS dump_target' \
  -c 'DROP DATABASE IF EXISTS dump_custom' 2>/dev/null
q postgres -c 'CREATE DATABASE dump_source' -c 'CREATE DATABASE dump_target' -c 'CREATE DATABASE dump_custom' >/dev/null
q dump_source >/dev/null <<'SQL'
CREATE TABLE warehouse (w_id integer PRIMARY KEY, w_name varchar(10) NOT NULL, w_tax numeric(4,4) CHECK (w_tax >= 0),
  w_ytd numeric(12,2) DEFAULT 300000.00);
CREATE TABLE customer (c_id serial PRIMARY KEY, c_w_id integer NOT NULL REFERENCES warehouse ON DELETE CASCADE, c_last varchar(16),
  c_since timestamp DEFAULT '2024-01-01 00:00', c_balance numeric(12,2) DEFAULT -10.00, c_data text);
CREATE TABLE history (h_id bigint GENERATED ALWAYS AS IDENTITY, h_c_id integer, h_amount numeric(6,2),
  h_date timestamptz);
CREATE SEQUENCE order_numbers AS integer START WITH 100 INCREMENT BY 5;
CREATE SCHEMA reporting;
CREATE TABLE reporting.totals (w_id integer PRIMARY KEY, total numeric(12,2) NOT NULL);
INSERT INTO reporting.totals VALUES (1, 10.5), (2, 0);
COMMENT ON TABLE warehouse IS 'one row per warehouse';
COMMENT ON COLUMN warehouse.w_tax IS 'sales tax';
CREATE INDEX customer_last ON customer (c_w_id, c_last);
CREATE VIEW rich_customers AS SELECT c_id, c_last, c_balance FROM customer WHERE c_balance > 100;
CREATE FUNCTION balance_of(id integer) RETURNS numeric LANGUAGE sql
  AS 'SELECT c_balance FROM customer WHERE c_id = id';
CREATE PROCEDURE pay(id integer, amount numeric) LANGUAGE plpgsql AS $$
BEGIN
  UPDATE customer SET c_balance = c_balance - amount WHERE c_id = id;
  INSERT INTO history (h_c_id, h_amount, h_date) VALUES (id, amount, '2024-06-01 12:00+00');
END $$;
INSERT INTO warehouse VALUES (1, 'north', 0.0625, DEFAULT), (2, 'it''s', NULL, 0);
INSERT INTO customer (c_w_id, c_last, c_balance, c_data)
  SELECT 1 + g % 2, 'name' || g, g * 50, CASE WHEN g % 3 = 0 THEN NULL ELSE E'tab\there' END
  FROM generate_series(1, 20) g;
CALL pay(3, 12.50);
CALL pay(4, 1.25);
SELECT nextval('order_numbers'), nextval('order_numbers');
SQL

pg_dump -h "$HOST" -p "$PORT" -d dump_source >"$TMP/dump.sql" 2>"$TMP/dump.err"
check "pg_dump exits 0" "0" "$?$(cat "$TMP/dump.err")"
restore=$(q dump_target -f "$TMP/dump.sql" 2>&1 >/dev/null)
check "the dump restores without errors" "" "$restore"

contents=(
  "SELECT * FROM warehouse ORDER BY w_id"
  "SELECT * FROM customer ORDER BY c_id"
  "SELECT * FROM history ORDER BY h_id"
  "SELECT * FROM rich_customers ORDER BY c_id"
  "SELECT balance_of(3), balance_of(4)"
  "SELECT last_value, is_called FROM order_numbers"
  "SELECT last_value, is_called FROM customer_c_id_seq"
  "SELECT pg_get_serial_sequence('customer', 'c_id'), pg_get_serial_sequence('history', 'h_id')"
  "SELECT indexname FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1"
  "SELECT obj_description('warehouse'::regclass, 'pg_class'), col_description('warehouse'::regclass, 3)"
  "SELECT * FROM reporting.totals ORDER BY w_id"
  "SELECT conname, contype, pg_get_constraintdef(oid) FROM pg_constraint WHERE contype IN ('c', 'f') ORDER BY 1"
)
for query in "${contents[@]}"; do
  check "$query" "$(q dump_source -c "$query" 2>&1)" "$(q dump_target -c "$query" 2>&1)"
done
# The custom format, restored by pg_restore into another fresh database.
pg_dump -Fc -h "$HOST" -p "$PORT" -d dump_source -f "$TMP/dump.custom" 2>"$TMP/dump.err"
check "pg_dump -Fc exits 0" "0" "$?$(cat "$TMP/dump.err")"
restore=$(pg_restore --exit-on-error -h "$HOST" -p "$PORT" -d dump_custom "$TMP/dump.custom" 2>&1)
check "pg_restore restores the custom-format dump without errors" "" "$restore"
for query in "${contents[@]}"; do
  check "pg_restore: $query" "$(q dump_source -c "$query" 2>&1)" "$(q dump_custom -c "$query" 2>&1)"
done
# The restored objects keep working: the sequences go on, the procedure runs.
for db in dump_source dump_target; do
  q "$db" -c "CALL pay(5, 2)" -c "INSERT INTO customer (c_w_id, c_last) VALUES (2, 'new')" >/dev/null
done
after="SELECT (SELECT max(c_id) FROM customer), (SELECT max(h_id) FROM history), nextval('order_numbers')"
check "after the restore" "$(q dump_source -c "$after" 2>&1)" "$(q dump_target -c "$after" 2>&1)"
check "the foreign key holds" "ERROR:  insert or update on table \"customer\" violates foreign key constraint \"customer_c_w_id_fkey\"" \
  "$(q dump_target -c "INSERT INTO customer (c_w_id) VALUES (9)" 2>&1 | head -1)"
check "identity stays ALWAYS" "ERROR:  cannot insert a non-DEFAULT value into column \"h_id\"" \
  "$(q dump_target -c "INSERT INTO history VALUES (1, 1, 1, now())" 2>&1 | head -1)"

q postgres -c 'DROP DATABASE dump_source' -c 'DROP DATABASE dump_target' -c 'DROP DATABASE dump_custom' >/dev/null
echo "pg_dump: $((checks - failures)) passed, $failures failed"
[ "$failures" -eq 0 ]
