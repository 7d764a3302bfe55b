#!/usr/bin/env bash
# psql against a server: -c and -f, multi-statement strings, \copy to and from files in
# text and csv format, variables, ON_ERROR_STOP, FETCH_COUNT (cursors).
# Usage: psql_test.sh HOST PORT
set -uo pipefail
HOST=${1:?usage: psql_test.sh HOST PORT}
PORT=${2:?usage: psql_test.sh HOST PORT}
export PGCONNECT_TIMEOUT=10

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failures=0
checks=0

# Quiet, unaligned, tuples-only psql without ~/.psqlrc, so the output is exactly the data.
q() { psql -X -q -A -t -h "$HOST" -p "$PORT" -U postgres -d postgres "$@"; }

check() {   # check NAME EXPECTED ACTUAL
  checks=$((checks + 1))
  if [ "$2" != "$3" ]; then
    failures=$((failures + 1))
    printf 'FAIL %s\n  expected: %q\n  got:      %q\n' "$1" "$2" "$3"
  fi
}

check "psql -c" "2" "$(q -c 'SELECT 1 + 1')"
check "two -c options" $'1\n2' "$(q -c 'SELECT 1' -c 'SELECT 2')"

q -c 'SET client_min_messages = warning; DROP TABLE IF EXISTS psql_t; DROP TABLE IF EXISTS psql_copy' >/dev/null
# A multi-statement -c string is one simple Query message; psql prints the last result.
check "multi-statement -c" "3" "$(q -c "CREATE TABLE psql_t (id integer, name text, note text); \
INSERT INTO psql_t VALUES (1, 'one', 'plain'), (2, 'two', 'with, comma'), (3, NULL, 'tab	and \"quote\"'); \
SELECT count(*) FROM psql_t")"

# FETCH_COUNT: psql reads a SELECT through a cursor (DECLARE ... NO SCROLL CURSOR, FETCH
# FORWARD n, CLOSE) in its own transaction block.
check "FETCH_COUNT" $'1|one\n2|two\n3|' "$(q -v FETCH_COUNT=2 -c 'SELECT id, name FROM psql_t ORDER BY id')"

cat >"$TMP/script.sql" <<'SQL'
-- comments and blank lines are fine

\set wanted 2
SELECT name FROM psql_t WHERE id = :wanted;
SELECT id, name FROM psql_t
 ORDER BY id;
\set label 'it''s'
SELECT :'label' || '!';
SQL
check "psql -f with variables" $'two\n1|one\n2|two\n3|\nit'"'"'s!' "$(q -f "$TMP/script.sql")"

# \copy TO in text and csv format, then back FROM into a second table; both directions go
# through COPY ... TO STDOUT / FROM STDIN on the wire.
q -c "\\copy (SELECT * FROM psql_t ORDER BY id) TO '$TMP/out.txt'"
check "copy to text" $'1\tone\tplain\n2\ttwo\twith, comma\n3\t\\N\ttab\\tand "quote"' "$(cat "$TMP/out.txt")"
q -c "\\copy (SELECT * FROM psql_t ORDER BY id) TO '$TMP/out.csv' WITH (FORMAT csv, HEADER)"
check "copy to csv" $'id,name,note\n1,one,plain\n2,two,"with, comma"\n3,,"tab\tand ""quote"""' "$(cat "$TMP/out.csv")"

q -c 'CREATE TABLE psql_copy (id integer, name text, note text)'
q -c "\\copy psql_copy FROM '$TMP/out.txt'"
q -c "\\copy psql_copy FROM '$TMP/out.csv' WITH (FORMAT csv, HEADER)"
check "copy from text+csv" "6|12|3" "$(q -c 'SELECT count(*), sum(id), max(id) FROM psql_copy')"
check "copy round trip" "0" "$(q -c "SELECT count(*) FROM psql_copy c JOIN psql_t t ON c.id = t.id \
WHERE c.name IS DISTINCT FROM t.name OR c.note IS DISTINCT FROM t.note")"
printf '10\tten\tfrom stdin\n11\t\\N\t\\N\n' >"$TMP/more.txt"
q -c "\\copy psql_copy FROM '$TMP/more.txt'"
check "copy from text with NULLs" "11||" "$(q -c 'SELECT id, name, note FROM psql_copy WHERE id = 11')"
printf 'id,name\n20,"quoted, name"\n21,\n' >"$TMP/more.csv"
q -c "\\copy psql_copy (id, name) FROM '$TMP/more.csv' CSV HEADER"
check "copy from csv with column list" $'20|quoted, name|t\n21||t' \
  "$(q -c 'SELECT id, name, note IS NULL FROM psql_copy WHERE id >= 20 ORDER BY id')"
q -c "\\copy psql_copy FROM '$TMP/bad.txt'" 2>/dev/null
check "copy from a missing file fails" "1" "$?"
printf 'x\ty\tz\n' >"$TMP/bad.txt"
q -c "\\copy psql_copy FROM '$TMP/bad.txt'" 2>"$TMP/err"
check "copy from bad data fails" "1" "$?"
check "copy from bad data message" "1" "$(grep -c 'invalid input syntax for type integer' "$TMP/err")"
check "failed copy inserted nothing" "10" "$(q -c 'SELECT count(*) FROM psql_copy')"
# COPY FROM checks CHECK and FOREIGN KEY constraints, as INSERT does.
q -c 'CREATE TABLE psql_copy_p (id integer PRIMARY KEY)' -c 'INSERT INTO psql_copy_p VALUES (1)' \
  -c "CREATE TABLE psql_copy_c (a integer CHECK (a > 0), b text DEFAULT 'd', p integer REFERENCES psql_copy_p)"
printf '1\t1\n2\t\\N\n' >"$TMP/ok.txt"
printf '3\t1\n-4\t1\n' >"$TMP/check.txt"
printf '5\t7\n' >"$TMP/fk.txt"
q -c "\\copy psql_copy_c (a, p) FROM '$TMP/ok.txt'"
q -c "\\copy psql_copy_c (a, p) FROM '$TMP/check.txt'" 2>"$TMP/err"
check "copy checks a CHECK constraint" "1" "$(grep -c 'violates check constraint "psql_copy_c_a_check"' "$TMP/err")"
q -c "\\copy psql_copy_c (a, p) FROM '$TMP/fk.txt'" 2>"$TMP/err"
check "copy checks a foreign key" "1" "$(grep -c 'Key (p)=(7) is not present in table "psql_copy_p"' "$TMP/err")"
check "copy with constraints kept the good rows" $'1|d|1\n2|d|' "$(q -c 'SELECT * FROM psql_copy_c ORDER BY a')"
q -c 'DROP TABLE psql_copy_c, psql_copy_p' >/dev/null

# ON_ERROR_STOP: without it psql runs on past an error and exits 0; with it psql stops at
# the failing statement and exits 3.
cat >"$TMP/errors.sql" <<'SQL'
INSERT INTO psql_t VALUES (10, 'before', NULL);
SELECT 1 / 0;
INSERT INTO psql_t VALUES (11, 'after', NULL);
SQL
q -f "$TMP/errors.sql" >/dev/null 2>"$TMP/err"
check "no ON_ERROR_STOP exit code" "0" "$?"
check "no ON_ERROR_STOP error text" "1" "$(grep -c 'division by zero' "$TMP/err")"
check "no ON_ERROR_STOP ran everything" $'10\n11' "$(q -c 'SELECT id FROM psql_t WHERE id >= 10 ORDER BY id')"
q -c 'DELETE FROM psql_t WHERE id >= 10' >/dev/null
q -v ON_ERROR_STOP=1 -f "$TMP/errors.sql" >/dev/null 2>&1
check "ON_ERROR_STOP exit code" "3" "$?"
check "ON_ERROR_STOP stopped" "10" "$(q -c 'SELECT id FROM psql_t WHERE id >= 10 ORDER BY id')"
printf '\\set ON_ERROR_STOP on\nSELECT 1;\nSELECT nope;\nSELECT 2;\n' >"$TMP/stop.sql"
check "\\set ON_ERROR_STOP in script" "1" "$(q -f "$TMP/stop.sql" 2>/dev/null)"
q -c 'SELECT nope FROM psql_t' 2>/dev/null
check "psql -c error exit code" "1" "$?"
# --single-transaction wraps the whole file: the failure rolls back the first insert too.
q -c 'DELETE FROM psql_t WHERE id >= 10' >/dev/null
q -1 -v ON_ERROR_STOP=1 -f "$TMP/errors.sql" >/dev/null 2>&1
check "single transaction rolled back" "0" "$(q -c 'SELECT count(*) FROM psql_t WHERE id = 10')"

# client_min_messages filters notices: each level passes itself and what is above it
# (DEBUG < LOG < NOTICE < WARNING), INFO always passes. A RAISE is filtered when it is
# raised, so a later SET in the same Query (`\;`) does not reach back to it, and a SET
# LOCAL filters until COMMIT even when the notices are sent after it.
cat >"$TMP/levels.sql" <<'SQL'
CREATE FUNCTION psql_raise() RETURNS integer LANGUAGE plpgsql AS $$
BEGIN
  RAISE DEBUG 'd'; RAISE LOG 'l'; RAISE INFO 'i'; RAISE NOTICE 'n'; RAISE WARNING 'w';
  RETURN 1;
END $$;
SET client_min_messages = debug1;
SELECT psql_raise();
SET client_min_messages = log;
SELECT psql_raise();
SET client_min_messages = notice;
DROP TABLE IF EXISTS psql_nosuch;
SELECT psql_raise() \; SET client_min_messages = warning;
DROP TABLE IF EXISTS psql_nosuch;
COMMIT;
SELECT psql_raise();
SET client_min_messages = error;
COMMIT;
SELECT psql_raise();
BEGIN \; SET LOCAL client_min_messages = notice \; SELECT psql_raise() \; COMMIT;
RESET client_min_messages \; BEGIN \; SET LOCAL client_min_messages = error \; SELECT psql_raise() \; COMMIT;
DROP FUNCTION psql_raise();
SQL
check "client_min_messages" $'DEBUG:  d\nLOG:  l\nINFO:  i\nNOTICE:  n\nWARNING:  w
LOG:  l\nINFO:  i\nNOTICE:  n\nWARNING:  w
NOTICE:  table "psql_nosuch" does not exist, skipping
INFO:  i\nNOTICE:  n\nWARNING:  w
WARNING:  there is no transaction in progress
INFO:  i\nWARNING:  w
INFO:  i
INFO:  i\nNOTICE:  n\nWARNING:  w
INFO:  i' "$(q <"$TMP/levels.sql" 2>&1 >/dev/null)"

q -c 'DROP TABLE psql_t; DROP TABLE psql_copy' >/dev/null

# The \d family, compared with PostgreSQL 15's psql output (psql_describe_test.sh).
checks=$((checks + 1))
bash "$(dirname "$0")/psql_describe_test.sh" "$HOST" "$PORT" >"$TMP/describe.out" 2>&1 ||
  { failures=$((failures + 1)); echo "FAIL psql \\d family"; cat "$TMP/describe.out"; }

echo "psql: $((checks - failures)) passed, $failures failed"
[ "$failures" -eq 0 ]
