#!/usr/bin/env python3
"""Hostile but legal statements: deep nesting, huge sizes, extreme arguments, parameters
nobody bound. Each must get an answer in bounded time - the result or error class
PostgreSQL 15 gives - and the server must keep serving everyone else: after every case a
fresh connection runs a query, and a second connection opened before the case must have
been answered while it ran.

Where PostgreSQL's answer depends on its implementation (bison gives a 42601 "memory
exhausted" for some deep nestings, its stack check a 54001 for others), a case accepts the
set of outcomes a careful server may give; every set holds PostgreSQL's own answer, since
this suite also runs against PostgreSQL (scripts/test.sh).
Usage: hostile_sql.py HOST PORT
"""
import select
import sys
import threading
import time
import traceback

import psycopg
from psycopg import pq

HOST, PORT = sys.argv[1], int(sys.argv[2])
CASE_SECONDS = 60      # an answer later than this is a hang
SERVED_SECONDS = 10    # how long another session may wait meanwhile

DEEP = {"54001", "42601", "54000"}  # stack depth, parser stack, or a size limit


def connect() -> pq.PGconn:
    conn = pq.PGconn.connect(f"host={HOST} port={PORT} dbname=postgres user=postgres "
                             f"connect_timeout={CASE_SECONDS}".encode())
    assert conn.status == pq.ConnStatus.OK, conn.error_message.decode()
    return conn


def outcome(res: pq.PGresult) -> str:
    """'ok' for success, else the SQLSTATE."""
    if res.status in (pq.ExecStatus.COMMAND_OK, pq.ExecStatus.TUPLES_OK, pq.ExecStatus.EMPTY_QUERY):
        return "ok"
    code = res.error_field(pq.DiagnosticField.SQLSTATE)
    return code.decode() if code else f"status {res.status}"


def next_result(conn: pq.PGconn):
    """get_result without blocking inside libpq, which would hold Python's lock and stop
    the other session's thread."""
    while conn.is_busy():
        select.select([conn.socket], [], [], 0.1)
        conn.consume_input()
    return conn.get_result()


def run_simple(conn: pq.PGconn, sql: str, extended=False) -> tuple[str, pq.PGresult]:
    """Sends one Query message (with `extended`, Parse/Bind/Execute/Sync instead); returns
    the outcome of its last result (the first error ends a multi-statement message, as in
    PostgreSQL)."""
    if extended:
        conn.send_query_params(sql.encode(), None)
    else:
        conn.send_query(sql.encode())
    last = None
    while True:
        res = next_result(conn)
        if res is None:
            break
        last = res
        if outcome(res) != "ok":
            first_error = res
            while next_result(conn) is not None:
                pass
            return outcome(first_error), first_error
    assert last is not None, "no answer: " + conn.error_message.decode()
    return outcome(last), last


class Served:
    """A second session that keeps running a trivial query while a case runs; every
    answer must come within SERVED_SECONDS (a statement that holds the executor while it
    compiles or runs makes it wait)."""

    def __init__(self):
        self.conn = connect()
        self.stop = False
        self.worst = 0.0
        self.error = None
        self.thread = threading.Thread(target=self.loop, daemon=True)

    def loop(self):
        try:
            while not self.stop:
                start = time.monotonic()
                status, _ = run_simple(self.conn, "SELECT 1")
                assert status == "ok", status
                self.worst = max(self.worst, time.monotonic() - start)
                time.sleep(0.05)
        except Exception as e:  # reported by check()
            self.error = e

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop = True
        self.thread.join(CASE_SECONDS)
        self.conn.finish()

    def check(self):
        assert self.error is None, f"the other session failed: {self.error}"
        assert not self.thread.is_alive(), "the other session hangs"
        assert self.worst <= SERVED_SECONDS, f"the other session waited {self.worst:.1f} s"


def nested(prefix: str, core: str, suffix: str, n: int) -> str:
    return prefix * n + core + suffix * n


SETUP = [
    "DROP TABLE IF EXISTS hostile",
    "CREATE TABLE hostile (k integer PRIMARY KEY, s text, d date)",
    "INSERT INTO hostile VALUES (1, 'a', '2000-01-01'), (2, 'b', NULL)",
]

ints = ", ".join(str(i) for i in range(1000))
strs = ", ".join(f"'s{i}'" for i in range(1000))

# (name, SQL, accepted outcomes)
CASES = [
    # Parameters nobody bound (a simple query has none).
    ("param_select", "SELECT $1", {"42P02"}),
    ("param_cast", "SELECT $1::int", {"42P02"}),
    ("param_insert", "INSERT INTO hostile (k, s) VALUES (3, $1)", {"42P02"}),
    ("param_zero", "SELECT $0", {"42P02"}),
    ("param_1000", "SELECT " + ", ".join(f"${i}" for i in range(1, 1001)), {"42P02"}),
    ("param_huge", "SELECT $70000", {"42P02"}),
    # Extreme arguments.
    ("round_int_min", "SELECT round(1.5::numeric, -2147483648)", {"ok"}),
    ("round_int_max", "SELECT round(1.5::numeric, 2147483647)", {"ok", "22003"}),
    ("trunc_int_min", "SELECT trunc(1.5::numeric, -2147483648)", {"ok"}),
    ("abs_int_min", "SELECT abs(-2147483648)", {"22003"}),
    # Deep nesting: PostgreSQL answers 54001, or its parser's 42601.
    ("nested_subqueries", "SELECT " + nested("(SELECT ", "1", ")", 3000), DEEP),
    ("nested_parentheses", "SELECT " + nested("(", "1", ")", 10000), DEEP),
    ("nested_case", "SELECT " + nested("CASE WHEN true THEN ", "1", " END", 3000), DEEP),
    ("nested_minus", "SELECT " + "- " * 10000 + "1", DEEP | {"ok"}),
    ("nested_not", "SELECT " + "NOT " * 10000 + "true", DEEP),
    ("nested_casts", "SELECT " + nested("(", "1", ")::int", 5000), DEEP | {"ok"}),
    ("nested_arrays", "SELECT " + nested("ARRAY[", "1", "]", 3000), DEEP),
    ("nested_plus_right", "SELECT " + nested("1+(", "1", ")", 10000), DEEP),
    ("chain_plus_left", "SELECT " + "1+" * 10000 + "1", DEEP),
    ("chain_plus_long", "SELECT " + "1+" * 200000 + "1", DEEP),
    ("chain_grouped", "SELECT " + "1+" * 200000 + "1 FROM hostile GROUP BY k", DEEP),
    ("chain_casts", "SELECT 1" + "::int" * 100000, DEEP | {"ok"}),
    ("nested_from", "SELECT * FROM " + nested("(", "(SELECT 1) s", ")", 3000), DEEP),
    ("nested_abs", "SELECT " + nested("abs(", "-1", ")", 10), {"ok"}),
    # Sizes that once compiled for minutes.
    ("in_list_ints", f"SELECT count(*) FROM hostile WHERE k IN ({ints})", {"ok"}),
    ("in_list_strings", f"SELECT count(*) FROM hostile WHERE s IN ({strs})", {"ok"}),
    ("not_in_list", f"SELECT count(*) FROM hostile WHERE k NOT IN ({ints})", {"ok"}),
    ("or_chain", "SELECT count(*) FROM hostile WHERE " + " OR ".join(f"k = {i}" for i in range(1000)), {"ok"}),
    ("group_by_1000", "SELECT count(*) FROM hostile GROUP BY " + ", ".join(f"k + {i}" for i in range(1000)), {"ok"}),
    ("order_by_1000", "SELECT k FROM hostile ORDER BY " + ", ".join(f"k + {i}" for i in range(1000)), {"ok"}),
    ("insert_10000_rows", "INSERT INTO hostile (k, s) VALUES " +
     ", ".join(f"({i}, 'v{i}')" for i in range(10, 10010)), {"ok"}),
    ("statements_100000", "SELECT 1;" * 100000, {"ok"}),
]


def case_join_3000():
    """A 3,000-way join of one-row subqueries."""
    sql = "SELECT count(*) FROM " + ", ".join(f"(SELECT 1) t{i}" for i in range(3000))
    return sql, {"ok", "54001"}


def case_timeout_while_compiling():
    """statement_timeout stops a statement that spends its time compiling (1,000 GROUP BY
    expressions take about 0.3 s to plan and compile, and no time to run); the session
    goes on."""
    conn = connect()
    try:
        for sql in ("SET statement_timeout = '20ms'", "SET duet.max_compile_ms = 0"):
            run_simple(conn, sql)  # PostgreSQL has no duet.max_compile_ms: accepts it as a placeholder
        got, res = run_simple(conn, "SELECT count(*) FROM hostile GROUP BY " +
                              ", ".join(f"k * {i} + {i}" for i in range(1000)))
        assert got == "57014", f"got {got} ({res.error_message.decode().strip()[:200]}), expected 57014"
        run_simple(conn, "RESET statement_timeout")
        got, _ = run_simple(conn, "SELECT 1")
        assert got == "ok", "the session is not usable afterwards"
        return "57014"
    finally:
        conn.finish()


def case_timeout_while_generating_code():
    """statement_timeout stops a statement while LLVM generates its machine code, which
    cannot stop inside a function: a 50,000-term OR chain of conjunctions sent as a Parse
    message (its literals stay constants) is one huge function, 18 s of instruction
    selection and register allocation in duetd after a second of parsing, planning and
    IR. PostgreSQL answers it within the timeout."""
    conn = connect()
    try:
        run_simple(conn, "SET statement_timeout = '2s'")
        start = time.monotonic()
        got, res = run_simple(conn, "SELECT k FROM hostile WHERE " +
                              " OR ".join(f"(k = {i} AND s <> 'z{i}')" for i in range(50000)), extended=True)
        elapsed = time.monotonic() - start
        assert got in ("ok", "57014"), f"got {got} ({res.error_message.decode().strip()[:200]})"
        assert elapsed < 10, f"answered after {elapsed:.1f} s"
        run_simple(conn, "RESET statement_timeout")
        after, _ = run_simple(conn, "SELECT 1")
        assert after == "ok", "the session is not usable afterwards"
        return f"{got} in {elapsed:.2f} s"
    finally:
        conn.finish()


def main() -> int:
    conn = connect()
    for sql in SETUP:
        status, res = run_simple(conn, sql)
        assert status == "ok", f"{sql}: {res.error_message.decode()}"
    conn.finish()
    cases = CASES + [("join_3000", *case_join_3000())]
    failed = 0
    for name, sql, accepted in cases:
        start = time.monotonic()
        try:
            with Served() as other:
                conn = connect()
                try:
                    got, res = run_simple(conn, sql)
                finally:
                    conn.finish()
            elapsed = time.monotonic() - start
            assert got in accepted, \
                f"got {got} ({res.error_message.decode().strip()[:200]}), expected one of {sorted(accepted)}"
            assert elapsed <= CASE_SECONDS, f"answered after {elapsed:.1f} s"
            other.check()
            check = connect()
            status, _ = run_simple(check, "SELECT 40 + 2")
            check.finish()
            assert status == "ok", "a fresh connection's query failed afterwards"
            print(f"ok   {name}: {got} in {elapsed:.2f} s (other session waited at most {other.worst:.2f} s)")
        except Exception:
            failed += 1
            print(f"FAIL {name}")
            traceback.print_exc(limit=2)
    for name, case in (("timeout_while_compiling", case_timeout_while_compiling),
                       ("timeout_while_generating_code", case_timeout_while_generating_code)):
        try:
            print(f"ok   {name}: {case()}")
        except Exception:
            failed += 1
            print(f"FAIL {name}")
            traceback.print_exc(limit=2)
    conn = connect()
    run_simple(conn, "DROP TABLE hostile")
    conn.finish()
    print(f"hostile sql: {len(cases) + 2 - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
