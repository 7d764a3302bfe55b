#!/usr/bin/env python3
"""Rewrite the expectations of the SQL test files from a scratch PostgreSQL 15's answers.

Starts a throw-away PG15 (tests/scratch_pg.py), replays each file and rewrites in place:
query headers (column type letters, sort mode kept), expected rows, and the outcome of
statements (`statement ok` / `statement error SQLSTATE`, and the message of error records
that have one). A record whose outcome kind
changes (a statement expected to fail succeeds, a query fails) is rewritten too but
reported, because that usually means the test itself is wrong. Records marked
"onlyif duetdb" / "skipif postgres" are left exactly as written. Then stops the server.
Usage: regenerate.py [FILE.test ...]   (default: every tests/sql/*.test)
"""
import glob
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
import scratch_pg  # noqa: E402
import slt  # noqa: E402


def render(rec: slt.Record, out: slt.Outcome) -> tuple[list[str], str | None]:
    """The record's new lines and, when its outcome kind changed, a warning."""
    sql_lines = rec.sql.split("\n")
    if out.error:
        warning = None
        if rec.kind == "query" or rec.expect_error is None:
            warning = f"now expects error {out.error}: {out.message}"
        lines = [f"statement error {out.error}"] + sql_lines
        if rec.expect_message is not None:
            lines += ["----", out.message]
        return lines, warning
    if rec.kind == "statement":
        warning = "expected an error but PG succeeded" if rec.expect_error is not None else None
        return ["statement ok"] + sql_lines, warning
    header = f"query {out.column_letters or '0'}"
    if rec.sort_mode == "rowsort":
        header += " rowsort"
    return [header] + sql_lines + ["----"] + slt.arranged_rows(rec, out.rows), None


def regenerate_file(path: str, conninfo: str) -> int:
    lines, records = slt.parse(path)
    conn = slt.connect(conninfo)
    new_lines = []
    warnings = 0
    cursor = 0          # index into lines of the first line not yet copied
    try:
        for rec in records:
            if not rec.runs_on("postgres"):
                continue        # DuetDB-only record: PG cannot vouch for it, keep it as written
            new_lines.extend(lines[cursor:rec.first_line - 1])
            rendered, warning = render(rec, slt.execute(conn, rec.sql))
            if warning:
                warnings += 1
                print(f"WARNING {path}:{rec.first_line}: {warning}")
            new_lines.extend(rendered)
            # end_line is exclusive and 1-based; the blank separator after it is copied as is.
            cursor = rec.end_line - 1
    finally:
        conn.finish()
    new_lines.extend(lines[cursor:])
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(new_lines) + "\n")
    return warnings


def main() -> int:
    files = sys.argv[1:] or sorted(glob.glob(os.path.join(HERE, "*.test")))
    directory, port = scratch_pg.start()
    warnings = 0
    try:
        conninfo = f"host=127.0.0.1 port={port} dbname=postgres user=postgres"
        for path in files:
            warnings += regenerate_file(path, conninfo)
            print(f"regenerated {os.path.relpath(path)}")
    finally:
        scratch_pg.stop(directory)
    print(f"{len(files)} files regenerated, {warnings} records changed outcome (review them)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
