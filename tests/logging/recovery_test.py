#!/usr/bin/env python3
"""Recovery at start (docs/logging.md, "Recovery"), the cases crash_test.py does not kill
its way into:
  - extreme values (dates and timestamps at the input limits, infinities, NaN, -0 and
    infinite floats, the largest numerics, every character U+0001..U+00FF, arrays of them,
    NULLs), inserted as literals and as binary parameters from a session with
    extra_float_digits = 0 and a zone with a seconds offset, come back exactly after a replay
    of the log alone, and after loading the archive written from them;
  - an archive that checks out but fails to load falls back to the archive before it and
    the log after that, says so, and sets the bad one aside;
  - a log segment with a damaged header, or cut to 0 bytes, stops the start with a FATAL
    message and a non-zero exit, and no file is changed: restored, it brings everything back;
  - views (over views, replaced to read a view created after them, with column lists)
    come back with their queries and dependencies after a replay of the log, and after
    loading the archive; one created in a rolled back transaction or dropped does not;
  - composite types (one with a field of another, one a function returns) come back after a
    replay of the log and after loading the archive; a dropped or rolled back one does not;
  - CHECK and FOREIGN KEY constraints (added, dropped, NOT VALID, rolled back, DEFERRABLE
    INITIALLY DEFERRED on a column added later) come back
    with their definitions and are enforced after a replay of the log, and after loading
    the archive;
  - tables changed by ALTER TABLE (columns added with defaults, dropped, retyped, renamed;
    keys dropped and renamed; NOT NULL set), one rolled back, and tables made by CREATE
    TABLE AS and SELECT INTO come back with their layout, rows and keys after a replay of
    the log, and after loading the archive;
  - statements that read temporary tables into permanent ones replay to the same rows after
    a crash with the sessions alive, from the log alone and from an archive written while a
    temporary table was alive, and the temporary tables do not come back;
  - rows that recorded txid_current() and advisory lock answers replay to the same values,
    from the log and from the archive, and no transaction id is handed out twice;
  - CALLs whose procedures COMMIT and ROLLBACK inside come back as far as they committed
    (one that returned, one that failed later, one killed while it ran), from the log and
    from the archive;
  - routines that change rows and the catalog through EXECUTE (dynamic SQL; an EXCEPTION
    block undoing some of it, a call rolled back) replay to the same tables after a crash,
    from the log alone and from the archive: the log holds the calls, and a replay runs the
    routines again;
  - UPDATE and DELETE ... WHERE CURRENT OF on DECLAREd cursors (moved by FETCH and MOVE,
    backwards too, a row deleted under one) replay to the same rows, from the log alone and
    from the archive: the log keeps the cursors' DECLARE, FETCH and MOVE for them;
  - a start that cannot bind its port after a recovery that replayed transactions (so a
    checkpoint is queued on the executor) exits 1 with a message, not a crash; run with the
    ASan duetd, no sanitizer report.
Usage: recovery_test.py DUETD_BINARY
"""
import datetime
import decimal
import os
import shutil
import socket
import struct
import subprocess
import threading
import sys
import tempfile
import time

import psycopg

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import duetd_process  # noqa: E402 - tests/, for the shared server start
from scratch_pg import free_port  # noqa: E402

DUETD = sys.argv[1]
NO_TIMED_CHECKPOINTS = ("--checkpoint-timeout", "3600")
SANITIZER_REPORT = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:")


class Server:
    def __init__(self, data, *flags):
        self.proc, self.port = duetd_process.start(DUETD, data, *NO_TIMED_CHECKPOINTS, *flags, timeout=120,
                                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

    def connect(self, **settings):
        options = " ".join(f"-c {k}={v}" for k, v in settings.items())
        return psycopg.connect(f"host=127.0.0.1 port={self.port} dbname=postgres user=postgres",
                               options=options, autocommit=True)

    def stop(self):
        """SIGTERM; returns what duetd printed."""
        self.proc.terminate()
        output = self.proc.communicate(timeout=60)[0]
        assert self.proc.returncode == 0, f"duetd exited with {self.proc.returncode}:\n{output}"
        assert not any(s in output for s in SANITIZER_REPORT), output
        return output


def start_failing(data, port=None):
    """Runs duetd where it must not start: returns (exit status, output)."""
    proc = subprocess.Popen([DUETD, "--listen", "127.0.0.1", "--port", str(port or free_port()), "--data-dir", data,
                             *NO_TIMED_CHECKPOINTS], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        output = proc.communicate(timeout=60)[0]
    except subprocess.TimeoutExpired:
        proc.kill()
        raise AssertionError("duetd started where it must not:\n" + proc.communicate()[0])
    return proc.returncode, output


def files_of(data):
    """Every file of the data directory with its bytes."""
    result = {}
    for root, _, names in os.walk(data):
        for name in names:
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                result[os.path.relpath(path, data)] = f.read()
    return result


def segments(data):
    log = os.path.join(data, "log")
    return [os.path.join(log, f) for f in sorted(os.listdir(log)) if f.endswith(".log")]


def archives(data):
    path = os.path.join(data, "archive")
    return sorted(f for f in os.listdir(path) if f.endswith(".archive")) if os.path.isdir(path) else []


def rows(server, query):
    """The rows as the text the server sends (no client-side parsing), default settings."""
    conn = server.connect()
    result = conn.pgconn.exec_(query.encode())
    assert result.status == psycopg.pq.ExecStatus.TUPLES_OK, result.error_message
    out = [[result.get_value(r, c) for c in range(result.nfields)] for r in range(result.ntuples)]
    conn.close()
    return out


# ---- extreme values

ALL_CHARS = "".join(chr(c) for c in range(1, 256))  # every byte 1..255 as a character
WIDE_CHARS = "\u0100\u07ff\u0800\uffff\U00010000\U0010ffff\u00e9\u2028"
BIG_MANTISSA = str(2 ** 119 - 1)  # the largest numeric DuetDB holds
TINY_NUMERIC = "0." + "0" * (255 - len(BIG_MANTISSA)) + BIG_MANTISSA  # at the largest scale

COLUMNS = """id int PRIMARY KEY, b boolean, i2 smallint, i4 integer, i8 bigint, f4 real,
    f8 double precision, n numeric, n2 numeric(38, 2), d date, ts timestamp, tz timestamptz,
    t text, v varchar(300), c char(5), ta text[], fa float8[], f4a real[], da date[],
    tsa timestamp[], na numeric[], ia integer[]"""

LITERAL_ROWS = [
    "1, true, -32768, -2147483648, -9223372036854775808, '-Infinity', '-Infinity', "
    f"'-{BIG_MANTISSA}', -999999999999999999999999999999999.99, '4714-11-24 BC', "
    "'4714-11-24 00:00:00 BC', '4714-11-24 00:00:00+00 BC', '', '', '', '{}', '{}', '{}', '{}', '{}', '{}', '{}'",
    "2, false, 32767, 2147483647, 9223372036854775807, 'Infinity', 'Infinity', "
    f"'{BIG_MANTISSA}', 999999999999999999999999999999999.99, '5874897-12-31', "
    "'294276-12-31 23:59:59.999999', '294276-12-31 23:59:59.999999+00', 'x', 'x', 'x', "
    "'{NULL,\"NULL\",\"\",\"a,b\",\"{}\",\"\\\\\",\"\\\"\"}', '{NaN,Infinity,-Infinity,-0,1e-310}', "
    "'{NaN,-0,3.4028235e38,1e-45}', '{infinity,-infinity,4714-11-24 BC,5874897-12-31}', "
    "'{infinity,-infinity,\"294276-12-31 23:59:59.999999\"}', "
    f"'{{{TINY_NUMERIC},-{BIG_MANTISSA},NULL}}', '{{2147483647,-2147483648,NULL}}'",
    "3, NULL, 0, 0, 0, 'NaN', 'NaN', "
    f"'{TINY_NUMERIC}', 0.01, 'infinity', 'infinity', 'infinity', NULL, NULL, NULL, NULL, NULL, NULL, "
    "'{NULL}', NULL, NULL, NULL",
    "4, NULL, NULL, NULL, NULL, '-0', '-0', "
    f"'-{TINY_NUMERIC}', -0.00, '-infinity', '-infinity', '-infinity', NULL, NULL, 'ab   ', NULL, NULL, NULL, "
    "NULL, NULL, NULL, NULL",
    "5, NULL, NULL, NULL, NULL, '1.17549435e-38', '2.2250738585072014e-308', 0.000, NULL, "
    "'2000-01-01', '2000-02-29 12:00:00.000001', '1900-01-01 00:00:00+00', NULL, NULL, NULL, NULL, "
    "'{5e-324,1.7976931348623157e308,0.1}', NULL, NULL, NULL, NULL, NULL",
    "6, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "
    "NULL, NULL, NULL, NULL",
]


def sql_string(s):
    return "'" + s.replace("'", "''") + "'"


def insert_values(conn):
    for values in LITERAL_ROWS:
        conn.execute(f"INSERT INTO v VALUES ({values})")
    # Every character, raw in the statement's text.
    conn.execute(f"INSERT INTO v (id, t, v, ta) VALUES (7, {sql_string(ALL_CHARS)}, {sql_string(WIDE_CHARS)}, "
                 f"ARRAY[{sql_string(ALL_CHARS)}, {sql_string(WIDE_CHARS)}, NULL, ''])")
    # Binary parameters, which the log records as text: from a session whose
    # extra_float_digits and TimeZone would print them inexactly or unusually.
    conn.execute("SET extra_float_digits = 0")
    conn.execute("SET TimeZone = 'Europe/Amsterdam'")  # +00:19:32 before 1937
    tzinfo = datetime.timezone.utc
    binary_rows = [
        (8, float("nan"), float("inf"), -0.0, decimal.Decimal(BIG_MANTISSA), datetime.date(1, 1, 1),
         datetime.datetime(9999, 12, 31, 23, 59, 59, 999999), datetime.datetime(1900, 1, 1, tzinfo=tzinfo),
         ALL_CHARS, [float("nan"), -0.0, 0.1, 1 / 3, 5e-324]),
        (9, 0.1, 1 / 3, 2.2250738585072014e-308, decimal.Decimal(TINY_NUMERIC), datetime.date(9999, 12, 31),
         datetime.datetime(1, 1, 1), datetime.datetime(1, 1, 1, tzinfo=tzinfo), WIDE_CHARS,
         [float("-inf"), 1.7976931348623157e308]),
        (10, None, -float("inf"), 123456789.12345678, decimal.Decimal("-0.000"), None, None, None, None, None),
    ]
    for row in binary_rows:
        conn.execute("INSERT INTO v (id, f4, f8, f4a, n, d, ts, tz, t, fa) VALUES "
                     "(%b, %b::real, %b, ARRAY[%b::real], %b, %b, %b, %b, %b, %b)",
                     (row[0], row[1], row[2], row[2], row[4], row[5], row[6], row[7], row[8], row[9]))
    # Limits printed in zones far from UTC: the log has them as such text.
    for id_, zone, value in [(13, "Pacific/Kiritimati", "294276-12-31 23:59:59.999999+00"),
                             (14, "America/New_York", "4714-11-24 00:00:00+00 BC")]:
        conn.execute(f"SET TimeZone = '{zone}'")
        conn.execute("INSERT INTO v (id, tz) VALUES (%s, %s::timestamptz)", (id_, value))
    conn.execute("RESET extra_float_digits")
    conn.execute("RESET TimeZone")
    # Values that arithmetic or casts produce at the edges, not typed in.
    conn.execute("INSERT INTO v (id, d, ts, f8, n) SELECT 11, '5874897-12-30'::date + 1, "
                 "'294276-12-31'::date::timestamp, '1e308'::float8 * 1.5::float8, 0.1::numeric(3, 2)")
    conn.execute("INSERT INTO v (id, d, f4) SELECT 12, '4714-11-25 BC'::date - 1, -'0'::real")


def extreme_values():
    """Through a replay of the log alone, then through the archive written after it."""
    data = tempfile.mkdtemp(prefix="duet-recovery-")
    try:
        server = Server(data)
        conn = server.connect()
        conn.execute(f"CREATE TABLE v ({COLUMNS})")
        conn.execute(f"CREATE TABLE vc ({COLUMNS}) WITH (storage = column)")
        insert_values(conn)
        conn.execute("INSERT INTO vc SELECT * FROM v")
        # EXPLAIN ANALYZE runs the INSERT: the log records it with its $n values.
        conn.execute("EXPLAIN (ANALYZE) INSERT INTO vc (id, f4) VALUES (%s, %s)", [99, 1.5])
        conn.close()
        # Floats print their shortest exact digits (extra_float_digits 1): equal text is equal bits.
        queries = ["SELECT * FROM v ORDER BY id", "SELECT * FROM vc ORDER BY id"]
        before = [rows(server, q) for q in queries]
        assert before[0][0][1] == b"t" and len(before[0]) == 14
        server.stop()
        assert not archives(data), "an archive was written before the test asked for one"

        server = Server(data)  # the log alone
        after_log = [rows(server, q) for q in queries]
        assert after_log == before, "a value came back different from the log alone:\n" + diff(before, after_log)
        conn = server.connect()
        notices = []
        conn.add_notice_handler(lambda n: notices.append(n.message_primary))
        conn.execute("CHECKPOINT")
        assert not notices, f"CHECKPOINT failed: {notices}"
        conn.close()
        assert archives(data), "no archive was written"
        server.stop()

        server = Server(data)  # the archive
        after_archive = [rows(server, q) for q in queries]
        output = server.stop()
        assert "loaded archive" in output and "replayed 0 transactions" in output, output
        assert after_archive == before, "a value came back different from the archive:\n" + diff(before, after_archive)
        print("extreme values: the same after a replay of the log and after loading the archive")
    finally:
        shutil.rmtree(data)


def log_then_archive(data, check):
    """Starts a server on `data` from its log alone and runs check(server, "the log"), writes
    an archive, then starts from that archive (replaying nothing after it) and runs
    check(server, "the archive")."""
    server = Server(data)  # the log alone
    check(server, "the log")
    conn = server.connect()
    conn.execute("CHECKPOINT")
    conn.close()
    assert archives(data), "no archive was written"
    server.stop()

    server = Server(data)  # the archive
    check(server, "the archive")
    output = server.stop()
    assert "loaded archive" in output and "replayed 0 transactions" in output, output


def composite_types():
    """CREATE TYPE ... AS and DROP TYPE through the log, then through the archive: a type a
    routine returns, a type with a field of another, a dropped one and a rolled back one."""
    data = tempfile.mkdtemp(prefix="duet-recovery-")
    try:
        server = Server(data)
        conn = server.connect()
        conn.execute("CREATE TYPE rct_pair AS (a int, b text)")
        conn.execute("CREATE TYPE rct_outer AS (p rct_pair, n numeric(6,2))")
        conn.execute("CREATE TYPE rct_dropped AS (x int)")
        conn.execute("DROP TYPE rct_dropped")
        conn.execute("CREATE FUNCTION rct_f() RETURNS SETOF rct_pair LANGUAGE sql AS "
                     "$$ SELECT 1, 'x' UNION ALL SELECT 2, 'y' $$")
        with conn.transaction():
            conn.execute("CREATE TYPE rct_rolled_back AS (x int)")
            raise psycopg.Rollback()
        conn.close()
        queries = ["SELECT * FROM rct_f() ORDER BY a",
                   "SELECT '(\"(3,z z)\",1.5)'::rct_outer, ((ROW(4, 'w')::rct_pair)).b",
                   "SELECT t.typname, c.relkind, c.relnatts FROM pg_type t JOIN pg_class c ON c.oid = t.typrelid "
                   "WHERE t.typname LIKE 'rct%' ORDER BY 1"]

        def check(server, what):
            got = [rows(server, q) for q in queries]
            assert got == expected, f"composite types came back different from {what}:\n" + diff(expected, got)
            conn = server.connect()
            try:
                conn.execute("DROP TYPE rct_pair")
                raise AssertionError(f"rct_pair was dropped with a function returning it, after {what}")
            except psycopg.errors.DependentObjectsStillExist:
                pass
            conn.close()

        expected = [rows(server, q) for q in queries]
        assert expected[0] == [[b"1", b"x"], [b"2", b"y"]], expected
        assert expected[1] == [[b'("(3,""z z"")",1.50)', b"w"]], expected
        assert [r[0] for r in expected[2]] == [b"rct_outer", b"rct_pair"], expected
        server.stop()

        log_then_archive(data, check)
        print("composite types: the same after a replay of the log and after loading the archive")
    finally:
        shutil.rmtree(data)


def current_of():
    """WHERE CURRENT OF through the log, then through the archive."""
    data = tempfile.mkdtemp(prefix="duet-recovery-")
    try:
        server = Server(data)
        conn = server.connect()
        conn.execute("CREATE TABLE rco_t (id int, v int)")
        conn.execute("INSERT INTO rco_t SELECT g, g FROM generate_series(1, 6) g")
        with conn.transaction():
            conn.execute("DECLARE c CURSOR FOR SELECT * FROM rco_t WHERE id > 1")
            conn.execute("DECLARE d SCROLL CURSOR FOR SELECT * FROM rco_t")
            conn.execute("DECLARE unused CURSOR FOR SELECT * FROM rco_t")
            conn.execute("MOVE 2 c")
            conn.execute("FETCH 5 d")
            conn.execute("UPDATE rco_t SET v = 100 WHERE CURRENT OF c")
            conn.execute("FETCH c")
            conn.execute("DELETE FROM rco_t WHERE CURRENT OF c")
            conn.execute("FETCH BACKWARD 3 d")
            conn.execute("UPDATE rco_t SET v = v + 1000 WHERE CURRENT OF d")
        with conn.transaction():
            conn.execute("DECLARE c CURSOR FOR SELECT * FROM rco_t FOR UPDATE")
            conn.execute("FETCH 4 c")
            conn.execute("UPDATE rco_t SET v = -v WHERE CURRENT OF c")
        conn.close()
        query = "SELECT * FROM rco_t ORDER BY id"

        def check(server, what):
            got = rows(server, query)
            assert got == expected, f"WHERE CURRENT OF came back different from {what}:\n" + diff(expected, got)

        expected = rows(server, query)
        assert expected == [[b"1", b"1"], [b"2", b"1002"], [b"3", b"100"], [b"5", b"-5"], [b"6", b"6"]], expected
        server.stop()

        log_then_archive(data, check)
        print("current_of: the same after a replay of the log and after loading the archive")
    finally:
        shutil.rmtree(data)


def views():
    """CREATE [OR REPLACE] VIEW and DROP VIEW through the log, then through the archive."""
    data = tempfile.mkdtemp(prefix="duet-recovery-")
    try:
        server = Server(data)
        conn = server.connect()
        conn.execute("CREATE TABLE rv_t (a int, b text)")
        conn.execute("INSERT INTO rv_t VALUES (1, 'x'), (2, 'y'), (3, 'z')")
        conn.execute("CREATE VIEW rv_first (k, label) AS SELECT a, b FROM rv_t WHERE a > 1")
        conn.execute("CREATE VIEW rv_second AS SELECT k * 10 AS k10 FROM rv_first")
        # The first view now reads a view created after it: an archive must create that one first.
        conn.execute("CREATE VIEW rv_later AS SELECT a, b FROM rv_t WHERE a < 3")
        conn.execute("CREATE OR REPLACE VIEW rv_first (k, label) AS SELECT a, b FROM rv_later WHERE a > 1")
        conn.execute("CREATE VIEW rv_dropped AS SELECT 1 AS one")
        conn.execute("DROP VIEW rv_dropped")
        with conn.transaction():
            conn.execute("CREATE VIEW rv_rolled_back AS SELECT 1 AS one")
            conn.execute("DROP TABLE rv_t CASCADE")
            raise psycopg.Rollback()
        conn.close()
        queries = ["SELECT * FROM rv_first ORDER BY k", "SELECT * FROM rv_second ORDER BY k10",
                   "SELECT * FROM rv_later ORDER BY a"]

        def check(server, what):
            got = [rows(server, q) for q in queries]
            assert got == expected, f"views came back different from {what}:\n" + diff(expected, got)
            conn = server.connect()
            for name in ("rv_dropped", "rv_rolled_back"):
                try:
                    conn.execute(f"SELECT * FROM {name}")
                    raise AssertionError(f"{name} came back from {what}")
                except psycopg.errors.UndefinedTable:
                    pass
            try:
                conn.execute("DROP TABLE rv_t")
                raise AssertionError(f"rv_t was dropped with views reading it, after {what}")
            except psycopg.errors.DependentObjectsStillExist as e:
                assert "view rv_later depends on table rv_t" in str(e.diag.message_detail), e.diag.message_detail
            conn.close()

        expected = [rows(server, q) for q in queries]
        assert expected[0] == [[b"2", b"y"]] and expected[1] == [[b"20"]], expected
        server.stop()

        log_then_archive(data, check)
        print("views: the same after a replay of the log and after loading the archive")
    finally:
        shutil.rmtree(data)


def altered_tables():
    """ALTER TABLE, CREATE TABLE AS and SELECT INTO through the log, then through the archive."""
    data = tempfile.mkdtemp(prefix="duet-recovery-")
    try:
        server = Server(data)
        conn = server.connect()
        conn.execute("CREATE TABLE ra_t (a int PRIMARY KEY, b text, c int UNIQUE, d float8)")
        conn.execute("INSERT INTO ra_t SELECT g, g::text, g * 10, g / 4.0 FROM generate_series(1, 5000) g")
        conn.execute("ALTER TABLE ra_t ADD COLUMN e text NOT NULL DEFAULT 'e', DROP COLUMN d")
        conn.execute("ALTER TABLE ra_t ALTER COLUMN b TYPE bigint USING b::bigint * 3, ALTER e SET DEFAULT 'f'")
        conn.execute("ALTER TABLE ra_t RENAME COLUMN c TO cc")
        conn.execute("ALTER TABLE ra_t RENAME CONSTRAINT ra_t_c_key TO ra_t_unique")
        conn.execute("ALTER TABLE ra_t ALTER COLUMN b SET NOT NULL")
        conn.execute("ALTER TABLE ra_t RENAME TO ra_renamed")
        conn.execute("INSERT INTO ra_renamed (a, b) VALUES (0, 0)")
        with conn.transaction():
            conn.execute("ALTER TABLE ra_renamed DROP COLUMN cc, ADD COLUMN z int DEFAULT 1")
            conn.execute("ALTER TABLE ra_renamed DROP CONSTRAINT ra_t_pkey")
            raise psycopg.Rollback()
        conn.execute("CREATE TABLE ra_ctas (n, total) AS SELECT count(*), sum(b) FROM ra_renamed")
        conn.execute("SELECT a, e INTO ra_into FROM ra_renamed WHERE a % 1000 = 0")
        conn.close()
        queries = ["SELECT count(*), sum(a), sum(b), sum(cc), min(e), max(e) FROM ra_renamed",
                   "SELECT * FROM ra_renamed WHERE a IN (0, 7) ORDER BY a",
                   "SELECT * FROM ra_ctas", "SELECT * FROM ra_into ORDER BY a",
                   "SELECT table_name, column_name, data_type, is_nullable, column_default"
                   " FROM information_schema.columns WHERE table_name LIKE 'ra%' ORDER BY 1, ordinal_position",
                   "SELECT conname, contype FROM pg_constraint WHERE conname LIKE 'ra%' ORDER BY 1"]

        def check(server, what):
            got = [rows(server, q) for q in queries]
            assert got == expected, f"altered tables came back different from {what}:\n" + diff(expected, got)
            conn = server.connect()
            for statement, error in (("INSERT INTO ra_renamed (a, b) VALUES (7, 1)", psycopg.errors.UniqueViolation),
                                     ("INSERT INTO ra_renamed (a, b, cc) VALUES (-1, 1, 70)",
                                      psycopg.errors.UniqueViolation),
                                     ("INSERT INTO ra_renamed (a) VALUES (-2)", psycopg.errors.NotNullViolation)):
                try:
                    conn.execute(statement)
                    raise AssertionError(f"{statement} passed after {what}")
                except error:
                    pass
            conn.close()

        expected = [rows(server, q) for q in queries]
        assert expected[1] == [[b"0", b"0", None, b"f"], [b"7", b"21", b"70", b"e"]], expected[1]
        server.stop()

        log_then_archive(data, check)
        print("altered tables: the same after a replay of the log and after loading the archive")
    finally:
        shutil.rmtree(data)


def sequences():
    """Sequences, SERIAL and identity columns (and comments on them) through the log, then
    through the archive: the rows and where each sequence stands, with values handed out by
    rolled-back work not handed out again."""
    data = tempfile.mkdtemp(prefix="duet-recovery-")
    try:
        server = Server(data)
        conn = server.connect()
        conn.execute("CREATE TABLE rs_serial (id serial PRIMARY KEY, v text)")
        conn.execute("CREATE TABLE rs_identity (id bigint GENERATED ALWAYS AS IDENTITY (START 100 INCREMENT 10), v text)")
        conn.execute("CREATE SEQUENCE rs_free AS integer INCREMENT -3 MINVALUE -1000 MAXVALUE 50 START 40 CYCLE")
        conn.execute("CREATE SEQUENCE rs_owned OWNED BY rs_serial.v")
        conn.execute("INSERT INTO rs_serial (v) VALUES ('a'), ('b')")
        conn.execute("INSERT INTO rs_identity (v) VALUES ('a')")
        conn.execute("SELECT nextval('rs_free'), nextval('rs_free')")  # changes no row: logged all the same
        with conn.transaction():  # rolled back: its values are not handed out again
            conn.execute("INSERT INTO rs_serial (v) VALUES ('rolled back')")
            conn.execute("SELECT nextval('rs_owned')")
            raise psycopg.Rollback()
        try:  # a failed implicit transaction that drew a value
            conn.execute("INSERT INTO rs_serial (id, v) VALUES (nextval('rs_free'), 'x'), (1, 'duplicate')")
            raise AssertionError("the duplicate key did not fail")
        except psycopg.errors.UniqueViolation:
            pass
        with conn.transaction():  # a savepoint rolled back inside a committed transaction
            conn.execute("INSERT INTO rs_serial (v) VALUES ('c')")
            conn.execute("SAVEPOINT s")
            conn.execute("INSERT INTO rs_serial (v) VALUES ('undone')")
            conn.execute("ROLLBACK TO SAVEPOINT s")
            conn.execute("INSERT INTO rs_serial (v) VALUES ('d')")
        conn.execute("SELECT setval('rs_owned', 77, false)")
        conn.execute("COMMENT ON TABLE rs_serial IS 'it''s kept'")
        conn.execute("COMMENT ON COLUMN rs_identity.v IS 'a column'")
        conn.execute("COMMENT ON SEQUENCE rs_free IS 'free'")
        conn.execute("CREATE SCHEMA rs_schema")
        conn.execute("CREATE TABLE rs_schema.t (id serial PRIMARY KEY, v text)")
        conn.execute("INSERT INTO rs_schema.t (v) VALUES ('in a schema')")
        conn.close()
        queries = ["SELECT id, v FROM rs_serial ORDER BY id", "SELECT id, v FROM rs_identity ORDER BY id",
                   "SELECT last_value, is_called FROM rs_serial_id_seq", "SELECT last_value, is_called FROM rs_free",
                   "SELECT last_value, is_called FROM rs_owned",
                   "SELECT sequencename, data_type, start_value, min_value, max_value, increment_by, cycle "
                   "FROM pg_sequences ORDER BY 1",
                   "SELECT pg_get_serial_sequence('rs_serial', 'id'), pg_get_serial_sequence('rs_serial', 'v'), "
                   "pg_get_serial_sequence('rs_identity', 'id')",
                   "SELECT description FROM pg_description WHERE objoid IN "
                   "('rs_serial'::regclass, 'rs_identity'::regclass, 'rs_free'::regclass) ORDER BY 1",
                   "SELECT id, v FROM rs_schema.t", "SELECT last_value, is_called FROM rs_schema.t_id_seq"]

        def check(server, what):
            got = [rows(server, q) for q in queries]
            assert got == expected, f"sequences came back different from {what}:\n" + diff(expected, got)
            conn = server.connect()
            assert conn.execute("INSERT INTO rs_serial (v) VALUES ('next') RETURNING id").fetchone()[0] == 7
            try:
                conn.execute("INSERT INTO rs_identity VALUES (1, 'x')")
                raise AssertionError(f"the identity column lost GENERATED ALWAYS after {what}")
            except psycopg.errors.GeneratedAlways:
                pass
            conn.close()

        expected = [rows(server, q) for q in queries]
        assert expected[0] == [[b"1", b"a"], [b"2", b"b"], [b"4", b"c"], [b"6", b"d"]], expected[0]
        assert expected[2] == [[b"6", b"t"]] and expected[3] == [[b"34", b"t"]], expected
        assert expected[4] == [[b"77", b"f"]], expected
        server.stop()

        server = Server(data)  # the log alone
        check(server, "the log")
        server.stop()
        server = Server(data)  # the log again, now with the statements the check ran
        conn = server.connect()
        conn.execute("DELETE FROM rs_serial WHERE v = 'next'")
        conn.execute("SELECT setval('rs_serial_id_seq', 6)")
        conn.execute("CHECKPOINT")
        conn.close()
        assert archives(data), "no archive was written"
        server.stop()

        server = Server(data)  # the archive
        check(server, "the archive")
        output = server.stop()
        assert "loaded archive" in output, output
        print("sequences: the same after a replay of the log and after loading the archive")
    finally:
        shutil.rmtree(data)


def constraints():
    """CHECK and FOREIGN KEY constraints through the log, then through the archive."""
    data = tempfile.mkdtemp(prefix="duet-recovery-")
    try:
        server = Server(data)
        conn = server.connect()
        conn.execute("CREATE TABLE rc_p (id int PRIMARY KEY, code text UNIQUE)")
        conn.execute("CREATE TABLE rc_c (id int CHECK (id > 0), pid int REFERENCES rc_p ON DELETE CASCADE,"
                     " code text, CONSTRAINT rc_code FOREIGN KEY (code) REFERENCES rc_p (code) ON UPDATE SET NULL)")
        conn.execute("INSERT INTO rc_p VALUES (1, 'a'), (2, 'b')")
        conn.execute("INSERT INTO rc_c VALUES (5, 1, 'a'), (6, 2, NULL)")
        conn.execute("ALTER TABLE rc_c ADD CONSTRAINT rc_big CHECK (id > 100) NOT VALID")
        conn.execute("ALTER TABLE rc_c ADD CONSTRAINT rc_dropped CHECK (id < 1000)")
        conn.execute("ALTER TABLE rc_c DROP CONSTRAINT rc_dropped")
        with conn.transaction():
            conn.execute("ALTER TABLE rc_c ADD CONSTRAINT rc_rolled_back CHECK (id <> 150)")
            raise psycopg.Rollback()
        # A deferred foreign key, and a transaction that only satisfied it at commit.
        conn.execute("ALTER TABLE rc_c ADD COLUMN later int CONSTRAINT rc_later REFERENCES rc_p DEFERRABLE INITIALLY DEFERRED")
        with conn.transaction():
            conn.execute("INSERT INTO rc_c VALUES (170, 1, NULL, 3)")
            conn.execute("INSERT INTO rc_p VALUES (3, 'c')")
        conn.close()
        query = ("SELECT conname, pg_get_constraintdef(oid), convalidated FROM pg_constraint"
                 " WHERE contype IN ('c', 'f') ORDER BY conname")

        def check(server, what):
            got = rows(server, query)
            assert got == expected, f"constraints came back different from {what}:\n" + diff(expected, got)
            conn = server.connect()
            for bad in ("INSERT INTO rc_c VALUES (200, 9, NULL)", "INSERT INTO rc_c VALUES (50, 1, NULL)"):
                try:
                    with conn.transaction():
                        conn.execute(bad)
                    raise AssertionError(f"{bad} passed after {what}")
                except (psycopg.errors.ForeignKeyViolation, psycopg.errors.CheckViolation):
                    pass
            with conn.transaction():
                conn.execute("INSERT INTO rc_c VALUES (150, 2, 'b')")  # rc_rolled_back is gone
                conn.execute("DELETE FROM rc_p WHERE id = 2")
                assert conn.execute("SELECT count(*) FROM rc_c").fetchone()[0] == 2, "no cascade"
                raise psycopg.Rollback()
            try:  # rc_later is still checked at commit
                with conn.transaction():
                    conn.execute("INSERT INTO rc_c VALUES (180, 1, NULL, 99)")
                raise AssertionError(f"a deferred foreign key let a missing key commit after {what}")
            except psycopg.errors.ForeignKeyViolation:
                pass
            conn.close()

        expected = rows(server, query)
        assert [r[0] for r in expected] == [b"rc_big", b"rc_c_id_check", b"rc_c_pid_fkey", b"rc_code", b"rc_later"], \
            expected
        server.stop()

        log_then_archive(data, check)
        print("constraints: the same after a replay of the log and after loading the archive")
    finally:
        shutil.rmtree(data)



def transaction_ids_and_advisory_locks():
    """Rows that recorded txid_current() and advisory lock answers come back the same
    through the log, then through the archive (a replay takes no lock: it hands out the
    answers the statements got), and no transaction id is handed out twice, not even one
    that a transaction which changed nothing took."""
    data = tempfile.mkdtemp(prefix="duet-recovery-")
    try:
        server = Server(data)
        a, b = server.connect(), server.connect()
        a.execute("CREATE TABLE rt_ids (who text, id bigint, answer boolean)")
        a.execute("SELECT pg_advisory_lock(7)")
        b.execute("INSERT INTO rt_ids SELECT 'b refused', txid_current(), pg_try_advisory_lock(7)")
        b.execute("INSERT INTO rt_ids SELECT 'b granted', txid_current(), pg_try_advisory_lock(8)")
        with a.transaction():
            a.execute("INSERT INTO rt_ids SELECT 'a unlocked', txid_current(), pg_advisory_unlock(7)")
            a.execute("INSERT INTO rt_ids SELECT 'a again', txid_current(), pg_advisory_unlock(7)")
        handed_out = [a.execute("SELECT txid_current()").fetchone()[0]]  # changes nothing
        a.close()
        b.close()
        query = "SELECT who, id, answer FROM rt_ids ORDER BY who"
        expected = rows(server, query)
        answers = {who.decode(): answer for who, _, answer in expected}
        assert answers == {"a again": b"f", "a unlocked": b"t", "b granted": b"t", "b refused": b"f"}, expected
        ids = {who.decode(): int(i) for who, i, _ in expected}
        assert ids["a unlocked"] == ids["a again"] > ids["b granted"] > ids["b refused"], ids
        assert handed_out[0] > ids["a again"], (handed_out, ids)
        server.stop()

        def check(server, what):
            got = rows(server, query)
            assert got == expected, f"rt_ids came back different from {what}:\n" + diff(expected, got)
            conn = server.connect()
            assert conn.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'").fetchone() == (0,)
            now = conn.execute("SELECT txid_current()").fetchone()[0]
            assert now > max(handed_out), f"txid_current() {now} after {what}, {max(handed_out)} was handed out"
            handed_out.append(now)
            conn.close()

        log_then_archive(data, check)
        print("transaction ids and advisory lock answers: the same after a replay of the log and after loading "
              "the archive")
    finally:
        shutil.rmtree(data)


def procedures_that_commit():
    """CALLs whose procedures COMMIT and ROLLBACK inside come back as far as they committed:
    one that returned, one that failed after committing (its last transaction lost), and one
    killed while it ran (what it committed before), with now() as each of their
    transactions saw it and the sequence moves of a part rolled back; through the log, then
    through the archive."""
    data = tempfile.mkdtemp(prefix="duet-recovery-")
    try:
        server = Server(data)
        conn = server.connect()
        conn.execute("CREATE TABLE rc_t (id int PRIMARY KEY, what text, at timestamptz)")
        conn.execute("CREATE SEQUENCE rc_s")
        conn.execute("""CREATE PROCEDURE rc_batches(first int, n int, fail boolean) LANGUAGE plpgsql AS $$
            BEGIN
              FOR i IN first..first + n - 1 LOOP
                INSERT INTO rc_t VALUES (i, 'batch ' || nextval('rc_s'), now());
                IF i % 3 = 0 THEN
                  COMMIT;
                ELSIF i % 5 = 0 THEN
                  ROLLBACK;
                END IF;
              END LOOP;
              IF fail THEN
                RAISE EXCEPTION 'failed after the batches from %', first;
              END IF;
            END $$""")
        conn.execute("""CREATE PROCEDURE rc_long() LANGUAGE plpgsql AS $$
            DECLARE
              x bigint := 0;
            BEGIN
              FOR i IN 500..504 LOOP
                INSERT INTO rc_t VALUES (i, 'long ' || nextval('rc_s'), now());
                COMMIT;
              END LOOP;
              FOR i IN 1..100000 LOOP
                FOR j IN 1..100000 LOOP
                  x := x + j % 7;
                END LOOP;
              END LOOP;
              INSERT INTO rc_t VALUES (505, 'never', now());
            END $$""")
        conn.execute("CALL rc_batches(1, 20, false)")
        try:
            conn.execute("CALL rc_batches(100, 8, true)")
            raise AssertionError("rc_batches(100, 8, true) did not fail")
        except psycopg.errors.RaiseException:
            pass
        query = "SELECT id, what, at FROM rc_t ORDER BY id"
        before_long = rows(server, query)
        ids = [int(r[0]) for r in before_long]
        assert ids == [1, 2, 3, 6, 7, 8, 9, 11, 12, 13, 14, 15, 16, 17, 18, 101, 102, 103, 104, 105], ids
        long_call = threading.Thread(target=lambda: call_until_killed(server, "CALL rc_long()"))
        long_call.start()
        time.sleep(2)  # its five transactions are committed and logged by then; it loops on
        crash(server)
        long_call.join()

        def check(server, what):
            got = rows(server, query)
            assert got[:len(before_long)] == before_long, f"rc_t came back different from {what}:\n" + diff(
                before_long, got[:len(before_long)])
            assert [(int(i), w.decode().split()[0]) for i, w, _ in got[len(before_long):]] == [
                (i, "long") for i in range(500, 505)], got
            handed_out = max(int(w.split()[1]) for _, w, _ in got)
            conn = server.connect()
            following = conn.execute("SELECT nextval('rc_s')").fetchone()[0]
            conn.close()
            assert following > handed_out, f"nextval gave {following} after {what}, {handed_out} is in a row"

        server = Server(data)  # replays the three calls, the killed one up to its fifth commit
        check(server, "the log")
        server.stop()
        log_then_archive(data, check)
        print("procedures that commit: calls that returned, failed and were killed come back as far as they "
              "committed, from the log and from the archive")
    finally:
        shutil.rmtree(data)
def dynamic_sql():
    """Routines whose EXECUTE changes rows and the catalog: the log records the statements
    that called them (SELECT f(...), CALL p(...)), whose replay runs the routines again."""
    data = tempfile.mkdtemp(prefix="duet-recovery-")
    try:
        server = Server(data)
        conn = server.connect()
        conn.execute("CREATE TABLE rd_t (k int PRIMARY KEY, v text)")
        conn.execute("""CREATE FUNCTION rd_add(p_table text, p_k int, p_v text) RETURNS int LANGUAGE plpgsql AS $$
            BEGIN
              EXECUTE format('INSERT INTO %I VALUES ($1, $2)', p_table) USING p_k, p_v;
              RETURN p_k;
            END $$""")
        conn.execute("""CREATE PROCEDURE rd_make(p_name text) LANGUAGE plpgsql AS $$
            BEGIN
              EXECUTE format('CREATE TABLE %I (x int, y text)', p_name);
              EXECUTE format('INSERT INTO %I SELECT k, v FROM rd_t', p_name);
            END $$""")
        conn.execute("""CREATE FUNCTION rd_undo(p_k int) RETURNS int LANGUAGE plpgsql AS $$
            BEGIN
              BEGIN
                EXECUTE 'INSERT INTO rd_t VALUES (100, ''undone'')';
                EXECUTE 'CREATE TABLE rd_gone (x int)';
                RAISE EXCEPTION 'undo';
              EXCEPTION WHEN raise_exception THEN NULL;
              END;
              EXECUTE 'UPDATE rd_t SET v = v || ''!'' WHERE k = $1' USING p_k;
              RETURN p_k;
            END $$""")
        for k in range(1, 4):
            conn.execute("SELECT rd_add('rd_t', %s, %s)", (k, f"v{k}"))
        conn.execute("SELECT rd_add('rd_t', 4, 'v4')")
        conn.execute("CALL rd_make('rd_made')")
        conn.execute("SELECT rd_undo(2)")
        with conn.transaction():
            conn.execute("SELECT rd_add('rd_t', 5, 'rolled back')")
            conn.execute("CALL rd_make('rd_rolled_back')")
            raise psycopg.Rollback()
        conn.close()
        queries = ["SELECT k, v FROM rd_t ORDER BY k", "SELECT x, y FROM rd_made ORDER BY x"]
        expected = [rows(server, q) for q in queries]
        assert expected[0] == [[b"1", b"v1"], [b"2", b"v2!"], [b"3", b"v3"], [b"4", b"v4"]], expected
        assert len(expected[1]) == 4, expected
        crash(server)

        def check(server, what):
            got = [rows(server, q) for q in queries]
            assert got == expected, f"EXECUTE's changes came back different from {what}:\n" + diff(expected, got)
            conn = server.connect()
            for name in ("rd_gone", "rd_rolled_back"):
                try:
                    conn.execute(f"SELECT * FROM {name}")
                    raise AssertionError(f"{name} came back from {what}")
                except psycopg.errors.UndefinedTable:
                    pass
            conn.close()

        log_then_archive(data, check)
        print("dynamic SQL: routines' EXECUTE replayed from the log after a crash, and from the archive")
    finally:
        shutil.rmtree(data)


def call_until_killed(server, sql):
    """Runs sql on a connection of its own until the server dies under it."""
    try:
        server.connect().execute(sql)
    except psycopg.OperationalError:
        return
    raise AssertionError(f"{sql} returned")


def crash(server):
    """SIGKILL: no clean stop, so no session's end reaches the log."""
    server.proc.kill()
    server.proc.communicate(timeout=60)


def temp_tables():
    """Temporary tables are not kept, but statements that read them into permanent tables
    must replay to the same rows: a session's records replay in a session of its own that
    holds its temporary schema, after a crash with sessions alive, from the log alone and
    from an archive written while they were alive; their tables are gone afterwards."""
    data = tempfile.mkdtemp(prefix="duet-recovery-")
    query = "SELECT v, src FROM rt_perm ORDER BY src, v"
    try:
        server = Server(data)
        a, b = server.connect(), server.connect()
        a.execute("CREATE TABLE rt_perm (v int, src text)")
        a.execute("CREATE TEMP TABLE rt_tmp (v int)")
        a.execute("INSERT INTO rt_tmp SELECT g FROM generate_series(1, 3) g")
        b.execute("CREATE TEMP TABLE rt_tmp (v int)")  # the same name in another session
        b.execute("INSERT INTO rt_tmp VALUES (100)")
        a.execute("INSERT INTO rt_perm SELECT v, 'a' FROM rt_tmp")
        b.execute("INSERT INTO rt_perm SELECT v, 'b' FROM rt_tmp")
        b.close()  # b's temporary table goes with b, in the log too
        c = server.connect()
        c.execute("CREATE TEMP TABLE rt_tmp (v int)")  # may get b's schema name again
        c.execute("INSERT INTO rt_tmp VALUES (7)")
        c.execute("INSERT INTO rt_perm SELECT v, 'c' FROM rt_tmp")
        a.execute("CREATE TEMP TABLE rt_each (v int) ON COMMIT DELETE ROWS")
        with a.transaction():
            a.execute("INSERT INTO rt_each VALUES (50)")
            a.execute("INSERT INTO rt_perm SELECT v, 'a-txn' FROM rt_each")
        a.execute("INSERT INTO rt_perm SELECT count(*)::int, 'a-empty' FROM rt_each")
        expected = rows(server, query)
        assert len(expected) == 7 and [b"0", b"a-empty"] in expected, expected
        crash(server)

        server = Server(data)  # the log alone
        assert rows(server, query) == expected, "temporary tables' reads replayed differently from the log"
        d = server.connect()
        try:
            d.execute("SELECT * FROM rt_tmp")
            raise AssertionError("a temporary table outlived its session's crash")
        except psycopg.errors.UndefinedTable:
            pass
        # Sessions of the new run, one with a temporary table alive while an archive is written.
        d.execute("CREATE TEMP TABLE rt_tmp (v int, w text) ON COMMIT PRESERVE ROWS")
        d.execute("INSERT INTO rt_tmp VALUES (1000, 'x'), (2000, 'y')")
        d.execute("CHECKPOINT")
        assert archives(data), "no archive was written"
        d.execute("UPDATE rt_tmp SET v = v + 1")
        d.execute("INSERT INTO rt_perm SELECT v, 'd-' || w FROM rt_tmp")
        expected = rows(server, query)
        assert len(expected) == 9, expected
        crash(server)

        server = Server(data)  # the archive, with d's temporary table, and the log after it
        assert rows(server, query) == expected, "temporary tables' reads replayed differently from the archive"
        e = server.connect()
        e.execute("CREATE TEMP TABLE rt_tmp (v int)")
        e.execute("INSERT INTO rt_tmp VALUES (3)")
        e.execute("INSERT INTO rt_perm SELECT v, 'e' FROM rt_tmp")
        expected = rows(server, query)
        server.stop()

        server = Server(data)  # a clean stop logged e's end
        assert rows(server, query) == expected, "temporary tables' reads replayed differently after a clean stop"
        count = rows(server, "SELECT count(*) FROM pg_namespace WHERE nspname LIKE 'pg_temp%'")
        assert count == [[b"0"]], count
        server.stop()
        print("temporary tables: reads of them replay alike from the log and from an archive; they end with their sessions")
    finally:
        shutil.rmtree(data)


def diff(a, b):
    for qa, qb in zip(a, b):
        for ra, rb in zip(qa, qb):
            if ra != rb:
                return f"{ra}\n{rb}"
    return "(row counts differ)"


# ---- an archive that checks out but does not load

def crc32c(data):
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def break_archive_value(path, old, new):
    """Replaces the bytes `old` in a record with `new` (same length) and fixes the record's
    checksum, so that the archive checks out and only its load can fail."""
    assert len(old) == len(new)
    with open(path, "rb") as f:
        content = bytearray(f.read())
    pos = 16  # after the header
    while content[pos:pos + 8] != b"DUETEND1":
        length = struct.unpack_from("<I", content, pos)[0]
        record = pos + 16 + length
        at = content.find(old, pos + 16, record)
        if at >= 0:
            content[at:at + len(old)] = new
            struct.pack_into("<I", content, pos + 4, crc32c(bytes(content[pos + 8:record])))
            with open(path, "wb") as f:
                f.write(content)
            return
        pos = record
    raise AssertionError(f"{old!r} not found in {path}")


def archive_that_does_not_load():
    data = tempfile.mkdtemp(prefix="duet-recovery-")
    try:
        server = Server(data)
        conn = server.connect()
        conn.execute("CREATE TABLE t (x int PRIMARY KEY, d date)")
        for batch in range(3):
            for i in range(10):
                conn.execute(f"INSERT INTO t VALUES ({batch * 10 + i}, '2000-01-{i + 10}')")
            if batch < 2:
                conn.execute("CHECKPOINT")
        conn.close()
        server.stop()
        names = archives(data)
        assert len(names) == 2, f"two CHECKPOINTs wrote {names}"
        newest = os.path.join(data, "archive", names[-1])
        break_archive_value(newest, b"2000-01-19", b"2000-13-19")  # a value input rejects

        server = Server(data)
        expected = [[str(i).encode(), f"2000-01-{i % 10 + 10}".encode()] for i in range(30)]
        got = rows(server, "SELECT x, d FROM t ORDER BY x")
        output = server.stop()
        assert got == expected, "the fallback to the archive before lost or changed rows"
        assert "failed to load" in output and "fell back" in output, output
        assert f"loaded archive {os.path.join(data, 'archive', names[0])}" in output, output
        assert os.path.exists(newest + ".damaged"), "the archive that did not load was not set aside"
        server = Server(data)  # and again, from the archive written after the fallback
        assert rows(server, "SELECT x, d FROM t ORDER BY x") == expected
        server.stop()
        print("archive that does not load: the one before and the log brought everything back")
    finally:
        shutil.rmtree(data)


# ---- a damaged log segment

def damaged_segment():
    data = tempfile.mkdtemp(prefix="duet-recovery-")
    try:
        server = Server(data)
        conn = server.connect()
        conn.execute("CREATE TABLE t (x int PRIMARY KEY)")
        for i in range(10):
            conn.execute(f"INSERT INTO t VALUES ({i})")
        conn.close()
        server.stop()
        [segment] = segments(data)
        with open(segment, "rb") as f:
            content = f.read()
        for what, damaged in [("cut to 0 bytes", b""), ("bad header", b"X" + content[1:]),
                              ("cut inside its header", content[:10])]:
            with open(segment, "wb") as f:
                f.write(damaged)
            before = files_of(data)
            status, output = start_failing(data)
            assert status == 1, f"{what}: duetd exited with {status}:\n{output}"
            assert "FATAL" in output and os.path.basename(segment) in output, f"{what}:\n{output}"
            assert not any(s in output for s in SANITIZER_REPORT), output
            assert files_of(data) == before, f"{what}: a refused start changed the data directory"
        with open(segment, "wb") as f:
            f.write(content)
        server = Server(data)
        assert rows(server, "SELECT x FROM t ORDER BY x") == [[str(i).encode()] for i in range(10)]
        server.stop()
        print("damaged log segment: the start stopped with FATAL and changed nothing; restored, all there")
    finally:
        shutil.rmtree(data)


# ---- the port is taken after a recovery that replayed

def port_taken():
    data = tempfile.mkdtemp(prefix="duet-recovery-")
    try:
        for attempt in range(3):
            server = Server(data)
            conn = server.connect()
            if attempt == 0:
                conn.execute("CREATE TABLE t (x int)")
            conn.execute(f"INSERT INTO t VALUES ({attempt})")
            conn.close()
            server.stop()  # no archive: the next start replays, then queues a checkpoint
            holder = socket.socket()
            holder.bind(("127.0.0.1", 0))
            holder.listen()
            try:
                status, output = start_failing(data, holder.getsockname()[1])
            finally:
                holder.close()
            assert status == 1, f"duetd exited with {status}:\n{output}"
            assert "replayed" in output and "FATAL" in output and "already in use" in output, output
            assert not any(s in output for s in SANITIZER_REPORT), output
        server = Server(data)
        assert rows(server, "SELECT x FROM t ORDER BY x") == [[b"0"], [b"1"], [b"2"]]
        server.stop()
        print("port taken after a replay: duetd exited 1 with a message, three times; data intact")
    finally:
        shutil.rmtree(data)


def main():
    started = time.time()
    damaged_segment()
    port_taken()
    archive_that_does_not_load()
    extreme_values()
    views()
    current_of()
    composite_types()
    sequences()
    altered_tables()
    constraints()
    temp_tables()
    transaction_ids_and_advisory_locks()
    procedures_that_commit()
    dynamic_sql()
    print(f"recovery: all passed in {time.time() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
