"""Comparing a query's answers across systems.

Values are normalised first: numbers (int, Decimal, float) compare with a small relative
tolerance, since DuckDB computes some aggregates in double precision where PostgreSQL uses
numeric; strings lose trailing spaces, since DuckDB has no blank-padded char(n). Rows compare
as multisets; where the query has ORDER BY (its "-- sort:" line), each answer must also be
sorted on those columns, which allows any order among rows that tie on them.
"""
import datetime
import decimal
import math

REL_TOL = 1e-6
ABS_TOL = 1e-9


def normalise(value):
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, float, decimal.Decimal)):
        return float(value)
    if isinstance(value, str):
        return value.rstrip(" ")
    if isinstance(value, (datetime.date, datetime.datetime, datetime.time)):
        return value
    return str(value)


def same_value(a, b):
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=REL_TOL, abs_tol=ABS_TOL) or (math.isnan(a) and math.isnan(b))
    return a == b


def same_row(a, b):
    return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b))


def _sort_key(row):
    """A total order on normalised rows that puts values within the tolerance next to each
    other (numbers rounded to 6 significant digits), for pairing two answers."""
    key = []
    for v in row:
        if v is None:
            key.append((0, ""))
        elif isinstance(v, float):
            key.append((1, float(f"{v:.6g}")))
        else:
            key.append((2, str(v)))
    return key


def _compare_key(a, b, descending):
    """-1, 0, 1 for sort-key values a, b; None when not comparable (a NULL: its place differs
    between systems, NULLS LAST is DuckDB's default for DESC too)."""
    if a is None or b is None:
        return None
    if isinstance(a, float) and isinstance(b, float) and same_value(a, b):
        return 0
    if a == b:
        return 0
    try:
        c = -1 if a < b else 1
    except TypeError:
        return None
    return -c if descending else c


def sorted_on(rows, sort):
    """The first position where rows are out of the order sort = [(column, descending)], or None."""
    for i in range(1, len(rows)):
        for column, descending in sort:
            c = _compare_key(rows[i - 1][column], rows[i][column], descending)
            if c is None or c < 0:
                break
            if c > 0:
                return i
    return None


def compare(reference, answer, sort):
    """None when answer matches reference, else a short reason. Both are lists of rows."""
    ref = [tuple(normalise(v) for v in row) for row in reference]
    got = [tuple(normalise(v) for v in row) for row in answer]
    if len(ref) != len(got):
        return f"{len(got)} rows, expected {len(ref)}"
    if ref and got and len(ref[0]) != len(got[0]):
        return f"{len(got[0])} columns, expected {len(ref[0])}"
    a = sorted(ref, key=_sort_key)
    b = sorted(got, key=_sort_key)
    mismatch = next((i for i in range(len(a)) if not same_row(a[i], b[i])), None)
    if mismatch is not None and len(a) <= 5000:
        # Rounding can order near-equal rows differently: pair them greedily instead.
        left = list(b)
        for row in a:
            j = next((j for j, other in enumerate(left) if same_row(row, other)), None)
            if j is None:
                return f"row {row} missing (of {len(a)})"
            left.pop(j)
        mismatch = None
    if mismatch is not None:
        return f"differs: expected {a[mismatch]}, got {b[mismatch]} (of {len(a)} rows)"
    if sort:
        position = sorted_on(got, sort)
        if position is not None:
            return f"rows {position} and {position + 1} out of ORDER BY order"
    return None
