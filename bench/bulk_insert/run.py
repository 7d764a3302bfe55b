#!/usr/bin/env python3
"""Bulk inserts as ORMs, pandas and JDBC's batch rewriting send them (issue 20, part 7):
multi-row INSERT ... VALUES of 1,000 and 10,000 rows per statement with literals (simple
Query protocol) and with $n parameters (extended protocol), the same with ON CONFLICT DO
UPDATE where every row conflicts, executemany of one-row INSERTs
(psycopg's pipeline), and COPY FROM STDIN for comparison. One workload, run against DuetDB
and PostgreSQL 15 in the same run through bench/analytics/systems.py's adapters (servers
started here unless given a port).

For each method it prints rows per second over --rows rows (best of --repeat runs into a
freshly truncated table; statement texts and argument lists are built before the clock
starts, psycopg's adaptation of parameters is timed) and the time of the method's first
statement, in which DuetDB
compiles the statement (later statements of the same shape reuse the plan; each run's
statements have different values, so literal lifting, not a cache of texts, makes that so).

`--async-commit` runs DuetDB's sessions with synchronous_commit = off: the scratch
PostgreSQL runs with fsync = off, so its commits never wait for the disk, while DuetDB's
wait for the redo log's fdatasync by default - one per statement, which dominates 1,000-row
statements on a slow disk.

    .venv/bin/python bench/bulk_insert/run.py                        # both systems, 100,000 rows
    .venv/bin/python bench/bulk_insert/run.py --rows 200000 --repeat 5 --systems duetdb
    .venv/bin/python bench/bulk_insert/run.py --methods literals,copy --async-commit
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "analytics"))
from systems import ROOT, DuetSystem, PostgresSystem  # noqa: E402

TABLE = "CREATE TABLE bulk (id integer PRIMARY KEY, name text, amount numeric(12,2), created date, flag boolean)"
COLUMNS = 5


def row(i, run):
    """Row i of run `run`: values differ from run to run."""
    k = i + run * 7
    return (i, f"name-{k}", f"{k % 100000}.{k % 100:02d}", f"2024-{k % 12 + 1:02d}-{k % 28 + 1:02d}", k % 3 == 0)


def literal(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    return "'" + v.replace("'", "''") + "'"


# Each method prepares what it sends (statement texts, argument lists) before the clock
# starts, and returns the function that sends it, which returns its first statement's time.

def send_each(conn, statements):
    """A send(): each statement over the simple Query protocol; returns the first one's time."""
    def send():
        first = None
        for sql in statements:
            t0 = time.perf_counter()
            result = conn.pgconn.exec_(sql)
            if result.error_message:
                raise RuntimeError(result.error_message.decode())
            first = first if first is not None else time.perf_counter() - t0
        return first
    return send


def insert_literals(conn, rows, per_statement):
    """Multi-row INSERTs with the values in the text, over the simple Query protocol."""
    statements = [("INSERT INTO bulk VALUES " + ", ".join(
        "(" + ", ".join(literal(v) for v in r) + ")" for r in rows[start:start + per_statement])).encode()
                  for start in range(0, len(rows), per_statement)]

    return send_each(conn, statements)


def upsert_literals(conn, rows, per_statement):
    """INSERT ... ON CONFLICT DO UPDATE with literals where every row conflicts: the rows are
    inserted before the clock starts, then each is proposed again and updates its row."""
    insert_literals(conn, rows, per_statement)()
    statements = [("INSERT INTO bulk VALUES " + ", ".join(
        "(" + ", ".join(literal(v) for v in r) + ")" for r in rows[start:start + per_statement]) +
        " ON CONFLICT (id) DO UPDATE SET name = excluded.name || '+', amount = bulk.amount + excluded.amount,"
        " flag = NOT bulk.flag").encode() for start in range(0, len(rows), per_statement)]

    return send_each(conn, statements)


def insert_params(conn, rows, per_statement):
    """Multi-row INSERTs of $n parameters (as JDBC's reWriteBatchedInserts sends them)."""
    statements = []
    for start in range(0, len(rows), per_statement):
        chunk = rows[start:start + per_statement]
        placeholders = ", ".join("(%s, %s, %s::numeric, %s::date, %s)" for _ in chunk)
        statements.append(("INSERT INTO bulk VALUES " + placeholders, [v for r in chunk for v in r]))

    def send():
        first = None
        for sql, args in statements:
            t0 = time.perf_counter()
            conn.execute(sql, args)
            first = first if first is not None else time.perf_counter() - t0
        return first
    return send


def executemany(conn, rows, _):
    """One-row INSERTs through psycopg's executemany (pipelined Bind/Execute)."""
    def send():
        t0 = time.perf_counter()
        with conn.cursor() as cur:
            cur.executemany("INSERT INTO bulk VALUES (%s, %s, %s::numeric, %s::date, %s)", rows)
        return time.perf_counter() - t0
    return send


def copy(conn, rows, _):
    """COPY bulk FROM STDIN in text format."""
    data = "".join("\t".join("t" if v is True else "f" if v is False else str(v) for v in r) + "\n"
                   for r in rows).encode()

    def send():
        t0 = time.perf_counter()
        with conn.cursor() as cur:
            with cur.copy("COPY bulk FROM STDIN") as c:
                c.write(data)
        return time.perf_counter() - t0
    return send


METHODS = [  # (label, method, rows per statement, name for --methods)
    ("INSERT 1,000 rows/statement, literals", insert_literals, 1000, "literals"),
    ("INSERT 10,000 rows/statement, literals", insert_literals, 10000, "literals"),
    ("INSERT ... ON CONFLICT DO UPDATE 1,000 rows/statement, all conflicts", upsert_literals, 1000, "upsert"),
    ("INSERT 1,000 rows/statement, $n parameters", insert_params, 1000, "params"),
    ("INSERT 10,000 rows/statement, $n parameters", insert_params, 10000, "params"),
    ("executemany, 1 row/statement", executemany, 1, "executemany"),
    ("COPY FROM STDIN", copy, 0, "copy"),
]


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--systems", default="duetdb,postgres")
    p.add_argument("--rows", type=int, default=100000, help="rows per run of each method")
    p.add_argument("--repeat", type=int, default=3, help="runs per method (the best counts)")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--duet-port", type=int, help="a running duetd (else one is started)")
    p.add_argument("--pg-port", type=int, help="a running PostgreSQL (else a scratch one is started)")
    p.add_argument("--duetd", default=os.path.join(ROOT, "build", "bin", "duetd"))
    p.add_argument("--methods", default="literals,upsert,params,executemany,copy", help="which methods to run")
    p.add_argument("--async-commit", action="store_true", help="DuetDB with synchronous_commit = off")
    args = p.parse_args()
    methods = [m for m in METHODS if m[3] in args.methods.split(",")]

    systems = []
    for name in args.systems.split(","):
        if name == "duetdb":
            settings = [("synchronous_commit", "off")] if args.async_commit else []
            systems.append(DuetSystem(args.host, args.duet_port, settings, args.duetd))
        elif name == "postgres":
            systems.append(PostgresSystem(args.host, args.pg_port, []))
        else:
            sys.exit(f"unknown system {name}")
    results = {}  # (method, system) -> (rows/s, first statement s)
    try:
        for system in systems:
            if system.port is None:
                system.start()
            system.use_database("bulk", create=True)
            system.conn.execute("DROP TABLE IF EXISTS bulk")
            system.conn.execute(TABLE)
            for label, method, per_statement, _ in methods:
                best, first = None, None
                for run in range(args.repeat):
                    rows = [row(i, run) for i in range(args.rows)]
                    system.conn.execute("TRUNCATE bulk")
                    send = method(system.conn, rows, per_statement)
                    t0 = time.perf_counter()
                    first_statement = send()
                    elapsed = time.perf_counter() - t0
                    (count,) = system.conn.execute("SELECT count(*) FROM bulk").fetchone()
                    if count != args.rows:
                        raise RuntimeError(f"{system.name} {label}: {count} rows, expected {args.rows}")
                    best = elapsed if best is None else min(best, elapsed)
                    first = first_statement if first is None else first
                results[(label, system.name)] = (args.rows / best, first)
                print(f"  {system.name:8s} {label:45s} {args.rows / best:10.0f} rows/s", file=sys.stderr, flush=True)
    finally:
        for system in systems:
            system.close()

    names = [s.name for s in systems]
    print(f"\n{args.rows} rows per run, best of {args.repeat}; first: the method's first statement"
          " (DuetDB compiles it)\n")
    print("| method | " + " | ".join(f"{n} rows/s | {n} first (ms)" for n in names) + " |")
    print("|---|" + "---:|---:|" * len(names))
    for label, _, _, _ in methods:
        cells = []
        for n in names:
            rate, first = results[(label, n)]
            cells += [f"{rate:,.0f}", f"{first * 1000:.1f}"]
        print(f"| {label} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
