#!/usr/bin/env python3
"""psycopg2 (the libpq-based driver most existing Python code still uses) against a server,
as such code uses it: client-side parameter interpolation of the common types, executemany
and extras.execute_values, dict cursors, transactions (the driver opens one implicitly),
errors carrying pgcode, a server-side (named) cursor read in pieces, COPY both ways with
copy_expert, and its connection-time probes (server_version, encoding, DateStyle).
Usage: psycopg2_test.py HOST PORT
"""
import datetime
import decimal
import io
import sys

import psycopg2
import psycopg2.errors
import psycopg2.extras

from client_tests import run_tests

HOST, PORT = sys.argv[1], sys.argv[2]


def connect():
    return psycopg2.connect(host=HOST, port=PORT, dbname="postgres", user="postgres", connect_timeout=10)


def test_connection_probes():
    with connect() as conn:
        assert conn.server_version >= 150000, conn.server_version
        assert conn.encoding == "UTF8", conn.encoding
        assert conn.get_parameter_status("DateStyle") == "ISO, MDY", conn.get_parameter_status("DateStyle")
    conn.close()


def test_parameters():
    conn = connect()
    conn.autocommit = True
    with conn.cursor() as cur:
        cur.execute("DROP TABLE IF EXISTS pg2_types")
        cur.execute("CREATE TABLE pg2_types (id serial PRIMARY KEY, b boolean, i integer, g bigint, "
                    "n numeric(10,3), d double precision, t text, dt date, ts timestamp, a integer[])")
        row = (True, -34, 2**40, decimal.Decimal("1234.567"), -2.25, "it's \"quoted\"",
               datetime.date(2024, 2, 29), datetime.datetime(2024, 3, 1, 12, 30, 45, 123456), [1, 2, 3])
        cur.execute("INSERT INTO pg2_types (b, i, g, n, d, t, dt, ts, a) "
                    "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) RETURNING id", row)
        (new_id,) = cur.fetchone()
        cur.execute("SELECT b, i, g, n, d, t, dt, ts, a FROM pg2_types WHERE id = %(id)s", {"id": new_id})
        got = cur.fetchone()
        assert got == row, got
        cur.execute("SELECT %s IS NULL, %s = ANY(%s)", (None, 2, [1, 2]))
        assert cur.fetchone() == (True, True)
        cur.execute("DROP TABLE pg2_types")
    conn.close()


def test_executemany_and_execute_values():
    conn = connect()
    with conn.cursor() as cur:
        cur.execute("DROP TABLE IF EXISTS pg2_many")
        cur.execute("CREATE TABLE pg2_many (k integer PRIMARY KEY, v text)")
        cur.executemany("INSERT INTO pg2_many VALUES (%s, %s)", [(i, f"v{i}") for i in range(100)])
        psycopg2.extras.execute_values(cur, "INSERT INTO pg2_many VALUES %s",
                                       [(i, f"w{i}") for i in range(100, 1100)], page_size=250)
        cur.execute("SELECT count(*), sum(k) FROM pg2_many")
        assert cur.fetchone() == (1100, 1100 * 1099 // 2)
    conn.commit()
    with conn.cursor(cursor_factory=psycopg2.extras.RealDictCursor) as cur:
        cur.execute("SELECT k, v FROM pg2_many WHERE k IN %s ORDER BY k", ((5, 500),))
        assert [dict(r) for r in cur.fetchall()] == [{"k": 5, "v": "v5"}, {"k": 500, "v": "w500"}]
    conn.rollback()
    with conn.cursor() as cur:
        cur.execute("DROP TABLE pg2_many")
    conn.commit()
    conn.close()


def test_transactions_and_errors():
    conn = connect()
    with conn.cursor() as cur:
        cur.execute("DROP TABLE IF EXISTS pg2_tx")
        cur.execute("CREATE TABLE pg2_tx (k integer PRIMARY KEY)")
        conn.commit()
        cur.execute("INSERT INTO pg2_tx VALUES (1)")
        conn.rollback()  # the implicit transaction: the row is gone
        cur.execute("SELECT count(*) FROM pg2_tx")
        assert cur.fetchone() == (0,)
        cur.execute("INSERT INTO pg2_tx VALUES (1)")
        conn.commit()
        try:
            cur.execute("INSERT INTO pg2_tx VALUES (1)")
            raise AssertionError("duplicate key accepted")
        except psycopg2.errors.UniqueViolation as e:
            assert e.pgcode == "23505", e.pgcode
            assert e.diag.constraint_name == "pg2_tx_pkey", e.diag.constraint_name
        try:
            cur.execute("SELECT 1")
            raise AssertionError("statement accepted in a failed transaction")
        except psycopg2.errors.InFailedSqlTransaction:
            pass
        conn.rollback()
        try:
            cur.execute("SELECT * FROM pg2_missing")
        except psycopg2.errors.UndefinedTable as e:
            assert e.pgcode == "42P01"
        conn.rollback()
        cur.execute("DROP TABLE pg2_tx")
    conn.commit()
    conn.close()


def test_named_cursor():
    conn = connect()
    with conn.cursor("pg2_named") as cur:
        cur.itersize = 100
        cur.execute("SELECT g, g * 2 FROM generate_series(1, 1000) AS g")
        total = 0
        count = 0
        for a, b in cur:
            assert b == 2 * a
            total += a
            count += 1
        assert (count, total) == (1000, 1000 * 1001 // 2), (count, total)
    conn.commit()
    conn.close()


def test_copy():
    conn = connect()
    with conn.cursor() as cur:
        cur.execute("DROP TABLE IF EXISTS pg2_copy")
        cur.execute("CREATE TABLE pg2_copy (k integer, v text)")
        cur.copy_expert("COPY pg2_copy FROM STDIN WITH (FORMAT csv)", io.StringIO("1,one\n2,\"t,wo\"\n3,\n"))
        out = io.StringIO()
        cur.copy_expert("COPY (SELECT * FROM pg2_copy ORDER BY k) TO STDOUT WITH (FORMAT csv)", out)
        assert out.getvalue() == "1,one\n2,\"t,wo\"\n3,\n", repr(out.getvalue())
        cur.copy_from(io.StringIO("4\tfour\n"), "pg2_copy", columns=("k", "v"))
        cur.execute("SELECT count(*) FROM pg2_copy")
        assert cur.fetchone() == (4,)
        cur.execute("DROP TABLE pg2_copy")
    conn.commit()
    conn.close()


TESTS = [test_connection_probes, test_parameters, test_executemany_and_execute_values,
         test_transactions_and_errors, test_named_cursor, test_copy]


if __name__ == "__main__":
    sys.exit(run_tests("psycopg2", TESTS))
