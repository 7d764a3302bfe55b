#!/usr/bin/env python3
"""What a snapshot costs the OLTP side after the fork (issue 4, part 4), on a DuetDB loaded
with TPC-C (bench/tpcc). Three phases of the TPC-C driver, same run:

  alone      the driver with no snapshot alive;
  held       one snapshot held open by a READ ONLY block while the driver runs: every page
             the executor writes first after the fork is copied, and the copy stays with the
             parent while the snapshot keeps the old page, so the snapshot's private memory
             (Private_Clean + Private_Dirty, pg_catalog.duet_snapshots.memory_bytes) grows by
             exactly the bytes copied. Sampled once a second: copied pages per second;
             with transparent huge pages a first write may copy 2 MiB instead of 4 KiB;
  per_second the driver while another session forces a fresh snapshot every second (a
             commit, then a read that must see it), as duet.snapshot_max_age = 1 s does
             under a steady analytic stream.

Prints each phase's tps and the ratios to 'alone', and the copy rate.
Usage: cow_rate.py PORT [--dbname tpcc] [--seconds 10] [--connections 1]
                        [--driver build/bin/duet_tpcc_driver]
"""
import argparse
import json
import statistics
import subprocess
import tempfile
import threading
import time

import psycopg

PAGE = 4096


def connect(args):
    return psycopg.connect(f"host=127.0.0.1 port={args.port} dbname={args.dbname} user=postgres",
                           autocommit=True)


def driver(args):
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        subprocess.run([args.driver, "--host", "127.0.0.1", "--port", str(args.port), "--dbname", args.dbname,
                        "--connections", str(args.connections), "--duration", str(args.seconds),
                        "--warmup", "2", "--json", out.name], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return json.load(open(out.name))["tps"]


def in_background(work):
    result = {}
    thread = threading.Thread(target=lambda: result.update(value=work()))
    thread.start()
    return thread, result


def held(args):
    """Holds one snapshot open while the driver runs; samples its private memory."""
    with connect(args) as holder, connect(args) as watcher:
        holder.execute("BEGIN READ ONLY")
        holder.execute("SELECT count(*) FROM warehouse").fetchone()
        pid = watcher.execute("SELECT pid FROM duet_snapshots WHERE NOT ending "
                              "ORDER BY forked_at DESC LIMIT 1").fetchone()[0]

        def memory():
            row = watcher.execute("SELECT memory_bytes FROM duet_snapshots WHERE pid = %s", (pid,)).fetchone()
            return row[0]

        thread, result = in_background(lambda: driver(args))
        samples = [(time.monotonic(), memory())]
        while thread.is_alive():
            time.sleep(1)
            samples.append((time.monotonic(), memory()))
        thread.join()
        holder.execute("COMMIT")
    rates = [(b1 - b0) / (t1 - t0) / PAGE for (t0, b0), (t1, b1) in zip(samples, samples[1:])]
    # The driver warms up for 2 s before measuring; its first samples belong to the warm-up.
    return result["value"], rates, samples[-1][1]


def per_second(args):
    """The driver while a fresh snapshot is forced every second; returns tps and fork times."""
    stop = threading.Event()
    forks = []

    def forcer():
        with connect(args) as c:
            c.execute("CREATE TABLE IF NOT EXISTS cow_probe (x int)")
            c.execute("SET duet.snapshot_routing = always")
            i = 0
            while not stop.is_set():
                c.execute("INSERT INTO cow_probe VALUES (%s)", (i,))
                c.execute("SELECT count(*) FROM cow_probe").fetchone()
                forks.append(c.execute("SELECT fork_ms FROM duet_snapshots WHERE NOT ending "
                                       "ORDER BY forked_at DESC LIMIT 1").fetchone()[0])
                i += 1
                stop.wait(1)
            c.execute("DROP TABLE cow_probe")

    thread = threading.Thread(target=forcer)
    thread.start()
    tps = driver(args)
    stop.set()
    thread.join()
    return tps, forks


def main():
    p = argparse.ArgumentParser()
    p.add_argument("port")
    p.add_argument("--dbname", default="tpcc")
    p.add_argument("--seconds", type=float, default=10)
    p.add_argument("--connections", type=int, default=1)
    p.add_argument("--driver", default="build/bin/duet_tpcc_driver")
    args = p.parse_args()

    alone = driver(args)
    held_tps, rates, final_bytes = held(args)
    forced_tps, forks = per_second(args)
    steady = rates[2:] or rates
    print(f"alone:      {alone:,.0f} tps")
    print(f"held:       {held_tps:,.0f} tps ({held_tps / alone:.0%}); pages copied per second: "
          f"first second {rates[0]:,.0f}, then median {statistics.median(steady):,.0f} "
          f"(max {max(steady):,.0f}); snapshot private memory at the end {final_bytes / 2**20:.0f} MiB")
    print(f"per_second: {forced_tps:,.0f} tps ({forced_tps / alone:.0%}); {len(forks)} forks, "
          f"fork ms median {statistics.median(forks):.2f} (max {max(forks):.2f})")


if __name__ == "__main__":
    main()
