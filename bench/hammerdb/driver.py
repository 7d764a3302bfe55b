"""HammerDB's PostgreSQL TPROC-C driver (the timed script of pgoltp.tcl, loadtimedpgtpcc):
a monitor (HammerDB's virtual user 1) that counts transactions and new orders over the timed
period, and N virtual users, each a thread with its own connection running HammerDB's
transaction mix with its inputs, statements and error handling.

With no timed period (duration None) there is no monitor, as in HammerDB's test script
(loadpgtpcc): the virtual users run their iterations and stop.
"""
import collections
import math
import threading
import time
from dataclasses import dataclass, field

import statements as sql
from pgtcl import HammerDBError
from tpcc_random import TclRandom, last_name

TRANSACTIONS = ["neword", "payment", "delivery", "slev", "ostat"]
# The SQLSTATEs of transactions that concurrent ones aborted: deadlock_detected and
# serialization_failure, and invalid_transaction_termination, which is what HammerDB's
# functions raise when their `EXCEPTION WHEN serialization_failure OR deadlock_detected ...
# THEN ROLLBACK` handler runs (a function cannot roll back).
CONCURRENCY_SQLSTATES = {"40P01", "40001", "2D000"}


@dataclass
class Options:
    """The driver script's settings (HammerDB's defaults: 10000000 iterations, RAISEERROR
    and KEYANDTHINK false, no vacuum; rampup and duration in seconds here, minutes there)."""

    virtual_users: int = 1
    storedprocs: bool = False
    iterations: int = 10000000
    rampup: float = 0
    duration: float | None = None
    raiseerror: bool = False
    keyandthink: bool = False
    vacuum: bool = False
    seed: int | None = None


@dataclass
class Tally:
    """What the virtual users did: calls that succeeded and failed per transaction, the
    order lines of the New-Orders and the amounts of the Payments that succeeded, the
    errors by SQLSTATE and message, and errors that ended a virtual user."""

    succeeded: collections.Counter = field(default_factory=collections.Counter)
    failed: collections.Counter = field(default_factory=collections.Counter)
    order_lines: int = 0
    payment_amount: int = 0
    errors: collections.Counter = field(default_factory=collections.Counter)
    fatal: list = field(default_factory=list)
    seconds: float = 0  # from the virtual users' start to the end of the last
    lock: threading.Lock = field(default_factory=threading.Lock)

    def calls(self):
        return sum(self.succeeded.values()) + sum(self.failed.values())


@dataclass
class Measurement:
    """The monitor's figures, as HammerDB computes them."""

    tpm: int
    nopm: int


def gettimestamp():
    """gettimestamp: clock format [clock seconds] -format %Y%m%d%H%M%S."""
    return time.strftime("%Y%m%d%H%M%S")


class VirtualUser:
    """One of HammerDB's virtual users (the `default` branch of the timed script)."""

    def __init__(self, target, options, tally, abort, seed):
        self.target = target
        self.options = options
        self.tally = tally
        self.abort = abort
        self.rnd = TclRandom(seed)
        self.lda = None
        self.storedprocs = options.storedprocs
        self.w_id = self.w_id_input = self.stock_level_d_id = None

    def run(self):
        try:
            self.connect()
            for _ in range(self.options.iterations):
                if self.abort.is_set():
                    break
                self.one_transaction()
        except HammerDBError as e:  # Tcl's `error`: the virtual user ends with it
            with self.tally.lock:
                self.tally.fatal.append(str(e))
            print(f"Virtual user error: {e}")
        finally:
            if self.lda is not None:
                self.lda.close()

    def connect(self):
        """ConnectToPostgres, detect_pg_tpcc_routine_mode, fn_prep_statement, then the
        terminal's warehouse and Stock-Level district."""
        self.lda = self.target.connect_user()
        self.storedprocs = detect_routine_mode(self.lda, self.storedprocs)
        if not self.storedprocs:
            for statement in sql.PREPARE.values():
                result = self.lda.exec(statement)
                if not result.ok("PGRES_TUPLES_OK", "PGRES_COMMAND_OK"):
                    raise HammerDBError(result.error)
        self.w_id_input = int(self.lda.select(sql.MAX_W_ID)[0][0])
        # 2.4.1.1 set warehouse_id stays constant for a given terminal
        self.w_id = self.rnd.random_number(1, self.w_id_input)
        d_id_input = int(self.lda.select(sql.MAX_D_ID)[0][0])
        self.stock_level_d_id = self.rnd.random_number(1, d_id_input)

    def one_transaction(self):
        """The mix: RandomNumber 1 23, 10/23 New-Order, 10/23 Payment, 1/23 each of
        Delivery, Stock-Level and Order-Status, with keying and thinking times if set."""
        choice = self.rnd.random_number(1, 23)
        if choice <= 10:
            self.keyed(18, 12, self.neword)
        elif choice <= 20:
            self.keyed(3, 12, self.payment)
        elif choice <= 21:
            self.keyed(2, 10, self.delivery)
        elif choice <= 22:
            self.keyed(2, 5, self.slev)
        else:
            self.keyed(2, 5, self.ostat)

    def keyed(self, keying, thinking, transaction):
        """keytime and thinktime around a transaction when KEYANDTHINK is set."""
        if self.options.keyandthink:
            time.sleep(keying)
        transaction()
        if self.options.keyandthink:
            time.sleep(abs(round(math.log(1.0 - self.rnd.rng.random()) * thinking)))  # Tcl's rand() is never 0

    def neword(self):
        no_d_id = self.rnd.random_number(1, 10)
        no_c_id = self.rnd.random_number(1, 3000)
        ol_cnt = self.rnd.random_number(5, 15)
        date = gettimestamp()
        if self.storedprocs:
            result = self.lda.exec(sql.fill(sql.CALL_NEWORD, no_w_id=self.w_id, w_id_input=self.w_id_input,
                                            no_d_id=no_d_id, no_c_id=no_c_id, ol_cnt=ol_cnt, date=date))
        else:
            result = self.lda.exec_prepared("neword", self.w_id, self.w_id_input, no_d_id, no_c_id, ol_cnt)
        if self.record("neword", "New Order", result, "PGRES_TUPLES_OK"):
            with self.tally.lock:
                self.tally.order_lines += ol_cnt

    def payment(self):
        p_w_id = self.w_id
        p_d_id = self.rnd.random_number(1, 10)
        x = self.rnd.random_number(1, 100)
        y = self.rnd.random_number(1, 100)
        if x <= 85:
            p_c_d_id, p_c_w_id = p_d_id, p_w_id
        else:  # a remote warehouse
            p_c_d_id = self.rnd.random_number(1, 10)
            p_c_w_id = self.rnd.random_number(1, self.w_id_input)
            while p_c_w_id == p_w_id and self.w_id_input != 1:
                p_c_w_id = self.rnd.random_number(1, self.w_id_input)
        name = last_name(self.rnd.nurand(255, 0, 999, 123))
        p_c_id = self.rnd.random_number(1, 3000)
        if y <= 60:
            byname = 1
        else:
            byname, name = 0, ""
        p_h_amount = self.rnd.random_number(1, 5000)
        h_date = gettimestamp()
        if self.storedprocs:
            result = self.lda.exec(sql.fill(sql.CALL_PAYMENT, p_w_id=p_w_id, p_d_id=p_d_id, p_c_w_id=p_c_w_id,
                                            p_c_d_id=p_c_d_id, byname=byname, p_h_amount=p_h_amount, name=name,
                                            p_c_id=p_c_id, h_date=h_date))
        else:
            result = self.lda.exec_prepared("payment", p_w_id, p_d_id, p_c_w_id, p_c_d_id, p_c_id, byname,
                                            p_h_amount, name)
        if self.record("payment", "Payment", result, "PGRES_TUPLES_OK"):
            with self.tally.lock:
                self.tally.payment_amount += p_h_amount

    def ostat(self):
        d_id = self.rnd.random_number(1, 10)
        name = last_name(self.rnd.nurand(255, 0, 999, 123))
        c_id = self.rnd.random_number(1, 3000)
        y = self.rnd.random_number(1, 100)
        if y <= 60:
            byname = 1
        else:
            byname, name = 0, ""
        if self.storedprocs:
            result = self.lda.exec(sql.fill(sql.CALL_OSTAT, w_id=self.w_id, d_id=d_id, c_id=c_id, byname=byname,
                                            name=name, date=gettimestamp()))
        else:
            result = self.lda.exec_prepared("ostat", self.w_id, d_id, c_id, byname, name)
        self.record("ostat", "Order Status", result, "PGRES_TUPLES_OK")

    def delivery(self):
        carrier_id = self.rnd.random_number(1, 10)
        date = gettimestamp()
        if self.storedprocs:
            result = self.lda.exec(sql.fill(sql.CALL_DELIVERY, w_id=self.w_id, carrier_id=carrier_id, date=date))
        else:
            result = self.lda.exec_prepared("delivery", self.w_id, carrier_id)
        self.record("delivery", "Delivery", result, "PGRES_TUPLES_OK", "PGRES_COMMAND_OK")

    def slev(self):
        threshold = self.rnd.random_number(10, 20)
        if self.storedprocs:
            result = self.lda.exec(sql.fill(sql.CALL_SLEV, w_id=self.w_id, stock_level_d_id=self.stock_level_d_id,
                                            threshold=threshold))
        else:
            result = self.lda.exec_prepared("slev", self.w_id, self.stock_level_d_id, threshold)
        self.record("slev", "Stock Level", result, "PGRES_TUPLES_OK", "PGRES_COMMAND_OK")

    def record(self, transaction, title, result, *statuses):
        """HammerDB's check of a transaction's status: with RAISEERROR the error ends the
        virtual user, without it HammerDB prints "... Procedure Error set RAISEERROR for
        Details" and goes on. The error is also counted (HammerDB does not count)."""
        if result.ok(*statuses):
            with self.tally.lock:
                self.tally.succeeded[transaction] += 1
            return True
        with self.tally.lock:
            self.tally.failed[transaction] += 1
            self.tally.errors[(result.sqlstate, f"{transaction}: {result.message or result.status}")] += 1
        if self.options.raiseerror:
            raise HammerDBError(result.error)
        return False


def detect_routine_mode(lda, requested):
    """detect_pg_tpcc_routine_mode: functions or procedures, by what the schema has."""
    try:
        counts = dict(lda.select(sql.ROUTINE_MODE))
    except HammerDBError as e:
        print(f"PostgreSQL TPROC-C: routine detection failed ({e}), keeping pg_storedprocs={tcl_bool(requested)}")
        return requested
    functions, procedures = int(counts.get("f", 0)), int(counts.get("p", 0))
    if functions == 5 and procedures == 0:
        if requested:
            print("PostgreSQL TPROC-C: stored procedures requested, but functions found. "
                  "Auto-switching pg_storedprocs to false.")
        return False
    if procedures == 5 and functions == 0:
        if not requested:
            print("PostgreSQL TPROC-C: functions requested, but stored procedures found. "
                  "Auto-switching pg_storedprocs to true.")
        return True
    if functions != 5 or procedures != 5:
        print(f"PostgreSQL TPROC-C: incomplete routine set detected (functions={functions} "
              f"procedures={procedures}), keeping pg_storedprocs={tcl_bool(requested)}")
    return requested


def tcl_bool(value):
    return "true" if value else "false"


def counts_now(lda1):
    """The monitor's two counts: transactions (pg_stat_database) and sum(d_next_o_id)."""
    transactions = int(lda1.select(sql.TRANSACTION_COUNT)[0][0])
    new_orders = int(lda1.select(sql.NEW_ORDER_COUNT)[0][0])
    return transactions, new_orders


def monitor(target, options, abort):
    """Virtual user 1 of the timed script: rampup, the counts, the timed period, the counts
    again; TPM and NOPM per minute of the period (HammerDB divides by its whole minutes,
    this by the seconds / 60, rounding down as Tcl's integer division does). Sets abort at
    the end, and runs checkpoint and vacuum when asked to."""
    lda = target.connect_superuser() if options.vacuum else None
    lda1 = target.connect_user()
    try:
        rows = lda1.exec(sql.SERVER_VERSION).rows
        version = rows[0][0] if rows else "NULL"
        print(f"DBVersion:{version}")
        print(f"Beginning rampup time of {options.rampup:g} seconds")
        abort.wait(options.rampup)
        print("Rampup complete, Taking start Transaction Count.")
        start_trans, start_nopm = counts_now(lda1)
        print(f"Timing test period of {options.duration:g} seconds")
        abort.wait(options.duration)
        print("Test complete, Taking end Transaction Count.")
        end_trans, end_nopm = counts_now(lda1)
        minutes = options.duration / 60
        measurement = Measurement(int((end_trans - start_trans) / minutes), int((end_nopm - start_nopm) / minutes))
        print(f"{options.virtual_users} Active Virtual Users configured")
        print(f"TEST RESULT : System achieved {measurement.nopm} NOPM from {measurement.tpm} PostgreSQL TPM")
        abort.set()
        if lda is not None:
            print("Checkpoint and Vacuum")
            for connection, statement in ((lda, sql.CHECKPOINT), (lda1, sql.VACUUM)):
                result = connection.exec(statement)
                if not result.ok("PGRES_TUPLES_OK", "PGRES_COMMAND_OK"):
                    raise HammerDBError(result.error)
            print("Checkpoint and Vacuum Complete")
        return measurement
    finally:
        abort.set()
        lda1.close()
        if lda is not None:
            lda.close()


def run(target, options):
    """Runs the virtual users (and the monitor when there is a timed period). Returns the
    tally and the measurement (None without a timed period)."""
    tally = Tally()
    abort = threading.Event()
    base_seed = options.seed if options.seed is not None else time.time_ns()
    users = [VirtualUser(target, options, tally, abort, base_seed + n) for n in range(1, options.virtual_users + 1)]
    threads = [threading.Thread(target=user.run, name=f"vu{n}") for n, user in enumerate(users, start=2)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    measurement = None
    try:
        if options.duration is not None:
            measurement = monitor(target, options, abort)
        for thread in threads:
            thread.join()
    except BaseException:
        abort.set()
        for thread in threads:
            thread.join()
        raise
    tally.seconds = time.monotonic() - started
    return tally, measurement


def print_tally(tally):
    """The virtual users' calls per transaction and per minute (rampup included), and the
    errors, most frequent first."""
    print(f"virtual users' calls: {tally.calls()} in {tally.seconds:.1f} s ({tally.calls() * 60 / tally.seconds:.0f} "
          "per minute); "
          + ", ".join(f"{t} {tally.succeeded[t]} ok / {tally.failed[t]} failed" for t in TRANSACTIONS))
    for (state, message), n in tally.errors.most_common(10):
        print(f"  {n} x {state} {message}")
    for message in tally.fatal:
        print(f"  virtual user ended: {message}")
