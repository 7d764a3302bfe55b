#!/usr/bin/env python3
"""Recovery at start (docs/logging.md, "Recovery"), the cases crash_test.py does not kill
its way into:
  - a log segment with a damaged header, or cut to 0 bytes, stops the start with a FATAL
    message and a non-zero exit, and no file is changed: restored, it brings everything back;
  - a start that cannot bind its port after a recovery that replayed transactions (so a
    checkpoint is queued on the executor) exits 1 with a message, not a crash; run with the
    ASan duetd, no sanitizer report.
Usage: recovery_test.py DUETD_BINARY
"""
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

import psycopg

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import duetd_process  # noqa: E402 - tests/, for the shared server start
from scratch_pg import free_port  # noqa: E402

DUETD = sys.argv[1]
NO_TIMED_CHECKPOINTS = ("--checkpoint-timeout", "3600")
SANITIZER_REPORT = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:")


class Server:
    def __init__(self, data, *flags):
        self.proc, self.port = duetd_process.start(DUETD, data, *NO_TIMED_CHECKPOINTS, *flags, timeout=120,
                                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

    def connect(self, **settings):
        options = " ".join(f"-c {k}={v}" for k, v in settings.items())
        return psycopg.connect(f"host=127.0.0.1 port={self.port} dbname=postgres user=postgres",
                               options=options, autocommit=True)

    def stop(self):
        """SIGTERM; returns what duetd printed."""
        self.proc.terminate()
        output = self.proc.communicate(timeout=60)[0]
        assert self.proc.returncode == 0, f"duetd exited with {self.proc.returncode}:\n{output}"
        assert not any(s in output for s in SANITIZER_REPORT), output
        return output


def start_failing(data, port=None):
    """Runs duetd where it must not start: returns (exit status, output)."""
    proc = subprocess.Popen([DUETD, "--listen", "127.0.0.1", "--port", str(port or free_port()), "--data-dir", data,
                             *NO_TIMED_CHECKPOINTS], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        output = proc.communicate(timeout=60)[0]
    except subprocess.TimeoutExpired:
        proc.kill()
        raise AssertionError("duetd started where it must not:\n" + proc.communicate()[0])
    return proc.returncode, output


def files_of(data):
    """Every file of the data directory with its bytes."""
    result = {}
    for root, _, names in os.walk(data):
        for name in names:
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                result[os.path.relpath(path, data)] = f.read()
    return result


def segments(data):
    log = os.path.join(data, "log")
    return [os.path.join(log, f) for f in sorted(os.listdir(log)) if f.endswith(".log")]


def archives(data):
    path = os.path.join(data, "archive")
    return sorted(f for f in os.listdir(path) if f.endswith(".archive")) if os.path.isdir(path) else []


def rows(server, query):
    """The rows as the text the server sends (no client-side parsing), default settings."""
    conn = server.connect()
    result = conn.pgconn.exec_(query.encode())
    assert result.status == psycopg.pq.ExecStatus.TUPLES_OK, result.error_message
    out = [[result.get_value(r, c) for c in range(result.nfields)] for r in range(result.ntuples)]
    conn.close()
    return out


# ---- a damaged log segment

def damaged_segment():
    data = tempfile.mkdtemp(prefix="duet-recovery-")
    try:
        server = Server(data)
        conn = server.connect()
        conn.execute("CREATE TABLE t (x int PRIMARY KEY)")
        for i in range(10):
            conn.execute(f"INSERT INTO t VALUES ({i})")
        conn.close()
        server.stop()
        [segment] = segments(data)
        with open(segment, "rb") as f:
            content = f.read()
        for what, damaged in [("cut to 0 bytes", b""), ("bad header", b"X" + content[1:]),
                              ("cut inside its header", content[:10])]:
            with open(segment, "wb") as f:
                f.write(damaged)
            before = files_of(data)
            status, output = start_failing(data)
            assert status == 1, f"{what}: duetd exited with {status}:\n{output}"
            assert "FATAL" in output and os.path.basename(segment) in output, f"{what}:\n{output}"
            assert not any(s in output for s in SANITIZER_REPORT), output
            assert files_of(data) == before, f"{what}: a refused start changed the data directory"
        with open(segment, "wb") as f:
            f.write(content)
        server = Server(data)
        assert rows(server, "SELECT x FROM t ORDER BY x") == [[str(i).encode()] for i in range(10)]
        server.stop()
        print("damaged log segment: the start stopped with FATAL and changed nothing; restored, all there")
    finally:
        shutil.rmtree(data)


# ---- the port is taken after a recovery that replayed

def port_taken():
    data = tempfile.mkdtemp(prefix="duet-recovery-")
    try:
        for attempt in range(3):
            server = Server(data)
            conn = server.connect()
            if attempt == 0:
                conn.execute("CREATE TABLE t (x int)")
            conn.execute(f"INSERT INTO t VALUES ({attempt})")
            conn.close()
            server.stop()  # no archive: the next start replays, then queues a checkpoint
            holder = socket.socket()
            holder.bind(("127.0.0.1", 0))
            holder.listen()
            try:
                status, output = start_failing(data, holder.getsockname()[1])
            finally:
                holder.close()
            assert status == 1, f"duetd exited with {status}:\n{output}"
            assert "replayed" in output and "FATAL" in output and "already in use" in output, output
            assert not any(s in output for s in SANITIZER_REPORT), output
        server = Server(data)
        assert rows(server, "SELECT x FROM t ORDER BY x") == [[b"0"], [b"1"], [b"2"]]
        server.stop()
        print("port taken after a replay: duetd exited 1 with a message, three times; data intact")
    finally:
        shutil.rmtree(data)


def main():
    started = time.time()
    damaged_segment()
    port_taken()
    print(f"recovery: all passed in {time.time() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
