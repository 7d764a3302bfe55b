#!/usr/bin/env python3
"""Differential test of PL/pgSQL routines: runs generated routines (generate.py) on the
server under test and on a reference PostgreSQL 15, and compares what they answer.

For each case: the schema's rows are reset on both servers, the routine is created, each
call is made, and the outcomes are compared - the result rows (as text, with their column
types), or the error's SQLSTATE (and the message too for errors RAISE makes: P0001,
U0001), and the notices sent - then the tables' final contents. A routine PostgreSQL
rejects at CREATE is skipped and counted. Every difference is printed with the routine,
the calls and both answers; the exit status is 1 when there was any.

  run.py --duetd build/bin/duetd --seed 1 --count 250      # starts duetd and PostgreSQL
  run.py --port 5432 --count 2000 --time-limit 900         # a running server under test
  run.py --duetd build/bin/duetd --seed 1 --case 17        # one case again, shown in full

Case I of seed S is the same routine on every run. --all-constructs also generates the
constructs of generate.KNOWN_GAPS (DuetDB defects not fixed yet).
"""
import argparse
import collections
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "sql"))
sys.path.insert(0, os.path.join(HERE, ".."))
import duetd_process  # noqa: E402
import generate  # noqa: E402
import scratch_pg  # noqa: E402
import slt  # noqa: E402
from psycopg import pq  # noqa: E402

# Errors whose message both servers must word alike: those RAISE makes from the routine's text.
MESSAGE_CHECKED = {"P0001", "U0001"}
STATEMENT_TIMEOUT = "5s"
# DuetDB's documented limits, by the error it gives: where a call meets one and PostgreSQL
# answers otherwise, the rest of the case is not compared (the tables now differ) and the
# case is counted under this name.
DOCUMENTED_LIMITS = {
    ("22003", "value overflows numeric format"): "beyond DuetDB's numeric, about 35 digits (docs/sql.md)",
    ("53200", "out of memory"): "duet.executor_memory_limit (docs/architecture.md), an array doubled in a loop",
}


class Server:
    """One connection to one server, with the notices it sent for the current statement."""

    def __init__(self, label, port):
        self.label = label
        self.port = port
        self.conn = None
        self.notices = []
        self.connect()

    def connect(self):
        self.conn = slt.connect(f"host=127.0.0.1 port={self.port} dbname=postgres user=postgres connect_timeout=10")
        self.conn.notice_handler = self.on_notice
        self.run(f"SET statement_timeout = '{STATEMENT_TIMEOUT}'")
        self.run("SET client_min_messages = notice")

    def on_notice(self, res):
        message = res.error_field(pq.DiagnosticField.MESSAGE_PRIMARY)
        self.notices.append(message.decode("utf-8", "replace") if message else "")

    def run(self, sql):
        """The outcome of one statement and the notices it sent."""
        self.notices = []
        return slt.execute(self.conn, sql), self.notices

    def alive(self):
        return self.conn.status == pq.ConnStatus.OK

    def drop_routines(self):
        """Drops every routine of the generated name, also those an interrupted run left."""
        names = ", ".join(f"'{name}'" for name in generate.ROUTINE_NAMES)
        found, _ = self.run(f"SELECT oid::regprocedure FROM pg_proc WHERE proname IN ({names})")
        for signature in found.rows:
            self.run(f"DROP ROUTINE {signature}")

    def close(self):
        self.conn.finish()


def describe(outcome, notices):
    if outcome.error:
        text = f"ERROR {outcome.error}: {outcome.message}"
    else:
        text = f"rows ({outcome.column_letters}): " + (" | ".join(outcome.rows) if outcome.rows else "none")
    return text + "".join(f"\n      NOTICE {n}" for n in notices)


def same(a, b):
    """Whether two (outcome, notices) pairs are the same answer."""
    (oa, na), (ob, nb) = a, b
    if oa.error or ob.error:
        if oa.error != ob.error:
            return False
        if oa.error in MESSAGE_CHECKED and oa.message != ob.message:
            return False
    elif (oa.column_letters, oa.rows) != (ob.column_letters, ob.rows):
        return False
    return na == nb


class Differ:
    def __init__(self, args, tested_port, reference_port):
        self.args = args
        self.tested = Server(args.label, tested_port)
        self.reference = Server("postgres", reference_port)
        self.counts = collections.Counter()
        self.reference_outcomes = collections.Counter()
        self.failures = 0

    def setup(self):
        for server in (self.tested, self.reference):
            server.drop_routines()
            self.must_run(server, generate.SCHEMA)

    @staticmethod
    def must_run(server, statements):
        for sql in statements:
            out, _ = server.run(sql)
            if out.error:
                raise RuntimeError(f"{server.label}: {sql}: {out.error} {out.message}")

    def run_case(self, case, show):
        """Runs one case on both servers; returns the differences found as (what, answer on
        the server under test, answer on PostgreSQL)."""
        for server in (self.tested, self.reference):
            self.must_run(server, generate.RESET)
        try:
            return self.compare_case(case, show)
        finally:
            for server in (self.tested, self.reference):
                if server.alive():
                    self.must_run(server, case.drops)

    def compare_case(self, case, show):
        for create in case.helpers + [case.create]:
            created_ref = self.reference.run(create)
            if created_ref[0].error:
                self.counts[f"rejected by PostgreSQL at CREATE ({created_ref[0].error})"] += 1
                if show:
                    print(f"PostgreSQL rejects the routine: {describe(*created_ref)}")
                return []
            created = self.tested.run(create)
            if not same(created, created_ref):
                return [(create.split("(")[0], created, created_ref)]
        diffs = []
        for call in case.calls:
            answers = self.tested.run(call), self.reference.run(call)
            self.counts["calls"] += 1
            self.reference_outcomes[answers[1][0].error or "ok"] += 1
            if show:
                print(f"-- {call}\n   {self.tested.label}: {describe(*answers[0])}\n   "
                      f"postgres: {describe(*answers[1])}")
            limit = DOCUMENTED_LIMITS.get((answers[0][0].error, answers[0][0].message))
            if limit and not same(*answers):
                self.counts[f"cases ended by a documented limit: {limit}"] += 1
                return diffs
            if not same(*answers):
                diffs.append((call, *answers))
            if not self.tested.alive():
                return diffs
        query = generate.table_contents_query()
        answers = self.tested.run(query), self.reference.run(query)
        if not same(*answers):
            diffs.append(("the tables after the calls", *answers))
        return diffs

    def report(self, case, diffs):
        self.failures += 1
        print(f"\nMISMATCH seed {case.seed} case {case.index} ({case.kind}); rerun: "
              f"tests/plpgsql_diff/run.py ... --seed {case.seed} --case {case.index}")
        for create in case.helpers + [case.create]:
            print(f"{create};")
        for call in case.calls:
            print(f"{call};")
        for what, tested, reference in diffs:
            print(f"-- {what}\n   {self.tested.label}: {describe(*tested)}\n   postgres: {describe(*reference)}")
        sys.stdout.flush()

    def summary(self, cases, elapsed):
        print(f"\nplpgsql-diff: seed {self.args.seed}, {cases} routines, {self.counts['calls']} calls in "
              f"{elapsed:.1f} s; {self.failures} with differences")
        for what, n in sorted(self.counts.items()):
            if what != "calls":
                print(f"  {what}: {n}")
        outcomes = ", ".join(f"{k} {v}" for k, v in self.reference_outcomes.most_common())
        print(f"  PostgreSQL's call outcomes: {outcomes}")


def case_indexes(args):
    if args.case is not None:
        return [args.case]
    return range(args.first, args.first + args.count)


def run(args, tested_port, reference_port, restart=None):
    differ = Differ(args, tested_port, reference_port)
    differ.setup()
    started = time.monotonic()
    cases = 0
    for index in case_indexes(args):
        if args.time_limit and time.monotonic() - started > args.time_limit:
            break
        case = generate.generate_case(args.seed, index, known_gaps=not args.all_constructs)
        if args.case is not None:
            print(";\n".join(case.helpers + [case.create]))
        cases += 1
        diffs = differ.run_case(case, show=args.case is not None)
        if diffs:
            differ.report(case, diffs)
        if not differ.tested.alive():
            print(f"FAIL {differ.tested.label} closed the connection (crashed?) in case {index}")
            differ.failures += 1
            if restart is None:
                break
            differ.tested.close()
            differ.tested.port = restart()
            differ.tested.connect()
            differ.must_run(differ.tested, generate.SCHEMA)
    differ.summary(cases, time.monotonic() - started)
    for server in (differ.tested, differ.reference):
        if server.alive():
            server.run(generate.DROP_TABLES)
        server.close()
    return 1 if differ.failures else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    under_test = ap.add_mutually_exclusive_group(required=True)
    under_test.add_argument("--duetd", help="start this duetd binary (restarted after a crash)")
    under_test.add_argument("--port", type=int, help="the server under test, running on 127.0.0.1")
    ap.add_argument("--label", default="duetdb", help="the server under test's name in reports")
    ap.add_argument("--pg-port", type=int, help="a running reference PostgreSQL (default: start a scratch one)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=250, help="routines to run (default 250)")
    ap.add_argument("--first", type=int, default=0, help="index of the first case")
    ap.add_argument("--case", type=int, help="run only this case and show every answer")
    ap.add_argument("--time-limit", type=float, help="stop starting cases after this many seconds")
    ap.add_argument("--all-constructs", action="store_true", help="also generate generate.KNOWN_GAPS")
    args = ap.parse_args()

    pg_dir = None
    duetds = []   # the duetd started here, and those started after it crashed

    def start_duetd():
        if duetds:
            duetds[-1].stop()
        duetds.append(duetd_process.Server(os.path.abspath(args.duetd), "duet-plpgsql-diff."))
        return duetds[-1].port
    try:
        reference_port = args.pg_port
        if reference_port is None:
            pg_dir, reference_port = scratch_pg.start()
        if args.duetd:
            return run(args, start_duetd(), reference_port, start_duetd)
        return run(args, args.port, reference_port)
    finally:
        if duetds:
            duetds[-1].stop()
        if pg_dir:
            scratch_pg.stop(pg_dir)


if __name__ == "__main__":
    sys.exit(main())
