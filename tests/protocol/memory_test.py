#!/usr/bin/env python3
"""Memory on the executor (docs/reliability.md), against a duetd this script starts: a
statement that would hold more than duet.executor_memory_limit - in sort runs, hash tables
or the answer waiting for its client - fails with 53200 and the session goes on; a loop
that frees what it allocates is not stopped; a snapshot has its own limit; a client that
pipelines queries and does not read its answers does not make the server buffer them.
Usage: memory_test.py DUETD_BINARY
"""
import os
import socket
import struct
import sys
import time

from psycopg import errors

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import duetd_process  # noqa: E402 - tests/, for the shared server start

DUETD = sys.argv[1]
ROWS = 3000


def times(column, n):
    """The column's value n times over (duetd has no repeat() yet)."""
    return " || ".join([column] * n)


class Server(duetd_process.Server):
    def __init__(self):
        super().__init__(DUETD, "duet-mem-")

    def connect(self):
        return super().connect(autocommit=True)

    def rss_mb(self):
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        raise RuntimeError("no VmRSS")


def limited(server, limit="8MB", routing="never"):
    conn = server.connect()
    conn.execute(f"SET duet.snapshot_routing = {routing}")
    conn.execute(f"SET duet.executor_memory_limit = '{limit}'")
    return conn


def expect_out_of_memory(conn, sql, what):
    try:
        conn.execute(sql).fetchall()
    except errors.OutOfMemory as e:
        assert "duet.executor_memory_limit" in (e.diag.message_detail or ""), e.diag.message_detail
        assert conn.execute("SELECT 42").fetchone()[0] == 42, "the session is not usable afterwards"
        return
    raise AssertionError(f"{what}: no 53200")


def test_sort_and_hash_tables(server):
    conn = limited(server)
    # 9 million sorted rows, and as many groups: far more than 8 MB.
    expect_out_of_memory(conn, "SELECT count(*) FROM (SELECT a.k, b.k FROM m a, m b ORDER BY 1 DESC, 2) s",
                         "a sort past the limit")
    expect_out_of_memory(conn, "SELECT count(*) FROM (SELECT DISTINCT a.s || b.s FROM m a, m b) s",
                         "a hash table past the limit")
    # Aggregates that keep their rows (string_agg, ORDER BY inside a call, ordered-set
    # aggregates) hold them in the statement's sort buffers.
    expect_out_of_memory(conn, "SELECT length(string_agg(a.s, ',')) FROM m a, m b", "string_agg past the limit")
    expect_out_of_memory(conn, "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY a.k * b.k) FROM m a, m b",
                         "an ordered-set aggregate past the limit")
    # Below the limit the same shapes run.
    assert conn.execute("SELECT count(*) FROM (SELECT DISTINCT s FROM m) d").fetchone()[0] == ROWS
    conn.execute("RESET duet.executor_memory_limit")
    assert conn.execute("SELECT count(*) FROM (SELECT DISTINCT a.k * 10000 + b.k FROM m a, m b "
                        "WHERE a.k < 300) s").fetchone()[0] == 300 * ROWS
    conn.close()


def test_answer(server):
    conn = limited(server)
    # 90,000 rows of 100 bytes: a 10 MB answer would wait in the connection's buffer.
    expect_out_of_memory(conn, "SELECT a.s FROM m a, m b WHERE b.k < 30", "an answer past the limit")
    # Several statements of one message add up: each answer alone fits.
    assert len(conn.execute("SELECT a.s FROM m a, m b WHERE b.k < 20").fetchall()) == 20 * ROWS
    expect_out_of_memory(conn, "SELECT a.s FROM m a, m b WHERE b.k < 20; SELECT a.s FROM m a, m b WHERE b.k < 20",
                         "the answers of one message past the limit")
    # On a snapshot the answer streams to the client: the executor's limit does not apply.
    routed = limited(server, routing="always")
    assert len(routed.execute("SELECT a.s FROM m a, m b WHERE b.k < 30").fetchall()) == 30 * ROWS
    routed.close()
    conn.close()


def test_loop_frees_what_it_allocates(server):
    conn = limited(server)
    # 200 statements of about 0.5 MB each inside one call: 100 MB allocated, 0.5 MB held.
    # (No string expressions: their intermediate values stay in the statement's arena
    # until it ends.)
    conn.execute("""CREATE FUNCTION many_distincts() RETURNS bigint LANGUAGE plpgsql AS $$
        DECLARE total bigint := 0; c bigint;
        BEGIN
          FOR i IN 1..200 LOOP
            SELECT count(*) INTO c FROM (SELECT DISTINCT s FROM m WHERE k >= i - 1) d;
            total := total + c;
          END LOOP;
          RETURN total;
        END $$""")
    assert conn.execute("SELECT many_distincts()").fetchone()[0] == sum(ROWS - i for i in range(200))
    conn.close()


def query_message(sql):
    body = sql.encode() + b"\0"
    return b"Q" + struct.pack("!I", len(body) + 4) + body


def test_client_that_does_not_read(server):
    """300 queries of a 1 MB answer each, pipelined, their answers not read for a while:
    the server stops taking the client's input instead of buffering 300 MB."""
    s = socket.create_connection(("127.0.0.1", server.port))
    body = struct.pack("!I", 196608) + b"user\0postgres\0database\0postgres\0\0"
    s.sendall(struct.pack("!I", len(body) + 4) + body)
    got = b""
    while not got.endswith(b"Z\0\0\0\x05I"):
        got += s.recv(65536)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)
    before = server.rss_mb()
    s.setblocking(False)
    queries = 300
    pending = query_message(f"SELECT {times('b', 10)} FROM big") * queries
    deadline = time.time() + 5
    while pending and time.time() < deadline:
        try:
            pending = pending[s.send(pending):]
        except BlockingIOError:
            time.sleep(0.05)
    time.sleep(2)
    grown = server.rss_mb() - before
    # Meanwhile another session is served.
    with server.connect() as other:
        assert other.execute("SELECT 1").fetchone()[0] == 1
    assert grown < 100, f"duetd grew by {grown:.0f} MB for a client that does not read"
    # Now the client reads: every answer arrives.
    s.setblocking(True)
    s.settimeout(30)
    if pending:
        s.sendall(pending)
    data = bytearray()
    ready = 0
    at = 0
    while ready < queries:
        chunk = s.recv(1 << 20)
        assert chunk, "the server closed the connection"
        data += chunk
        while len(data) - at >= 5:
            kind = data[at:at + 1]
            length = struct.unpack("!I", data[at + 1:at + 5])[0]
            if len(data) - at < 1 + length:
                break
            assert kind != b"E", bytes(data[at:at + 1 + length])
            if kind == b"Z":
                ready += 1
            at += 1 + length
        del data[:at]
        at = 0
    s.close()


def main():
    server = Server()
    try:
        with server.connect() as conn:
            conn.execute("CREATE TABLE m (k int PRIMARY KEY, s text)")
            values = ", ".join(f"({i}, '{'%05d' % i}{'x' * 95}')" for i in range(ROWS))
            conn.execute(f"INSERT INTO m VALUES {values}")
            conn.execute("CREATE TABLE big (b text)")
            conn.execute(f"INSERT INTO big VALUES ('{'y' * 100000}')")
        return duetd_process.run_tests(
            "memory",
            [("sort and hash tables", lambda: test_sort_and_hash_tables(server)),
             ("answer", lambda: test_answer(server)),
             ("loop frees what it allocates", lambda: test_loop_frees_what_it_allocates(server)),
             ("client that does not read", lambda: test_client_that_does_not_read(server))],
            server.proc)
    finally:
        server.stop()


if __name__ == "__main__":
    sys.exit(main())
