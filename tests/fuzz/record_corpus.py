#!/usr/bin/env python3
"""Records real clients' frontend traffic as a seed corpus for the protocol fuzzer.

A small TCP proxy between the clients and a running server (duetd, or PostgreSQL): every
client connection is forwarded both ways, and what the client sent after its startup
packet (SSLRequest/GSSENCRequest and the StartupMessage are dropped; cancel requests are
not recorded) is written as one corpus file when the connection ends. Files are named by
the SHA-1 of their content, as libFuzzer names corpus files, so the same traffic twice is
one file. A connection's bytes are cut at the last whole message within --max-file-bytes
(pgbench sends megabytes).

  record_corpus.py --upstream-port 5432 --out tests/fuzz/corpus/protocol -- \\
      CLIENT-COMMAND ...        # run with {port} replaced by the proxy's port; repeatable via
                                # --script FILE (one shell command per line, {port} in it)

Without a client command it proxies until interrupted (Ctrl-C): point clients at the port
it prints.
"""
import argparse
import hashlib
import os
import selectors
import shlex
import socket
import struct
import subprocess
import sys
import threading
import time

SSL_REQUEST = 80877103
GSSENC_REQUEST = 80877104
CANCEL_REQUEST = 80877102


def strip_startup(data: bytes) -> bytes | None:
    """The bytes after the startup packet, or None for a cancel request / no startup."""
    at = 0
    while len(data) - at >= 8:
        length, code = struct.unpack("!II", data[at:at + 8])
        if code in (SSL_REQUEST, GSSENC_REQUEST):
            at += length
            continue
        if code == CANCEL_REQUEST:
            return None
        return data[at + length:]
    return None


def cut_to_messages(data: bytes, limit: int) -> bytes:
    """The longest prefix of whole typed messages that fits in limit bytes."""
    at = 0
    while len(data) - at >= 5:
        length = struct.unpack("!I", data[at + 1:at + 5])[0]
        if at + 1 + length > limit or at + 1 + length > len(data):
            break
        at += 1 + length
    return data[:at] if at < len(data) else data


class Proxy:
    def __init__(self, upstream_host, upstream_port, out_dir, prefix, max_file_bytes):
        self.upstream = (upstream_host, upstream_port)
        self.out_dir = out_dir
        self.prefix = prefix
        self.max_file_bytes = max_file_bytes
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.port = self.listener.getsockname()[1]
        self.saved = 0
        self.connections = 0
        self.lock = threading.Lock()
        self.running = True

    def serve(self):
        while self.running:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self.relay, args=(client,), daemon=True).start()

    def relay(self, client):
        try:
            server = socket.create_connection(self.upstream)
        except OSError:
            client.close()
            return
        recorded = bytearray()
        sel = selectors.DefaultSelector()
        sel.register(client, selectors.EVENT_READ, server)
        sel.register(server, selectors.EVENT_READ, client)
        open_ends = 2
        try:
            while open_ends:
                for key, _ in sel.select():
                    src, dst = key.fileobj, key.data
                    try:
                        chunk = src.recv(65536)
                    except OSError:
                        chunk = b""
                    if not chunk:
                        sel.unregister(src)
                        open_ends -= 1
                        try:
                            dst.shutdown(socket.SHUT_WR)
                        except OSError:
                            pass
                        if src is server:  # the server closed: nothing more will be answered
                            open_ends = 0
                        continue
                    if src is client:
                        recorded += chunk
                    try:
                        dst.sendall(chunk)
                    except OSError:
                        open_ends = 0
        finally:
            client.close()
            server.close()
        self.save(bytes(recorded))

    def save(self, data):
        body = strip_startup(data)
        with self.lock:
            self.connections += 1
        if not body:
            return
        body = cut_to_messages(body, self.max_file_bytes)
        name = hashlib.sha1(body).hexdigest()
        if self.prefix:
            name = f"{self.prefix}-{name}"
        path = os.path.join(self.out_dir, name)
        if not os.path.exists(path):
            with open(path, "wb") as f:
                f.write(body)
            with self.lock:
                self.saved += 1

    def stop(self):
        self.running = False
        self.listener.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--upstream-host", default="127.0.0.1")
    ap.add_argument("--upstream-port", type=int, required=True)
    ap.add_argument("--out", required=True, help="corpus folder (created)")
    ap.add_argument("--prefix", default="", help="file name prefix, e.g. the client's name")
    ap.add_argument("--max-file-bytes", type=int, default=16384)
    ap.add_argument("--script", help="file of shell commands, one a line, {port} replaced")
    ap.add_argument("command", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    proxy = Proxy(args.upstream_host, args.upstream_port, args.out, args.prefix, args.max_file_bytes)
    threading.Thread(target=proxy.serve, daemon=True).start()
    commands = []
    if args.command:
        cmd = args.command[1:] if args.command[0] == "--" else args.command
        commands.append(" ".join(shlex.quote(c) for c in cmd))
    if args.script:
        with open(args.script) as f:
            commands += [l.strip() for l in f if l.strip() and not l.lstrip().startswith("#")]
    if not commands:
        print(f"proxy on 127.0.0.1:{proxy.port} -> {args.upstream_host}:{args.upstream_port}; Ctrl-C ends",
              flush=True)
        try:
            threading.Event().wait()
        except KeyboardInterrupt:
            pass
    for command in commands:
        command = command.replace("{port}", str(proxy.port))
        print(f"record_corpus: {command}", flush=True)
        r = subprocess.run(command, shell=True)
        if r.returncode != 0:
            print(f"record_corpus: exit {r.returncode} (recorded anyway)", flush=True)
    time.sleep(1.0)  # let the relays see their clients' ends
    proxy.stop()
    print(f"record_corpus: {proxy.connections} connections, {proxy.saved} new corpus files in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
