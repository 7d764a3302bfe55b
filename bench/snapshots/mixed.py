#!/usr/bin/env python3
"""OLTP and OLAP at once (issue 4): the TPC-C driver alone, then the same with analytic
streams looping HyPer's top-10-customers query (its paper, section 5.2) and the CH-benCHmark
queries DuetDB runs today (Q1, Q6), on each server given, in one run.

For each server: OLTP tps alone and with the streams (and their ratio), each query's median
time idle and under load, how many statements the streams completed; on DuetDB also the
snapshots seen (fork times, ages at sampling, private memory). Every server must hold a
loaded TPC-C database (bench/tpcc: schema.sql, procedures.sql, duet_tpcc_load).

Usage: mixed.py --server NAME=PORT [--server NAME=PORT ...] [--dbname tpcc] [--warehouses W]
                [--seconds 20] [--connections 1] [--streams 1] [--driver build/bin/duet_tpcc_driver]
                [--duet-setting NAME=VALUE ...]
"""
import argparse
import json
import random
import statistics
import subprocess
import tempfile
import threading
import time

import psycopg

TOP10 = """SELECT o_c_id, sum(ol_amount) FROM orders JOIN order_line
  ON ol_o_id = o_id AND ol_w_id = o_w_id AND ol_d_id = o_d_id
  WHERE o_w_id = %(w)s AND o_d_id = %(d)s AND ol_w_id = %(w)s AND ol_d_id = %(d)s
  GROUP BY o_c_id ORDER BY sum(ol_amount) DESC LIMIT 10"""
CH_Q1 = """SELECT ol_number, sum(ol_quantity) AS sum_qty, sum(ol_amount) AS sum_amount,
  avg(ol_quantity) AS avg_qty, avg(ol_amount) AS avg_amount, count(*) AS count_order
  FROM order_line WHERE ol_delivery_d > '2007-01-02 00:00:00' GROUP BY ol_number ORDER BY ol_number"""
CH_Q6 = """SELECT sum(ol_amount) AS revenue FROM order_line
  WHERE ol_delivery_d >= '1999-01-01 00:00:00' AND ol_delivery_d < '2030-01-01 00:00:00'
  AND ol_quantity BETWEEN 1 AND 100000"""
QUERIES = {"top10": TOP10, "ch_q1": CH_Q1, "ch_q6": CH_Q6}


def connect(port, dbname):
    return psycopg.connect(f"host=127.0.0.1 port={port} dbname={dbname} user=postgres", autocommit=True)


def is_duet(conn):
    try:
        conn.execute("SHOW duet.snapshot_routing")
        return True
    except psycopg.Error:
        return False


def run_query(conn, name, warehouses, rnd):
    params = {"w": rnd.randint(1, warehouses), "d": rnd.randint(1, 10)}
    start = time.perf_counter()
    conn.execute(QUERIES[name], params if name == "top10" else None).fetchall()
    return time.perf_counter() - start


def idle_times(port, dbname, warehouses, repeat=5):
    rnd = random.Random(7)
    with connect(port, dbname) as conn:
        return {name: statistics.median(run_query(conn, name, warehouses, rnd) for _ in range(repeat))
                for name in QUERIES}


def driver(args, port):
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        subprocess.run([args.driver, "--host", "127.0.0.1", "--port", str(port), "--dbname", args.dbname,
                        "--connections", str(args.connections), "--duration", str(args.seconds),
                        "--warmup", "2", "--warehouses", str(args.warehouses), "--json", out.name],
                       check=True, stdout=subprocess.DEVNULL)
        return json.load(open(out.name))


def streams_during(args, port, duet):
    """Runs the driver while args.streams sessions loop the queries; returns the driver's
    report, per-query times, and DuetDB's snapshot samples."""
    stop = threading.Event()
    times = {name: [] for name in QUERIES}
    samples = []

    def stream(seed):
        rnd = random.Random(seed)
        with connect(port, args.dbname) as conn:
            for setting in args.duet_setting if duet else []:
                name, value = setting.split("=", 1)
                conn.execute(f"SET {name} = '{value}'")
            while not stop.is_set():
                for name in QUERIES:
                    if stop.is_set():
                        break
                    times[name].append(run_query(conn, name, args.warehouses, rnd))

    def sampler():
        with connect(port, args.dbname) as conn:
            while not stop.wait(0.5):
                samples.extend(conn.execute(
                    "SELECT pid, fork_ms, age_seconds, memory_bytes FROM duet_snapshots").fetchall())
    threads = [threading.Thread(target=stream, args=(i,), daemon=True) for i in range(args.streams)]
    if duet:
        threads.append(threading.Thread(target=sampler, daemon=True))
    for t in threads:
        t.start()
    report = driver(args, port)
    stop.set()
    for t in threads:
        t.join(120)
    return report, times, samples


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--server", action="append", required=True, help="NAME=PORT")
    p.add_argument("--dbname", default="tpcc")
    p.add_argument("--warehouses", type=int, default=1)
    p.add_argument("--seconds", type=int, default=20)
    p.add_argument("--connections", type=int, default=1)
    p.add_argument("--streams", type=int, default=1)
    p.add_argument("--driver", default="build/bin/duet_tpcc_driver")
    p.add_argument("--duet-setting", action="append", default=[],
                   help="NAME=VALUE set in DuetDB's stream sessions, e.g. max_parallel_workers_per_gather=0")
    args = p.parse_args()
    for spec in args.server:
        name, port = spec.split("=")
        with connect(port, args.dbname) as conn:
            duet = is_duet(conn)
        idle = idle_times(port, args.dbname, args.warehouses)
        alone = driver(args, port)
        mixed, times, samples = streams_during(args, port, duet)
        tps_alone, tps_mixed = alone["tps"], mixed["tps"]
        print(f"## {name} (W={args.warehouses}, {args.connections} OLTP connections, "
              f"{args.streams} analytic streams, {args.seconds} s)")
        print(f"OLTP tps alone {tps_alone:.0f}, with streams {tps_mixed:.0f}: "
              f"{100 * tps_mixed / tps_alone:.0f}%")
        for q in QUERIES:
            under = statistics.median(times[q]) if times[q] else float("nan")
            print(f"{q}: idle {1000 * idle[q]:.1f} ms, under load {1000 * under:.1f} ms "
                  f"({len(times[q])} runs)")
        if duet and samples:
            forks = {pid: fork for pid, fork, _, _ in samples}
            ages = [age for _, _, age, _ in samples]
            memory = max(m for _, _, _, m in samples)
            print(f"snapshots: {len(forks)} forked, fork ms median {statistics.median(forks.values()):.2f} "
                  f"max {max(forks.values()):.2f}; age at sampling median {statistics.median(ages):.2f} s; "
                  f"private memory max {memory / 2**20:.1f} MiB")


if __name__ == "__main__":
    main()
