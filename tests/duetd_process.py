"""Starting duetd for the Python suites that run servers of their own (tests/snapshots,
tests/logging, tests/protocol): on a free port of 127.0.0.1, returning once it accepts
connections; and running such a suite's tests against it."""
import subprocess
import time
import traceback

import psycopg

from scratch_pg import free_port


def start(binary, data_dir, *flags, timeout=60, **popen_args):
    """Starts `binary` on `data_dir` with `flags`; returns (process, port). Raises
    RuntimeError, with what duetd printed when its output is piped, if it does not start."""
    port = free_port()
    proc = subprocess.Popen([binary, "--listen", "127.0.0.1", "--port", str(port), "--data-dir", data_dir, *flags],
                            **popen_args)
    deadline = time.time() + timeout
    while True:
        try:
            psycopg.connect(f"host=127.0.0.1 port={port} dbname=postgres user=postgres connect_timeout=10").close()
            return proc, port
        except psycopg.OperationalError:
            if time.time() > deadline or proc.poll() is not None:
                if proc.poll() is None:
                    proc.kill()
                output = proc.communicate()[0] if proc.stdout else ""
                raise RuntimeError(f"duetd did not start: {output or ''}")
            time.sleep(0.1)


def run_tests(tests, proc):
    """Runs (name, test) pairs in order, printing ok/FAIL (with the traceback) for each;
    stops once `proc`, the server they share, has died. Returns (passed, failed), or None
    when the server died."""
    failures = 0
    for name, test in tests:
        try:
            test()
            print(f"ok   {name}")
        except Exception:  # noqa: BLE001 - reported, then the next test runs
            failures += 1
            print(f"FAIL {name}")
            traceback.print_exc()
        if proc.poll() is not None:
            print("FAIL the shared server died")
            return None
    return len(tests) - failures, failures
