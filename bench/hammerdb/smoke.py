"""The CI test (scripts/test.sh's hammerdb suite): at one warehouse, for each variant
(functions, then procedures) in a database of its own: HammerDB's build, its check, one
virtual user running a fixed number of transactions whose effect on the tables is checked
exactly, then the timed driver with several virtual users and the checks again. Drops what
it made at the end. Fails on any failed check, any unexpected error and any error of the
single virtual user; with several, transactions that concurrent ones aborted (deadlocks,
serialization failures, which PostgreSQL has) are counted, not failed.
"""
import time
from decimal import Decimal

import build
import check
import driver
import statements as sql
from build import Target
from pgtcl import HammerDBError

VARIANTS = [("functions", False, "hammerdb_functions"), ("procedures", True, "hammerdb_procedures")]

# Tables' totals before and after the single virtual user's transactions (the smoke test's
# own statements, not HammerDB's).
TOTALS = {
    "new_orders_issued": "select sum(d_next_o_id) from district",
    "orders": "select count(*) from orders",
    "undelivered_orders": "select count(*) from orders where o_carrier_id is null",
    "new_order_rows": "select count(*) from new_order",
    "order_lines": "select count(*) from order_line",
    "history_rows": "select count(*) from history",
    "warehouse_ytd": "select sum(w_ytd) from warehouse",
}


def add_parser(commands):
    sub = commands.add_parser("smoke", help="the CI test: both variants at W = 1 with checks")
    sub.add_argument("--host", default="127.0.0.1")
    sub.add_argument("--port", type=int, default=5432)
    sub.add_argument("--iterations", type=int, default=150, help="transactions of the single virtual user")
    sub.add_argument("--vus", type=int, default=2, help="virtual users of the timed run")
    sub.add_argument("--duration", type=float, default=5, help="seconds of the timed run")
    sub.add_argument("--seed", type=int, default=1)
    sub.set_defaults(handler=run_smoke)


def totals(target):
    lda = target.connect_superuser(target.db)
    try:
        return {name: Decimal(lda.select(query)[0][0]) for name, query in TOTALS.items()}
    finally:
        lda.close()


def expected_changes(tally):
    """What HammerDB's transactions must have changed, from the calls that succeeded: a
    New-Order adds an order, its NEW-ORDER row and its lines (its last item is 100001, which
    does not exist, in 1% of them: HammerDB's routines still insert that line, with no
    amount); a Payment adds a history row and its amount to W_YTD; a Delivery delivers the
    oldest order of each of the 10 districts (each has hundreds waiting)."""
    new_orders, deliveries = tally.succeeded["neword"], tally.succeeded["delivery"]
    return {"new_orders_issued": new_orders, "orders": new_orders,
            "undelivered_orders": new_orders - 10 * deliveries, "new_order_rows": new_orders - 10 * deliveries,
            "order_lines": tally.order_lines, "history_rows": tally.succeeded["payment"],
            "warehouse_ytd": tally.payment_amount}


def single_user(target, storedprocs, iterations, seed):
    """One virtual user, `iterations` transactions, no errors, exact effects. Returns the
    failures."""
    before = totals(target)
    options = driver.Options(virtual_users=1, storedprocs=storedprocs, iterations=iterations, seed=seed)
    tally, _ = driver.run(target, options)
    driver.print_tally(tally)
    after = totals(target)
    failures = [f"single virtual user: {n} x {state} {message}" for (state, message), n in tally.errors.items()]
    failures += [f"single virtual user ended: {message}" for message in tally.fatal]
    if tally.calls() != iterations:
        failures.append(f"single virtual user made {tally.calls()} calls, not {iterations}")
    for name, change in expected_changes(tally).items():
        if after[name] - before[name] != change:
            failures.append(f"{name}: changed by {after[name] - before[name]}, the calls that succeeded "
                            f"make it {change}")
    return failures


def timed_users(target, storedprocs, virtual_users, duration, seed):
    """HammerDB's timed run with several virtual users. Returns the failures."""
    options = driver.Options(virtual_users=virtual_users, storedprocs=storedprocs, duration=duration, seed=seed)
    tally, measurement = driver.run(target, options)
    driver.print_tally(tally)
    failures = [f"timed run: {n} x {state} {message}" for (state, message), n in tally.errors.items()
                if state not in driver.CONCURRENCY_SQLSTATES]
    failures += [f"timed run: virtual user ended: {message}" for message in tally.fatal]
    if measurement.nopm <= 0 or measurement.tpm <= 0:
        failures.append(f"timed run: {measurement.nopm} NOPM, {measurement.tpm} TPM")
    return failures


def one_variant(host, port, name, storedprocs, db, args):
    """Build, check, single user, timed users, check. Returns the failures."""
    target = Target(host=host, port=port, db=db)
    print(f"=== {name}: build ({db})")
    started = time.monotonic()
    build.build(target, 1, storedprocs, args.seed)
    print(f"built in {time.monotonic() - started:.1f} s")
    failures = []
    steps = [("check after the build", lambda: [] if check.check(target, 1) else ["check after the build"]),
             ("one virtual user", lambda: single_user(target, storedprocs, args.iterations, args.seed)),
             (f"{args.vus} virtual users, {args.duration:g} s",
              lambda: timed_users(target, storedprocs, args.vus, args.duration, args.seed)),
             ("check after the runs", lambda: [] if check.check(target, 1) else ["check after the runs"])]
    for title, step in steps:
        print(f"=== {name}: {title}")
        started = time.monotonic()
        step_failures = step()
        print(f"--- {name}: {title}: {'ok' if not step_failures else 'FAILED'} ({time.monotonic() - started:.1f} s)")
        failures += [f"{name}: {failure}" for failure in step_failures]
    return failures


def drop_leftovers(target, databases):
    """Drops what an earlier, interrupted run left (DROP ... IF EXISTS: not HammerDB's)."""
    suconnect = target.connect_superuser()
    try:
        for db in databases:
            suconnect.exec(f"DROP DATABASE IF EXISTS {db}")
        suconnect.exec(f"DROP ROLE IF EXISTS {target.user}")
    finally:
        suconnect.close()


def drop_schemas(target, databases):
    """drop_schema's statements: the databases, then the role."""
    suconnect = target.connect_superuser()
    try:
        statements = [sql.fill(sql.DROP_DATABASE, dbase=db) for db in databases]
        failures = []
        for statement in statements + [sql.fill(sql.DROP_ROLE, user=target.user)]:
            result = suconnect.exec(statement)
            if not result.ok("PGRES_COMMAND_OK"):
                failures.append(f"{statement}: {result.error}")
        return failures
    finally:
        suconnect.close()


def run_smoke(args):
    started = time.monotonic()
    admin = Target(host=args.host, port=args.port)
    databases = [db for _, _, db in VARIANTS]
    failures = []
    try:
        drop_leftovers(admin, databases)
        for name, storedprocs, db in VARIANTS:
            failures += one_variant(args.host, args.port, name, storedprocs, db, args)
        failures += drop_schemas(admin, databases)
    except HammerDBError as e:
        failures.append(f"stopped: {e}")
    print("=== summary")
    for failure in failures:
        print(f"FAILED: {failure}")
    print(f"hammerdb smoke test: {'FAILED' if failures else 'passed'} in {time.monotonic() - started:.0f} s")
    return 1 if failures else 0
