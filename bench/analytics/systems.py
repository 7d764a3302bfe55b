"""The three systems behind one adapter: DuetDB and PostgreSQL 15 over the wire protocol
(psycopg), DuckDB in process. Each adapter creates tables, loads delimited text files, runs a
query under a timeout and reports the outcome as rows or as a QueryError.

DuetDB and PostgreSQL are either servers already running (given a port) or started here: duetd
with a scratch data directory, PostgreSQL 15 through tests/scratch_pg.py. Started servers are
stopped by close().
"""
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

import psycopg

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


class QueryError(Exception):
    """A query that did not give rows: kind is "error" or "timeout"; sqlstate may be empty."""

    def __init__(self, kind, sqlstate, message):
        super().__init__(f"{sqlstate} {message}".strip())
        self.kind = kind
        self.sqlstate = sqlstate
        self.message = message


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def sql_statements(text):
    """The statements of a SQL script: '--' comments dropped, split at ';'. Enough for the
    schema files here (no strings with ';' or '--', no function bodies)."""
    lines = [line.split("--", 1)[0] for line in text.splitlines()]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]


class ServerSystem:
    """A PostgreSQL-protocol server reached with psycopg."""

    name = "server"

    def __init__(self, host, port, settings):
        self.host = host
        self.port = port
        self.settings = settings  # [(name, value)] set in every session
        self.conn = None
        self.dbname = None

    # Life cycle ---------------------------------------------------------------------------

    def start(self):
        raise NotImplementedError

    def disconnect(self):
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def close(self):
        """Disconnects and stops the server when it was started here."""
        self.disconnect()

    def alive(self):
        return True

    def _connect(self, dbname):
        return psycopg.connect(host=self.host, port=self.port, dbname=dbname, user="postgres",
                               autocommit=True, prepare_threshold=None, connect_timeout=10)

    def use_database(self, dbname, create):
        """Connects to dbname, creating it first when create is set."""
        if create:
            with self._connect("postgres") as conn:
                try:
                    conn.execute(f"CREATE DATABASE {dbname}")
                except psycopg.errors.DuplicateDatabase:
                    pass
        self.dbname = dbname
        self.reconnect()

    def reconnect(self):
        self.disconnect()
        self.conn = self._connect(self.dbname)
        for name, value in self.settings:
            self.conn.execute(f"SET {name} = {value}")

    # Data ---------------------------------------------------------------------------------

    def execute_script(self, statements):
        for statement in statements:
            self.conn.execute(statement)

    def load_file(self, table, path, delimiter):
        """COPY table FROM STDIN with the file's bytes (text format, NULL as \\N)."""
        with self.conn.cursor() as cur:
            with cur.copy(f"COPY {table} FROM STDIN WITH (FORMAT text, DELIMITER '{delimiter}')") as copy:
                with open(path, "rb") as f:
                    while chunk := f.read(1 << 20):
                        copy.write(chunk)

    def dump_table(self, table, path):
        """The table's rows as COPY's text format (tab-delimited) into path. char(n) values go
        without their trailing blanks, which DuckDB (no blank-padded type) would keep."""
        with self.conn.cursor() as cur:
            cur.execute(f"SELECT * FROM {table} LIMIT 0")
            columns = [f"rtrim({d.name}) AS {d.name}" if d.type_code == 1042 else d.name for d in cur.description]
        with open(path, "wb") as f, self.conn.cursor() as cur:
            with cur.copy(f"COPY (SELECT {', '.join(columns)} FROM {table}) TO STDOUT") as copy:
                for chunk in copy:
                    f.write(chunk)

    def analyze(self):
        self.conn.execute("ANALYZE")

    # Queries ------------------------------------------------------------------------------

    def set_timeout(self, seconds):
        self.conn.execute(f"SET statement_timeout = '{int(seconds * 1000)}ms'")

    def query(self, sql, timeout):
        """Rows of sql (simple Query protocol, text results). The server's statement_timeout
        ends a long query; a cancel from the client 10 s later is the fallback."""
        conn = self.conn
        watchdog = threading.Timer(timeout + 10, conn.cancel)
        watchdog.start()
        try:
            with conn.cursor() as cur:
                cur.execute(sql)
                return cur.fetchall() if cur.description is not None else []
        except psycopg.errors.QueryCanceled as e:
            raise QueryError("timeout", e.sqlstate or "57014", e.diag.message_primary or str(e)) from None
        except psycopg.Error as e:
            if conn.closed or isinstance(e, psycopg.OperationalError) and e.sqlstate is None:
                raise QueryError("error", "", f"connection lost: {str(e).strip().splitlines()[0]}") from None
            raise QueryError("error", e.sqlstate or "", e.diag.message_primary or str(e)) from None
        finally:
            watchdog.cancel()


class DuetSystem(ServerSystem):
    name = "duetdb"

    def __init__(self, host, port, settings, duetd):
        super().__init__(host, port, settings)
        self.duetd = duetd
        self.process = None
        self.data_dir = None

    def start(self):
        """Starts duetd on a free port with a scratch data directory."""
        if not os.access(self.duetd, os.X_OK):
            sys.exit(f"no duetd at {self.duetd}: build it (cmake --build build --target duetd) or pass --duetd")
        self.data_dir = tempfile.mkdtemp(prefix="duet-analytics-", dir="/tmp")
        self.port = free_port()
        log = open(os.path.join(self.data_dir, "duetd.log"), "wb")
        self.process = subprocess.Popen(
            [self.duetd, "--listen", "127.0.0.1", "--port", str(self.port), "--data-dir",
             os.path.join(self.data_dir, "data")], stdout=log, stderr=subprocess.STDOUT)
        for _ in range(200):
            if self.process.poll() is not None:
                sys.exit(f"duetd exited at start, see {self.data_dir}/duetd.log")
            try:
                psycopg.connect(host=self.host, port=self.port, dbname="postgres", user="postgres").close()
                return
            except psycopg.OperationalError:
                time.sleep(0.1)
        sys.exit("duetd did not accept connections in 20 s")

    def alive(self):
        return self.process is None or self.process.poll() is None

    def close(self):
        super().close()
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.process = None
        if self.data_dir is not None:
            shutil.rmtree(self.data_dir, ignore_errors=True)
            self.data_dir = None


class PostgresSystem(ServerSystem):
    name = "postgres"

    def __init__(self, host, port, settings, fsync=False):
        super().__init__(host, port, settings)
        self.scratch = None
        self.fsync = fsync

    def start(self):
        """Starts a scratch PostgreSQL 15 (tests/scratch_pg.py: fsync off unless fsync is
        set, UTC, trust)."""
        command = [sys.executable, os.path.join(ROOT, "tests", "scratch_pg.py"), "start"]
        command += ["--fsync"] if self.fsync else []
        out = subprocess.run(command, check=True, capture_output=True, text=True).stdout.split()
        self.scratch, self.port = out[0], int(out[1])

    def analyze(self):
        self.conn.execute("VACUUM ANALYZE")

    def close(self):
        super().close()
        if self.scratch is not None:
            subprocess.run([sys.executable, os.path.join(ROOT, "tests", "scratch_pg.py"), "stop", self.scratch],
                           check=False)
            self.scratch = None


class DuckDBSystem:
    """DuckDB in this process, in memory."""

    name = "duckdb"

    def __init__(self, settings):
        import duckdb  # only needed when DuckDB runs

        self.duckdb = duckdb
        self.settings = settings
        self.conn = None

    def start(self):
        pass

    def alive(self):
        return True

    def use_database(self, dbname, create):
        self.conn = self.duckdb.connect()
        for name, value in self.settings:
            self.conn.execute(f"SET {name} = {value}")

    def reconnect(self):
        pass

    def close(self):
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def execute_script(self, statements):
        for statement in statements:
            words = statement.split()
            if words[0].upper() == "SET":  # session settings of PostgreSQL and DuetDB
                continue
            if words[:4] == ["DROP", "TABLE", "IF", "EXISTS"] and "," in statement:
                for table in " ".join(words[4:]).split(","):
                    self.conn.execute(f"DROP TABLE IF EXISTS {table.strip()}")
                continue
            self.conn.execute(statement)

    def load_file(self, table, path, delimiter):
        # The files hold no quotes or escapes (the generators write none), so CSV with the
        # text format's delimiter and NULL reads them as COPY's text format does.
        self.conn.execute(f"COPY {table} FROM '{path}' (FORMAT csv, DELIMITER '{delimiter}', NULL '\\N', HEADER false)")

    def analyze(self):
        pass

    def set_timeout(self, seconds):
        pass

    def query(self, sql, timeout):
        """Rows of sql; con.interrupt() after timeout seconds ends it."""
        watchdog = threading.Timer(timeout, self.conn.interrupt)
        watchdog.start()
        try:
            return self.conn.execute(sql).fetchall()
        except self.duckdb.InterruptException:
            raise QueryError("timeout", "", f"interrupted after {timeout:g} s") from None
        except self.duckdb.Error as e:
            raise QueryError("error", "", f"{type(e).__name__}: {str(e).splitlines()[0]}") from None
        finally:
            watchdog.cancel()
