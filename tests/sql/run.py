#!/usr/bin/env python3
"""Replay the SQL test files against a server and compare its answers with the expectations.

Each file gets a fresh connection; a passed/failed unit is one record (statement or query).
Records marked "onlyif"/"skipif" for another --target (duetdb or postgres) are skipped.
Usage: run.py [--host H] [--port P] [--dbname D] [--user U] [--target T] [--snapshots] [FILE.test ...]
--snapshots (DuetDB only) sends every read-only SELECT to a fork()ed snapshot
(duet.snapshot_routing = always, docs/snapshots.md) and checks that snapshots served them.
With no files, runs every tests/sql/*.test and tests/sql/*/*.test. Exits 1 if any record failed.
"""
import argparse
import glob
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import slt  # noqa: E402


def check(rec: slt.Record, out: slt.Outcome) -> str | None:
    """Return a description of the mismatch, or None when the answer is as expected."""
    if rec.kind == "statement":
        if rec.expect_error is None:
            if out.error:
                return f"expected success, got error {out.error}: {out.message}"
            return None
        if not out.error:
            return f"expected error {rec.expect_error or '(any)'}, got success"
        if rec.expect_error and out.error != rec.expect_error:
            return f"expected error {rec.expect_error}, got error {out.error}: {out.message}"
        if rec.expect_message is not None and out.message != rec.expect_message:
            return f"expected message {rec.expect_message!r}, got {out.message!r}"
        return None
    if out.error:
        return f"expected rows, got error {out.error}: {out.message}"
    problems = []
    spec = rec.column_spec
    if spec.isdigit():
        if int(spec) != len(out.column_letters):
            problems.append(f"expected {spec} columns, got {len(out.column_letters)}")
    elif spec != out.column_letters:
        problems.append(f"expected column types {spec}, got {out.column_letters}")
    got = slt.arranged_rows(rec, out.rows)
    if got != rec.expected_rows:
        problems.append("rows differ\n  expected:\n" +
                        "".join(f"    {r}\n" for r in rec.expected_rows) +
                        "  got:\n" + "".join(f"    {r}\n" for r in got))
    return "; ".join(problems) if problems else None


def run_file(path: str, conninfo: str, target: str) -> tuple[int, int]:
    _, all_records = slt.parse(path)
    records = [r for r in all_records if r.runs_on(target)]
    try:
        conn = slt.connect(conninfo)
    except ConnectionError as e:
        print(f"FAIL {path}: cannot connect: {e}")
        return 0, len(records)
    passed = failed = 0
    try:
        for rec in records:
            problem = check(rec, slt.execute(conn, rec.sql))
            if problem is None:
                passed += 1
                continue
            failed += 1
            print(f"FAIL {path}:{rec.first_line}\n  sql: {rec.sql}\n  {problem}".rstrip())
            if conn.status != slt.pq.ConnStatus.OK:
                rest = len(records) - passed - failed
                print(f"FAIL {path}: connection lost, {rest} remaining records not run")
                failed += rest
                break
    finally:
        conn.finish()
    return passed, failed


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", default="5432")
    ap.add_argument("--dbname", default="postgres")
    ap.add_argument("--user", default="postgres")
    ap.add_argument("--target", choices=slt.TARGETS, default="duetdb",
                    help="server kind, selects onlyif/skipif records (default duetdb)")
    ap.add_argument("--snapshots", action="store_true",
                    help="DuetDB: run read-only SELECTs on snapshots (duet.snapshot_routing = always)")
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    files = args.files or sorted(glob.glob(os.path.join(here, "*.test")) + glob.glob(os.path.join(here, "*", "*.test")))
    conninfo = f"host={args.host} port={args.port} dbname={args.dbname} user={args.user} connect_timeout=10"
    if args.snapshots:
        conninfo += " options='-c duet.snapshot_routing=always'"
    total_passed = total_failed = 0
    for path in files:
        passed, failed = run_file(path, conninfo, args.target)
        total_passed += passed
        total_failed += failed
    print(f"sql: {total_passed} passed, {total_failed} failed")
    if args.snapshots and not snapshots_served(conninfo):
        print("FAIL --snapshots: no snapshot process served the statements")
        return 1
    return 1 if total_failed else 0


def snapshots_served(conninfo: str) -> bool:
    """Whether a SELECT over a table now runs on a snapshot: one is listed after it."""
    conn = slt.connect(conninfo)
    try:
        for sql in ("DROP TABLE IF EXISTS run_snapshot_probe", "CREATE TABLE run_snapshot_probe (a int)",
                    "SELECT count(*) FROM run_snapshot_probe"):
            if slt.execute(conn, sql).error:
                return False
        out = slt.execute(conn, "SELECT count(*) FROM pg_catalog.duet_snapshots")
        slt.execute(conn, "DROP TABLE run_snapshot_probe")
        return not out.error and int(out.rows[0]) > 0
    finally:
        conn.finish()


if __name__ == "__main__":
    sys.exit(main())
