#!/usr/bin/env python3
"""SQL fuzzer: runs generated hostile SQL (tests/fuzz/sqlgen.py) on a duetd that it starts and
restarts itself, and on PostgreSQL 15, and reports what went wrong (tests/fuzz/README.md).

Failures (the exit status is 1 when there is any):
  crash      the duetd process exited, or dropped the connection without a FATAL error
  hang       a statement ran past --timeout, and a fresh connection's SELECT 1 got no
             answer within --probe seconds either (duetd is restarted afterwards)
  sanitizer  an AddressSanitizer / UndefinedBehaviorSanitizer / LeakSanitizer report appeared
             in duetd's log while the case ran (use an ASan build: build-asan/bin/duetd)
Findings that do not fail the run: a timeout after which the server still answered, and
SQLSTATE class mismatches with PostgreSQL (success against error, or another 2-character
class) - DuetDB lacks many features, so these are a list to read, not a verdict.

Every case is reproducible from (seed, index): --seed S --case I runs just that case again,
--replay FILE.json runs a saved case. Each failing case is written to --out as JSON (the
statements, both servers' answers, the log excerpt) and as a .sql file. Cases whose SQL
matches a line of the known-open list (tests/fuzz/known_open.txt) are skipped and counted.

  sql_fuzzer.py --duetd build-asan/bin/duetd --seed 1 --seconds 90 --out /tmp/sqlfuzz
"""
import argparse
import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict

from psycopg import pq

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sqlgen  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SANITIZER_RE = re.compile(rb"ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:|"
                          rb"SUMMARY: UndefinedBehaviorSanitizer|ERROR: ThreadSanitizer")


# ---- known-open list -----------------------------------------------------------------------

def load_known_open(path):
    """Lines "ID | simple|extended|any | regex | description" (the regex is also POSIX ERE)."""
    entries = []
    if not path:
        return entries
    with open(path) as f:
        for line in f:
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            first = line.find(" | ")
            second = line.find(" | ", first + 3)
            last = line.rfind(" | ")
            if first < 0 or second < 0 or last <= second:
                raise SystemExit(f"malformed known-open line: {line!r}")
            text = line[second + 3:last].strip()
            m = re.match(r"([0-9]+) x (.*)", text)
            count, text = (int(m.group(1)), m.group(2)) if m else (1, text)
            entries.append((line[:first].strip(), line[first + 3:second].strip(),
                            re.compile(text, re.IGNORECASE | re.DOTALL), count, line[last + 3:].strip()))
    return entries


def matches(pattern, count, sql):
    if count == 1:
        return pattern.search(sql) is not None
    n = 0
    for _ in pattern.finditer(sql):
        n += 1
        if n >= count:
            return True
    return False


def known_open_match(entries, case):
    for stmt in case["statements"]:
        for ident, where, pattern, count, _ in entries:
            if where != "any" and where != stmt["proto"]:
                continue
            if matches(pattern, count, stmt["sql"]):
                return ident
    return None


# ---- running statements --------------------------------------------------------------------

class Outcome:
    def __init__(self, kind, sqlstate="", message="", severity=""):
        self.kind = kind            # ok, error, timeout, lost, client
        self.sqlstate = sqlstate
        self.message = message
        self.severity = severity

    def cls(self):
        if self.kind == "error":
            return self.sqlstate[:2] if self.sqlstate else "??"
        return self.kind

    def as_dict(self):
        return {"kind": self.kind, "sqlstate": self.sqlstate, "severity": self.severity,
                "message": self.message[:500]}


def connect(port, timeout=10):
    conn = pq.PGconn.connect(f"host=127.0.0.1 port={port} dbname=postgres user=postgres "
                             f"connect_timeout={timeout}".encode())
    if conn.status != pq.ConnStatus.OK:
        msg = conn.error_message.decode(errors="replace")
        conn.finish()
        raise ConnectionError(msg)
    return conn


def run_statement(conn, stmt, timeout) -> Outcome:
    sql = stmt["sql"].encode()
    try:
        if stmt["proto"] == "simple":
            conn.send_query(sql)
        else:
            params = [None if v is None else v.encode() for v in stmt["params"]]
            conn.send_query_params(sql, params)
    except Exception as e:  # noqa: BLE001 - libpq refuses before sending, or the socket is gone
        if conn.status != pq.ConnStatus.OK:
            return Outcome("lost", message=str(e))
        return Outcome("client", message=str(e))
    deadline = time.monotonic() + timeout
    first_error = None
    while True:
        try:
            conn.consume_input()
            while not conn.is_busy():
                res = conn.get_result()
                if res is None:
                    return first_error or Outcome("ok")
                st = res.status
                if st == pq.ExecStatus.FATAL_ERROR and first_error is None:
                    first_error = Outcome(
                        "error", (res.error_field(pq.DiagnosticField.SQLSTATE) or b"").decode(),
                        (res.error_field(pq.DiagnosticField.MESSAGE_PRIMARY) or b"").decode(errors="replace"),
                        (res.error_field(pq.DiagnosticField.SEVERITY_NONLOCALIZED) or b"").decode())
                elif st == pq.ExecStatus.COPY_IN:
                    conn.put_copy_end(b"sql_fuzzer sends no COPY data")
                elif st == pq.ExecStatus.COPY_OUT:
                    while conn.get_copy_data(0)[0] >= 0:
                        pass
        except Exception as e:  # noqa: BLE001 - the connection broke
            if first_error and first_error.severity == "FATAL":
                return first_error
            return Outcome("lost", message=str(e))
        if conn.status != pq.ConnStatus.OK:
            if first_error and first_error.severity == "FATAL":
                return first_error
            return Outcome("lost", message=conn.error_message.decode(errors="replace"))
        left = deadline - time.monotonic()
        if left <= 0:
            return Outcome("timeout")
        try:
            select.select([conn.socket], [], [], min(left, 0.5))
        except (OSError, ValueError):
            return Outcome("lost", message="socket closed")


def probe(port, seconds) -> bool:
    """True when a fresh connection answers SELECT 1 within `seconds`."""
    deadline = time.monotonic() + seconds
    try:
        conn = pq.PGconn.connect_start(f"host=127.0.0.1 port={port} dbname=postgres user=postgres".encode())
        while True:
            st = conn.connect_poll()
            if st == pq.PollingStatus.OK:
                break
            if st == pq.PollingStatus.FAILED:
                return False
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            want_read = st == pq.PollingStatus.READING
            select.select([conn.socket] if want_read else [], [] if want_read else [conn.socket], [], left)
        out = run_statement(conn, {"proto": "simple", "sql": "SELECT 1", "params": []},
                            max(0.1, deadline - time.monotonic()))
        conn.finish()
        return out.kind == "ok"
    except Exception:  # noqa: BLE001
        return False


# ---- servers -------------------------------------------------------------------------------

def free_port():
    import socket
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Duetd:
    """A duetd that the fuzzer starts, watches and restarts; its log is one file per run."""

    def __init__(self, binary, log_path, extra_args):
        self.binary = binary
        self.log_path = log_path
        self.extra_args = extra_args
        self.proc = None
        self.data_dir = None
        self.port = None
        self.log_offset = 0
        self.starts = 0

    def start(self):
        self.port = free_port()
        self.data_dir = tempfile.mkdtemp(prefix="duet-sqlfuzz.")
        env = dict(os.environ)
        # As scripts/test.sh: libLLVM is not instrumented (container-overflow false reports).
        env.setdefault("ASAN_OPTIONS", "abort_on_error=0:detect_leaks=1:detect_container_overflow=0")
        env.setdefault("UBSAN_OPTIONS", "print_stacktrace=1")
        log = open(self.log_path, "ab")
        log.write(f"\n===== sql_fuzzer: start {self.starts + 1} of {self.binary} on port {self.port}\n".encode())
        log.flush()
        self.proc = subprocess.Popen([self.binary, "--listen", "127.0.0.1", "--port", str(self.port),
                                      "--data-dir", self.data_dir] + self.extra_args,
                                     stdout=log, stderr=subprocess.STDOUT, env=env)
        log.close()
        self.starts += 1
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"duetd exited at start ({self.proc.returncode}); see {self.log_path}")
            try:
                connect(self.port, 2).finish()
                return
            except ConnectionError:
                time.sleep(0.2)
        raise RuntimeError("duetd did not start accepting connections")

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def stop(self, kill=False):
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None
        shutil.rmtree(self.data_dir, ignore_errors=True)

    def new_log(self):
        """Log bytes written since the last call."""
        with open(self.log_path, "rb") as f:
            f.seek(self.log_offset)
            data = f.read()
        self.log_offset += len(data)
        return data


# ---- the fuzzer ----------------------------------------------------------------------------

def exit_description(code):
    if code is None:
        return "running"
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit status {code}"


class Fuzzer:
    def __init__(self, args):
        self.args = args
        os.makedirs(args.out, exist_ok=True)
        for name in os.listdir(args.out):  # what an earlier run left
            if name.split("-")[0] in ("crash", "hang", "sanitizer") or name in ("duetd.log", "summary.txt",
                                                                                "summary.json"):
                os.remove(os.path.join(args.out, name))
        self.duetd = Duetd(os.path.abspath(args.duetd), os.path.join(args.out, "duetd.log"), args.duetd_arg)
        self.known = load_known_open(args.known_open)
        self.pg_dir = None
        self.pg_port = args.pg_port
        self.duet_conn = None
        self.pg_conn = None
        self.counts = Counter()
        self.skipped = Counter()
        self.mismatches = defaultdict(lambda: {"count": 0, "example": None})
        self.findings = []        # failing cases: dicts
        self.timeouts = []        # responsive timeouts: (seed, index, rule)

    # -- setup --
    def start(self):
        if self.pg_port is None and not self.args.no_postgres:
            out = subprocess.run(["python3", os.path.join(REPO, "tests", "scratch_pg.py"),
                                  "start"], capture_output=True, text=True, check=True).stdout.split()
            self.pg_dir, self.pg_port = out[0], int(out[1])
        self.duetd.start()
        self.duetd.new_log()
        self.setup_duet()
        if self.pg_port is not None:
            self.setup_pg()

    def fixture(self, conn, duet):
        for sql in sqlgen.fixture_sql(duet):
            out = run_statement(conn, {"proto": "simple", "sql": sql, "params": []}, 60)
            if out.kind != "ok":
                print(f"sql_fuzzer: fixture on {'duetd' if duet else 'postgres'}: {sql[:80]}: "
                      f"{out.kind} {out.sqlstate} {out.message}", flush=True)

    def setup_duet(self):
        self.duet_conn = connect(self.duetd.port)
        self.fixture(self.duet_conn, True)

    def setup_pg(self):
        self.pg_conn = connect(self.pg_port)
        run_statement(self.pg_conn, {"proto": "simple", "params": [],
                                     "sql": f"SET statement_timeout = {int(self.args.timeout * 1000)}"}, 10)
        self.fixture(self.pg_conn, False)

    def restart_duet(self):
        if self.duet_conn is not None:
            self.duet_conn.finish()
            self.duet_conn = None
        self.duetd.stop(kill=True)
        self.duetd.start()
        self.setup_duet()

    def stop(self):
        for c in (self.duet_conn, self.pg_conn):
            if c is not None:
                c.finish()
        self.duetd.stop()
        # Reports written at exit (LeakSanitizer) belong to the run, not to a case.
        tail = self.duetd.new_log()
        if SANITIZER_RE.search(tail):
            self.record({"seed": self.args.seed, "index": -1, "rule": "shutdown", "statements": []},
                        "sanitizer", [], [], tail)
        if self.pg_dir:
            subprocess.run(["python3", os.path.join(REPO, "tests", "scratch_pg.py"), "stop", self.pg_dir],
                           capture_output=True)

    # -- one case --
    def ensure_idle(self, conn):
        if conn.transaction_status != pq.TransactionStatus.IDLE:
            run_statement(conn, {"proto": "simple", "sql": "ROLLBACK", "params": []}, 10)

    def run_case(self, case):
        ident = known_open_match(self.known, case)
        if ident:
            self.skipped[ident] += 1
            return
        self.counts["cases"] += 1
        self.counts["rule:" + case["rule"].split(":")[0]] += 1
        duet_out, pg_out = [], []
        failure = None
        for stmt in case["statements"]:
            self.counts["statements"] += 1
            out = run_statement(self.duet_conn, stmt, self.args.timeout)
            duet_out.append(out)
            if out.kind == "lost":
                time.sleep(0.5)
                if not self.duetd.alive():
                    out.message = f"duetd {exit_description(self.duetd.proc.returncode)}; " + out.message
                else:
                    out.message = "connection lost without a FATAL error, duetd still running; " + out.message
                failure = "crash"
                break
            if out.kind == "timeout":
                try:
                    self.duet_conn.get_cancel().cancel()
                except Exception:  # noqa: BLE001
                    pass
                if probe(self.duetd.port, self.args.probe):
                    self.timeouts.append((case["seed"], case["index"], case["rule"]))
                    self.counts["timeouts"] += 1
                    # The cancelled statement may still be on its way out: a fresh connection.
                    self.duet_conn.finish()
                    self.duet_conn = connect(self.duetd.port)
                    break
                failure = "hang"
                break
        log = self.duetd.new_log()
        if failure is None and SANITIZER_RE.search(log):
            failure = "sanitizer"
        if failure is None and not self.duetd.alive():
            failure = "crash"
        # PostgreSQL: the same statements, for the answers' classes (and the record).
        if self.pg_conn is not None:
            for stmt in case["statements"][:len(duet_out)]:
                out = run_statement(self.pg_conn, stmt, self.args.timeout + 5)
                pg_out.append(out)
                if out.kind in ("lost", "timeout"):
                    self.pg_conn.finish()
                    self.setup_pg()
                    break
            self.ensure_idle(self.pg_conn)
            if failure is None:
                self.compare(case, duet_out, pg_out)
        if failure:
            if failure == "hang":
                time.sleep(0.2)
                log += self.duetd.new_log()
            self.record(case, failure, duet_out, pg_out, log)
            self.restart_duet()
        else:
            if self.duet_conn.status != pq.ConnStatus.OK:
                self.duet_conn.finish()
                self.duet_conn = connect(self.duetd.port)
            self.ensure_idle(self.duet_conn)

    def compare(self, case, duet_out, pg_out):
        for i, (d, p) in enumerate(zip(duet_out, pg_out)):
            if "client" in (d.kind, p.kind) or "timeout" in (d.kind, p.kind):
                continue
            if d.cls() != p.cls():
                self.counts["mismatches"] += 1
                key = (case["rule"].split(":")[0], d.cls(), p.cls())
                m = self.mismatches[key]
                m["count"] += 1
                if m["example"] is None or len(case["statements"][i]["sql"]) < len(m["example"]["sql"]):
                    m["example"] = {"seed": case["seed"], "index": case["index"],
                                    "sql": case["statements"][i]["sql"][:400],
                                    "duetd": f"{d.sqlstate} {d.message}".strip()[:200],
                                    "postgres": f"{p.sqlstate} {p.message}".strip()[:200]}

    def record(self, case, failure, duet_out, pg_out, log):
        self.counts[failure] += 1
        base = os.path.join(self.args.out, f"{failure}-{case['seed']}-{case['index']}")
        m = SANITIZER_RE.search(log)
        if m:  # a sanitizer report (also what an ASan build prints as it dies): its beginning
            excerpt = log[max(0, m.start() - 200):m.start() + 6000].decode(errors="replace")
        else:
            excerpt = log[-6000:].decode(errors="replace")
        entry = dict(case, failure=failure, duetd=[o.as_dict() for o in duet_out],
                     postgres=[o.as_dict() for o in pg_out], log=excerpt)
        with open(base + ".json", "w") as f:
            json.dump(entry, f, indent=1)
        with open(base + ".sql", "w") as f:
            f.write(f"-- {failure}: seed {case['seed']} case {case['index']} rule {case['rule']}\n")
            f.write(f"-- rerun: tests/fuzz/sql_fuzzer.py --duetd DUETD --seed {case['seed']} --case {case['index']}\n")
            for stmt in case["statements"]:
                if stmt["proto"] != "simple":
                    f.write(f"-- extended protocol, parameters: {json.dumps(stmt['params'])[:2000]}\n")
                f.write(stmt["sql"] + ";\n")
        self.findings.append({"failure": failure, "seed": case["seed"], "index": case["index"],
                              "rule": case["rule"], "file": base + ".sql",
                              "detail": (duet_out[-1].message if duet_out else "")[:200]})
        print(f"sql_fuzzer: {failure.upper()} seed {case['seed']} case {case['index']} ({case['rule']}): "
              f"{base}.sql", flush=True)

    # -- the run --
    def run(self):
        a = self.args
        started = time.monotonic()
        indexes = a.case if a.case else None
        i = a.first_case
        try:
            if a.replay:
                for path in a.replay:
                    with open(path) as f:
                        case = json.load(f)
                    self.run_case({k: case[k] for k in ("seed", "index", "rule", "statements")})
                return
            while True:
                if indexes is not None:
                    if not indexes:
                        break
                    i = indexes.pop(0)
                elif (a.max_cases and self.counts["cases"] + sum(self.skipped.values()) >= a.max_cases) or \
                        time.monotonic() - started >= a.seconds:
                    break
                case = sqlgen.make_case(a.seed, i)
                self.run_case(case)
                i += 1
                if a.progress and self.counts["cases"] % a.progress == 0 and self.counts["cases"]:
                    print(f"sql_fuzzer: {self.counts['cases']} cases, {int(time.monotonic() - started)} s", flush=True)
        finally:
            self.counts["seconds"] = int(time.monotonic() - started)
            self.counts["next_case"] = i
            self.stop()

    def summary(self):
        c = self.counts
        lines = [f"sql_fuzzer: seed {self.args.seed}, cases {c['cases']} ({c['statements']} statements), "
                 f"{c['seconds']} s; crashes {c['crash']}, hangs {c['hang']}, sanitizer reports {c['sanitizer']}, "
                 f"responsive timeouts {c['timeouts']}, known-open skipped {sum(self.skipped.values())}, "
                 f"PostgreSQL class mismatches {c['mismatches']} ({len(self.mismatches)} kinds), "
                 f"duetd starts {self.duetd.starts}"]
        if self.skipped:
            lines.append("  skipped (known open): " + ", ".join(f"{k} x{v}" for k, v in sorted(self.skipped.items())))
        for f in self.findings:
            lines.append(f"  {f['failure'].upper()}: seed {f['seed']} case {f['index']} ({f['rule']}) {f['file']}")
        for seed, index, rule in self.timeouts:
            lines.append(f"  timeout (server answered afterwards): seed {seed} case {index} ({rule})")
        if self.mismatches:
            lines.append("  mismatches (rule, duetd class, postgres class): count, smallest example")
            for key, m in sorted(self.mismatches.items(), key=lambda kv: -kv[1]["count"]):
                ex = m["example"]
                lines.append(f"    {key[0]:16} duetd {key[1]:8} postgres {key[2]:8} x{m['count']}: "
                             f"case {ex['index']}: {ex['sql'][:120]!r} -> duetd {ex['duetd'][:80]!r} / "
                             f"postgres {ex['postgres'][:80]!r}")
        return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--duetd", required=True, help="duetd binary (ideally build-asan/bin/duetd)")
    ap.add_argument("--duetd-arg", action="append", default=None,
                    help="extra duetd flag (repeatable); default: --redo-log false")
    ap.add_argument("--pg-port", type=int, help="a running PostgreSQL 15; default: start tests/scratch_pg.py")
    ap.add_argument("--no-postgres", action="store_true", help="no comparison (crashes, hangs, sanitizers only)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--max-cases", type=int, default=0, help="0: no limit but --seconds")
    ap.add_argument("--first-case", type=int, default=0)
    ap.add_argument("--case", type=int, action="append", help="run only this case index (repeatable)")
    ap.add_argument("--replay", action="append", help="run a saved case file (JSON)")
    ap.add_argument("--timeout", type=float, default=10, help="seconds per statement")
    ap.add_argument("--probe", type=float, default=5, help="seconds a fresh SELECT 1 may take after a timeout")
    ap.add_argument("--known-open", default=os.path.join(HERE, "known_open.txt"),
                    help="skip list; '' runs everything")
    ap.add_argument("--out", default="/tmp/duet-sqlfuzz", help="findings, duetd.log, summary.json")
    ap.add_argument("--progress", type=int, default=0, help="print progress every N cases")
    args = ap.parse_args()
    if args.duetd_arg is None:
        args.duetd_arg = ["--redo-log", "false"]
    f = Fuzzer(args)
    f.start()
    try:
        f.run()
    except KeyboardInterrupt:
        pass
    text = f.summary()
    print(text, flush=True)
    with open(os.path.join(args.out, "summary.txt"), "w") as out:
        out.write(text + "\n")
    with open(os.path.join(args.out, "summary.json"), "w") as out:
        json.dump({"counts": dict(f.counts), "skipped": dict(f.skipped), "findings": f.findings,
                   "timeouts": f.timeouts,
                   "mismatches": [{"rule": k[0], "duetd": k[1], "postgres": k[2], **v}
                                  for k, v in f.mismatches.items()]}, out, indent=1)
    failed = f.counts["crash"] + f.counts["hang"] + f.counts["sanitizer"]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
