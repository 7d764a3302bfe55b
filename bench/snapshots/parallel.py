#!/usr/bin/env python3
"""Analytic statements on one thread and on several (issue 4, "Parallel queries" in
docs/snapshots.md), on each server given and optionally DuckDB, in one run.

Each query runs --repeat times after one warm-up, per thread count; the median is printed.
On DuetDB the session sets duet.snapshot_routing = always, so every statement runs in a
snapshot process; the thread count is 1 + max_parallel_workers_per_gather there and on
PostgreSQL (which may still choose a serial plan), `SET threads` on DuckDB. Every server
must hold a loaded TPC-C database (bench/tpcc: schema.sql, procedures.sql, duet_tpcc_load);
--duckdb-from PORT copies the tables the queries read from that server into an in-memory
DuckDB first (`pip install duckdb` into the Python that runs this).

Usage: parallel.py --server NAME=PORT [--server NAME=PORT ...] [--duckdb-from PORT]
                   [--dbname tpcc] [--threads 1,2] [--repeat 5]
"""
import argparse
import statistics
import time

from mixed import CH_Q1, CH_Q6, connect, is_duet  # bench/snapshots/mixed.py

QUERIES = {
    # An aggregate over order_line (CH-benCHmark Q1 and Q6).
    "ch_q1": CH_Q1,
    "ch_q6": CH_Q6,
    # A hash join whose build side is a whole table (orders), probed by order_line.
    "join_build": """SELECT o_carrier_id, count(*), sum(ol_amount) FROM orders JOIN order_line
  ON ol_w_id = o_w_id AND ol_d_id = o_d_id AND ol_o_id = o_id
  WHERE ol_quantity > 3 GROUP BY o_carrier_id ORDER BY o_carrier_id""",
    # A sort of a whole table (stock).
    "sort": """SELECT s_w_id, s_i_id, s_quantity FROM stock
  ORDER BY s_quantity, s_ytd DESC, s_i_id, s_w_id LIMIT 10""",
    # Selected rows of a big table streamed to the client (a gather).
    "select": """SELECT ol_w_id, ol_d_id, ol_o_id, ol_number, ol_amount FROM order_line
  WHERE ol_amount > 9990""",
}
TABLES = ["order_line", "orders", "stock"]
# DuckDB's name for each PostgreSQL type OID the TPC-C tables use.
DUCKDB_TYPES = {21: "smallint", 23: "integer", 20: "bigint", 1700: "decimal(12,2)", 701: "double",
                1042: "varchar", 1043: "varchar", 25: "varchar", 1114: "timestamp", 1082: "date"}


def timed(execute, query, repeat):
    execute(query)  # warm-up: plans, compiled code and snapshot in place
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        execute(query)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def time_all(execute, set_threads, args):
    """{(query, threads): median seconds} for each thread count of args.threads."""
    results = {}
    for threads in args.threads:
        set_threads(threads)
        for q, text in QUERIES.items():
            results[(q, threads)] = timed(lambda s: execute(s).fetchall(), text, args.repeat)
    return results


def run_server(port, args):
    with connect(port, args.dbname) as conn:
        if is_duet(conn):
            conn.execute("SET duet.snapshot_routing = always")
        return time_all(conn.execute,
                        lambda threads: conn.execute(f"SET max_parallel_workers_per_gather = {threads - 1}"), args)


def run_duckdb(port, args):
    import duckdb  # only needed here
    db = duckdb.connect()
    with connect(port, args.dbname) as conn:
        for table in TABLES:
            cur = conn.execute(f"SELECT * FROM {table} LIMIT 0")
            columns = [f"{d.name} {DUCKDB_TYPES[d.type_code]}" for d in cur.description]
            db.execute(f"CREATE TABLE {table} ({', '.join(columns)})")
            path = f"/tmp/duet-parallel-{table}.csv"
            with open(path, "wb") as f, conn.cursor().copy(f"COPY {table} TO STDOUT WITH (FORMAT csv)") as copy:
                for chunk in copy:
                    f.write(chunk)
            db.execute(f"COPY {table} FROM '{path}' (FORMAT csv)")
    return time_all(db.execute, lambda threads: db.execute(f"SET threads = {threads}"), args)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--server", action="append", default=[], help="NAME=PORT")
    p.add_argument("--duckdb-from", type=int, help="copy the tables from this server into DuckDB")
    p.add_argument("--dbname", default="tpcc")
    p.add_argument("--threads", default="1,2", type=lambda s: [int(t) for t in s.split(",")])
    p.add_argument("--repeat", type=int, default=5)
    args = p.parse_args()
    systems = {}
    for spec in args.server:
        name, port = spec.split("=")
        systems[name] = run_server(int(port), args)
    if args.duckdb_from:
        systems["duckdb"] = run_duckdb(args.duckdb_from, args)
    header = " | ".join(f"{name} {t} thr" for name in systems for t in args.threads)
    print(f"| query | {header} |")
    print("|---" * (1 + len(systems) * len(args.threads)) + "|")
    for q in QUERIES:
        cells = " | ".join(f"{1000 * systems[name][(q, t)]:.1f}" for name in systems for t in args.threads)
        print(f"| {q} | {cells} |")
    print("(median ms of", args.repeat, "runs after a warm-up)")


if __name__ == "__main__":
    main()
