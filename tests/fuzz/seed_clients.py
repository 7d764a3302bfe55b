#!/usr/bin/env python3
"""Client traffic for the protocol fuzzer's seed corpus (tests/fuzz/record_corpus.py runs it
through its proxy): psycopg 3 and raw libpq calls that the client test suites use little or
not at all - pipeline mode, Describe/Close of statements and portals, Execute with a row
limit, binary parameters and results of every type, COPY in and out with errors, errors
inside pipelines and blocks, multi-statement queries. Each function is one connection, so
one corpus file. Failures of single statements are expected and ignored: the traffic is
what matters. Usage: seed_clients.py HOST PORT
"""
import sys

import psycopg
from psycopg import pq

HOST, PORT = sys.argv[1], int(sys.argv[2])
DSN = f"host={HOST} port={PORT} dbname=postgres user=postgres"

SETUP = """
DROP TABLE IF EXISTS seed_t;
CREATE TABLE seed_t (k integer PRIMARY KEY, s smallint, b bigint, n numeric(12,3), r real,
  d double precision, c char(4), v varchar(20), t text, dt date, ts timestamp,
  tz timestamptz, f boolean, a integer[], ta text[]);
INSERT INTO seed_t VALUES
  (1, 1, 10000000000, 1.5, 1.25, 2.5, 'ab', 'vv', 'text', '2024-02-29', '2024-01-01 10:00',
   '2024-01-01 10:00+02', true, '{1,2,NULL}', '{"a","b c"}'),
  (2, -32768, -9223372036854775808, -99999.999, 'NaN', '-Infinity', NULL, '', 'x', '4713-01-01 BC',
   '294276-12-31 23:59:59', NULL, false, '{}', NULL);
"""


def run(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the traffic is what matters
        print(f"{fn.__name__}: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")


def simple_queries():
    with psycopg.connect(DSN, autocommit=True) as conn:
        conn.execute(SETUP)
        for sql in ["SELECT * FROM seed_t ORDER BY k", "SELECT 1; SELECT 2; SELECT 'x'",
                    "BEGIN; UPDATE seed_t SET t = t || 'y' WHERE k = 1; SELECT 1/0; COMMIT",
                    "", ";", "SELECT count(*), sum(b), avg(n), min(t), max(dt) FROM seed_t GROUP BY f",
                    "SHOW search_path", "SET DateStyle = 'SQL, DMY'", "SELECT now()::date > '2000-01-01'",
                    "SELECT k FROM seed_t WHERE k IN (SELECT k FROM seed_t WHERE f) ORDER BY 1",
                    "SELECT a[1], cardinality(a), array_length(ta, 1) FROM seed_t",
                    "VALUES (1, 'a'), (2, 'b')", "SELECT nosuchcolumn FROM seed_t"]:
            try:
                conn.execute(sql)
            except psycopg.Error:
                pass


def extended_binary():
    with psycopg.connect(DSN, autocommit=True) as conn:
        conn.execute(SETUP)
        with conn.cursor(binary=True) as cur:
            cur.execute("SELECT * FROM seed_t WHERE k = %s", (1,), prepare=True)
            cur.fetchall()
            cur.execute("SELECT * FROM seed_t WHERE k = %s", (2,), prepare=True)
            cur.fetchall()
            cur.execute("SELECT %s::int, %s::text, %s::numeric, %s::float8, %s::date, %s::bool, %s::int[]",
                        (-2147483648, "ü\tx", 1.5, float("inf"), None, True, [1, None, 3]))
            cur.fetchall()
            cur.executemany("INSERT INTO seed_t (k, t) VALUES (%s, %s)", [(i, str(i)) for i in range(10, 20)])
            try:
                cur.execute("INSERT INTO seed_t (k) VALUES (%s)", (1,))
            except psycopg.Error:
                pass


def pipeline():
    with psycopg.connect(DSN, autocommit=True) as conn:
        conn.execute(SETUP)
        try:
            with conn.pipeline():
                with conn.cursor() as cur:
                    for i in range(30, 35):
                        cur.execute("INSERT INTO seed_t (k, v) VALUES (%s, %s)", (i, f"p{i}"))
                    cur.execute("SELECT k, v FROM seed_t WHERE k >= %s ORDER BY k", (30,))
                    cur.execute("SELECT 1 / %s", (0,))  # an error inside the pipeline
                    cur.execute("SELECT 2")
        except psycopg.Error:
            pass
        with conn.transaction():
            with conn.pipeline():
                conn.execute("UPDATE seed_t SET b = b + 1 WHERE k = %s", (1,))
                conn.execute("DELETE FROM seed_t WHERE k = %s RETURNING *", (30,))


def raw_libpq():
    conn = pq.PGconn.connect(DSN.encode())
    conn.exec_(SETUP.encode())
    conn.prepare(b"s1", b"SELECT k, t FROM seed_t WHERE k > $1 ORDER BY k", [23])
    conn.describe_prepared(b"s1")
    conn.exec_prepared(b"s1", [b"0"])
    conn.exec_prepared(b"s1", [b"\x00\x00\x00\x01"], param_formats=[1], result_format=1)
    conn.exec_params(b"SELECT $1::text || $2", [b"a", None])
    conn.exec_params(b"SELECT $1::int", [b"not an int"])
    conn.exec_(b"CLOSE ALL")
    conn.exec_(b"DEALLOCATE s1")
    # Pipeline mode by hand: Parse/Bind/Describe portal/Execute, a Flush, then a Sync.
    conn.enter_pipeline_mode()
    conn.send_prepare(b"s2", b"SELECT k FROM seed_t WHERE k < $1", None)
    conn.send_query_prepared(b"s2", [b"100"])
    conn.send_describe_prepared(b"s2")
    conn.send_query_params(b"SELECT $1::bigint + 1", [b"9223372036854775807"])
    conn.send_flush_request()
    conn.pipeline_sync()
    conn.send_query_params(b"SELECT 1", None)
    conn.pipeline_sync()
    for _ in range(40):  # results, NULL between queries; the count is generous
        conn.consume_input()
        conn.get_result()
    conn.finish()


def copy_traffic():
    with psycopg.connect(DSN, autocommit=True) as conn:
        conn.execute(SETUP)
        with conn.cursor() as cur:
            with cur.copy("COPY seed_t (k, t, a) FROM STDIN") as copy:
                for i in range(100, 110):
                    copy.write_row((i, None if i % 3 else f"r\\{i}\n", [i, None]))
            try:
                with cur.copy("COPY seed_t (k) FROM STDIN WITH (FORMAT csv)") as copy:
                    copy.write("200\nnot a number\n")
            except psycopg.Error:
                pass
            try:
                with cur.copy("COPY seed_t (k) FROM STDIN") as copy:
                    copy.write("300\n")
                    raise RuntimeError("client aborts the copy")  # CopyFail
            except (psycopg.Error, RuntimeError):
                pass
            with cur.copy("COPY (SELECT * FROM seed_t ORDER BY k) TO STDOUT WITH (FORMAT csv)") as copy:
                for _ in copy:
                    pass


def blocks_and_errors():
    with psycopg.connect(DSN) as conn:
        conn.execute(SETUP)
        conn.commit()
        try:
            conn.execute("SELECT k FROM seed_t WHERE t = 1")
        except psycopg.Error:
            conn.rollback()
        conn.execute("SET TRANSACTION READ ONLY")
        conn.execute("SELECT * FROM seed_t")
        try:
            conn.execute("DELETE FROM seed_t")
        except psycopg.Error:
            pass
        conn.rollback()
        conn.execute("SELECT current_setting('TimeZone'), version()")
        conn.commit()


def fetch_in_pieces():
    # Execute with a row limit (PortalSuspended) through the raw protocol calls.
    conn = pq.PGconn.connect(DSN.encode())
    conn.exec_(SETUP.encode())
    conn.exec_(b"BEGIN")
    conn.send_query_params(b"SELECT * FROM seed_t", None)
    conn.set_single_row_mode()
    while conn.get_result() is not None:
        pass
    conn.exec_(b"COMMIT")
    conn.finish()


for f in (simple_queries, extended_binary, pipeline, raw_libpq, copy_traffic, blocks_and_errors,
          fetch_in_pieces):
    run(f)
