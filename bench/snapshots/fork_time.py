#!/usr/bin/env python3
"""Fork time of DuetDB's snapshots on a loaded server: forces N fresh snapshots (a commit,
then a statement that must read a snapshot holding it) and prints the median and maximum
fork time from pg_catalog.duet_snapshots, with the server's resident memory. With an
INTERVAL (seconds), the forks are that far apart (as duet.snapshot_max_age asks under a
steady analytic stream), else back to back; then it also prints the most private memory
the live snapshots held together, sampled before each fork.
Usage: fork_time.py PORT [DBNAME] [N] [INTERVAL]
"""
import statistics
import sys
import time

import psycopg

port = sys.argv[1]
dbname = sys.argv[2] if len(sys.argv) > 2 else "tpcc"
n = int(sys.argv[3]) if len(sys.argv) > 3 else 10
interval = float(sys.argv[4]) if len(sys.argv) > 4 else 0.0
with psycopg.connect(f"host=127.0.0.1 port={port} dbname={dbname} user=postgres", autocommit=True) as c:
    c.execute("CREATE TABLE fork_probe (x int)")
    c.execute("SET duet.snapshot_routing = always")
    times = []
    held = []
    for i in range(n):
        if i and interval:
            time.sleep(interval)
            held.append(c.execute("SELECT coalesce(sum(memory_bytes), 0) FROM duet_snapshots").fetchone()[0])
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
held_text = f"; snapshots held at most {max(held) / 2**20:.0f} MiB" if held else ""
print(f"fork ms over {n} forks: median {statistics.median(times):.2f}, max {max(times):.2f}; server RSS {rss}"
      + held_text)
