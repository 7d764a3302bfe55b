#!/usr/bin/env bash
# psql's \d family over a small TPC-C-like schema, output compared with what PostgreSQL 15's
# psql prints for the same schema (psql_describe.expected, made by running this script with
# --regenerate against PostgreSQL: never edit it by hand).
# Usage: psql_describe_test.sh HOST PORT [--regenerate]
set -uo pipefail
HOST=${1:?usage: psql_describe_test.sh HOST PORT [--regenerate]}
PORT=${2:?usage: psql_describe_test.sh HOST PORT [--regenerate]}
EXPECTED="$(dirname "$0")/psql_describe.expected"
export PGCONNECT_TIMEOUT=10 PAGER=cat

q() { psql -X -q -h "$HOST" -p "$PORT" -U postgres -d postgres "$@" 2>&1; }

cleanup() {
  q -c 'SET client_min_messages = warning' -c 'DROP VIEW IF EXISTS psqld_rich_customers' \
    -c 'DROP TABLE IF EXISTS psqld_customer' -c 'DROP TABLE IF EXISTS psqld_district' \
    -c 'DROP FUNCTION IF EXISTS psqld_balance(integer, integer)' -c 'DROP PROCEDURE IF EXISTS psqld_pay(integer)' \
    >/dev/null
}
cleanup
q <<'SQL' >/dev/null
CREATE TABLE psqld_district (d_id integer, d_w_id integer, d_name varchar(10) NOT NULL, d_tax numeric(4,4),
  d_ytd numeric(12,2) DEFAULT 0, d_next_o_id integer DEFAULT 3001, PRIMARY KEY (d_w_id, d_id));
CREATE TABLE psqld_customer (c_id integer PRIMARY KEY CHECK (c_id > 0), c_d_id integer NOT NULL, c_last varchar(16),
  c_since timestamp, c_balance numeric(12,2), c_data text, c_code char(4) UNIQUE, c_ratio double precision,
  c_flags boolean[], c_w_id integer, CONSTRAINT psqld_customer_district FOREIGN KEY (c_w_id, c_d_id)
  REFERENCES psqld_district (d_w_id, d_id) ON DELETE CASCADE, CHECK (c_d_id BETWEEN 1 AND 10 OR c_w_id IS NULL));
CREATE INDEX psqld_customer_last ON psqld_customer (c_d_id, c_last);
CREATE VIEW psqld_rich_customers AS SELECT c_id, c_last, c_balance FROM psqld_customer WHERE c_balance > 1000;
CREATE FUNCTION psqld_balance(id integer, extra integer DEFAULT 1) RETURNS numeric LANGUAGE sql
  AS 'SELECT c_balance + extra FROM psqld_customer WHERE c_id = id';
CREATE PROCEDURE psqld_pay(id integer) LANGUAGE plpgsql AS $$ BEGIN UPDATE psqld_customer SET c_balance = 0 WHERE c_id = id; END $$;
SQL

actual=$(for command in '\dt psqld_*' '\d psqld_district' '\d psqld_customer' '\di psqld_*' '\dv psqld_*' \
                        '\d psqld_rich_customers' '\df psqld_*' '\dn public' '\du postgres' '\d+ psqld_district'; do
  echo "### $command"
  q -c "$command"
done)
cleanup

if [ "${3:-}" = "--regenerate" ]; then
  printf '%s\n' "$actual" >"$EXPECTED"
  echo "wrote $EXPECTED"
  exit 0
fi
if [ "$actual" == "$(cat "$EXPECTED")" ]; then
  echo "psql describe: 1 passed, 0 failed"
  exit 0
fi
diff <(cat "$EXPECTED") <(printf '%s\n' "$actual")
echo "psql describe: 0 passed, 1 failed"
exit 1
