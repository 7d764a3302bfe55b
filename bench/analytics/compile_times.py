#!/ usr / bin / env python3
"""Compile time per query and compile tier on a running DuetDB (issue 23, part 5).

Runs EXPLAIN (ANALYZE, FORMAT JSON) of each TPC-H or CH query, --repeat times, under
duet.compile_tier = adaptive, and reads the JIT section (docs/explain.md): the cheap tier's
time (IR generation and machine code: what the statement waits for) and the optimised
tier's (optimisation and machine code, made by the optimiser thread while the statement
runs), and how many of the parallel runs' morsels each tier took. Prints a Markdown table
per query (medians) and the p50 and max over the queries. The tables must be loaded (as
run.py leaves them with --duet-port and a data directory).

  .venv/bin/python bench/analytics/compile_times.py tpch --port 55432
"""
import argparse
import json
import os
import statistics
import sys

import psycopg

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from workloads import load_queries  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATABASES = {"tpch": "tpch", "ch": "ch"}


def jit_of(conn, sql):
    with conn.cursor() as cur:
        cur.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + sql.strip().rstrip(";"))
        doc = cur.fetchone()[0]
    doc = json.loads(doc) if isinstance(doc, str) else doc
    return doc[0]["JIT"]


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("benchmark", choices=sorted(DATABASES))
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--repeat", type=int, default=3, help="runs per query; medians are shown (default 3)")
    p.add_argument("--routing", default="auto", help="duet.snapshot_routing for the runs (default auto)")
    args = p.parse_args()
    queries = load_queries(os.path.join(ROOT, "bench", args.benchmark, "queries"))
    conn = psycopg.connect(host=args.host, port=args.port, user="postgres", dbname=DATABASES[args.benchmark],
                           autocommit=True)
    conn.execute("SET duet.compile_tier = adaptive")
    conn.execute(f"SET duet.snapshot_routing = {args.routing}")
    rows = []
    for q in queries:
        runs = [jit_of(conn, q.sql) for _ in range(args.repeat)]
        cheap = statistics.median(r["Cheap Tier"]["Total"] for r in runs)
        optimised = statistics.median(r["Optimized Tier"]["Total"] for r in runs if "Optimized Tier" in r)
        morsels = runs[0].get("Morsels", {})
        rows.append((q.name, runs[0]["Functions"], cheap, optimised, morsels.get("Cheap"), morsels.get("Optimized")))
        print(f"{q.name}: cheap {cheap:.1f} ms, optimized {optimised:.1f} ms", file=sys.stderr)
    print("| query | functions | cheap tier ms | optimized tier ms | morsels cheap / optimized (first run) |")
    print("|---|---:|---:|---:|---|")
    for name, functions, cheap, optimised, mc, mo in rows:
        split = f"{mc} / {mo}" if mc is not None else ""
        print(f"| {name} | {functions} | {cheap:.1f} | {optimised:.1f} | {split} |")
    for label, index in (("cheap tier", 2), ("optimized tier", 3)):
        values = [r[index] for r in rows]
        print(f"\n{label}: p50 {statistics.median(values):.1f} ms, max {max(values):.1f} ms", end="")
    print()


if __name__ == "__main__":
    main()
