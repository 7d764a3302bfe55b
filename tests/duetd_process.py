"""Starting duetd for the Python suites that run servers of their own (tests/snapshots,
tests/logging, tests/protocol): on a free port of 127.0.0.1, returning once it accepts
connections; and running such a suite's tests against it."""
import subprocess
import tempfile
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


def run_tests(suite, tests, proc):
    """Runs (name, test) pairs in order, printing ok/FAIL (with the traceback) for each and
    then the suite's counts; stops once `proc`, the server they share, has died. Returns
    the exit status: 1 when a test failed or the server died."""
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
            return 1
    print(f"{suite}: {len(tests) - failures} passed, {failures} failed")
    return 1 if failures else 0


class Server:
    """A duetd of a suite's own on a temporary data directory, its output dropped."""

    def __init__(self, binary, prefix, *flags):
        self.data = tempfile.mkdtemp(prefix=prefix)
        self.proc, self.port = start(binary, self.data, *flags, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def connect(self, **kwargs):
        return psycopg.connect(f"host=127.0.0.1 port={self.port} dbname=postgres user=postgres "
                               "connect_timeout=10", **kwargs)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        subprocess.run(["rm", "-rf", self.data])
