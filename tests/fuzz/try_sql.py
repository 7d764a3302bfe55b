#!/usr/bin/env python3
"""Runs SQL statements one by one on a fresh duetd with the SQL fuzzer's fixture and prints
what happened to each (ok / error SQLSTATE / crash / hang) and how long it took: the tool
for minimising a fuzzer finding by hand. The server is restarted after a crash or a hang.
  try_sql.py --duetd build/bin/duetd "SELECT 1" "SELECT $1"     (simple protocol)
  try_sql.py --duetd build/bin/duetd --extended "SELECT \\$1::int" --param 5
  try_sql.py --duetd build/bin/duetd --file case.sql          (statements separated by ';\\n')
"""
import argparse
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sql_fuzzer as F  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--duetd", required=True)
    ap.add_argument("--extended", action="store_true")
    ap.add_argument("--param", action="append", default=[])
    ap.add_argument("--file")
    ap.add_argument("--timeout", type=float, default=10)
    ap.add_argument("--no-fixture", action="store_true")
    ap.add_argument("sql", nargs="*")
    a = ap.parse_args()
    statements = list(a.sql)
    if a.file:
        with open(a.file) as f:
            text = "".join(l for l in f if not l.startswith("--"))
        statements += [s for s in text.split(";\n") if s.strip()]
    log = tempfile.NamedTemporaryFile(prefix="try_sql.", suffix=".log", delete=False).name
    d = F.Duetd(os.path.abspath(a.duetd), log, ["--redo-log", "false"])
    conn = None

    def start():
        nonlocal conn
        d.start()
        conn = F.connect(d.port)
        if not a.no_fixture:
            for sql in F.sqlgen.fixture_sql(True):
                F.run_statement(conn, {"proto": "simple", "sql": sql, "params": []}, 60)
        d.new_log()

    start()
    for sql in statements:
        stmt = {"proto": "extended" if a.extended else "simple", "sql": sql, "params": a.param}
        t0 = time.monotonic()
        out = F.run_statement(conn, stmt, a.timeout)
        took = time.monotonic() - t0
        what = out.kind
        if out.kind == "lost":
            time.sleep(0.3)
            what = "CRASH (" + (F.exit_description(d.proc.returncode) if not d.alive() else "connection lost") + ")"
        elif out.kind == "timeout":
            conn.get_cancel().cancel()
            what = "timeout, server answers" if F.probe(d.port, 5) else "HANG"
        elif out.kind == "error":
            what = f"error {out.sqlstate} {out.message[:100]}"
        print(f"{took:7.2f} s  {what:40}  {sql[:150]!r}{'...' if len(sql) > 150 else ''}", flush=True)
        log_text = d.new_log()
        if F.SANITIZER_RE.search(log_text):
            print(log_text.decode(errors="replace")[:4000])
        if out.kind in ("lost", "timeout"):
            conn.finish()
            d.stop(kill=True)
            start()
        elif conn.transaction_status != F.pq.TransactionStatus.IDLE:
            F.run_statement(conn, {"proto": "simple", "sql": "ROLLBACK", "params": []}, 10)
    conn.finish()
    d.stop()
    print(f"log: {log}")


if __name__ == "__main__":
    main()
