#!/usr/bin/env python3
"""TPC-H and CH-benCHmark on DuetDB, PostgreSQL 15 and DuckDB in one run (issue 20).

Loads the same rows into every system, runs each query on each, compares the answers with
PostgreSQL's (DuckDB's when PostgreSQL does not run) and prints per query and system its
status, the first run's time (DuetDB's compilation included) and the median of --repeat warm
runs, then the geometric means over the queries every system answered correctly.

  .venv/bin/python bench/analytics/run.py tpch --scale 0.1
  .venv/bin/python bench/analytics/run.py ch --warehouses 1 --check

Servers not given a port are started here (duetd with a scratch data directory, a scratch
PostgreSQL 15 from tests/scratch_pg.py) and stopped at the end. bench/README.md has every option.
"""
import argparse
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from compare import compare  # noqa: E402
from plot import geomean  # noqa: E402  (plot.py imports matplotlib only when it draws)
from systems import ROOT, DuckDBSystem, DuetSystem, PostgresSystem, QueryError  # noqa: E402
from workloads import WORKLOADS, load_queries, read_expected_pass  # noqa: E402

SYSTEMS = ["duetdb", "postgres", "duckdb"]


def parse_list(text, choices=None):
    items = [s.strip() for s in text.split(",") if s.strip()]
    if choices is not None:
        for item in items:
            if item not in choices:
                raise argparse.ArgumentTypeError(f"{item!r} is not one of {', '.join(choices)}")
    return items


def parse_queries(text):
    """'1,3,5-7' -> {1, 3, 5, 6, 7}; 'q05' is 5."""
    numbers = set()
    for item in parse_list(text):
        lo, _, hi = item.lower().lstrip("q").partition("-")
        numbers.update(range(int(lo), int(hi.lstrip("q") or lo) + 1))
    return numbers


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("benchmark", choices=sorted(WORKLOADS), help="tpch or ch")
    p.add_argument("--systems", type=lambda s: parse_list(s, SYSTEMS), default=SYSTEMS,
                   help="comma-separated, of duetdb,postgres,duckdb (default: all three)")
    p.add_argument("--queries", type=parse_queries, default=None, help="e.g. 1,3,5-7 (default: all 22)")
    p.add_argument("--scale", type=float, default=0.1, help="TPC-H scale factor (default 0.1)")
    p.add_argument("--warehouses", type=int, default=1, help="CH warehouses (default 1)")
    p.add_argument("--repeat", type=int, default=3, help="warm runs after the first (default 3)")
    p.add_argument("--timeout", type=float, default=60, help="seconds per query run (default 60)")
    p.add_argument("--duet-port", type=int, help="a running DuetDB (default: start build/bin/duetd)")
    p.add_argument("--pg-port", type=int, help="a running PostgreSQL (default: start a scratch one)")
    p.add_argument("--host", default="127.0.0.1", help="host of the servers given by port")
    p.add_argument("--duetd", default=os.path.join(ROOT, "build", "bin", "duetd"))
    p.add_argument("--loader", default=os.path.join(ROOT, "build", "bin", "duet_tpcc_load"),
                   help="bench/tpcc's loader, for the CH data")
    p.add_argument("--data-dir", help="cache of generated data (default /tmp/duet-tpch-sfS or /tmp/duet-ch-wW)")
    p.add_argument("--no-load", action="store_true", help="use the tables already loaded (servers given by port)")
    p.add_argument("--set", action="append", default=[], metavar="SYSTEM:NAME=VALUE",
                   help="a setting for every session of SYSTEM, e.g. postgres:work_mem='64MB'")
    p.add_argument("--check", action="store_true",
                   help="exit 1 when DuetDB fails a query listed in the benchmark's expected_pass file")
    p.add_argument("--expected-pass", help="that file (default bench/BENCHMARK/expected_pass)")
    p.add_argument("--compile-tiers", action="store_true",
                   help="DuetDB also runs each query once with only the cheap and once with only the optimized "
                        "code (duet.compile_tier), each answer checked like the first run's")
    p.add_argument("--json", help="write every result to this file")
    p.add_argument("--plot", help="draw per-query times to this PNG (plot.py; needs matplotlib)")
    args = p.parse_args(argv)
    args.settings = {name: [] for name in SYSTEMS}
    for item in args.set:
        system, _, setting = item.partition(":")
        name, _, value = setting.partition("=")
        if system not in SYSTEMS or not name or not value:
            p.error(f"--set {item!r}: expected SYSTEM:NAME=VALUE")
        args.settings[system].append((name, value))
    return args


def make_systems(args):
    systems = []
    for name in args.systems:
        if name == "duetdb":
            systems.append(DuetSystem(args.host, args.duet_port, args.settings[name], args.duetd))
        elif name == "postgres":
            systems.append(PostgresSystem(args.host, args.pg_port, args.settings[name]))
        else:
            systems.append(DuckDBSystem(args.settings[name]))
    return systems


def load(workload, systems, args):
    # PostgreSQL first: it generates the CH data when the cache is empty.
    servers = sorted((s for s in systems if s.name != "duckdb"), key=lambda s: s.name != "postgres")
    if not args.no_load:
        workload.ensure_data(servers)
    for system in systems:
        system.use_database(workload.dbname, create=not args.no_load)
        if args.no_load:
            continue
        start = time.perf_counter()
        system.execute_script(workload.schema())
        for table in workload.tables:
            system.load_file(table, workload.path(table), workload.delimiter)
        system.analyze()
        print(f"{system.name}: loaded in {time.perf_counter() - start:.1f} s", file=sys.stderr)


def run_query(system, query, args):
    """{status, first, warm, rows or message} of one query on one system."""
    result = {"status": "ok"}
    try:
        start = time.perf_counter()
        rows = system.query(query.sql, args.timeout)
        result["first"] = time.perf_counter() - start
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            system.query(query.sql, args.timeout)
            times.append(time.perf_counter() - start)
        result["warm"] = statistics.median(times) if times else result["first"]
        result["rows"] = rows
        if args.compile_tiers and system.name == "duetdb":
            # Each tier's own plan (the plan cache keeps them apart), then the session's setting again.
            for tier in ("cheap", "optimized"):
                system.query(f"SET duet.compile_tier = '{tier}'", args.timeout)
                result[f"rows {tier}"] = system.query(query.sql, args.timeout)
            system.query(f"SET duet.compile_tier = {dict(args.settings['duetdb']).get('duet.compile_tier', 'adaptive')}",
                         args.timeout)
    except QueryError as e:
        result.update(status=e.kind, sqlstate=e.sqlstate, message=e.message)
        result.pop("rows", None)
        if not system.alive():
            result["message"] += " (the server exited)"
        else:
            try:
                system.reconnect()
                system.set_timeout(args.timeout)
            except Exception as again:  # the server is gone: later queries will say so
                result["message"] += f"; reconnect failed: {again}"
    return result


def check_answers(results, query, names):
    """Marks answers that differ from the reference's (PostgreSQL, else DuckDB) as wrong."""
    reference = next((n for n in ("postgres", "duckdb") if n in names and results[n]["status"] == "ok"), None)
    for name in names:
        r = results[name]
        if r["status"] != "ok":
            continue
        if reference is None or name == reference:
            r["checked_against"] = None
            continue
        r["checked_against"] = reference
        for key in [k for k in ("rows", "rows cheap", "rows optimized") if k in r]:
            reason = compare(results[reference]["rows"], r[key], query.sort)
            if reason is not None:
                run = "" if key == "rows" else f" ({key[5:]} tier)"
                r.update(status="wrong", message=f"vs {reference}{run}: {reason}")
                break


def ms(seconds):
    return "" if seconds is None else f"{1000 * seconds:.1f}"


def report(queries, names, results, workload, args):
    print(f"\n{workload.describe()}, {args.repeat} warm runs, timeout {args.timeout:g} s; "
          f"times in ms (first run / warm median)\n")
    print("| query | " + " | ".join(f"{n} status | {n} first | {n} warm" for n in names) + " |")
    print("|---" * (1 + 3 * len(names)) + "|")
    for q in queries:
        cells = []
        for n in names:
            r = results[q.name][n]
            status = r["status"] if r["status"] != "error" else f"error {r.get('sqlstate') or ''}".strip()
            cells += [status, ms(r.get("first")), ms(r.get("warm"))]
        print(f"| {q.name} | " + " | ".join(cells) + " |")
    common = [q for q in queries if all(results[q.name][n]["status"] == "ok" for n in names)]
    cells = []
    for n in names:
        cells += [f"{len(common)} queries", ms(geomean([results[q.name][n]["first"] for q in common])),
                  ms(geomean([results[q.name][n]["warm"] for q in common]))]
    print("| geomean | " + " | ".join(cells) + " |")
    notes = [(q.name, n, results[q.name][n]) for q in queries for n in names
             if results[q.name][n]["status"] != "ok"]
    if notes:
        print("\nNot ok:")
        for qname, n, r in notes:
            code = f" {r['sqlstate']}" if r.get("sqlstate") else ""
            print(f"- {qname} {n}: {r['status']}{code}: {r.get('message', '')}")
    unchecked = [q.name for q in queries if "duetdb" in names and len(names) > 1
                 and results[q.name]["duetdb"]["status"] == "ok"
                 and results[q.name]["duetdb"]["checked_against"] is None]
    if unchecked:
        print(f"\nDuetDB's answer unchecked (PostgreSQL and DuckDB failed or did not run): {', '.join(unchecked)}")


def main(argv=None):
    args = parse_args(argv if argv is not None else sys.argv[1:])
    workload = WORKLOADS[args.benchmark](args)
    queries = load_queries(os.path.join(workload.folder, "queries"))
    if args.queries:
        queries = [q for q in queries if q.number in args.queries]
    systems = make_systems(args)
    names = [s.name for s in systems]
    results = {q.name: {} for q in queries}
    try:
        for system in systems:
            if system.name != "duckdb" and system.port is None:
                system.start()
        load(workload, systems, args)
        for system in systems:
            system.set_timeout(args.timeout)
        for q in queries:
            for system in systems:
                results[q.name][system.name] = run_query(system, q, args)
            check_answers(results[q.name], q, names)
            line = ", ".join(f"{n} {results[q.name][n]['status']}" for n in names)
            print(f"{q.name}: {line}", file=sys.stderr)
    finally:
        for system in systems:
            system.close()
    report(queries, names, results, workload, args)
    # The results without the answers' rows: what --json writes and --plot draws.
    times = {q: {n: {k: v for k, v in r.items() if not k.startswith("rows")} for n, r in per.items()}
             for q, per in results.items()}
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"benchmark": workload.describe(), "repeat": args.repeat, "timeout": args.timeout,
                       "results": times}, f, indent=1)
    if args.plot:
        from plot import plot
        plot(args.plot, workload.describe(), times)
    if args.check and "duetdb" in names:
        expected = read_expected_pass(args.expected_pass or os.path.join(workload.folder, "expected_pass"))
        failed = [q.name for q in queries if q.number in expected and results[q.name]["duetdb"]["status"] != "ok"]
        passing = [q.name for q in queries if q.number not in expected and results[q.name]["duetdb"]["status"] == "ok"]
        if passing:
            print(f"\nDuetDB now passes {', '.join(passing)}, not in the expected_pass list: add them")
        if failed:
            print(f"\nCHECK FAILED: DuetDB did not pass {', '.join(failed)}, listed as expected to pass")
            return 1
        print("\ncheck ok: DuetDB passed every query listed as expected to pass")
    return 0


if __name__ == "__main__":
    sys.exit(main())
