"""HammerDB's schema check (check_tpcc in pgoltp.tcl) as the superuser: the database, its
tables, their indexes and row counts, the five routines, then TPC-C's consistency
conditions 1-4 as HammerDB writes them, over the warehouses of a temporary table temp_w.
Then bench/tpcc/check.py, the conditions as the specification states them (condition 2
there also compares max(NO_O_ID)).

Two differences from HammerDB, both stricter: a check statement that fails is a failure
(HammerDB reads a failed consistency query's zero rows as passed, and does not look at the
temporary table's statements at all), and every problem is listed instead of the first
ending the check.
"""
import os
import subprocess
import sys

import statements as sql
from pgtcl import HammerDBError

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
ROUTINES = ["delivery", "neword", "ostat", "payment", "slev"]


def expected_rows(count_ware):
    """check_tpcc's dict of tables and their least row counts, in its order."""
    return {"warehouse": count_ware, "customer": count_ware * 30000, "district": count_ware * 10,
            "history": count_ware * 30000, "item": 100000, "new_order": count_ware * 9000 * 0.90,
            "order_line": count_ware * 300000 * 0.99, "orders": count_ware * 30000, "stock": count_ware * 100000}


def temp_w_values(w_id_input):
    """The warehouses check_tpcc samples: all of up to 10, else 1, tenths, and the last
    (Tcl's expr writes the tenths as doubles, 10.0 for 0.1 * 100)."""
    if w_id_input <= 10:
        return list(range(1, w_id_input + 1))
    return [1] + [repr(tenth / 10 * w_id_input) for tenth in range(1, 10)] + [w_id_input]


def check_tables(db, dbase, count_ware):
    """Checks 2, 4 and 5 of check_tpcc, and the warehouse count; returns the problems and
    max(w_id)."""
    problems = []
    w_id_input = None
    for table, least in expected_rows(count_ware).items():
        if db.select(sql.fill(sql.CHECK_TABLE_EXISTS, table=table)) != [("t",)]:
            problems.append(f"{dbase} schema is missing table {table}")
            continue
        if table == "warehouse":
            w_id_input = int(db.select(sql.MAX_W_ID)[0][0])
            if w_id_input != count_ware:
                problems.append(f"{dbase} schema warehouse count {w_id_input} does not equal {count_ware}")
        if not db.select(sql.fill(sql.CHECK_TABLE_INDEXES, table=table)) and table != "history":
            problems.append(f"{dbase} schema on table {table} no indices")
        rows = int(db.select(sql.fill(sql.CHECK_ROW_COUNT, table=table))[0][0])
        if rows < least:
            problems.append(f"{dbase} schema on table {table} row count of {rows} is less than expected count "
                            f"of {least}")
    return problems, w_id_input


def check_consistency(db, dbase, w_id_input):
    """check_tpcc's temp_w and consistency checks 1-4."""
    problems = []
    setup = [sql.CREATE_TEMP_W] + [sql.fill(sql.INSERT_TEMP_W, i=i) for i in temp_w_values(w_id_input)]
    for statement in setup:
        result = db.exec(statement)
        if not result.ok("PGRES_COMMAND_OK"):
            problems.append(f"{statement}: {result.error}")
    for number, statement in enumerate(sql.CONSISTENCY, start=1):
        print(f"Check consistency {number}")
        result = db.exec(statement)
        if not result.ok("PGRES_TUPLES_OK"):
            problems.append(f"consistency check {number} failed to run: {result.error}")
        elif result.rows:
            problems.append(f"{dbase} schema consistency check {number} failed: {result.rows[:5]}")
    result = db.exec(sql.DROP_TEMP_W)
    if not result.ok("PGRES_COMMAND_OK"):
        problems.append(f"{sql.DROP_TEMP_W}: {result.error}")
    return problems


def check_tpcc(target, count_ware):
    """check_tpcc: returns the problems found (none: the schema passed)."""
    print(f"Checking {target.db} TPROC-C schema")
    suconnect = target.connect_superuser()
    try:
        print("Check database")
        if not suconnect.exec(sql.fill(sql.CHECK_DATABASE, dbase=target.db)).rows:
            return [f"Schema check failed {target.db} TPROC-C schema does not exist"]
        db = target.connect_superuser(target.db)
        try:
            if not db.exec(sql.PUBLIC_TABLES).rows:
                return [f"TPROC-C Schema check failed {target.db} schema is empty"]
            print("Check tables and indices")
            problems, w_id_input = check_tables(db, target.db, count_ware)
            print("Check routines")
            for routine in ROUTINES:
                if db.select(sql.fill(sql.CHECK_ROUTINE_EXISTS, sp=routine)) != [("t",)]:
                    problems.append(f"{target.db} schema is missing routine {routine}")
            if w_id_input is not None:
                problems += check_consistency(db, target.db, w_id_input)
        finally:
            db.close()
    except HammerDBError as e:
        return [f"check_tpcc stopped: {e}"]
    finally:
        suconnect.close()
    if not problems:
        print(f"{target.db} TPROC-C Schema has been checked successfully.")
    return problems


def check_conditions(target):
    """bench/tpcc/check.py on the database: True when conditions 1-4 hold."""
    command = [sys.executable, os.path.join(ROOT, "bench", "tpcc", "check.py"), "--host", target.host,
               "--port", str(target.port), "--dbname", target.db, "--user", target.superuser]
    return subprocess.run(command).returncode == 0


def check(target, count_ware):
    """Both checks; prints the problems; True when there are none."""
    problems = check_tpcc(target, count_ware)
    for problem in problems:
        print(f"TPROC-C Schema check failed: {problem}")
    conditions_hold = check_conditions(target)
    return not problems and conditions_hold
