#!/usr/bin/env python3
"""Durability (docs/logging.md): duetd is killed with SIGKILL at random moments while
clients commit, then started again on the same data directory, many times over. After
each restart:
  - every commit a client saw acknowledged is there (inserts with unique ids, from several
    connections, over the simple and the extended protocol);
  - no transaction is half there: transfers between accounts, each a block of two
    updates and an insert into a journal, leave the total unchanged, and the journal
    holds exactly the transfers whose balances moved (each journal row's transfer is
    applied, and the balances add up to the journal);
  - TPC-C (W = 1, bench/tpcc), driven at the same time by duet_tpcc_driver, meets its
    consistency conditions 1-4 (bench/tpcc/check.py), and after the clean stop its tables
    are exactly what they were (now() included);
  - work goes on: the next round appends to what was recovered.
Archives are written all along (--max-wal-size of a few MB, and CHECKPOINTs from a client
at random moments), so restarts load one and replay the log after it.
A clean stop (SIGTERM) loses nothing either. A redo log that cannot be written stops the
server (its clients are disconnected, none is told its commit succeeded), and the next start
recovers what was durable. A damaged newest archive falls back to the one before it (and
with both damaged, to the whole log); a torn log tail and a damaged last record cut the log
there, and what comes after is appended cleanly.
Usage: crash_test.py DUETD_BINARY [ROUNDS]
"""
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time

import psycopg

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import duetd_process  # noqa: E402 - tests/, for the shared server start

DUETD = sys.argv[1]
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 8
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BIN = os.path.dirname(os.path.abspath(DUETD))  # duet_tpcc_load and duet_tpcc_driver beside duetd
ACCOUNTS = 20
# Archives every few MB of log: several per round; segments of 1 MB, so that archived ones
# are kept as spares and reused (the writer's end markers then stand before old records).
ARCHIVE_OFTEN = ("--max-wal-size", "4", "--wal-segment-size", "1")
START_BALANCE = 1000


class Server:
    def __init__(self, data, *flags):
        self.data = data
        self.proc, self.port = duetd_process.start(DUETD, data, *flags, timeout=120, stdout=subprocess.PIPE,
                                                   stderr=subprocess.STDOUT, text=True)

    def connect(self):
        return psycopg.connect(f"host=127.0.0.1 port={self.port} dbname=postgres user=postgres "
                               "connect_timeout=10", autocommit=True)

    def kill(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def terminate(self):
        self.proc.terminate()
        self.proc.wait(60)


def inserter(server, worker, stop, acked, attempts, prepared):
    """Inserts ids worker, worker + 100, ... (never one tried before, committed or not);
    records each one whose commit came back."""
    try:
        conn = server.connect()
        while not stop.is_set():
            attempts[worker] += 1
            value = worker + 100 * attempts[worker]
            if prepared:
                conn.execute("INSERT INTO acked (id, note) VALUES (%s, %s)", (value, "p"), prepare=True)
            else:
                conn.execute(f"INSERT INTO acked (id, note) VALUES ({value}, 's')")
            acked[worker].append(value)
    except psycopg.Error:
        pass  # the server died under us: what was acknowledged is recorded


def transferrer(server, seed, stop):
    rnd = random.Random(seed)
    try:
        conn = server.connect()
        while not stop.is_set():
            a, b = rnd.sample(range(ACCOUNTS), 2)
            amount = rnd.randint(1, 50)
            with conn.transaction():
                conn.execute("UPDATE accounts SET balance = balance - %s WHERE id = %s", (amount, a))
                conn.execute("UPDATE accounts SET balance = balance + %s WHERE id = %s", (amount, b))
                conn.execute("INSERT INTO journal (src, dst, amount) VALUES (%s, %s, %s)", (a, b, amount))
    except psycopg.Error:
        pass


def checkpointer(server, seed, stop):
    """CHECKPOINT now and then; each answers once its archive is in place."""
    rnd = random.Random(seed)
    try:
        conn = server.connect()
        while not stop.wait(rnd.uniform(0.1, 0.6)):
            conn.execute("CHECKPOINT")
    except psycopg.Error:
        pass


def archives(data):
    path = os.path.join(data, "archive")
    return sorted(f for f in os.listdir(path) if f.endswith(".archive")) if os.path.isdir(path) else []


def load_tpcc(server):
    psql = ["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", str(server.port), "-U", "postgres"]
    subprocess.run(psql + ["-d", "postgres", "-c", "CREATE DATABASE tpcc"], check=True)
    subprocess.run(psql + ["-d", "tpcc", "-f", os.path.join(ROOT, "bench/tpcc/schema.sql"),
                           "-f", os.path.join(ROOT, "bench/tpcc/procedures.sql")], check=True)
    subprocess.run([os.path.join(BIN, "duet_tpcc_load"), "--host", "127.0.0.1", "--port", str(server.port),
                    "--dbname", "tpcc", "--warehouses", "1", "--threads", "2"],
                   check=True, stdout=subprocess.DEVNULL)


def tpcc_driver(server):
    """The TPC-C mix on two connections until the server dies (or the round ends)."""
    return subprocess.Popen([os.path.join(BIN, "duet_tpcc_driver"), "--host", "127.0.0.1",
                             "--port", str(server.port), "--dbname", "tpcc", "--connections", "2",
                             "--duration", "3600", "--warmup", "0"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def check_tpcc(server):
    result = subprocess.run([sys.executable, os.path.join(ROOT, "bench/tpcc/check.py"), "--host", "127.0.0.1",
                             "--port", str(server.port), "--dbname", "tpcc"], capture_output=True, text=True)
    assert result.returncode == 0, "TPC-C consistency broken after recovery:\n" + result.stdout + result.stderr


# What a replay must give back exactly, not just consistently: many states meet the
# consistency conditions, and one whose now() (o_entry_d, h_date) or amounts came out
# different on replay would too.
FINGERPRINT = ["SELECT count(*), sum(ol_amount), sum(ol_i_id), sum(ol_quantity) FROM order_line",
               "SELECT count(*), sum(o_ol_cnt), sum(o_c_id), max(o_entry_d), min(o_entry_d) FROM orders",
               "SELECT sum(s_quantity), sum(s_ytd), sum(s_order_cnt) FROM stock",
               "SELECT sum(c_balance), sum(c_payment_cnt), sum(c_delivery_cnt) FROM customer",
               "SELECT count(*), sum(h_amount), max(h_date) FROM history"]


def tpcc_fingerprint(server):
    conn = psycopg.connect(f"host=127.0.0.1 port={server.port} dbname=tpcc user=postgres", autocommit=True)
    rows = [conn.execute(q).fetchone() for q in FINGERPRINT]
    conn.close()
    return rows


def check(server, acked):
    conn = server.connect()
    present = {row[0] for row in conn.execute("SELECT id FROM acked")}
    missing = [v for values in acked.values() for v in values if v not in present]
    assert not missing, f"{len(missing)} acknowledged inserts lost, e.g. {missing[:5]}"
    total = conn.execute("SELECT sum(balance) FROM accounts").fetchone()[0]
    assert total == ACCOUNTS * START_BALANCE, f"total {total}: a transfer is half there"
    # The journal says how each balance moved: every row's transfer is applied, no other.
    moved = {i: START_BALANCE for i in range(ACCOUNTS)}
    for src, dst, amount in conn.execute("SELECT src, dst, amount FROM journal"):
        moved[src] -= amount
        moved[dst] += amount
    balances = dict(conn.execute("SELECT id, balance FROM accounts").fetchall())
    assert balances == moved, "balances and journal disagree: a transfer is half there"
    journal = conn.execute("SELECT count(*) FROM journal").fetchone()[0]
    conn.close()
    return len(present), journal


class Scratch:
    """A data directory of its own and the server on it (one at a time, the latest started);
    the server is killed and the directory removed when the with block ends."""

    def __init__(self):
        self.data = tempfile.mkdtemp(prefix="duet-crash-")
        self.server = None

    def start(self, *flags):
        self.server = Server(self.data, *flags)
        return self.server

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.server and self.server.proc.poll() is None:
            self.server.kill()
        subprocess.run(["rm", "-rf", self.data])


def failed_log():
    with Scratch() as scratch:
        server = scratch.start()
        conn = server.connect()
        # The log opens its first segment file with the first commit: in a directory now gone.
        subprocess.run(["rm", "-rf", os.path.join(scratch.data, "log")], check=True)
        try:
            conn.execute("CREATE TABLE lost (x int)")
            raise AssertionError("a commit was acknowledged although the log could not be written")
        except psycopg.OperationalError:
            pass  # disconnected: the server stopped
        assert server.proc.wait(30) == 1, "duetd did not stop with an error when its log failed"
        server = scratch.start()  # starts again, on an empty log
        conn = server.connect()
        try:
            conn.execute("SELECT * FROM lost")
            raise AssertionError("an unacknowledged CREATE TABLE came back")
        except psycopg.errors.UndefinedTable:
            pass
        server.terminate()
        print("failed log: the server stopped, nothing unacknowledged came back")


def flip_byte(path, offset):
    with open(path, "r+b") as f:
        f.seek(offset)
        byte = f.read(1)
        f.seek(offset)
        f.write(bytes([byte[0] ^ 0x20]))


def values(server, table="t"):
    conn = server.connect()
    rows = [r[0] for r in conn.execute(f"SELECT x FROM {table} ORDER BY x")]
    conn.close()
    return rows


def damaged_archives():
    """The newest archive damaged: the one before it and the log after that bring
    everything back; both damaged: the whole log does."""
    with Scratch() as scratch:
        server = scratch.start()
        conn = server.connect()
        conn.execute("CREATE TABLE t (x int PRIMARY KEY)")
        for batch in range(3):
            for i in range(10):
                conn.execute(f"INSERT INTO t VALUES ({batch * 10 + i})")
            if batch < 2:
                conn.execute("CHECKPOINT")
        conn.close()
        server.kill()
        names = archives(scratch.data)
        assert len(names) == 2, f"two CHECKPOINTs wrote {names}"
        newest = os.path.join(scratch.data, "archive", names[-1])
        flip_byte(newest, os.path.getsize(newest) // 2)
        server = scratch.start()
        assert values(server) == list(range(30)), "the fallback to the older archive lost rows"
        assert os.path.exists(newest + ".damaged"), "the damaged archive was not set aside"
        assert names[0] in archives(scratch.data) and names[1] not in archives(scratch.data)
        server.kill()  # maybe while it writes the archive that ends a recovery
        for name in archives(scratch.data):
            path = os.path.join(scratch.data, "archive", name)
            flip_byte(path, os.path.getsize(path) - 3)
        server = scratch.start()
        assert values(server) == list(range(30)), "the whole log did not bring everything back"
        # Each CHECKPOINT answers once its writer also removed what it made unneeded: two
        # archives stay, however many were written.
        conn = server.connect()
        for i in range(3):
            conn.execute(f"INSERT INTO t VALUES ({100 + i})")
            conn.execute("CHECKPOINT")
        conn.close()
        assert len(archives(scratch.data)) == 2, f"archives kept: {archives(scratch.data)}"
        server.terminate()
        print("damaged archives: the one before, then the whole log, brought everything back; two kept")


def insert_and_stop(server, value):
    conn = server.connect()
    conn.execute(f"INSERT INTO t VALUES ({value})")
    conn.close()
    server.terminate()


def records_end(segment):
    """Where the records of a log segment end (docs/logging.md, "Redo log format"): at the
    end marker, a record header of zeros, or at the file's end."""
    with open(segment, "rb") as f:
        content = f.read()
    pos = 16  # the segment header
    while pos + 16 <= len(content) and content[pos:pos + 16] != bytes(16):
        pos += 16 + int.from_bytes(content[pos:pos + 4], "little")
    return pos


def damaged_log():
    """A torn tail (half a record) is cut and appended after; a damaged last record loses
    that transaction only, and the log goes on cleanly after it."""
    flags = ("--checkpoint-timeout", "3600")  # no archive: every restart replays the whole log
    with Scratch() as scratch:
        server = scratch.start(*flags)
        conn = server.connect()
        conn.execute("CREATE TABLE t (x int PRIMARY KEY)")
        for i in range(20):
            conn.execute(f"INSERT INTO t VALUES ({i})")
        conn.close()
        server.terminate()
        log = os.path.join(scratch.data, "log")
        segment = os.path.join(log, sorted(os.listdir(log))[-1])
        with open(segment, "r+b") as f:
            # Over the end marker (the file's zero-filled rest follows): a length, then less
            # than it promises.
            f.seek(records_end(segment))
            f.write(b"\x40\x00\x00\x00partial record")
        server = scratch.start(*flags)
        assert values(server) == list(range(20)), "a torn tail cost committed rows"
        insert_and_stop(server, 100)
        segment = os.path.join(log, sorted(os.listdir(log))[-1])
        with open(segment, "rb") as f:
            content = f.read()
        flip_byte(segment, content.rindex(b"VALUES (100)") + 8)
        server = scratch.start(*flags)
        assert values(server) == list(range(20)), "a damaged record was replayed, or more was lost"
        insert_and_stop(server, 200)
        server = scratch.start(*flags)
        assert values(server) == list(range(20)) + [200], "the log did not go on cleanly after the cut"
        server.terminate()
        print("damaged log: torn tail and damaged record cut cleanly, later commits kept")


def main():
    acked = {w: [] for w in range(4)}
    attempts = {w: 0 for w in range(4)}
    with Scratch() as scratch:
        server = scratch.start(*ARCHIVE_OFTEN)
        conn = server.connect()
        conn.execute("CREATE TABLE acked (id bigint PRIMARY KEY, note text)")
        conn.execute("CREATE TABLE accounts (id int PRIMARY KEY, balance int NOT NULL)")
        conn.execute("CREATE TABLE journal (src int, dst int, amount int)")
        with conn.transaction():
            for i in range(ACCOUNTS):
                conn.execute("INSERT INTO accounts VALUES (%s, %s)", (i, START_BALANCE))
        conn.close()
        load_tpcc(server)
        rnd = random.Random(int(os.environ.get("CRASH_SEED", "1")))
        for round_ in range(ROUNDS):
            stop = threading.Event()
            threads = [threading.Thread(target=inserter, args=(server, w, stop, acked, attempts, w % 2 == 1))
                       for w in range(4)]
            threads += [threading.Thread(target=transferrer, args=(server, round_ * 10 + i, stop))
                        for i in range(2)]
            if round_ % 2 == 1:
                threads.append(threading.Thread(target=checkpointer, args=(server, round_, stop)))
            for t in threads:
                t.start()
            driver = tpcc_driver(server)
            time.sleep(rnd.uniform(0.3, 1.5))
            if round_ == ROUNDS - 1:
                stop.set()
                for t in threads:
                    t.join()
                driver.terminate()
                driver.wait()
                before = tpcc_fingerprint(server)
                server.terminate()  # the last round ends cleanly
            else:
                server.kill()
                stop.set()
                for t in threads:
                    t.join()
                driver.kill()  # it may retry its connections: its outcome is checked in the data
                driver.wait()
            started = time.time()
            loaded = archives(scratch.data)
            server = scratch.start(*ARCHIVE_OFTEN)
            rows, journal = check(server, acked)
            check_tpcc(server)
            if round_ == ROUNDS - 1:
                assert tpcc_fingerprint(server) == before, "the replayed TPC-C data differ from the live data"
            print(f"round {round_ + 1}: {'SIGTERM' if round_ == ROUNDS - 1 else 'SIGKILL'}, "
                  f"restart {time.time() - started:.2f} s from archive {loaded[-1] if loaded else 'none'}, "
                  f"{rows} inserts, {journal} transfers, all there, TPC-C consistent")
        assert archives(scratch.data), "no archive was written"
        server.terminate()
    failed_log()
    damaged_archives()
    damaged_log()
    print(f"crash: {ROUNDS} rounds passed, and the failed log, damaged archive and damaged log tests")
    return 0


if __name__ == "__main__":
    sys.exit(main())
