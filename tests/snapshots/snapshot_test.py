#!/usr/bin/env python3
"""fork() snapshots (docs/snapshots.md), through the wire with psycopg, against duetd
servers this script starts itself (it kills some of them and their snapshot processes).

Proves: a snapshot is transaction-consistent while transfers commit (the total never
moves); it holds every commit before its fork and none after; read-your-writes; a READ
ONLY block reads one snapshot throughout and does not hold up writers; writes there get
25006; auto routing sends only costly statements; a portal fetched in pieces (Execute
with a row limit, as JDBC's fetch size) reads the block's snapshot; cancel, statement_timeout and the memory
limit (53200) stop a statement on a snapshot; a killed snapshot costs only its own
statement (XX000) and the server goes on; a vanished client stops its statement; snapshot
processes die with the server, even on SIGKILL.
Usage: snapshot_test.py DUETD_BINARY
"""
import os
import signal
import socket
import struct
import subprocess
import sys
import threading
import time

import psycopg
from psycopg import errors

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import duetd_process  # noqa: E402 - tests/, for the shared server start

DUETD = sys.argv[1]
# A statement that runs until something stops it: 27 billion rows of a triple cross join.
ENDLESS = "SELECT count(*) FROM spin a, spin b, spin c"


class Server(duetd_process.Server):
    def __init__(self, *flags):
        super().__init__(DUETD, "duet-snap-", *flags)


def snapshot_pids(conn):
    return [r[0] for r in conn.execute("SELECT pid FROM duet_snapshots WHERE NOT ending").fetchall()]


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie (exited, not yet reaped) counts as gone.
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ")[1][0] != "Z"
    except FileNotFoundError:
        return False


def nice_of(pid):
    with open(f"/proc/{pid}/stat") as f:
        return int(f.read().split(") ")[1].split()[16])


def wait_until(predicate, seconds, what):
    deadline = time.time() + seconds
    while not predicate():
        if time.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def expect_error(conn, sql, error, what):
    """Runs sql, which must fail with `error` (a psycopg error class); returns the error.
    `what` says what went wrong if it succeeds."""
    try:
        conn.execute(sql)
    except error as e:
        return e
    raise AssertionError(what)


def forced(server, **settings):
    """A session whose read-only statements all go to snapshots."""
    conn = server.connect(autocommit=True)
    conn.execute("SET duet.snapshot_routing = always")
    for name, value in settings.items():
        conn.execute(f"SET duet.{name} = '{value}'")
    return conn


def setup_tables(server):
    with server.connect(autocommit=True) as c:
        c.execute("CREATE TABLE accounts (id int PRIMARY KEY, balance bigint NOT NULL)")
        c.execute("INSERT INTO accounts VALUES " + ",".join(f"({i}, 1000)" for i in range(1, 2001)))
        c.execute("CREATE TABLE spin (x int)")
        c.execute("INSERT INTO spin VALUES " + ",".join(f"({i})" for i in range(3000)))


def run_in_thread(fn):
    result = {}

    def body():
        try:
            result["value"] = fn()
        except BaseException as e:  # noqa: BLE001 - handed to the caller
            result["error"] = e
    t = threading.Thread(target=body, daemon=True)
    t.start()
    return t, result


# ---- tests (each gets a server with accounts and spin)

def test_transfers_keep_the_total(server):
    stop = threading.Event()
    committed = [0]

    def transfers(seed):
        import random
        rnd = random.Random(seed)
        with server.connect() as c:
            while not stop.is_set():
                a, b = rnd.sample(range(1, 2001), 2)
                amount = rnd.randint(1, 50)
                with c.transaction():
                    c.execute("UPDATE accounts SET balance = balance - %s WHERE id = %s", (amount, a))
                    c.execute("UPDATE accounts SET balance = balance + %s WHERE id = %s", (amount, b))
                committed[0] += 1
    writers = [threading.Thread(target=transfers, args=(i,), daemon=True) for i in range(2)]
    for w in writers:
        w.start()
    reader = forced(server, snapshot_max_age="0")  # a fresh snapshot for every statement
    try:
        seen = set()
        for _ in range(40):
            total, rows, moved = reader.execute(
                "SELECT sum(balance), count(*), sum(CASE WHEN balance <> 1000 THEN 1 ELSE 0 END) FROM accounts"
            ).fetchone()
            assert (total, rows) == (2_000_000, 2000), (total, rows)
            seen.add(moved)
        assert committed[0] > 0, "no transfer committed while the snapshots were read"
        # The statements really ran on snapshots that saw transfers at different points.
        assert len(seen) > 1, seen
        assert snapshot_pids(reader), "no snapshot process is alive"
    finally:
        stop.set()
        for w in writers:
            w.join(10)
        reader.close()


def test_fork_boundary_and_read_your_writes(server):
    writer = server.connect(autocommit=True)
    reader = forced(server, snapshot_max_age="1h")
    count = "SELECT count(*) FROM accounts"
    before = reader.execute(count).fetchone()[0]
    # Parameters travel to the snapshot as text in the session's settings.
    assert reader.execute("SELECT count(*) FROM accounts WHERE id > %s AND id <= %s",
                          (1990, 2000)).fetchone()[0] == 10
    # Snapshots run below the executor's CPU priority (--snapshot-nice, default 10).
    assert nice_of(snapshot_pids(reader)[-1]) == 10
    writer.execute("INSERT INTO accounts VALUES (5001, 0)")
    # The reader's snapshot is young enough for it and the writer's commit came after it.
    assert reader.execute(count).fetchone()[0] == before
    # The writer may not read a snapshot older than its own commit.
    writer.execute("SET duet.snapshot_routing = always")
    writer.execute("SET duet.snapshot_max_age = '1h'")
    assert writer.execute(count).fetchone()[0] == before + 1
    # Nor may the reader once it commits a write of its own.
    reader.execute("INSERT INTO accounts VALUES (5002, 0)")
    assert reader.execute(count).fetchone()[0] == before + 2
    # A snapshot holding every commit so far is fresh whatever its age.
    reader.execute("SET duet.snapshot_max_age = 0")
    pids = snapshot_pids(reader)
    assert reader.execute(count).fetchone()[0] == before + 2
    assert snapshot_pids(reader)[-1] in pids, "an up-to-date snapshot was forked again"
    writer.execute("DELETE FROM accounts WHERE id > 5000")
    assert reader.execute(count).fetchone()[0] == before
    writer.close()
    reader.close()


def test_read_only_block(server):
    reader = server.connect(autocommit=True)
    writer = server.connect(autocommit=True)
    count = "SELECT count(*), sum(balance) FROM accounts"
    reader.execute("BEGIN READ ONLY")
    first = reader.execute(count).fetchone()
    # The block does not hold up writers (it would, on the executor, until it ends).
    t, result = run_in_thread(lambda: writer.execute("INSERT INTO accounts VALUES (6001, 7)"))
    t.join(10)
    assert not t.is_alive(), "a writer waited for a read-only block"
    assert "error" not in result, result
    assert reader.execute(count).fetchone() == first  # the block's one snapshot
    assert reader.execute("SHOW transaction_read_only").fetchone()[0] == "on"
    # The list of snapshots is read on the executor, even here.
    assert reader.execute("SELECT count(*) FROM duet_snapshots WHERE NOT ending").fetchone()[0] >= 1
    expect_error(reader, "UPDATE accounts SET balance = 0", errors.ReadOnlySqlTransaction,
                 "a write in a read-only block succeeded")
    expect_error(reader, count, errors.InFailedSqlTransaction, "a failed block ran a statement")
    reader.execute("ROLLBACK")
    got = reader.execute(count).fetchone()
    assert got == (first[0] + 1, first[1] + 7), (got, first)
    writer.execute("DELETE FROM accounts WHERE id = 6001")
    # SET TRANSACTION READ ONLY makes a block read-only too.
    with server.connect() as c:
        c.execute("SET TRANSACTION READ ONLY")
        assert c.execute(count).fetchone() == first
        # Having read its snapshot, the block may not turn read-write (25001), as in PostgreSQL.
        expect_error(c, "SET TRANSACTION READ WRITE", errors.ActiveSqlTransaction,
                     "a read-only block turned read-write after a query")
        c.rollback()
    reader.close()
    writer.close()


def test_auto_routing():
    server = Server()
    try:
        with server.connect(autocommit=True) as c:
            c.execute("CREATE TABLE small (id int PRIMARY KEY, v int)")
            c.execute("INSERT INTO small VALUES (1, 1), (2, 2)")
            assert c.execute("SELECT sum(v) FROM small").fetchone()[0] == 3
            assert c.execute("SELECT v FROM small WHERE id = 2").fetchone()[0] == 2
            assert snapshot_pids(c) == [], "a cheap statement went to a snapshot"
            c.execute("SET duet.snapshot_min_rows = 2")
            assert c.execute("SELECT sum(v) FROM small").fetchone()[0] == 3
            assert len(snapshot_pids(c)) == 1, "a costly statement stayed on the executor"
            # A point lookup reads one row, whatever the threshold.
            c.execute("SET duet.snapshot_max_age = 0")
            c.execute("INSERT INTO small VALUES (3, 3)")
            before = snapshot_pids(c)
            assert c.execute("SELECT v FROM small WHERE id = 3").fetchone()[0] == 3
            assert snapshot_pids(c) == before
            # A statement that may write (a VOLATILE function) stays on the executor.
            c.execute("CREATE FUNCTION bump() RETURNS int LANGUAGE plpgsql AS "
                      "$$ BEGIN UPDATE small SET v = v + 1 WHERE id = 1; RETURN 1; END $$")
            c.execute("SET duet.snapshot_routing = always")
            c.execute("SELECT bump() FROM small")
            assert c.execute("SELECT v FROM small WHERE id = 1").fetchone()[0] == 4
            c.execute("SET duet.snapshot_routing = never")
            c.execute("SET duet.snapshot_min_rows = 0")
            assert c.execute("SELECT sum(v) FROM small").fetchone()[0] == 9
            expect_error(c, "SET duet.snapshot_routing = sometimes", errors.InvalidParameterValue,
                         "an unknown routing mode was accepted")
            held = c.execute("SELECT max(commits) FROM duet_snapshots").fetchone()[0]
        # The simple query protocol (psql -c): the SELECT goes to a snapshot too.
        out = subprocess.run(["psql", "-X", "-A", "-t", "-h", "127.0.0.1", "-p", str(server.port),
                              "-U", "postgres", "-d", "postgres",
                              "-c", "SET duet.snapshot_routing = always", "-c", "SET duet.snapshot_max_age = 0",
                              "-c", "INSERT INTO small VALUES (4, 4)", "-c", "SELECT sum(v) FROM small",
                              "-c", "SELECT max(commits) FROM duet_snapshots"],
                             capture_output=True, text=True, check=True).stdout.split()
        # A snapshot holding the INSERT was forked for the sum.
        assert out[-2] == "13" and int(out[-1]) > held, (out, held)
        # Several statements in one Query message: a costly read goes to a snapshot wherever
        # it stands, until the message's implicit transaction has written; the statements
        # after it run once it answered; its error ends the message, as in PostgreSQL.
        with server.connect(autocommit=True) as c:
            # A commit of this session's makes the next routed statement fork a snapshot that
            # holds it: a new pid shows that the statement went.
            c.execute("INSERT INTO small VALUES (7, 0)")
            before = set(snapshot_pids(c))
            cur = c.execute("SET duet.snapshot_min_rows = 2; SELECT sum(v) FROM small; "
                            "INSERT INTO small VALUES (5, 5); SELECT sum(v) FROM small")
            sums = []
            while True:
                if cur.description is not None:
                    sums.append(cur.fetchone()[0])
                if not cur.nextset():
                    break
            assert sums == [13, 18], sums
            assert set(snapshot_pids(c)) - before, "the sum did not go to a snapshot"
            expect_error(c, "SELECT 1 / (v - v) FROM small; INSERT INTO small VALUES (6, 6)",
                         errors.DivisionByZero, "the routed statement's error was lost")
            assert c.execute("SELECT count(*) FROM small WHERE id = 6").fetchone()[0] == 0
        # duetd restarted itself with malloc's huge pages, for cheap forks.
        with open(f"/proc/{server.proc.pid}/environ", "rb") as f:
            assert b"glibc.malloc.hugetlb=1" in f.read()
    finally:
        server.stop()


def test_cancel_and_timeout(server):
    conn = forced(server)
    t, result = run_in_thread(lambda: conn.execute(ENDLESS).fetchone())
    time.sleep(1.0)
    conn.cancel()
    t.join(20)
    assert not t.is_alive(), "cancel did not stop the statement on the snapshot"
    assert isinstance(result.get("error"), errors.QueryCanceled), result
    assert conn.execute("SELECT count(*) FROM spin").fetchone()[0] == 3000
    conn.execute("SET statement_timeout = '300ms'")
    start = time.time()
    e = expect_error(conn, ENDLESS, errors.QueryCanceled, "statement_timeout did not stop the statement")
    assert "statement timeout" in str(e), e
    assert time.time() - start < 20
    conn.close()


def test_memory_limit(server):
    conn = forced(server, snapshot_memory_limit="16MB")
    # Sorting 9 million rows needs far more than 16 MB (all of them: no LIMIT above the sort).
    expect_error(conn, "SELECT count(*) FROM (SELECT a.x, b.x FROM spin a, spin b ORDER BY 1 DESC, 2) s",
                 errors.OutOfMemory, "the memory limit did not stop the statement")
    # The snapshot is still there and serves the next statement.
    assert conn.execute("SELECT count(*) FROM spin").fetchone()[0] == 3000
    conn.close()


def test_parallel_queries(server):
    """A snapshot aggregates, sorts, builds hash join tables (inner, outer, semi and anti joins) and
    selects rows over a table of several chunks on all its cores (two threads at most here): the rows are the
    executor's, and an error in a worker reaches the client."""
    conn = server.connect(autocommit=True)
    conn.execute("CREATE TABLE par_big (k int, g int, v numeric(12,2), s text)")
    conn.execute("INSERT INTO par_big SELECT k, k % 7, k * 1.5, 'n' || (k % 13) "
                 "FROM (VALUES (1),(2),(3),(4),(5),(6),(7),(8)) AS v(k)")
    n = 8
    while n < 65536:  # four chunks of 16384 rows
        conn.execute(f"INSERT INTO par_big SELECT k + {n}, (k + {n}) % 7, (k + {n}) * 1.5, "
                     f"'n' || ((k + {n}) % 13) FROM par_big")
        n *= 2
    conn.execute("CREATE TABLE par_dim (g int, label text)")
    conn.execute("INSERT INTO par_dim VALUES (0, 'zero'), (1, 'one'), (2, 'two'), (4, 'four')")
    queries = ["SELECT count(*), sum(v), avg(v), min(s), max(s), min(k), max(k) FROM par_big WHERE k % 3 <> 0",
               "SELECT g, count(*), sum(v), avg(k), min(s) FROM par_big GROUP BY g ORDER BY g",
               "SELECT label, count(*), sum(k) FROM par_dim JOIN par_big ON par_big.g = par_dim.g "
               "GROUP BY label ORDER BY label",
               "SELECT count(*), sum(v) FROM par_big WHERE k < 0",
               "SELECT k, s, v FROM par_big WHERE k % 1000 = 7 ORDER BY s DESC, k",
               "SELECT k, v FROM par_big ORDER BY v DESC, k LIMIT 5 OFFSET 100",
               "SELECT a.g, count(*), sum(b.v) FROM par_big a JOIN par_big b ON a.k = b.k + 1 "
               "WHERE b.k % 100 = 0 GROUP BY a.g ORDER BY a.g",
               # Outer joins whose probe side is the parallel scan: each worker keeps its
               # unmatched rows.
               "SELECT par_big.g, label, count(*), sum(k) FROM par_big LEFT JOIN par_dim "
               "ON par_dim.g = par_big.g GROUP BY par_big.g, label ORDER BY par_big.g",
               "SELECT label, count(*), count(k) FROM par_dim RIGHT JOIN par_big ON par_big.g = par_dim.g "
               "AND par_big.k % 2 = 0 GROUP BY label ORDER BY label",
               # FULL JOIN: the big side built (in parallel), its unmatched rows after the probe.
               "SELECT label, count(*), count(k), sum(k) FROM par_big FULL JOIN par_dim "
               "ON par_big.g = par_dim.g AND par_big.k % 2 = 0 GROUP BY label ORDER BY label",
               # Semi and anti joins: probed by the parallel scan, or built by it.
               "SELECT g, count(*), sum(k) FROM par_big WHERE g IN (SELECT g FROM par_dim) GROUP BY g ORDER BY g",
               "SELECT count(*), sum(v) FROM par_big WHERE NOT EXISTS "
               "(SELECT 1 FROM par_dim WHERE par_dim.g = par_big.g AND par_dim.label <> 'one')",
               "SELECT label FROM par_dim WHERE g IN (SELECT g FROM par_big WHERE k % 3 = 0) ORDER BY label",
               "SELECT label FROM par_dim WHERE g NOT IN (SELECT g FROM par_big WHERE k > 65530) ORDER BY label"]
    # Their rows stream from the workers in no set order.
    gathered = ["SELECT k, s FROM par_big WHERE k % 7 = 3",
                "SELECT label, k FROM par_dim JOIN par_big ON par_big.g = par_dim.g WHERE k % 5 = 0",
                "SELECT coalesce(label, '-'), k FROM par_big LEFT JOIN par_dim ON par_big.g = par_dim.g "
                "WHERE k % 5 = 0"]
    expected = [conn.execute(q).fetchall() for q in queries]  # on the executor: 65536 < min_rows
    expected_gathered = [sorted(conn.execute(q).fetchall()) for q in gathered]
    snap = forced(server)
    snap.execute("SET max_parallel_workers_per_gather = 1")
    for q, rows in zip(queries, expected):
        assert snap.execute(q).fetchall() == rows, q
    for q, rows in zip(gathered, expected_gathered):
        assert sorted(snap.execute(q).fetchall()) == rows, q
    expect_error(snap, "SELECT sum(1 / (k - 40000)) FROM par_big", errors.DivisionByZero,
                 "division by zero in a worker was not reported")
    expect_error(snap, "SELECT k FROM par_big ORDER BY 1 / (k - 40000)", errors.DivisionByZero,
                 "division by zero in a sorting worker was not reported")
    assert snap.execute("SELECT count(*) FROM par_big").fetchone()[0] == 65536
    snap.close()
    conn.execute("DROP TABLE par_big")
    conn.execute("DROP TABLE par_dim")
    conn.close()


class RawSession:
    """The extended protocol by hand, for what libpq never sends: Execute with a row limit."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        body = struct.pack("!I", 196608) + b"user\0postgres\0database\0postgres\0\0"
        self.sock.sendall(struct.pack("!I", len(body) + 4) + body)
        self.until(b"Z")

    def send(self, kind, payload=b""):
        self.sock.sendall(kind + struct.pack("!I", len(payload) + 4) + payload)

    def recv(self, n):
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            assert chunk, "the server closed the connection"
            data += chunk
        return data

    def read(self):
        header = self.recv(5)
        return header[:1], self.recv(struct.unpack("!I", header[1:])[0] - 4)

    def until(self, kind):
        """The messages up to the first of `kind`, that one included; an error fails."""
        messages = []
        while True:
            k, body = self.read()
            assert k != b"E", f"error: {body!r}"
            messages.append((k, body))
            if k == kind:
                return messages

    def query(self, sql):
        self.send(b"Q", sql.encode() + b"\0")
        return self.until(b"Z")

    def execute(self, portal, max_rows):
        """Execute then Sync: the DataRow values (text) and how the Execute ended ('s' or the tag)."""
        self.send(b"E", portal.encode() + b"\0" + struct.pack("!i", max_rows))
        self.send(b"S")
        rows, end = [], None
        for k, body in self.until(b"Z"):
            if k == b"D":
                n = struct.unpack("!H", body[:2])[0]
                assert n == 1
                size = struct.unpack("!i", body[2:6])[0]
                rows.append(int(body[6:6 + size]))
            elif k == b"s":
                end = "s"
            elif k == b"C":
                end = body.rstrip(b"\0").decode()
        return rows, end

    def bind(self, portal, sql):
        self.send(b"P", b"\0" + sql.encode() + b"\0" + struct.pack("!H", 0))
        self.send(b"B", portal.encode() + b"\0" + b"\0" + struct.pack("!HHH", 0, 0, 0))

    def close(self):
        self.send(b"X")
        self.sock.close()


def test_portal_in_pieces(server):
    """Execute with a row limit, as JDBC sends inside a transaction with a fetch size: in a
    READ ONLY block the portal reads the block's snapshot (a commit made after the block's
    first statement stays unseen, where the executor would see it), and its rows come in
    pieces across Syncs; outside a block it goes to a snapshot too."""
    with server.connect(autocommit=True) as c:
        c.execute("CREATE TABLE pieces (k int)")
        c.execute("INSERT INTO pieces VALUES " + ",".join(f"({i})" for i in range(1, 2501)))
        raw = RawSession(server.port)
        raw.query("BEGIN READ ONLY")
        raw.query("SELECT count(*) FROM pieces")  # takes the block's snapshot
        c.execute("INSERT INTO pieces VALUES (9999)")
        raw.bind("c1", "SELECT k FROM pieces ORDER BY k")
        first, end1 = raw.execute("c1", 1000)
        c.execute("INSERT INTO pieces VALUES (10000)")  # writers go on between the pieces
        second, end2 = raw.execute("c1", 1000)
        third, end3 = raw.execute("c1", 1000)
        assert (end1, end2, end3) == ("s", "s", "SELECT 2500"), (end1, end2, end3)
        assert first + second + third == list(range(1, 2501)), "the pieces are not the block's snapshot"
        # An error reaches the client as the Execute's, and fails the block.
        raw.bind("c2", "SELECT 1 / (k - 5) FROM pieces")
        raw.send(b"E", b"c2\0" + struct.pack("!i", 100))
        raw.send(b"S")
        answer = []
        while not answer or answer[-1][0] != b"Z":
            answer.append(raw.read())
        errors_seen = [body for k, body in answer if k == b"E"]
        assert len(errors_seen) == 1 and b"C22012" in errors_seen[0], answer[:3]
        assert answer[-1] == (b"Z", b"E"), answer[-1]
        raw.query("ROLLBACK")
        # Outside a block: the rows of the newest snapshot, in pieces within one Sync cycle.
        raw.query("SET duet.snapshot_routing = always")
        raw.query("SET duet.snapshot_max_age = 0")  # a snapshot with every commit so far
        raw.send(b"P", b"\0SELECT k FROM pieces ORDER BY k\0" + struct.pack("!H", 0))
        raw.send(b"B", b"\0\0" + struct.pack("!HHH", 0, 0, 0))
        raw.send(b"E", b"\0" + struct.pack("!i", 2000))
        raw.send(b"E", b"\0" + struct.pack("!i", 2000))
        raw.send(b"S")
        kinds = [k for k, _ in raw.until(b"Z")]
        counts = {k: kinds.count(k) for k in set(kinds)}
        assert counts == {b"1": 1, b"2": 1, b"D": 2502, b"s": 1, b"C": 1, b"Z": 1}, counts
        raw.close()
        c.execute("DROP TABLE pieces")


def test_beside_an_open_block(server):
    """While another session's read-write block holds the executor, a statement that can
    read a snapshot forked before the block does so at once and sees none of the block's
    changes; one that would need the executor, or a new snapshot (a fork would copy the
    block's uncommitted changes), waits for the block's end."""
    reader = forced(server, snapshot_max_age=0)  # only snapshots holding every commit serve it
    total = reader.execute("SELECT sum(balance) FROM accounts").fetchone()[0]  # a snapshot now
    writer = server.connect()
    writer.execute("UPDATE accounts SET balance = balance + 1 WHERE id = 1")  # holds the executor
    start = time.monotonic()
    assert reader.execute("SELECT sum(balance) FROM accounts").fetchone()[0] == total
    assert time.monotonic() - start < 5, "the read waited for the block"
    # A write waits, and so does a read that wants a snapshot younger than the last commit.
    t, result = run_in_thread(lambda: reader.execute("UPDATE accounts SET balance = balance - 1 WHERE id = 2"))
    time.sleep(1)
    assert t.is_alive(), "a write ran beside another session's block"
    writer.commit()  # the block ends: the write runs
    t.join(20)
    assert not t.is_alive() and "error" not in result, result
    committed = total  # +1 on account 1, -1 on account 2
    writer.execute("UPDATE accounts SET balance = balance + 5 WHERE id = 3")
    # The reader's own last commit is newer than any snapshot: it needs a fork, which waits.
    t, result = run_in_thread(lambda: reader.execute("SELECT sum(balance) FROM accounts").fetchone()[0])
    time.sleep(1)
    assert t.is_alive(), "a snapshot was forked inside another session's block"
    writer.rollback()
    t.join(20)
    assert result.get("value") == committed, result
    reader.close()
    writer.close()


def test_killed_snapshot(server):
    observer = server.connect(autocommit=True)
    conn = forced(server)
    t, result = run_in_thread(lambda: conn.execute(ENDLESS).fetchone())
    wait_until(lambda: observer.execute("SELECT count(*) FROM duet_snapshots WHERE queries > 0").fetchone()[0] > 0,
               20, "the statement to reach a snapshot")
    pid = observer.execute("SELECT pid FROM duet_snapshots WHERE queries > 0").fetchone()[0]
    os.kill(pid, signal.SIGKILL)
    t.join(20)
    assert not t.is_alive()
    error = result.get("error")
    assert isinstance(error, errors.InternalError_), result
    assert "ended" in str(error), error
    # Everyone else, the executor included, goes on; so does this session.
    observer.execute("INSERT INTO accounts VALUES (7001, 1)")
    assert observer.execute("SELECT balance FROM accounts WHERE id = 7001").fetchone()[0] == 1
    assert conn.execute("SELECT count(*) FROM accounts WHERE id = 7001").fetchone()[0] == 1
    wait_until(lambda: not alive(pid), 10, "the killed snapshot to be reaped")
    observer.execute("DELETE FROM accounts WHERE id = 7001")
    observer.close()
    conn.close()


def test_vanished_client(server):
    observer = server.connect(autocommit=True)
    conn = forced(server)
    threading.Thread(target=lambda: _ignore(lambda: conn.execute(ENDLESS)), daemon=True).start()
    wait_until(lambda: observer.execute("SELECT count(*) FROM duet_snapshots WHERE queries > 0").fetchone()[0] > 0,
               20, "the statement to reach a snapshot")
    # The client goes away without a word (no Terminate, no cancel).
    socket.socket(fileno=os.dup(conn.fileno())).shutdown(socket.SHUT_RDWR)
    wait_until(lambda: observer.execute("SELECT count(*) FROM duet_snapshots WHERE queries > 0").fetchone()[0] == 0,
               20, "the snapshot to stop the vanished client's statement")
    observer.close()


def _ignore(fn):
    try:
        fn()
    except Exception:  # noqa: BLE001 - the connection is cut on purpose
        pass


def test_no_orphans():
    for how in (signal.SIGTERM, signal.SIGKILL):
        server = Server()
        try:
            setup_tables(server)
            with forced(server) as c:
                c.execute("SELECT count(*) FROM accounts")
                pids = snapshot_pids(c)
            assert pids
            os.kill(server.proc.pid, how)
            server.proc.wait(20)
            wait_until(lambda: not any(alive(p) for p in pids), 10,
                       f"snapshot processes to die with the server ({signal.Signals(how).name})")
        finally:
            server.stop()


def main():
    shared = Server()
    try:
        setup_tables(shared)
        tests = [("transfers keep the total", lambda: test_transfers_keep_the_total(shared)),
                 ("fork boundary and read-your-writes", lambda: test_fork_boundary_and_read_your_writes(shared)),
                 ("read-only block", lambda: test_read_only_block(shared)),
                 ("auto routing", test_auto_routing),
                 ("cancel and statement_timeout", lambda: test_cancel_and_timeout(shared)),
                 ("memory limit", lambda: test_memory_limit(shared)),
                 ("parallel queries", lambda: test_parallel_queries(shared)),
                 ("portal in pieces", lambda: test_portal_in_pieces(shared)),
                 ("beside an open block", lambda: test_beside_an_open_block(shared)),
                 ("killed snapshot", lambda: test_killed_snapshot(shared)),
                 ("vanished client", lambda: test_vanished_client(shared)),
                 ("no orphans", test_no_orphans)]
        return duetd_process.run_tests("snapshots", tests, shared.proc)
    finally:
        shared.stop()


if __name__ == "__main__":
    sys.exit(main())
