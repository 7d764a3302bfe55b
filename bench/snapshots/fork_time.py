#!/usr/bin/env python3
"""Fork time of DuetDB's snapshots on a loaded server: forces N fresh snapshots (a commit,
then a statement that must read a snapshot holding it) and prints the median and maximum
fork time from pg_catalog.duet_snapshots, with the server's resident memory.
Usage: fork_time.py PORT [DBNAME] [N]
"""
import statistics
import sys

import psycopg

port = sys.argv[1]
dbname = sys.argv[2] if len(sys.argv) > 2 else "tpcc"
n = int(sys.argv[3]) if len(sys.argv) > 3 else 10
with psycopg.connect(f"host=127.0.0.1 port={port} dbname={dbname} user=postgres", autocommit=True) as c:
    c.execute("CREATE TABLE fork_probe (x int)")
    c.execute("SET duet.snapshot_routing = always")
    times = []
    for i in range(n):
        c.execute("INSERT INTO fork_probe VALUES (%s)", (i,))
        c.execute("SELECT count(*) FROM fork_probe").fetchone()
        times.append(c.execute("SELECT fork_ms FROM duet_snapshots WHERE NOT ending "
                               "ORDER BY forked_at DESC LIMIT 1").fetchone()[0])
    c.execute("DROP TABLE fork_probe")
    pid = None
rss = "?"
import subprocess
out = subprocess.run(["bash", "-c", f"ps -o rss= -p $(pgrep -f 'duetd.*--port {port}' | head -1)"],
                     capture_output=True, text=True).stdout.strip()
if out:
    rss = f"{int(out) / 1024:.0f} MiB"
print(f"fork ms over {n} forks: median {statistics.median(times):.2f}, max {max(times):.2f}; server RSS {rss}")
