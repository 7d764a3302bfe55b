#!/usr/bin/env python3
"""Out of file descriptors: duetd started with a low RLIMIT_NOFILE gets more connections
than it can accept. Its accept loop must back off rather than spin (accept fails at once
while the connection waits in the backlog), say so once, keep serving the connections it
has, and accept again once descriptors are free.
Usage: fd_limit_test.py DUETD_BINARY
"""
import os
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time

import psycopg

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import duetd_process  # noqa: E402 - tests/, for the shared server start

DUETD = sys.argv[1]
FD_LIMIT = 64
CLIENTS = 100  # more than FD_LIMIT: some wait in the backlog, unaccepted
WATCH_SECONDS = 2.0


def low_fd_limit():
    resource.setrlimit(resource.RLIMIT_NOFILE, (FD_LIMIT, FD_LIMIT))


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def main():
    data = tempfile.mkdtemp(prefix="duet-fdlimit-")
    proc = None
    clients = []
    try:
        # No snapshots or redo log: fewer descriptors of the server's own, nothing but the
        # accept loop to watch.
        proc, port = duetd_process.start(DUETD, data, "--redo-log", "false", "--snapshots", "false",
                                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                         preexec_fn=low_fd_limit)
        dsn = f"host=127.0.0.1 port={port} dbname=postgres user=postgres connect_timeout=10"
        kept = psycopg.connect(dsn, autocommit=True)
        for _ in range(CLIENTS):
            clients.append(socket.create_connection(("127.0.0.1", port)))  # the kernel completes the handshake
        time.sleep(0.5)  # the server accepts what it can
        # Spinning, the accept loop takes a whole core (less on a loaded machine); backing
        # off, it wakes 10 times a second.
        before = cpu_seconds(proc.pid)
        time.sleep(WATCH_SECONDS)
        spent = cpu_seconds(proc.pid) - before
        assert spent < 0.1 * WATCH_SECONDS, f"duetd used {spent:.2f} s of CPU in {WATCH_SECONDS} s while out of descriptors"
        assert kept.execute("SELECT 41 + 1").fetchone() == (42,), "an existing connection stopped being served"
        for c in clients:
            c.close()
        clients.clear()
        deadline = time.time() + 10
        while True:
            try:
                fresh = psycopg.connect(dsn, autocommit=True)
                break
            except psycopg.OperationalError:
                assert time.time() < deadline, "no new connection was accepted once descriptors were free"
                time.sleep(0.1)
        assert fresh.execute("SELECT 1").fetchone() == (1,)
        fresh.close()
        kept.close()
        proc.terminate()
        output = proc.communicate(timeout=60)[0]
        proc = None
        # Once per run of failures: the backlog drained after the clients closed may run out
        # again for a moment, but a message per failed accept would be thousands.
        failures = output.count("could not accept new connection")
        assert 1 <= failures <= 5, f"the accept failure was reported {failures} times:\n{output[-2000:]}"
        print(f"fd limit: {spent:.2f} s of CPU in {WATCH_SECONDS} s out of descriptors, "
              "existing connection served, new ones accepted after")
        return 0
    finally:
        for c in clients:
            c.close()
        if proc is not None:
            proc.kill()
            proc.wait()
        shutil.rmtree(data)


if __name__ == "__main__":
    sys.exit(main())
