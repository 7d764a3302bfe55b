#!/usr/bin/env python3
"""TPC-C consistency conditions 1-4 (specification 5.11, clauses 3.3.2.1 to 3.3.2.4).

  check.py [--host 127.0.0.1] [--port 5432] [--dbname tpcc] [--user postgres]

Prints one line per condition and exits 1 if any is broken, naming the warehouses and
districts where it broke. Each condition compares aggregates of two tables per district;
the aggregates come from plain single-table GROUP BY queries (which DuetDB runs today: it
has no subqueries or outer joins yet) and are compared here.
"""
import argparse
import sys

import psycopg


def grouped(conn, sql):
    """Runs a query whose first two columns are (warehouse, district); returns a dict from
    that pair to the remaining columns (a single value stays unwrapped)."""
    result = {}
    for row in conn.execute(sql):
        rest = row[2:]
        result[(row[0], row[1])] = rest[0] if len(rest) == 1 else rest
    return result


def place(key):
    return f"warehouse {key[0]} district {key[1]}"


def condition_1(conn):
    """W_YTD = sum(D_YTD) for each warehouse."""
    w_ytd = dict(conn.execute("SELECT w_id, w_ytd FROM warehouse").fetchall())
    d_ytd = dict(conn.execute("SELECT d_w_id, sum(d_ytd) FROM district GROUP BY d_w_id").fetchall())
    return [f"warehouse {w}: w_ytd {w_ytd[w]} <> sum(d_ytd) {d_ytd.get(w)}"
            for w in sorted(w_ytd) if w_ytd[w] != d_ytd.get(w)]


def condition_2(districts, orders, new_orders):
    """D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID) for each district. A district whose
    NEW-ORDER rows have all been delivered has no max(NO_O_ID); only the first equality
    applies to it."""
    broken = []
    for key, next_o_id in sorted(districts.items()):
        max_o_id = orders[key][0] if key in orders else None
        max_no_o_id = new_orders[key][0] if key in new_orders else max_o_id
        if not next_o_id - 1 == max_o_id == max_no_o_id:
            broken.append(f"{place(key)}: d_next_o_id - 1 = {next_o_id - 1}, max(o_id) = {max_o_id}, "
                          f"max(no_o_id) = {max_no_o_id}")
    return broken


def condition_3(new_orders):
    """max(NO_O_ID) - min(NO_O_ID) + 1 = the number of NEW-ORDER rows, for each district."""
    return [f"{place(key)}: max(no_o_id) - min(no_o_id) + 1 = {high - low + 1}, rows = {count}"
            for key, (high, low, count) in sorted(new_orders.items()) if high - low + 1 != count]


def condition_4(orders, order_lines):
    """sum(O_OL_CNT) = the number of ORDER-LINE rows, for each district."""
    broken = []
    for key in sorted(set(orders) | set(order_lines)):
        ol_cnt = orders[key][1] if key in orders else 0
        lines = order_lines.get(key, 0)
        if ol_cnt != lines:
            broken.append(f"{place(key)}: sum(o_ol_cnt) = {ol_cnt}, order lines = {lines}")
    return broken


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=5432)
    parser.add_argument("--dbname", default="tpcc")
    parser.add_argument("--user", default="postgres")
    args = parser.parse_args()

    with psycopg.connect(host=args.host, port=args.port, dbname=args.dbname, user=args.user,
                         autocommit=True) as conn:
        # One snapshot for all queries on PostgreSQL, so that a concurrent transaction cannot
        # show up in one table and not in the other.
        conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
        districts = grouped(conn, "SELECT d_w_id, d_id, d_next_o_id FROM district")
        orders = grouped(conn, "SELECT o_w_id, o_d_id, max(o_id), sum(o_ol_cnt) FROM orders GROUP BY o_w_id, o_d_id")
        new_orders = grouped(conn, "SELECT no_w_id, no_d_id, max(no_o_id), min(no_o_id), count(*) "
                                   "FROM new_order GROUP BY no_w_id, no_d_id")
        order_lines = grouped(conn, "SELECT ol_w_id, ol_d_id, count(*) FROM order_line GROUP BY ol_w_id, ol_d_id")
        results = [condition_1(conn), condition_2(districts, orders, new_orders),
                   condition_3(new_orders), condition_4(orders, order_lines)]
        conn.execute("COMMIT")

    failed = False
    for number, broken in enumerate(results, start=1):
        if broken:
            failed = True
            print(f"consistency condition {number}: BROKEN in {len(broken)} place(s)")
            for line in broken[:10]:
                print(f"  {line}")
        else:
            print(f"consistency condition {number}: ok")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
