#!/usr/bin/env python3
"""Lookups by `id = ANY ($1)` (issue 20, part 7): --lookups statements, each with an array
parameter of --array distinct random ids, against a primary key of a --rows-row table, as
an ORM's "load these objects" or a DataLoader batch sends them. DuetDB probes the index
once per element (compiler/planner/access_path.cpp's key sets); PostgreSQL does the same
with its index scan over = ANY. One workload, run against DuetDB and PostgreSQL 15 in the
same run through bench/analytics/systems.py's adapters (servers started here unless given
a port).

It prints lookups per second (best of --repeat runs over the same arrays, one prepared
statement, binary parameters; the arrays are built before the clock starts) and checks
that both systems return the same count and sum for every array.

    .venv/bin/python bench/any_lookup/run.py                       # 1,000,000 rows, 1,000 lookups of 100
    .venv/bin/python bench/any_lookup/run.py --systems duetdb --duetd /tmp/old-duetd
"""
import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "analytics"))
from systems import ROOT, DuetSystem, PostgresSystem  # noqa: E402

QUERY = "SELECT count(*), sum(v) FROM anyl WHERE id = ANY (%b)"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--systems", default="duetdb,postgres")
    p.add_argument("--rows", type=int, default=1000000, help="rows in the table")
    p.add_argument("--lookups", type=int, default=1000, help="statements per run")
    p.add_argument("--array", type=int, default=100, help="ids per array")
    p.add_argument("--repeat", type=int, default=3, help="runs (the best counts)")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--duet-port", type=int, help="a running duetd (else one is started)")
    p.add_argument("--pg-port", type=int, help="a running PostgreSQL (else a scratch one is started)")
    p.add_argument("--duetd", default=os.path.join(ROOT, "build", "bin", "duetd"))
    args = p.parse_args()

    rng = random.Random(20)
    arrays = [rng.sample(range(1, args.rows + 1), args.array) for _ in range(args.lookups)]
    systems = []
    for name in args.systems.split(","):
        if name == "duetdb":
            systems.append(DuetSystem(args.host, args.duet_port, [], args.duetd))
        elif name == "postgres":
            systems.append(PostgresSystem(args.host, args.pg_port, []))
        else:
            sys.exit(f"unknown system {name}")
    results = {}  # system -> (lookups/s, plan's first line)
    answers = {}
    try:
        for system in systems:
            if system.port is None:
                system.start()
            system.use_database("anylookup", create=True)
            conn = system.conn
            conn.execute("DROP TABLE IF EXISTS anyl")
            conn.execute("CREATE TABLE anyl (id integer PRIMARY KEY, v integer)")
            conn.execute("INSERT INTO anyl SELECT g, g %% 1000 FROM generate_series(1, %s) g", (args.rows,))
            if system.name == "postgres":
                conn.execute("VACUUM ANALYZE anyl")
            plan = conn.execute("EXPLAIN " + QUERY.replace("%b", "%s"), (arrays[0],)).fetchall()
            scan = next((r[0].strip() for r in plan if "Scan" in r[0]), plan[0][0])
            best = None
            for _ in range(args.repeat):
                got = []
                with conn.cursor(binary=True) as cur:
                    t0 = time.perf_counter()
                    for ids in arrays:
                        got.append(cur.execute(QUERY, (ids,), prepare=True).fetchone())
                    elapsed = time.perf_counter() - t0
                best = elapsed if best is None else min(best, elapsed)
                answers.setdefault(system.name, got)
            if answers[system.name] != answers[systems[0].name]:
                raise RuntimeError(f"{system.name} and {systems[0].name} disagree")
            results[system.name] = (args.lookups / best, scan)
            print(f"  {system.name:8s} {args.lookups / best:10.0f} lookups/s  {scan}", file=sys.stderr, flush=True)
    finally:
        for system in systems:
            system.close()

    print(f"\n{args.lookups} statements of `id = ANY ($1)` with {args.array} ids each, {args.rows} rows,"
          f" best of {args.repeat}\n")
    print("| system | lookups/s | ms per lookup | plan |")
    print("|---|---:|---:|---|")
    for name, (rate, scan) in results.items():
        print(f"| {name} | {rate:,.0f} | {1000 / rate:.3f} | {scan} |")


if __name__ == "__main__":
    main()
