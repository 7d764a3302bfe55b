#!/usr/bin/env python3
"""psycopg 3 (high-level API) against a server: parameters of every supported type,
executemany, transactions and rollback, COPY both ways through cursor.copy (text, CSV and
binary), INSERT ... ON CONFLICT's command tags, errors carrying
their SQLSTATE, server-side prepared statements with binary parameters (prepare=True), query
cancellation (CancelRequest), int[]/text[] parameters and results in text and binary,
= ANY ($1) with array parameters, statements of 10,000 rows or items, and function and
procedure calls as prepared statements, EXPLAIN's shape, bytea and uuid values, json and
jsonb, temporary tables and advisory locks of two sessions.
Usage: psycopg_test.py HOST PORT
"""
import datetime
import decimal
import sys
import threading
import time
import uuid

import psycopg
from psycopg import errors

from client_tests import run_tests

HOST, PORT = sys.argv[1], sys.argv[2]
CONNINFO = f"host={HOST} port={PORT} dbname=postgres user=postgres connect_timeout=10"


def connect(**kwargs) -> psycopg.Connection:
    return psycopg.connect(CONNINFO, **kwargs)


def test_parameters():
    with connect(autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS pyc_types")
        conn.execute("CREATE TABLE pyc_types (b boolean, s smallint, i integer, g bigint, "
                     "n numeric(10,3), r real, d double precision, c char(4), v varchar(10), "
                     "t text, dt date, ts timestamp, tz timestamptz)")
        row = (True, 12, -34, 2**40, decimal.Decimal("1234.567"), 1.5, -2.25, "ab  ", "vc", "it's",
               datetime.date(2024, 2, 29), datetime.datetime(2024, 3, 1, 12, 30, 45, 123456),
               datetime.datetime(2024, 3, 1, 12, 0, tzinfo=datetime.timezone.utc))
        conn.execute("INSERT INTO pyc_types VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)", row)
        got = conn.execute("SELECT * FROM pyc_types").fetchone()
        assert got == row, got
        # Named parameters, NULL parameters, a parameter used in an expression.
        got = conn.execute("SELECT %(x)s::integer + 1, %(y)s::text IS NULL, %(x)s::integer * 2",
                           {"x": 20, "y": None}).fetchone()
        assert got == (21, True, 40), got
        conn.execute("DROP TABLE pyc_types")


def test_executemany_and_prepare():
    with connect(autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS pyc_many")
        conn.execute("CREATE TABLE pyc_many (id integer PRIMARY KEY, name text, amount numeric(8,2))")
        with conn.cursor() as cur:
            cur.executemany("INSERT INTO pyc_many VALUES (%s, %s, %s)",
                            [(i, f"name{i}", decimal.Decimal(i) / 4) for i in range(1, 501)])
            cur.execute("SELECT count(*), sum(id), sum(amount) FROM pyc_many")
            assert cur.fetchone() == (500, 125250, decimal.Decimal("31312.50"))
            # executemany with returning=True gives each statement's rows.
            cur.executemany("UPDATE pyc_many SET name = %s WHERE id = %s RETURNING id",
                            [("x", 1), ("y", 2)], returning=True)
            ids = []
            while True:
                ids.append(cur.fetchone()[0])
                if not cur.nextset():
                    break
            assert ids == [1, 2], ids
        # prepare=True: Parse once, then Bind/Execute with binary-format parameters.
        with conn.cursor(binary=True) as cur:
            for i in (7, 8, 9, 7):
                cur.execute("SELECT id, name, amount FROM pyc_many WHERE id = %b", (i,), prepare=True)
                assert cur.fetchone() == (i, f"name{i}", decimal.Decimal(i) / 4)
            cur.execute("SELECT %b::bigint + %b::integer, %b::text, %b::double precision",
                        (2**33, 5, "bin", 0.5), prepare=True)
            assert cur.fetchone() == (2**33 + 5, "bin", 0.5)
        # A literal cast to an interval with fields, prepared: read with the fields (90 days).
        for _ in range(2):
            got = conn.execute("SELECT '90'::interval day, '90'::interval minute", prepare=True).fetchone()
            assert got == (datetime.timedelta(days=90), datetime.timedelta(minutes=90)), got
        conn.execute("DROP TABLE pyc_many")


def test_transactions():
    with connect() as conn:       # not autocommit: psycopg opens a transaction implicitly
        conn.execute("DROP TABLE IF EXISTS pyc_tx")
        conn.execute("CREATE TABLE pyc_tx (id integer)")
        conn.commit()
        conn.execute("INSERT INTO pyc_tx VALUES (1)")
        conn.rollback()
        assert conn.execute("SELECT count(*) FROM pyc_tx").fetchone() == (0,)
        conn.execute("INSERT INTO pyc_tx VALUES (2)")
        conn.commit()
        try:
            with conn.transaction():
                conn.execute("INSERT INTO pyc_tx VALUES (3)")
                raise RuntimeError("abort the block")
        except RuntimeError:
            pass
        try:
            conn.execute("SELECT 1 / 0")
            raise AssertionError("division by zero succeeded")
        except errors.DivisionByZero as e:
            assert e.sqlstate == "22012"
        try:
            conn.execute("SELECT 1")
            raise AssertionError("statement in an aborted transaction succeeded")
        except errors.InFailedSqlTransaction as e:
            assert e.sqlstate == "25P02"
        conn.rollback()
        assert conn.execute("SELECT id FROM pyc_tx ORDER BY id").fetchall() == [(2,)]
        conn.commit()
    # Another connection sees only committed data.
    with connect(autocommit=True) as other:
        assert other.execute("SELECT id FROM pyc_tx").fetchall() == [(2,)]
        other.execute("DROP TABLE pyc_tx")


def test_copy():
    with connect(autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS pyc_copy")
        conn.execute("CREATE TABLE pyc_copy (id integer, name text, v double precision)")
        with conn.cursor() as cur:
            with cur.copy("COPY pyc_copy (id, name, v) FROM STDIN") as copy:
                for i in range(1000):
                    copy.write_row((i, None if i % 10 == 0 else f"row\t{i}", i / 8))
            with cur.copy("COPY pyc_copy FROM STDIN WITH (FORMAT csv)") as copy:
                copy.write('1000,"csv, row",1.5\n1001,,2\n')
            cur.execute("SELECT count(*), count(name), sum(id) FROM pyc_copy")
            assert cur.fetchone() == (1002, 901, sum(range(1002))), "copy from"
            rows = []
            with cur.copy("COPY (SELECT id, name FROM pyc_copy WHERE id < 3 ORDER BY id) TO STDOUT") as copy:
                rows.extend(copy.rows())
            assert rows == [("0", None), ("1", "row\t1"), ("2", "row\t2")], rows
            with cur.copy("COPY (SELECT id, name FROM pyc_copy WHERE id >= 1000 ORDER BY id) "
                          "TO STDOUT WITH (FORMAT csv)") as copy:
                data = b"".join(bytes(block) for block in copy)
            assert data == b'1000,"csv, row"\n1001,\n', data
            try:
                with cur.copy("COPY pyc_copy (id) FROM STDIN") as copy:
                    copy.write("1\nnot a number\n")
                raise AssertionError("bad COPY data accepted")
            except errors.InvalidTextRepresentation as e:
                assert e.sqlstate == "22P02"
            cur.execute("SELECT count(*) FROM pyc_copy")
            assert cur.fetchone() == (1002,), "failed COPY must insert nothing"
        conn.execute("DROP TABLE pyc_copy")

        # Columns left out of the COPY list get their DEFAULT, as with INSERT.
        conn.execute("DROP TABLE IF EXISTS pyc_copy_def")
        conn.execute("CREATE TABLE pyc_copy_def (id integer, n numeric(6,2) DEFAULT 1.5 * 2, "
                     "s varchar(8) DEFAULT 'x' || 'y', t timestamptz DEFAULT now(), z integer)")
        with conn.cursor() as cur:
            with cur.copy("COPY pyc_copy_def (id) FROM STDIN") as copy:
                copy.write("1\n2\n")
            with cur.copy("COPY pyc_copy_def (s, id) FROM STDIN") as copy:
                copy.write("given\t3\n\\N\t4\n")
            cur.execute("SELECT id, n, s, t IS NOT NULL, z FROM pyc_copy_def ORDER BY id")
            got = cur.fetchall()
            assert got == [(1, decimal.Decimal("3.00"), "xy", True, None), (2, decimal.Decimal("3.00"), "xy", True, None),
                           (3, decimal.Decimal("3.00"), "given", True, None), (4, decimal.Decimal("3.00"), None, True, None)], got
        conn.execute("DROP TABLE pyc_copy_def")

        # A volatile DEFAULT (a SERIAL's nextval, random()) is drawn for every row.
        conn.execute("DROP TABLE IF EXISTS pyc_copy_serial")
        conn.execute("CREATE TABLE pyc_copy_serial (id serial PRIMARY KEY, name text, "
                     "r double precision DEFAULT random())")
        with conn.cursor() as cur:
            with cur.copy("COPY pyc_copy_serial (name) FROM STDIN") as copy:
                for name in ("a", "b", "c"):
                    copy.write_row((name,))
            cur.execute("SELECT id, name FROM pyc_copy_serial ORDER BY id")
            assert cur.fetchall() == [(1, "a"), (2, "b"), (3, "c")], "copy into a serial column"
            cur.execute("SELECT count(DISTINCT r) FROM pyc_copy_serial")
            assert cur.fetchone()[0] == 3, "random() drawn once for all rows"
        conn.execute("DROP TABLE pyc_copy_serial")


def test_binary_copy():
    """COPY ... (FORMAT binary) both ways, every type DuetDB has, with binary loaders and
    dumpers (write_row/read_row after set_types), and the format's errors."""
    columns = ("id integer, s smallint, b bigint, f4 real, f8 double precision, n numeric, t text, "
               "vc varchar(10), c char(3), ok boolean, d date, ts timestamp, tz timestamptz, "
               "iv interval, ia integer[], ta text[], o oid")
    types = ["int4", "int2", "int8", "float4", "float8", "numeric", "text", "varchar", "text", "bool", "date",
             "timestamp", "timestamptz", "interval", "int4[]", "text[]", "oid"]
    utc = datetime.timezone.utc
    rows = [
        (1, -2, 2**40, 1.5, -0.25, decimal.Decimal("12345.678901234567890"), "héllo\ttab", "short", "abc", True,
         datetime.date(2024, 2, 29), datetime.datetime(1999, 12, 31, 23, 59, 59),
         datetime.datetime(2020, 1, 2, 3, 4, 5, 6, tzinfo=utc), datetime.timedelta(days=3, seconds=7, microseconds=8),
         [1, None, 3], ["a", "b c", None], 4294967295),
        (2,) + (None,) * 16,
        (3, 0, -1, float("inf"), float("nan"), decimal.Decimal("-0.5"), "", "", "x  ", False, datetime.date(1, 1, 1),
         datetime.datetime(2262, 1, 1), datetime.datetime(1970, 1, 1, tzinfo=utc),
         datetime.timedelta(0), [], [""], 0),
    ]
    with connect(autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS pyc_bin")
        conn.execute(f"CREATE TABLE pyc_bin ({columns})")
        with conn.cursor() as cur:
            with cur.copy("COPY pyc_bin FROM STDIN (FORMAT BINARY)") as copy:
                copy.set_types(types)
                for row in rows:
                    copy.write_row(row)
            cur.execute("SELECT count(*), count(t) FROM pyc_bin")
            assert cur.fetchone() == (3, 2), "binary copy from"
            cur.execute("SELECT t, n::text, ia::text, tz = '2020-01-02 03:04:05.000006+00' FROM pyc_bin WHERE id = 1")
            assert cur.fetchone() == ("héllo\ttab", "12345.678901234567890", "{1,NULL,3}", True), "values in"
            got = []
            with cur.copy("COPY (SELECT * FROM pyc_bin ORDER BY id) TO STDOUT (FORMAT BINARY)") as copy:
                copy.set_types(types)
                while (row := copy.read_row()) is not None:
                    got.append(row)
            assert len(got) == 3, got
            assert got[0] == rows[0], (got[0], rows[0])
            assert got[1] == rows[1], got[1]
            assert got[2][:4] == rows[2][:4] and got[2][4] != got[2][4] and got[2][5:] == rows[2][5:], got[2]
            # The binary data round-trips byte for byte, old-style BINARY keyword included.
            with cur.copy("COPY pyc_bin TO STDOUT BINARY") as copy:
                data = b"".join(bytes(block) for block in copy)
            assert data.startswith(b"PGCOPY\n\xff\r\n\x00") and data.endswith(b"\xff\xff"), data[:20]
            cur.execute("DELETE FROM pyc_bin")
            with cur.copy("COPY pyc_bin FROM STDIN WITH (FORMAT binary)") as copy:
                copy.write(data)
            cur.execute("SELECT count(*) FROM pyc_bin")
            assert cur.fetchone() == (3,), "binary copy of binary copy"
            # A column list, defaults elsewhere.
            with cur.copy("COPY pyc_bin (t, id) FROM STDIN (FORMAT binary)") as copy:
                copy.set_types(["text", "int4"])
                copy.write_row(("listed", 10))
            cur.execute("SELECT id, t, s FROM pyc_bin WHERE id = 10")
            assert cur.fetchone() == (10, "listed", None), "column list"
            bad = [
                (b"NOTCOPY\n\xff\r\n\x00" + bytes(8), errors.BadCopyFileFormat, "COPY file signature not recognized"),
                (b"PGCOPY\n\xff\r\n\x00" + b"\x00\x01\x00\x00" + bytes(4), errors.BadCopyFileFormat,
                 "invalid COPY file header (WITH OIDS)"),
                (b"PGCOPY\n\xff\r\n\x00" + bytes(8) + b"\x00\x01\x00\x00\x00\x04\x00\x00", errors.BadCopyFileFormat,
                 "unexpected EOF in COPY data"),
                (b"PGCOPY\n\xff\r\n\x00" + bytes(8) + b"\x00\x02", errors.BadCopyFileFormat,
                 "row field count is 2, expected 1"),
                (b"PGCOPY\n\xff\r\n\x00" + bytes(8) + b"\x00\x01\x00\x00\x00\x06" + bytes(6), errors.InvalidBinaryRepresentation,
                 "incorrect binary data format"),
                (b"PGCOPY\n\xff\r\n\x00" + bytes(8) + b"\xff\xffx", errors.BadCopyFileFormat,
                 "received copy data after EOF marker"),
            ]
            for payload, error, message in bad:
                try:
                    with cur.copy("COPY pyc_bin (id) FROM STDIN (FORMAT binary)") as copy:
                        copy.write(payload)
                    raise AssertionError(f"no error for {payload!r}")
                except error as e:
                    assert message in str(e), (message, str(e))
            for options, error in (("FORMAT binary, HEADER", errors.FeatureNotSupported),
                                   ("FORMAT binary, DELIMITER ','", errors.SyntaxError),
                                   ("FORMAT binary, NULL 'x'", errors.SyntaxError),
                                   ("FORMAT bogus", errors.InvalidParameterValue)):
                try:
                    with cur.copy(f"COPY pyc_bin TO STDOUT ({options})") as copy:
                        b"".join(bytes(block) for block in copy)
                    raise AssertionError(f"no error for {options}")
                except error:
                    pass
            cur.execute("SELECT count(*) FROM pyc_bin")
            assert cur.fetchone() == (4,), "failed copies leave nothing"
        conn.execute("DROP TABLE pyc_bin")


def test_bytea_uuid():
    """bytea and uuid: bytes and uuid.UUID parameters and results in text and binary
    (prepared), uuid keys, gen_random_uuid(), and COPY text, CSV and binary round trips."""
    payload = bytes(range(256)) + b"\\x"
    ids = [uuid.UUID("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"), uuid.UUID(int=0), uuid.UUID(int=2**128 - 1)]
    with connect(autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS pyc_bu")
        conn.execute("CREATE TABLE pyc_bu (id uuid PRIMARY KEY, b bytea, bs bytea[], us uuid[])")
        rows = [(ids[0], payload, [b"\x00", None], [ids[1], ids[2]]), (ids[1], b"", [], []), (ids[2], None, None, None)]
        with conn.cursor() as cur:
            cur.executemany("INSERT INTO pyc_bu VALUES (%s, %s, %s, %s)", rows)
            for binary in (False, True):
                got = cur.execute("SELECT * FROM pyc_bu ORDER BY id", binary=binary).fetchall()
                assert got == sorted(rows, key=lambda r: r[0].bytes), (binary, got)
                got = cur.execute("SELECT b FROM pyc_bu WHERE id = %s", (ids[0],), prepare=True, binary=binary).fetchone()
                assert got == (payload,), got
            got = cur.execute("SELECT %b::bytea || %b, %s::uuid = %s", (b"\x01", b"\x02", ids[0], str(ids[0]).upper())).fetchone()
            assert got == (b"\x01\x02", True), got
            got = cur.execute("SELECT gen_random_uuid()").fetchone()[0]
            assert isinstance(got, uuid.UUID) and got.version == 4, got
            for options in ("", "(FORMAT csv)", "(FORMAT binary)"):
                with cur.copy(f"COPY pyc_bu TO STDOUT {options}") as copy:
                    data = b"".join(bytes(block) for block in copy)
                cur.execute("DELETE FROM pyc_bu")
                with cur.copy(f"COPY pyc_bu FROM STDIN {options}") as copy:
                    copy.write(data)
                got = cur.execute("SELECT * FROM pyc_bu ORDER BY id").fetchall()
                assert got == sorted(rows, key=lambda r: r[0].bytes), (options, got)
            with cur.copy("COPY pyc_bu (id, b) FROM STDIN") as copy:
                copy.write(b"{01234567-89ab-cdef-0123-456789ABCDEF}\t\\\\x41\n")
            got = cur.execute("SELECT b FROM pyc_bu WHERE id = '0123456789abcdef0123456789abcdef'").fetchone()
            assert got == (b"A",), got
            try:
                cur.execute("INSERT INTO pyc_bu (id) VALUES (%s)", (ids[0],))
                raise AssertionError("duplicate uuid accepted")
            except errors.UniqueViolation:
                pass
        conn.execute("DROP TABLE pyc_bu")


def test_on_conflict_rowcount():
    """INSERT ... ON CONFLICT's command tag counts inserted and updated rows, not skipped ones;
    EXPLAIN names the conflict resolution and the arbiters."""
    with connect(autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS pyc_upsert")
        conn.execute("CREATE TABLE pyc_upsert (k integer PRIMARY KEY, v integer)")
        with conn.cursor() as cur:
            cur.execute("INSERT INTO pyc_upsert VALUES (1, 1), (2, 2)")
            cur.execute("INSERT INTO pyc_upsert VALUES (1, 10), (3, 3) ON CONFLICT DO NOTHING")
            assert cur.rowcount == 1 and cur.statusmessage == "INSERT 0 1", cur.statusmessage
            cur.execute("INSERT INTO pyc_upsert VALUES (1, 10), (2, 20), (4, 4) ON CONFLICT (k) "
                        "DO UPDATE SET v = excluded.v WHERE pyc_upsert.k = 1")
            assert cur.statusmessage == "INSERT 0 2", cur.statusmessage
            cur.execute("INSERT INTO pyc_upsert VALUES (%s, %s) ON CONFLICT (k) DO UPDATE SET v = pyc_upsert.v + %s",
                        (4, 0, 100), prepare=True)
            cur.execute("SELECT k, v FROM pyc_upsert ORDER BY k")
            assert cur.fetchall() == [(1, 10), (2, 2), (3, 3), (4, 104)], "rows"
            cur.execute("EXPLAIN (COSTS OFF) INSERT INTO pyc_upsert VALUES (1, 1) ON CONFLICT (k) DO NOTHING")
            lines = [row[0].strip() for row in cur.fetchall()]
            assert "Conflict Resolution: NOTHING" in lines and "Conflict Arbiter Indexes: pyc_upsert_pkey" in lines, lines
        conn.execute("DROP TABLE pyc_upsert")


def test_errors():
    with connect(autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS pyc_err")
        conn.execute("CREATE TABLE pyc_err (id integer PRIMARY KEY, name varchar(3) NOT NULL)")
        expected = [
            ("SELEC 1", None, "42601"),
            ("SELECT * FROM pyc_no_such_table", None, "42P01"),
            ("SELECT nope FROM pyc_err", None, "42703"),
            ("SELECT %s::integer", ("abc",), "22P02"),
            ("INSERT INTO pyc_err VALUES (%s, %s)", (1, "toolong"), "22001"),
            ("INSERT INTO pyc_err VALUES (%s, %s)", (1, None), "23502"),
        ]
        for sql, params, sqlstate in expected:
            try:
                conn.execute(sql, params)
                raise AssertionError(f"{sql} succeeded")
            except psycopg.Error as e:
                assert e.sqlstate == sqlstate, (sql, e.sqlstate, str(e))
        # Positions (1-based characters) where PostgreSQL's parser reports them: a literal
        # that does not read as its type, an unknown column.
        positioned = [
            ("SELECT 1, 'x'::integer", "22P02", "11"),
            ("SELECT 'é', CAST('2020-02-30' AS date)", "22008", "18"),
            ("SELECT id, nope FROM pyc_err", "42703", "12"),
        ]
        for sql, sqlstate, position in positioned:
            try:
                conn.execute(sql, prepare=False)
                raise AssertionError(f"{sql} succeeded")
            except psycopg.Error as e:
                assert (e.sqlstate, e.diag.statement_position) == (sqlstate, position), (sql, e.diag.statement_position)
        conn.execute("INSERT INTO pyc_err VALUES (1, 'abc')")
        try:
            conn.execute("INSERT INTO pyc_err VALUES (%s, %s)", (1, "dup"), prepare=True)
            raise AssertionError("duplicate key accepted")
        except errors.UniqueViolation as e:
            assert e.sqlstate == "23505" and e.diag.message_primary
        assert conn.execute("SELECT count(*) FROM pyc_err").fetchone() == (1,)
        conn.execute("DROP TABLE pyc_err")


def test_large_result():
    with connect(autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS pyc_big")
        conn.execute("CREATE TABLE pyc_big (id integer, pad text)")
        with conn.cursor() as cur:
            with cur.copy("COPY pyc_big FROM STDIN") as copy:
                for i in range(50000):
                    copy.write_row((i, "x" * 50))
            total = count = 0
            for (i,) in cur.stream("SELECT id FROM pyc_big"):
                total += i
                count += 1
            assert (count, total) == (50000, sum(range(50000)))
        conn.execute("DROP TABLE pyc_big")


def cancel_later(conn: psycopg.Connection, seconds: float) -> threading.Timer:
    timer = threading.Timer(seconds, conn.cancel)
    timer.start()
    return timer


def test_cancel():
    with connect(autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS pyc_cancel")
        conn.execute("CREATE TABLE pyc_cancel (a integer)")
        with conn.cursor() as cur, cur.copy("COPY pyc_cancel FROM STDIN") as copy:
            for i in range(2000):
                copy.write_row((i,))
        # A running statement: 8e9 join rows take far longer than the half second to the cancel.
        timer = cancel_later(conn, 0.5)
        start = time.monotonic()
        try:
            conn.execute("SELECT count(*) FROM pyc_cancel x, pyc_cancel y, pyc_cancel z "
                         "WHERE x.a + y.a + z.a < 0")
            raise AssertionError("the cross join finished although it was cancelled")
        except errors.QueryCanceled as e:
            assert e.sqlstate == "57014" and "user request" in e.diag.message_primary, e.diag.message_primary
        finally:
            timer.cancel()
        assert time.monotonic() - start < 10
        assert conn.execute("SELECT count(*) FROM pyc_cancel").fetchone() == (2000,)

        # A cancel while nothing runs does not reach the next statement.
        conn.cancel()
        time.sleep(0.2)
        assert conn.execute("SELECT 1").fetchone() == (1,)

        # A statement waiting behind another session's open block (a row lock in PostgreSQL,
        # the executor in DuetDB) is cancelled too once it gets to run; nothing it did remains.
        with connect() as holder:
            holder.execute("UPDATE pyc_cancel SET a = a WHERE a = 1")
            timer = cancel_later(conn, 0.3)
            release = threading.Timer(0.8, holder.rollback)
            release.start()
            try:
                conn.execute("UPDATE pyc_cancel SET a = -1 WHERE a = 1")
                raise AssertionError("the waiting update was not cancelled")
            except errors.QueryCanceled as e:
                assert e.sqlstate == "57014"
            finally:
                timer.cancel()
                release.join()
        assert conn.execute("SELECT count(*) FROM pyc_cancel WHERE a = 1").fetchone() == (1,)
        conn.execute("DROP TABLE pyc_cancel")


def test_arrays():
    with connect(autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS pyc_arr")
        conn.execute("CREATE TABLE pyc_arr (id integer, a integer[], t text[], n numeric(6,2)[])")
        ints, texts = [1, None, -3], ["a b", None, '"q"', "", "NULL", "x\\y"]
        # Lists travel as '{...}' text or in array_send's binary format, both ways.
        for binary in (False, True):
            with conn.cursor(binary=binary) as cur:
                p = "%b" if binary else "%t"
                cur.execute(f"INSERT INTO pyc_arr VALUES ({p}, {p}, {p}, {p})",
                            (int(binary), ints, texts, [decimal.Decimal("1.5"), None]), prepare=binary)
                cur.execute("SELECT a, t, n, a[3], t[1] FROM pyc_arr WHERE id = %s", (int(binary),))
                assert cur.fetchone() == (ints, texts, [decimal.Decimal("1.50"), None], -3, "a b"), binary
                cur.execute(f"SELECT {p}::integer[], {p}::text[], '{{}}'::integer[]", ([4, 5], ["x"]))
                assert cur.fetchone() == ([4, 5], ["x"], []), binary
                # A parameter compared with an int[] column is an int[] whatever the client sent.
                cur.execute(f"SELECT count(*) FROM pyc_arr WHERE a = {p}::integer[]", (ints,))
                assert cur.fetchone() == (int(binary) + 1,), binary
        # Untyped parameters take the array type from their context, and Describe reports it.
        pg = conn.pgconn
        res = pg.exec_params(b"SELECT id FROM pyc_arr WHERE a = $1 ORDER BY id", [b"{1,NULL,-3}"], [0])
        assert [res.get_value(i, 0) for i in range(res.ntuples)] == [b"0", b"1"], res.error_message
        res = pg.prepare(b"pyc_arr_stmt", b"SELECT a, t[1] FROM pyc_arr WHERE a = $1 AND t = $2")
        assert res.status == psycopg.pq.ExecStatus.COMMAND_OK, res.error_message
        res = pg.describe_prepared(b"pyc_arr_stmt")
        assert [res.param_type(0), res.param_type(1)] == [1007, 1009], [res.param_type(0), res.param_type(1)]
        assert [res.ftype(0), res.ftype(1)] == [1007, 25]
        # Binary int4[] parameter declared by OID in Parse, binary result.
        wire = bytes.fromhex("00000001" "00000000" "00000017" "00000002" "00000001"
                             "00000004" "00000007" "00000004" "fffffff8")
        res = pg.exec_params(b"SELECT $1, $1[2]", [wire], [1007], [1], result_format=1)
        assert res.status == psycopg.pq.ExecStatus.TUPLES_OK, res.error_message
        assert res.ftype(0) == 1007 and res.get_value(0, 0) == wire
        assert res.get_value(0, 1) == bytes.fromhex("fffffff8")
        res = pg.exec_params(b"SELECT $1::text", [wire], [1007], [1])
        assert res.get_value(0, 0) == b"{7,-8}", res.error_message
        # A malformed literal fails with 22P02.
        try:
            conn.execute("SELECT %s::integer[]", ("{1,2",))
            raise AssertionError("malformed array literal accepted")
        except errors.InvalidTextRepresentation as e:
            assert e.sqlstate == "22P02" and "malformed array literal" in str(e)
        # COPY text format: array columns as their text form, escaped as COPY escapes.
        with conn.cursor() as cur:
            with cur.copy("COPY pyc_arr (id, a, t) FROM STDIN") as copy:
                copy.write('7\t{7,NULL}\t{"a\\\\\\\\b","c d"}\n')
            with cur.copy("COPY (SELECT a, t FROM pyc_arr WHERE id = 7) TO STDOUT") as copy:
                data = b"".join(bytes(block) for block in copy)
            assert data == b'{7,NULL}\t{"a\\\\\\\\b","c d"}\n', data
            cur.execute("SELECT t[1] FROM pyc_arr WHERE id = 7")
            assert cur.fetchone() == ("a\\b",)
        conn.execute("DROP TABLE pyc_arr")


def test_any_array_parameters():
    """= ANY ($1) and <> ALL ($1) with an array parameter, as drivers send them: text and binary,
    NULL elements, a NULL array, an empty one, a long one."""
    with connect(autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS pyc_any")
        conn.execute("CREATE TABLE pyc_any (k integer, s text)")
        conn.execute("INSERT INTO pyc_any SELECT g, 's' || g FROM generate_series(1, 100) g")
        for binary in (False, True):
            with conn.cursor(binary=binary) as cur:
                p = "%b" if binary else "%t"

                def count(sql, arg):
                    return cur.execute(sql.replace("%s", p), (arg,), prepare=binary).fetchone()[0]

                assert count("SELECT count(*) FROM pyc_any WHERE k = ANY (%s)", [2, 4, 400]) == 2
                assert count("SELECT count(*) FROM pyc_any WHERE k <> ALL (%s)", [2, 4, 400]) == 98
                assert count("SELECT count(*) FROM pyc_any WHERE k <> ALL (%s)", [2, None]) == 0
                assert count("SELECT count(*) FROM pyc_any WHERE k = ANY (%s)", [3, None]) == 1
                assert count("SELECT count(*) FROM pyc_any WHERE k = ANY (%s::integer[])", None) == 0
                assert count("SELECT count(*) FROM pyc_any WHERE k = ANY (%s::integer[])", []) == 0
                assert count("SELECT count(*) FROM pyc_any WHERE k < ALL (%s)", [50, 60]) == 49
                assert count("SELECT count(*) FROM pyc_any WHERE s = ANY (%s)", ["s1", "s77", "x"]) == 2
                assert count("SELECT count(*) FROM pyc_any WHERE s LIKE ANY (%s)", ["s1%", "%7"]) == 21
                assert count("SELECT count(*) FROM pyc_any WHERE k = ANY (%s)", list(range(0, 5000, 3))) == 33
        conn.execute("DROP TABLE pyc_any")


def test_long_statements():
    """Statements of any size compile and run (lists are data, not code): a 10,000-row
    INSERT ... VALUES, with literals and with parameters, a 10,000-item IN list, a CASE of
    2,000 arms. Timings belong to bench/bulk_insert, not here."""
    n = 10000
    with connect(autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS pyc_long")
        conn.execute("CREATE TABLE pyc_long (id integer PRIMARY KEY, name text)")
        values = ", ".join(f"({i}, 'n{i}')" if i % 100 else f"({i}, NULL)" for i in range(n))
        conn.execute(f"INSERT INTO pyc_long VALUES {values}")
        placeholders = ", ".join("(%s, %s)" for _ in range(n))
        conn.execute(f"INSERT INTO pyc_long VALUES {placeholders}",
                     [v for i in range(n, 2 * n) for v in (i, f"p{i}")])
        got = conn.execute("SELECT count(*), count(name), sum(id) FROM pyc_long").fetchone()
        assert got == (2 * n, 2 * n - n // 100, (2 * n - 1) * 2 * n // 2), got
        items = ", ".join(str(i * 3) for i in range(n))
        got = conn.execute(f"SELECT count(*) FROM pyc_long WHERE id IN ({items})").fetchone()
        assert got == ((2 * n + 2) // 3,), got
        got = conn.execute(f"SELECT count(*) FROM pyc_long WHERE id NOT IN ({items}, NULL)").fetchone()
        assert got == (0,), got
        arms = " ".join(f"WHEN {i} THEN 'a{i}'" for i in range(2000))
        got = conn.execute(f"SELECT count(CASE id {arms} END), max(CASE id {arms} ELSE 'z' END) FROM pyc_long").fetchone()
        assert got == (2000, "z"), got
        conn.execute("DROP TABLE pyc_long")


ROUTINES = [
    "CREATE FUNCTION pyc_add(a integer, b integer) RETURNS integer LANGUAGE plpgsql AS "
    "$$ BEGIN RAISE NOTICE 'adding % and %', a, b; RETURN a + b; END $$",
    "CREATE FUNCTION pyc_strict(a integer) RETURNS text LANGUAGE plpgsql STRICT AS $$ BEGIN RETURN 'got ' || a; END $$",
    "CREATE FUNCTION pyc_lax(a integer) RETURNS text LANGUAGE plpgsql AS "
    "$$ BEGIN RETURN coalesce('got ' || a, 'null'); END $$",
    "CREATE FUNCTION pyc_div(a integer, b integer) RETURNS integer LANGUAGE plpgsql AS $$ BEGIN RETURN a / b; END $$",
    "CREATE FUNCTION pyc_over(a integer) RETURNS text LANGUAGE plpgsql AS $$ BEGIN RETURN 'integer'; END $$",
    "CREATE FUNCTION pyc_over(a text) RETURNS text LANGUAGE plpgsql AS $$ BEGIN RETURN 'text ' || a; END $$",
    "CREATE FUNCTION pyc_mixed(n numeric, t text, d date, f double precision) RETURNS text LANGUAGE plpgsql AS "
    "$$ BEGIN RETURN n || '/' || t || '/' || d || '/' || f; END $$",
    "CREATE FUNCTION pyc_rows(n integer) RETURNS TABLE (i integer, sq bigint) LANGUAGE plpgsql AS "
    "$$ BEGIN FOR k IN 1..n LOOP i := k; sq := k * k; RETURN NEXT; END LOOP; END $$",
    "CREATE FUNCTION pyc_spin(n integer) RETURNS bigint LANGUAGE plpgsql AS "
    "$$ DECLARE s bigint := 0; BEGIN FOR k IN 1..n LOOP s := s + k % 7; END LOOP; RETURN s; END $$",
    "CREATE PROCEDURE pyc_split(n integer, INOUT lo integer, INOUT hi integer) LANGUAGE plpgsql AS "
    "$$ BEGIN lo := n % 10; hi := n / 10; END $$",
    "CREATE PROCEDURE pyc_log(v integer) LANGUAGE plpgsql AS $$ BEGIN INSERT INTO pyc_calls VALUES (v); END $$",
]


def check_routine_calls(conn: psycopg.Connection):
    """Calls as prepared statements (Parse once, then Bind/Execute), text and binary."""
    notices = []
    conn.add_notice_handler(lambda d: notices.append(d.message_primary))
    for binary in (False, True):
        with conn.cursor(binary=binary) as cur:
            for a, b in ((2, 3), (40000, 2), (-7, 2**20)):   # smallint and integer parameters
                assert cur.execute("SELECT pyc_add(%s, %s)", (a, b), prepare=True).fetchone() == (a + b,)
            assert cur.description[0].name == "pyc_add" and cur.statusmessage == "SELECT 1"
            assert cur.execute("SELECT pyc_add(%s, %s)", (None, 1), prepare=True).fetchone() == (None,)
            # NULL arguments: a STRICT function is not run, another one sees the NULL.
            assert cur.execute("SELECT pyc_strict(%s)", (None,), prepare=True).fetchone() == (None,)
            assert cur.execute("SELECT pyc_strict(%s)", (5,), prepare=True).fetchone() == ("got 5",)
            assert cur.execute("SELECT pyc_lax(%s)", (None,), prepare=True).fetchone() == ("null",)
            # Overloads: integer and text candidates, chosen by the parameter's type.
            assert cur.execute("SELECT pyc_over(%s)", (3,), prepare=True).fetchone() == ("integer",)
            assert cur.execute("SELECT pyc_over(%s::text)", ("x",), prepare=True).fetchone() == ("text x",)
            assert cur.execute("SELECT pyc_over(%s)", ("y",), prepare=True).fetchone() == ("text y",)
            got = cur.execute("SELECT pyc_mixed(%s, %s, %s, %s)",
                              (decimal.Decimal("1.50"), "t", datetime.date(2024, 2, 29), 0.25), prepare=True)
            assert got.fetchone() == ("1.50/t/2024-02-29/0.25",)
            # Rows: a set-returning function in FROM, a procedure's OUT row through CALL.
            assert cur.execute("SELECT * FROM pyc_rows(%s)", (3,), prepare=True).fetchall() == [(1, 1), (2, 4), (3, 9)]
            assert [d.name for d in cur.description] == ["i", "sq"] and cur.statusmessage == "SELECT 3"
            assert cur.execute("SELECT * FROM pyc_rows(%s)", (0,), prepare=True).fetchall() == []
            assert cur.execute("CALL pyc_split(%s, NULL, NULL)", (42,), prepare=True).fetchone() == (2, 4)
            assert cur.statusmessage == "CALL"
            assert cur.execute("CALL pyc_split(%s, %s, %s)", (57, None, None), prepare=True).fetchone() == (7, 5)
            # A wrong argument type is 42883, as without parameters.
            try:
                cur.execute("SELECT pyc_add(%s, %s::text)", (1, "x"), prepare=True)
                raise AssertionError("pyc_add(integer, text) was called")
            except errors.UndefinedFunction as e:
                assert e.sqlstate == "42883", e
            try:
                cur.execute("SELECT pyc_add(%s::bigint, %s)", (1, 2), prepare=True)
                raise AssertionError("pyc_add(bigint, integer) was called")
            except errors.UndefinedFunction as e:
                assert e.sqlstate == "42883", e
    assert notices[:2] == ["adding 2 and 3", "adding 40000 and 2"], notices

    # An error inside the routine: its SQLSTATE, then an autocommit call works again...
    for _ in range(2):
        try:
            conn.execute("SELECT pyc_div(%s, %s)", (1, 0), prepare=True)
            raise AssertionError("division by zero returned")
        except errors.DivisionByZero as e:
            assert e.sqlstate == "22012"
        assert conn.execute("SELECT pyc_div(%s, %s)", (9, 3), prepare=True).fetchone() == (3,)
    # ... and inside a block, the block is failed (25P02) and its work undone.
    conn.execute("DELETE FROM pyc_calls")
    conn.autocommit = False
    conn.execute("CALL pyc_log(%s)", (1,), prepare=True)
    try:
        conn.execute("SELECT pyc_div(%s, %s)", (1, 0), prepare=True)
        raise AssertionError("division by zero returned")
    except errors.DivisionByZero:
        pass
    try:
        conn.execute("CALL pyc_log(%s)", (2,), prepare=True)
        raise AssertionError("a call ran in a failed block")
    except errors.InFailedSqlTransaction as e:
        assert e.sqlstate == "25P02"
    conn.rollback()
    conn.execute("CALL pyc_log(%s)", (3,), prepare=True)
    conn.commit()
    conn.autocommit = True
    assert conn.execute("SELECT v FROM pyc_calls").fetchall() == [(3,)]

    # statement_timeout stops a call that runs too long.
    conn.execute("SET statement_timeout = '200ms'")
    try:
        conn.execute("SELECT pyc_spin(%s)", (2000000000,), prepare=True)
        raise AssertionError("pyc_spin finished within the timeout")
    except errors.QueryCanceled as e:
        assert e.sqlstate == "57014"
    conn.execute("RESET statement_timeout")
    assert conn.execute("SELECT pyc_spin(%s)", (7,), prepare=True).fetchone() == (21,)

    # One prepared statement while its function is replaced, dropped and created again: each
    # execution sees the definition of the moment; while there is none it fails with 42883
    # ("function pyc_ver(integer) does not exist": the parameter's type was fixed at Parse).
    pg = conn.pgconn
    res = pg.prepare(b"pyc_ver_call", b"SELECT pyc_ver($1)")
    assert res.status == psycopg.pq.ExecStatus.COMMAND_OK, res.error_message

    def call_ver(arg: bytes, binary: int = 0):
        res = pg.exec_prepared(b"pyc_ver_call", [arg], [binary])
        if res.status != psycopg.pq.ExecStatus.TUPLES_OK:
            return res.error_field(psycopg.pq.DiagnosticField.SQLSTATE)
        return res.get_value(0, 0)

    assert call_ver(b"1") == b"v1 1"
    # The DDL comes from another connection: psycopg deallocates its connection's prepared
    # statements after a DROP.
    with connect(autocommit=True) as ddl:
        ddl.execute("CREATE OR REPLACE FUNCTION pyc_ver(a integer) RETURNS text LANGUAGE plpgsql AS "
                    "$$ BEGIN RETURN 'v2 ' || a; END $$")
        assert call_ver(b"2") == b"v2 2"
        ddl.execute("DROP FUNCTION pyc_ver(integer)")
        assert call_ver(b"3") == b"42883"
        # Created again with a bigint argument: the parameter stays the integer it was
        # prepared as (a binary int4 still reads), passed to bigint by an implicit cast.
        ddl.execute("CREATE FUNCTION pyc_ver(a bigint) RETURNS text LANGUAGE plpgsql AS "
                    "$$ BEGIN RETURN 'v3 ' || a; END $$")
        assert call_ver(b"4") == b"v3 4"
        assert call_ver((5).to_bytes(4, "big"), 1) == b"v3 5"
    pg.exec_(b"DEALLOCATE pyc_ver_call")


def test_routine_calls():
    """Function and procedure calls through prepared statements. DuetDB runs a statement
    that is just one call on its parameters straight through the compiled routine; with
    duet.direct_calls off it runs the statement's plan instead (PostgreSQL takes the setting
    as a placeholder). Both ways must give PostgreSQL's answers."""
    with connect(autocommit=True) as conn:
        for direct in ("on", "off"):
            conn.execute("DROP TABLE IF EXISTS pyc_calls")
            conn.execute("CREATE TABLE pyc_calls (v integer)")
            for name in ("pyc_add(integer, integer)", "pyc_strict(integer)", "pyc_lax(integer)",
                         "pyc_div(integer, integer)", "pyc_over(integer)", "pyc_over(text)",
                         "pyc_mixed(numeric, text, date, double precision)", "pyc_rows(integer)",
                         "pyc_spin(integer)", "pyc_ver(integer)", "pyc_ver(bigint)"):
                conn.execute(f"DROP FUNCTION IF EXISTS {name}")
            for name in ("pyc_split(integer, integer, integer)", "pyc_log(integer)"):
                conn.execute(f"DROP PROCEDURE IF EXISTS {name}")
            for sql in ROUTINES:
                conn.execute(sql)
            conn.execute("CREATE FUNCTION pyc_ver(a integer) RETURNS text LANGUAGE plpgsql AS "
                         "$$ BEGIN RETURN 'v1 ' || a; END $$")
            conn.execute(f"SET duet.direct_calls = {direct}")
            try:
                check_routine_calls(conn)
            except Exception as e:
                raise AssertionError(f"with duet.direct_calls = {direct}") from e
        conn.execute("DROP TABLE pyc_calls")


def is_duetdb(conn: psycopg.Connection) -> bool:
    """DuetDB has settings of its own that PostgreSQL does not know."""
    try:
        with conn.transaction():
            conn.execute("SHOW duet.snapshot_routing")
        return True
    except errors.UndefinedObject:
        return False


def explain_json(value):
    """FORMAT JSON's document: PostgreSQL sends it as json (which psycopg parses), DuetDB,
    which has no json type, as text."""
    import json
    return json.loads(value) if isinstance(value, str) else value


def plan_lines(conn: psycopg.Connection, sql: str, params=None) -> list:
    """EXPLAIN's lines without DuetDB's "Runs On:" line (PostgreSQL has no snapshots to say
    it of), which test_explain checks apart."""
    return [r[0] for r in conn.execute(sql, params) if not r[0].startswith("Runs On: ")]


def test_explain():
    """EXPLAIN's shape, which PostgreSQL and DuetDB share where their plans do: one text
    column "QUERY PLAN" a line a row, PostgreSQL's node names and details, FORMAT JSON with
    PostgreSQL's keys, ANALYZE's actual rows, writes that EXPLAIN alone does not run, and
    PostgreSQL's errors for bad options."""
    with connect(autocommit=True) as conn:
        duet = is_duetdb(conn)
        conn.execute("DROP TABLE IF EXISTS pyc_explain")
        conn.execute("CREATE TABLE pyc_explain (id integer PRIMARY KEY, v integer)")
        conn.execute("INSERT INTO pyc_explain VALUES " + ", ".join(f"({i}, {i})" for i in range(1, 1001)))
        if not duet:
            conn.execute("ANALYZE pyc_explain")  # PostgreSQL: estimates from statistics, not defaults
        cur = conn.execute("EXPLAIN SELECT * FROM pyc_explain WHERE v > 500")
        assert [d.name for d in cur.description] == ["QUERY PLAN"], cur.description
        lines = [r[0] for r in cur.fetchall()]
        assert lines[0].startswith("Seq Scan on pyc_explain  (") and "rows=" in lines[0], lines
        assert "  Filter: (v > 500)" in lines, lines

        # ANALYZE without costs or timing: the same text from both.
        lines = plan_lines(
            conn, "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT * FROM pyc_explain WHERE v > 500")
        assert lines[:3] == ["Seq Scan on pyc_explain (actual rows=500 loops=1)", "  Filter: (v > 500)",
                             "  Rows Removed by Filter: 500"], lines
        lines = [r[0] for r in conn.execute("EXPLAIN ANALYZE SELECT count(*) FROM pyc_explain")]
        assert lines[0].startswith("Aggregate  (") and "(actual time=" in lines[0], lines
        assert any(l.startswith("Planning Time: ") for l in lines), lines
        assert lines[-1].startswith("Execution Time: ") and lines[-1].endswith(" ms"), lines

        # A parameter, over the extended protocol: its value is shown.
        lines = plan_lines(conn, "EXPLAIN (COSTS OFF) SELECT v FROM pyc_explain WHERE id = %s::integer", (7,))
        assert lines == ["Index Scan using pyc_explain_pkey on pyc_explain", "  Index Cond: (id = 7)"], lines
        # = ANY of an array parameter: the index, probed for each element.
        lines = plan_lines(conn, "EXPLAIN (COSTS OFF) SELECT v FROM pyc_explain WHERE id = ANY (%s::integer[])",
                           ([7, 9],))
        assert lines == ["Index Scan using pyc_explain_pkey on pyc_explain",
                         "  Index Cond: (id = ANY ('{7,9}'::integer[]))"], lines
        assert conn.execute("SELECT sum(v) FROM pyc_explain WHERE id = ANY (%s::integer[])",
                            ([7, 9, 9, None],)).fetchone() == (16,)

        # FORMAT JSON: one row, PostgreSQL's document.
        rows = conn.execute("EXPLAIN (FORMAT JSON) SELECT * FROM pyc_explain WHERE v > 500").fetchall()
        assert len(rows) == 1, rows
        plan = explain_json(rows[0][0])[0]["Plan"]
        assert plan["Node Type"] == "Seq Scan" and plan["Relation Name"] == "pyc_explain", plan
        assert isinstance(plan["Plan Rows"], int) and plan["Filter"] == "(v > 500)", plan
        doc = explain_json(conn.execute(
            "EXPLAIN (ANALYZE, FORMAT JSON) SELECT * FROM pyc_explain WHERE v > 500").fetchone()[0])[0]
        assert doc["Plan"]["Actual Rows"] == 500 and doc["Plan"]["Actual Loops"] == 1, doc
        assert doc["Plan"]["Rows Removed by Filter"] == 500, doc
        assert "Planning Time" in doc and "Execution Time" in doc, doc

        # A join, and WITH.
        lines = [r[0] for r in conn.execute(
            "EXPLAIN (COSTS OFF) WITH w AS (SELECT id FROM pyc_explain WHERE v < 10) "
            "SELECT count(*) FROM pyc_explain p JOIN w ON p.v = w.id")]
        assert lines[0] == "Aggregate" and any("Join" in l or "Nested Loop" in l for l in lines), lines

        # Writes: EXPLAIN alone changes nothing; EXPLAIN ANALYZE runs the statement.
        conn.execute("EXPLAIN DELETE FROM pyc_explain WHERE id <= 10")
        conn.execute("EXPLAIN INSERT INTO pyc_explain VALUES (5000, 5000)")
        conn.execute("EXPLAIN UPDATE pyc_explain SET v = 0")
        assert conn.execute("SELECT count(*), sum(v) FROM pyc_explain").fetchone() == (1000, 500500)
        lines = [r[0] for r in conn.execute(
            "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) DELETE FROM pyc_explain WHERE id <= 10")]
        assert lines[0] == "Delete on pyc_explain (actual rows=0 loops=1)", lines
        assert conn.execute("SELECT count(*) FROM pyc_explain").fetchone() == (990,)
        # ... and it is undone with its transaction.
        with conn.transaction():
            conn.execute("EXPLAIN ANALYZE INSERT INTO pyc_explain VALUES (5000, 5000)")
            assert conn.execute("SELECT count(*) FROM pyc_explain").fetchone() == (991,)
            raise psycopg.Rollback()
        assert conn.execute("SELECT count(*) FROM pyc_explain").fetchone() == (990,)
        # A read-only transaction explains a write but refuses to analyse (run) it.
        with conn.transaction():
            conn.execute("SET TRANSACTION READ ONLY")
            conn.execute("EXPLAIN INSERT INTO pyc_explain VALUES (5000, 5000)")
            try:
                conn.execute("EXPLAIN ANALYZE INSERT INTO pyc_explain VALUES (5000, 5000)")
                raise AssertionError("EXPLAIN ANALYZE INSERT ran in a read-only transaction")
            except errors.ReadOnlySqlTransaction:
                pass
            raise psycopg.Rollback()

        # Errors.
        for sql, error, message in [
                ("EXPLAIN (FOO) SELECT 1", errors.SyntaxError, 'unrecognized EXPLAIN option "foo"'),
                ("EXPLAIN (ANALYZE maybe) SELECT 1", errors.SyntaxError, "analyze requires a Boolean value"),
                ("EXPLAIN (FORMAT bar) SELECT 1", errors.InvalidParameterValue,
                 'unrecognized value for EXPLAIN option "format": "bar"'),
                ("EXPLAIN (TIMING) SELECT 1", errors.InvalidParameterValue, "EXPLAIN option TIMING requires ANALYZE"),
                ("EXPLAIN SELECT * FROM pyc_no_such_table", errors.UndefinedTable, "pyc_no_such_table")]:
            try:
                conn.execute(sql)
                raise AssertionError(f"{sql} did not fail")
            except error as e:
                assert message in str(e), (sql, str(e))

        # DuetDB says where a statement runs (PostgreSQL has no snapshots: no such line).
        if duet:
            lines = [r[0] for r in conn.execute("EXPLAIN (COSTS OFF) SELECT * FROM pyc_explain")]
            assert lines[-1] == "Runs On: executor", lines
            conn.execute("SET duet.snapshot_routing = always")
            lines = [r[0] for r in conn.execute("EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) SELECT * FROM pyc_explain")]
            assert "Runs On: snapshot" in lines and lines[0].endswith("(actual rows=990 loops=1)"), lines
            conn.execute("RESET duet.snapshot_routing")
        conn.execute("DROP TABLE pyc_explain")


def test_notify():
    # LISTEN / NOTIFY: a committed NOTIFY (or pg_notify()) reaches an idle listener as a
    # NotificationResponse; one rolled back does not; duplicates in a transaction fold.
    with connect(autocommit=True) as listener, connect(autocommit=True) as notifier:
        listener.execute("LISTEN pyc_channel")
        notifier.execute("NOTIFY pyc_channel, 'one'")
        notifier.execute("SELECT pg_notify('pyc_channel', 'two')")
        with notifier.transaction():
            notifier.execute("NOTIFY pyc_channel, 'three'")
            notifier.execute("NOTIFY pyc_channel, 'three'")
            notifier.execute("NOTIFY pyc_other, 'not listened to'")
        try:
            with notifier.transaction():
                notifier.execute("NOTIFY pyc_channel, 'rolled back'")
                raise ZeroDivisionError
        except ZeroDivisionError:
            pass
        # A savepoint rolled back takes its notifications along (psycopg's nested transaction).
        with notifier.transaction():
            notifier.execute("NOTIFY pyc_channel, 'four'")
            try:
                with notifier.transaction():
                    notifier.execute("NOTIFY pyc_channel, 'savepoint rolled back'")
                    raise ZeroDivisionError
            except ZeroDivisionError:
                pass
        got = [(n.channel, n.payload, n.pid) for n in listener.notifies(timeout=2, stop_after=4)]
        pid = notifier.info.backend_pid
        assert got == [("pyc_channel", "one", pid), ("pyc_channel", "two", pid), ("pyc_channel", "three", pid),
                       ("pyc_channel", "four", pid)], got
        # Its own notification, then none after UNLISTEN *.
        listener.execute("NOTIFY pyc_channel")
        got = [(n.payload, n.pid) for n in listener.notifies(timeout=2, stop_after=1)]
        assert got == [("", listener.info.backend_pid)], got
        listener.execute("UNLISTEN *")
        notifier.execute("NOTIFY pyc_channel, 'after unlisten'")
        assert list(listener.notifies(timeout=0.5)) == []


def test_named_cursors():
    # psycopg's server-side cursors: DECLARE (with $n parameters, BINARY, SCROLL, WITH
    # HOLD), a Describe of the cursor's portal, FETCH FORWARD n, MOVE, CLOSE.
    with connect() as conn:
        conn.execute("DROP TABLE IF EXISTS pyc_cursor")
        conn.execute("CREATE TABLE pyc_cursor (id integer, name text, amount numeric(8,2))")
        conn.execute("INSERT INTO pyc_cursor SELECT g, 'n' || g, g / 4.0 FROM generate_series(1, 2500) g")
        conn.commit()
        with conn.cursor(name="pyc_c") as cur:
            cur.itersize = 100
            cur.execute("SELECT id, name, amount FROM pyc_cursor WHERE id > %s ORDER BY id", (10,))
            assert [c.name for c in cur.description] == ["id", "name", "amount"], cur.description
            assert cur.fetchone() == (11, "n11", decimal.Decimal("2.75"))
            assert cur.fetchmany(2) == [(12, "n12", decimal.Decimal("3.00")), (13, "n13", decimal.Decimal("3.25"))]
            rows = cur.fetchall()
            assert len(rows) == 2487 and rows[-1] == (2500, "n2500", decimal.Decimal("625.00")), (len(rows), rows[-1])
        conn.commit()
        with conn.cursor(name="pyc_b", binary=True) as cur:
            cur.execute("SELECT id, name FROM pyc_cursor WHERE id <= %s ORDER BY id", (3,))
            assert list(cur) == [(1, "n1"), (2, "n2"), (3, "n3")]
        with conn.cursor(name="pyc_s", scrollable=True) as cur:
            cur.execute("SELECT id FROM pyc_cursor ORDER BY id LIMIT 10")
            cur.scroll(5)
            assert cur.fetchone() == (6,)
            cur.scroll(2, mode="absolute")
            assert cur.fetchone() == (3,)
            cur.scroll(-2)
            assert cur.fetchone() == (2,)
        conn.commit()
        with conn.cursor(name="pyc_h", withhold=True) as cur:
            cur.execute("SELECT count(*) FROM pyc_cursor")
            conn.commit()  # a WITH HOLD cursor outlives it
            assert cur.fetchone() == (2500,)
        # Without hold, the cursor ends with its transaction.
        cur = conn.cursor(name="pyc_gone")
        cur.execute("SELECT 1")
        conn.commit()
        try:
            cur.fetchone()
            raise AssertionError("FETCH from a cursor its COMMIT closed")
        except errors.InvalidCursorName:
            conn.rollback()
        conn.execute("DROP TABLE pyc_cursor")
        conn.commit()


def test_error_fields():
    # ErrorResponse's schema, table, column and constraint fields for integrity errors.
    with connect(autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS pyc_fields")
        conn.execute("CREATE TABLE pyc_fields (id integer PRIMARY KEY, code text UNIQUE, v integer NOT NULL)")
        conn.execute("INSERT INTO pyc_fields VALUES (1, 'a', 1)")

        def diag(sql):
            try:
                conn.execute(sql)
            except psycopg.Error as e:
                d = e.diag
                return (e.sqlstate, d.schema_name, d.table_name, d.column_name, d.constraint_name, d.datatype_name)
            raise AssertionError(f"no error from {sql}")

        got = diag("INSERT INTO pyc_fields VALUES (1, 'b', 1)")
        assert got == ("23505", "public", "pyc_fields", None, "pyc_fields_pkey", None), got
        conn.execute("INSERT INTO pyc_fields VALUES (2, 'b', 2)")
        got = diag("UPDATE pyc_fields SET code = 'a' WHERE id = 2")
        assert got == ("23505", "public", "pyc_fields", None, "pyc_fields_code_key", None), got
        got = diag("INSERT INTO pyc_fields VALUES (3, 'c', NULL)")
        assert got == ("23502", "public", "pyc_fields", "v", None, None), got
        # Other errors carry none of them.
        got = diag("SELECT 1 / 0")
        assert got == ("22012", None, None, None, None, None), got
        conn.execute("DROP TABLE pyc_fields")


def test_sql_prepare_execute():
    # PREPARE / EXECUTE as SQL through the extended protocol: Describe of an EXECUTE gives
    # the prepared statement's columns; a $n among its arguments has no value (42P02).
    with connect(autocommit=True) as conn:
        conn.execute("PREPARE pyc_q (integer) AS SELECT $1 + 1 AS next, 'x'::text AS t")
        cur = conn.execute("EXECUTE pyc_q(41)")
        assert [c.name for c in cur.description] == ["next", "t"], cur.description
        assert cur.fetchall() == [(42, "x")]
        try:
            conn.execute("EXECUTE pyc_q(%s)", (1,))
            raise AssertionError("EXECUTE with a $n argument")
        except errors.UndefinedParameter:
            pass
        conn.execute("DEALLOCATE pyc_q")


def test_json():
    # psycopg decodes json and jsonb into Python objects and sends Json/Jsonb wrappers, in
    # text and in binary (jsonb's binary form: version 1, then the text).
    from psycopg.types.json import Json, Jsonb
    with connect(autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS pyc_json")
        conn.execute("CREATE TABLE pyc_json (id integer, j json, jb jsonb)")
        doc = {"b": [1, 2.5, None], "a": "x\u00e9", "n": {"t": True}}
        for binary in (False, True):
            with conn.cursor(binary=binary) as cur:
                p = "%b" if binary else "%t"
                cur.execute(f"INSERT INTO pyc_json VALUES ({p}, {p}, {p})", (int(binary), Json(doc), Jsonb(doc)))
                cur.execute("SELECT j, jb, jb -> 'b', jb ->> 'a' FROM pyc_json WHERE id = %s", (int(binary),))
                assert cur.fetchone() == (doc, doc, [1, 2.5, None], "x\u00e9"), binary
        cur = conn.execute("SELECT jb::text, json_build_object('k', id) FROM pyc_json WHERE jb @> %s ORDER BY id",
                           (Jsonb({"n": {"t": True}}),))
        assert cur.fetchall() == [('{"a": "x\u00e9", "b": [1, 2.5, null], "n": {"t": true}}', {"k": 0}),
                                  ('{"a": "x\u00e9", "b": [1, 2.5, null], "n": {"t": true}}', {"k": 1})]
        conn.execute("DROP TABLE pyc_json")


def test_temp_tables_of_two_sessions():
    # Each session has temporary tables of its own, which hide a permanent one of the same
    # name for that session only, and which go with the session.
    with connect(autocommit=True) as a, connect(autocommit=True) as b:
        a.execute("DROP TABLE IF EXISTS two_sessions")
        a.execute("CREATE TABLE two_sessions (who text)")
        a.execute("INSERT INTO two_sessions VALUES ('permanent')")
        a.execute("CREATE TEMP TABLE two_sessions (who text)")
        a.execute("INSERT INTO two_sessions VALUES ('a')")
        b.execute("CREATE TEMP TABLE two_sessions (who text)")
        b.execute("INSERT INTO two_sessions VALUES ('b')")
        assert a.execute("SELECT who FROM two_sessions").fetchall() == [("a",)]
        assert b.execute("SELECT who FROM two_sessions").fetchall() == [("b",)]
        schemas = [c.execute("SELECT nspname FROM pg_namespace WHERE oid = 'two_sessions'::regclass::oid "
                             "OR oid = (SELECT relnamespace FROM pg_class WHERE oid = 'two_sessions'::regclass)")
                   .fetchone()[0] for c in (a, b)]
        assert schemas[0] != schemas[1] and all(s.startswith("pg_temp_") for s in schemas), schemas
        # The other session's schema is not on b's path, and its tables are not b's to read.
        assert b.execute("SELECT pg_table_is_visible(%s::regclass)", (f"{schemas[0]}.two_sessions",)).fetchone() == (
            False,)
        try:
            b.execute(f"SELECT * FROM {schemas[0]}.two_sessions")
            raise AssertionError("read another session's temporary table")
        except errors.FeatureNotSupported:
            pass
        b.execute("DROP TABLE two_sessions")
        assert b.execute("SELECT who FROM two_sessions").fetchall() == [("permanent",)]
        a.close()
        # a's temporary table went with a (PostgreSQL drops it as the backend exits: wait).
        for _ in range(50):
            n = b.execute("SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                          "WHERE c.relname = 'two_sessions' AND n.nspname LIKE 'pg_temp%%'").fetchone()[0]
            if n == 0:
                break
            time.sleep(0.1)
        assert n == 0, n
        b.execute("DROP TABLE two_sessions")


def advisory_lock_holders(conn, key):
    """The pids holding advisory lock `key` (a bigint below 2^32) and their modes."""
    return conn.execute("SELECT pid, mode FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 1 "
                        "AND classid = 0 AND objid = %s ORDER BY pid, mode", (key,)).fetchall()


def test_advisory_locks_of_two_sessions():
    # What one session's advisory locks mean to another: conflicts by mode, transaction-level
    # locks ending with their transaction or savepoint, DISCARD ALL and the session's end
    # giving back the rest. A lock another session holds: pg_try_ answers false, and
    # pg_advisory_lock fails with 55P03 (PostgreSQL waits, here until lock_timeout; DuetDB
    # cannot wait and fails at once).
    with connect(autocommit=True) as a, connect(autocommit=True) as b:
        a_pid = a.execute("SELECT pg_backend_pid()").fetchone()[0]
        a.execute("SELECT pg_advisory_lock(7001)")
        assert advisory_lock_holders(b, 7001) == [(a_pid, "ExclusiveLock")]
        assert b.execute("SELECT pg_try_advisory_lock(7001)").fetchone() == (False,)
        assert b.execute("SELECT pg_try_advisory_lock_shared(7001)").fetchone() == (False,)
        assert b.execute("SELECT pg_try_advisory_xact_lock(7001)").fetchone() == (False,)
        b.execute("SET lock_timeout = '200ms'")
        try:
            b.execute("SELECT pg_advisory_lock(7001)")
            raise AssertionError("took a lock another session holds")
        except errors.LockNotAvailable:
            pass
        # b cannot give back a's lock.
        assert b.execute("SELECT pg_advisory_unlock(7001)").fetchone() == (False,)
        assert a.execute("SELECT pg_advisory_unlock(7001)").fetchone() == (True,)
        assert b.execute("SELECT pg_try_advisory_lock(7001)").fetchone() == (True,)
        assert b.execute("SELECT pg_advisory_unlock(7001)").fetchone() == (True,)

        # Shared holds go together; an exclusive one waits for them all.
        a.execute("SELECT pg_advisory_lock_shared(7002)")
        assert b.execute("SELECT pg_try_advisory_lock_shared(7002)").fetchone() == (True,)
        assert len(advisory_lock_holders(a, 7002)) == 2
        assert b.execute("SELECT pg_try_advisory_lock(7002)").fetchone() == (False,)
        assert a.execute("SELECT pg_advisory_unlock_shared(7002)").fetchone() == (True,)
        assert b.execute("SELECT pg_try_advisory_lock(7002)").fetchone() == (True,)  # its own shared one is no bar
        assert a.execute("SELECT pg_try_advisory_lock_shared(7002)").fetchone() == (False,)
        b.execute("SELECT pg_advisory_unlock_all()")
        assert advisory_lock_holders(a, 7002) == []

        # A transaction-level lock is held until the transaction ends. (While a's block is
        # open, DuetDB runs no other session's statements: b sees its end.)
        with a.transaction():
            a.execute("SELECT pg_advisory_xact_lock(7003)")
            assert advisory_lock_holders(a, 7003) == [(a_pid, "ExclusiveLock")]
        assert b.execute("SELECT pg_try_advisory_lock(7003)").fetchone() == (True,)
        a.execute("SELECT pg_advisory_xact_lock_shared(7004)")  # a transaction of its own
        assert b.execute("SELECT pg_try_advisory_lock(7004)").fetchone() == (True,)

        # DISCARD ALL and the end of a session give their locks back.
        b.execute("DISCARD ALL")
        assert a.execute("SELECT pg_try_advisory_lock(7003)").fetchone() == (True,)
        b.execute("SELECT pg_advisory_lock(7006)")
        b.close()
        for _ in range(50):  # PostgreSQL gives them back as the backend exits: wait
            if a.execute("SELECT pg_try_advisory_lock(7006)").fetchone() == (True,):
                break
            time.sleep(0.1)
        assert advisory_lock_holders(a, 7006) == [(a_pid, "ExclusiveLock")]
        a.execute("SELECT pg_advisory_unlock_all()")


TESTS = [test_parameters, test_executemany_and_prepare, test_transactions, test_copy, test_binary_copy,
         test_on_conflict_rowcount,
         test_errors, test_large_result, test_cancel, test_arrays, test_any_array_parameters, test_long_statements,
         test_routine_calls, test_explain, test_notify, test_named_cursors,
         test_error_fields, test_sql_prepare_execute, test_bytea_uuid, test_json, test_temp_tables_of_two_sessions,
         test_advisory_locks_of_two_sessions]


if __name__ == "__main__":
    sys.exit(run_tests("psycopg", TESTS))
