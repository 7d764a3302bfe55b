"""The two analytic workloads: TPC-H (bench/tpch) and CH-benCHmark (bench/ch over bench/tpcc's
schema). Each has its queries, its schema, its data files and the database it loads into.

Data files are delimited text that COPY's text format and DuckDB's CSV reader both take, kept in
a cache folder so that a second run loads without generating again:
- TPC-H: tpchgen-cli's .tbl files with the trailing '|' of each line removed (TABLE.dat).
- CH: bench/tpcc's loader (build/bin/duet_tpcc_load) fills a server once, and its tables are
  dumped with COPY TO STDOUT (TABLE.dat, tab-delimited). Every system then loads the same rows,
  timestamps included (the loader stamps rows with the load's start time).
"""
import glob
import os
import re
import shutil
import subprocess
import sys

from systems import ROOT, sql_statements

SORT_RE = re.compile(r"^--\s*sort:\s*(.+)$", re.MULTILINE)


class Query:
    def __init__(self, name, path):
        self.name = name  # "q01"
        self.number = int(name[1:])
        with open(path) as f:
            self.sql = f.read().strip().rstrip(";")
        # "-- sort: 2 desc, 1": the output columns (1-based) ORDER BY sorts on, so that a
        # result's order can be checked; no such line: the order is not checked.
        m = SORT_RE.search(self.sql)
        self.sort = []
        if m:
            for item in m.group(1).split(","):
                words = item.split()
                self.sort.append((int(words[0]) - 1, len(words) > 1 and words[1].lower() == "desc"))


def load_queries(folder):
    return [Query(os.path.basename(p)[:-4], p) for p in sorted(glob.glob(os.path.join(folder, "q[0-9][0-9].sql")))]


def read_expected_pass(path):
    """Query numbers listed in an expected-to-pass file ('#' starts a comment)."""
    numbers = set()
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                numbers.update(int(w.lstrip("qQ")) for w in line.split("#", 1)[0].split())
    return numbers


class TpchWorkload:
    name = "tpch"
    dbname = "tpch"
    folder = os.path.join(ROOT, "bench", "tpch")
    tables = ["region", "nation", "part", "supplier", "partsupp", "customer", "orders", "lineitem"]
    delimiter = "|"

    def __init__(self, args):
        self.scale = args.scale
        self.data_dir = args.data_dir or f"/tmp/duet-tpch-sf{self.scale:g}"

    def describe(self):
        return f"TPC-H SF {self.scale:g}"

    def schema(self):
        with open(os.path.join(self.folder, "schema.sql")) as f:
            return sql_statements(f.read())

    def tpchgen(self):
        exe = shutil.which("tpchgen-cli", path=os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])
        if exe is None:
            print("installing tpchgen-cli into", sys.prefix, file=sys.stderr)
            subprocess.run([sys.executable, "-m", "pip", "install", "-q", "tpchgen-cli"], check=True)
            exe = os.path.join(os.path.dirname(sys.executable), "tpchgen-cli")
        return exe

    def ensure_data(self, servers):
        """Generates the .dat files unless the cache folder has them all."""
        if all(os.path.exists(self.path(t)) for t in self.tables):
            return
        os.makedirs(self.data_dir, exist_ok=True)
        print(f"generating TPC-H SF {self.scale:g} into {self.data_dir}", file=sys.stderr)
        subprocess.run([self.tpchgen(), "-s", f"{self.scale:g}", "-o", self.data_dir, "--overwrite"], check=True)
        for table in self.tables:
            tbl = os.path.join(self.data_dir, f"{table}.tbl")
            with open(tbl, "rb") as src, open(self.path(table) + ".tmp", "wb") as dst:
                while lines := src.readlines(1 << 22):
                    dst.write(b"".join(line[:-2] + b"\n" if line.endswith(b"|\n") else line for line in lines))
            os.rename(self.path(table) + ".tmp", self.path(table))
            os.remove(tbl)

    def path(self, table):
        return os.path.join(self.data_dir, f"{table}.dat")


class ChWorkload:
    name = "ch"
    dbname = "ch"
    folder = os.path.join(ROOT, "bench", "ch")
    tables = ["warehouse", "district", "customer", "history", "new_order", "orders", "order_line", "item",
              "stock", "supplier", "nation", "region"]
    delimiter = "\t"

    def __init__(self, args):
        self.warehouses = args.warehouses
        self.loader = args.loader
        self.data_dir = args.data_dir or f"/tmp/duet-ch-w{self.warehouses}"

    def describe(self):
        return f"CH-benCHmark W {self.warehouses}"

    def schema(self):
        with open(os.path.join(ROOT, "bench", "tpcc", "schema.sql")) as f:
            return sql_statements(f.read())

    def ensure_data(self, servers):
        """Dumps the tables of a fresh bench/tpcc load unless the cache folder has them all.
        servers: the running server systems; the first one takes the load (a scratch
        PostgreSQL is started when there is none)."""
        if all(os.path.exists(self.path(t)) for t in self.tables):
            return
        if not os.access(self.loader, os.X_OK):
            sys.exit(f"no loader at {self.loader}: build it (cmake --build build --target duet_tpcc_load)")
        from systems import PostgresSystem  # here to keep the import order plain

        scratch = None
        if servers:
            server = servers[0]
        else:
            scratch = server = PostgresSystem("127.0.0.1", None, [])
            server.start()
        try:
            print(f"generating CH W {self.warehouses} through {server.name} into {self.data_dir}", file=sys.stderr)
            server.use_database(self.dbname, create=True)
            server.execute_script(self.schema())
            subprocess.run([self.loader, "--host", server.host, "--port", str(server.port), "--dbname",
                            self.dbname, "--warehouses", str(self.warehouses), "--threads", "2"],
                           check=True, stdout=subprocess.DEVNULL)
            os.makedirs(self.data_dir, exist_ok=True)
            for table in self.tables:
                server.dump_table(table, self.path(table) + ".tmp")
                os.rename(self.path(table) + ".tmp", self.path(table))
        finally:
            if scratch is not None:
                scratch.close()

    def path(self, table):
        return os.path.join(self.data_dir, f"{table}.dat")


WORKLOADS = {"tpch": TpchWorkload, "ch": ChWorkload}
