#!/usr/bin/env python3
"""HammerDB's PostgreSQL TPROC-C, unchanged, without Tcl (bench/hammerdb/README.md).

  hammerdb.py build   [connection] [--warehouses W] [--storedprocs]
  hammerdb.py run     [connection] [--vus N] [--rampup S] [--duration S] [--iterations N]
                      [--storedprocs] [--raiseerror] [--keyandthink] [--vacuum]
  hammerdb.py check   [connection] [--warehouses W]
  hammerdb.py drop    [connection]
  hammerdb.py smoke   [--host H] [--port P]   (both variants at W = 1, checks; exit 1 on a failure)
  hammerdb.py compare [--duetd PATH] [--vus N] [--rampup S] [--duration S] [--variants ...] [--sync ...]

connection: --host, --port, --db, --user, --password, --superuser, --superuser-password,
--default-db, --options (libpq startup options, e.g. "-c synchronous_commit=off"). Defaults are
HammerDB's (database and user tpcc, superuser postgres), on 127.0.0.1:5432.
"""
import argparse
import sys
import time

import build
import check
import compare
import driver
import smoke
import statements as sql
from build import Target
from pgtcl import HammerDBError


def add_connection(parser):
    defaults = Target()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=defaults.port)
    parser.add_argument("--sslmode", default=defaults.sslmode)
    parser.add_argument("--db", default=defaults.db)
    parser.add_argument("--user", default=defaults.user)
    parser.add_argument("--password", default=defaults.password)
    parser.add_argument("--superuser", default=defaults.superuser)
    parser.add_argument("--superuser-password", default=defaults.superuser_password)
    parser.add_argument("--default-db", default=defaults.default_db)
    parser.add_argument("--options", default="", help="libpq startup options for every connection")


def target_of(args):
    return Target(args.host, args.port, args.sslmode, args.superuser, args.superuser_password, args.default_db,
                  args.user, args.password, args.db, args.options)


def add_run_options(parser):
    parser.add_argument("--vus", type=int, default=1, help="virtual users (the monitor not counted)")
    parser.add_argument("--rampup", type=float, default=0, help="seconds before the first count")
    parser.add_argument("--duration", type=float, help="timed seconds; none: no monitor, only --iterations")
    parser.add_argument("--iterations", type=int, default=10000000, help="transactions per virtual user")
    parser.add_argument("--storedprocs", action="store_true", help="call the procedures (detection may switch)")
    parser.add_argument("--raiseerror", action="store_true", help="a failed transaction ends its virtual user")
    parser.add_argument("--keyandthink", action="store_true", help="HammerDB's keying and thinking times")
    parser.add_argument("--vacuum", action="store_true", help="checkpoint and vacuum after the timed period")
    parser.add_argument("--seed", type=int, help="seed of the virtual users' generators")


def options_of(args):
    return driver.Options(args.vus, args.storedprocs, args.iterations, args.rampup, args.duration,
                          args.raiseerror, args.keyandthink, args.vacuum, args.seed)


def command_build(args):
    started = time.monotonic()
    build.build(target_of(args), args.warehouses, args.storedprocs, args.seed)
    print(f"schema built in {time.monotonic() - started:.1f} s")
    return 0


def command_run(args):
    tally, measurement = driver.run(target_of(args), options_of(args))
    driver.print_tally(tally)
    return 1 if tally.fatal else 0


def command_check(args):
    return 0 if check.check(target_of(args), args.warehouses) else 1


def command_drop(args):
    """drop_schema: drop database $dbase, then drop role $user, as the superuser."""
    target = target_of(args)
    suconnect = target.connect_superuser()
    try:
        for statement in (sql.fill(sql.DROP_DATABASE, dbase=target.db), sql.fill(sql.DROP_ROLE, user=target.user)):
            build.require(suconnect.exec(statement), "PGRES_COMMAND_OK")
            print(f"{statement}: done")
    finally:
        suconnect.close()
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    for name, handler in (("build", command_build), ("run", command_run), ("check", command_check),
                          ("drop", command_drop)):
        sub = commands.add_parser(name)
        add_connection(sub)
        sub.set_defaults(handler=handler)
        if name == "build":
            sub.add_argument("--warehouses", type=int, default=1)
            sub.add_argument("--storedprocs", action="store_true", help="procedures instead of functions")
            sub.add_argument("--seed", type=int, help="seed of the generated data")
        if name == "check":
            sub.add_argument("--warehouses", type=int, default=1)
        if name == "run":
            add_run_options(sub)
    smoke.add_parser(commands)
    compare.add_parser(commands)
    args = parser.parse_args()
    try:
        return args.handler(args)
    except HammerDBError as e:
        print(f"Error: {e}")
        return 1


if __name__ == "__main__":
    sys.exit(main())
