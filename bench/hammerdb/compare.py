"""DuetDB against PostgreSQL 15 in one run: both servers started here (duetd on a scratch data
directory, a scratch PostgreSQL 15 with fsync on, both through bench/analytics/systems.py),
HammerDB's build of each variant on both, then HammerDB's timed run with synchronous_commit
on and off (set for the virtual users' sessions by libpq's startup options), servers taking
turns, then HammerDB's check. Prints NOPM and TPM per run as a Markdown table.
"""
import contextlib
import io
import os
import sys
import time

import build
import check
import driver
from build import Target
from pgtcl import HammerDBError

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "bench", "analytics"))
from systems import DuetSystem, PostgresSystem  # noqa: E402

VARIANTS = {"functions": (False, "tpcc"), "procedures": (True, "tpcc_sp")}
SETTINGS = ("select name, setting from pg_settings where name in "
            "('fsync', 'synchronous_commit', 'full_page_writes', 'wal_sync_method') order by name")


def add_parser(commands):
    sub = commands.add_parser("compare", help="DuetDB and PostgreSQL 15 in one run")
    sub.add_argument("--duetd", default=os.path.join(ROOT, "build", "bin", "duetd"))
    sub.add_argument("--warehouses", type=int, default=1)
    sub.add_argument("--vus", type=int, default=2)
    sub.add_argument("--rampup", type=float, default=10)
    sub.add_argument("--duration", type=float, default=60)
    sub.add_argument("--variants", default="functions,procedures")
    sub.add_argument("--sync", default="on,off", help="synchronous_commit values, in this order")
    sub.set_defaults(handler=run_compare)


def describe(name, target):
    """The server's version and durability settings, as it reports them."""
    lda = target.connect_superuser()
    try:
        version = lda.select("select version()")[0][0]
        result = lda.exec(SETTINGS)
        settings = ", ".join(f"{k}={v}" for k, v in result.rows) if result.ok("PGRES_TUPLES_OK") else result.message
        return f"{name}: {version}; {settings}"
    finally:
        lda.close()


def quiet_build(target, warehouses, storedprocs):
    """HammerDB's build with its progress lines kept back (shown if it fails)."""
    output = io.StringIO()
    started = time.monotonic()
    try:
        with contextlib.redirect_stdout(output):
            build.build(target, warehouses, storedprocs)
    except HammerDBError:
        print(output.getvalue())
        raise
    return time.monotonic() - started


def run_compare(args):
    servers = [("DuetDB", DuetSystem("127.0.0.1", None, [], args.duetd)),
               ("PostgreSQL 15", PostgresSystem("127.0.0.1", None, [], fsync=True))]
    rows, notes = [], []
    try:
        for _, server in servers:
            server.start()
        for name, server in servers:
            notes.append(describe(name, Target(host="127.0.0.1", port=server.port)))
        for variant in args.variants.split(","):
            storedprocs, db = VARIANTS[variant]
            for name, server in servers:
                seconds = quiet_build(Target(host="127.0.0.1", port=server.port, db=db), args.warehouses,
                                      storedprocs)
                notes.append(f"{name} {variant}: built W = {args.warehouses} in {seconds:.1f} s")
            for sync in args.sync.split(","):
                for name, server in servers:
                    rows.append((variant, sync, name) + timed_run(server.port, db, storedprocs, sync, args))
            for name, server in servers:
                passed = check.check(Target(host="127.0.0.1", port=server.port, db=db), args.warehouses)
                notes.append(f"{name} {variant}: check after the runs {'passed' if passed else 'FAILED'}")
    finally:
        for _, server in servers:
            server.close()
    print_table(rows, notes, args)
    return 0


def timed_run(port, db, storedprocs, sync, args):
    """One timed run; returns NOPM, TPM, the virtual users' calls per minute and errors."""
    target = Target(host="127.0.0.1", port=port, db=db, options=f"-c synchronous_commit={sync}")
    options = driver.Options(virtual_users=args.vus, storedprocs=storedprocs, rampup=args.rampup,
                             duration=args.duration)
    tally, measurement = driver.run(target, options)
    driver.print_tally(tally)
    return (measurement.nopm, measurement.tpm, round(tally.calls() * 60 / tally.seconds),
            sum(tally.failed.values()) + len(tally.fatal))


def print_table(rows, notes, args):
    print(f"\nHammerDB TPROC-C, W = {args.warehouses}, {args.vus} virtual users, rampup {args.rampup:g} s, "
          f"timed {args.duration:g} s\n")
    print("| variant | synchronous_commit | server | NOPM | TPM | calls/min (client) | errors |")
    print("|---|---|---|---|---|---|---|")
    for variant, sync, name, nopm, tpm, calls, errors in rows:
        print(f"| {variant} | {sync} | {name} | {nopm:,} | {tpm:,} | {calls:,} | {errors} |")
    by_run = {}
    for variant, sync, name, nopm, *_ in rows:
        by_run.setdefault((variant, sync), {})[name] = nopm
    print()
    for (variant, sync), nopm in by_run.items():
        if nopm.get("PostgreSQL 15"):
            print(f"{variant}, synchronous_commit {sync}: DuetDB's NOPM / PostgreSQL's = "
                  f"{nopm['DuetDB'] / nopm['PostgreSQL 15']:.3f}")
    print()
    for note in notes:
        print(note)
