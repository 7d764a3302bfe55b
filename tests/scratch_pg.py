#!/usr/bin/env python3
"""Start and stop a throw-away PostgreSQL 15 server, used as the reference that every
wire-level test is validated against (regenerate.py, scripts/test.sh with
DUET_TEST_AGAINST_POSTGRES=1, bench/pgbench_compare.sh).

The cluster is created with initdb --locale=C -E UTF8 -U postgres and trust auth, runs with
fsync=off (fsync=on with --fsync: a setting on the command line cannot be changed by ALTER
SYSTEM) and TimeZone=UTC, listens on 127.0.0.1 on a free port and keeps its socket in the
scratch directory, so it never collides with a system PostgreSQL. PostgreSQL refuses to run
as root, so when we are root the server runs as the 'postgres' OS user.

Command line:
  scratch_pg.py start [--fsync] -> creates a scratch directory under /tmp, starts the server
                                   there, prints "DIR PORT"
  scratch_pg.py stop DIR        -> stops the server and removes DIR
"""
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile

PG_BIN = "/usr/lib/postgresql/15/bin"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _as_pg_user(cmd):
    """Prefix cmd so it runs as the 'postgres' OS user when we are root."""
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--"] + cmd
    return cmd


def start(fsync: bool = False) -> tuple[str, int]:
    """Create a fresh cluster in a new scratch directory, start it, return (directory, port)."""
    # Created directly under /tmp so that the postgres user can reach it when we are root.
    directory = tempfile.mkdtemp(prefix="duet-pg-", dir="/tmp")
    if os.geteuid() == 0:
        pw = pwd.getpwnam("postgres")
        os.chown(directory, pw.pw_uid, pw.pw_gid)
    try:
        return directory, _init_and_start(directory, fsync)
    except BaseException:
        stop(directory)
        raise


def _init_and_start(directory: str, fsync: bool) -> int:
    data = os.path.join(directory, "data")
    subprocess.run(
        _as_pg_user([f"{PG_BIN}/initdb", "-D", data, "--locale=C", "-E", "UTF8",
                     "-U", "postgres", "--auth=trust", "--no-sync"]),
        check=True, stdout=subprocess.DEVNULL)
    port = free_port()
    options = (f"-c fsync={'on' if fsync else 'off'} -c TimeZone=UTC -c port={port} "
               f"-c listen_addresses=127.0.0.1 -c unix_socket_directories={directory}")
    subprocess.run(
        _as_pg_user([f"{PG_BIN}/pg_ctl", "-D", data, "-w", "-t", "60",
                     "-l", os.path.join(directory, "server.log"), "-o", options, "start"]),
        check=True, stdout=subprocess.DEVNULL)
    return port


def stop(directory: str) -> None:
    data = os.path.join(directory, "data")
    if os.path.exists(os.path.join(data, "postmaster.pid")):
        subprocess.run(_as_pg_user([f"{PG_BIN}/pg_ctl", "-D", data, "-m", "immediate", "-w", "stop"]),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    shutil.rmtree(directory, ignore_errors=True)


def main() -> int:
    if sys.argv[1:2] == ["start"] and sys.argv[2:] in ([], ["--fsync"]):
        directory, port = start(fsync=sys.argv[2:] == ["--fsync"])
        print(directory, port)
    elif sys.argv[1:2] == ["stop"] and len(sys.argv) == 3:
        stop(sys.argv[2])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
