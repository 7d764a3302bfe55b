#!/usr/bin/env python3
"""Writes long_lists.test: statements whose lists are long - IN lists, = ANY arrays, CASE
chains of constants, VALUES lists - which DuetDB runs as data (runtime sets and loops,
compiler/codegen/lookup_codegen.cpp and values_codegen.cpp), not as code per item. The
records carry no expected results: after a change here, run this script, then
regenerate.py long_lists.test to take them from PostgreSQL, and read the diff."""
import os

N = 2000  # items in the long lists


def ints(n, step=3):
    return ", ".join(str(i * step) for i in range(n))


def texts(n):
    return ", ".join(f"'v{i}'" for i in range(n))


def record(kind, sql):
    if kind == "ok":
        return f"statement ok\n{sql}\n"
    return f"query {kind}\n{sql}\n----\n"


records = [
    record("ok", "DROP TABLE IF EXISTS ll_t"),
    record("ok", "DROP FUNCTION IF EXISTS ll_in(integer)"),
    record("ok", "DROP FUNCTION IF EXISTS ll_case(integer)"),
    record("ok", "DROP FUNCTION IF EXISTS ll_fill()"),
    record("ok", "DROP FUNCTION IF EXISTS ll_values()"),
    record("ok", "DROP TABLE IF EXISTS ll_u"),
    record("ok", "CREATE TABLE ll_t (k integer, s text, n numeric(8,2), d date, c char(4), f float8)"),
    # a multi-row INSERT with NULLs in place of literals and a cast per row
    record(
        "ok",
        "INSERT INTO ll_t VALUES "
        + ", ".join(
            f"({i}, {'NULL' if i % 11 == 0 else repr('v' + str(i))}, {'NULL' if i % 13 == 0 else str(i) + '.25'}, "
            f"date '2020-01-01' + {i % 400}, '{'c' + str(i % 50)}', {i}::float8 / 4)"
            for i in range(N)
        ),
    ),
    record("IIRI", "SELECT count(*), count(s), sum(n), count(DISTINCT d) FROM ll_t"),
    record("I", f"SELECT count(*) FROM ll_t WHERE k IN ({ints(N)})"),
    record("I", f"SELECT count(*) FROM ll_t WHERE k NOT IN ({ints(N)})"),
    record("I", f"SELECT count(*) FROM ll_t WHERE k NOT IN ({ints(N)}, NULL)"),
    record("I", f"SELECT count(*) FROM ll_t WHERE (k IN ({ints(N)}, NULL)) IS NULL"),
    record("I", f"SELECT count(*) FROM ll_t WHERE s IN ({texts(N)})"),
    record("I", f"SELECT count(*) FROM ll_t WHERE s NOT IN ({texts(N)})"),
    record("I", f"SELECT count(*) FROM ll_t WHERE n IN ({', '.join(str(i) + '.250' for i in range(0, N, 2))})"),
    record("I", f"SELECT count(*) FROM ll_t WHERE n IN ({ints(N)})"),
    record("I", f"SELECT count(*) FROM ll_t WHERE d IN ({', '.join(repr(f'2020-02-{i:02d}') for i in range(1, 29))})"),
    record("I", f"SELECT count(*) FROM ll_t WHERE c IN ({', '.join(repr('c' + str(i) + '  ') for i in range(40))})"),
    record("I", f"SELECT count(*) FROM ll_t WHERE f IN ({', '.join(str(i / 4) for i in range(0, N, 5))}, 'NaN')"),
    record("I", f"SELECT count(*) FROM ll_t WHERE k::bigint IN ({ints(30, 7)})"),
    record("I", f"SELECT count(*) FROM ll_t WHERE k + 0 IN ({ints(30, 7)}, k + 1)"),
    record("B", f"SELECT NULL::integer IN ({ints(20)})"),
    record("I", f"SELECT count(*) FROM ll_t WHERE k = ANY (ARRAY[{ints(N)}])"),
    record("I", f"SELECT count(*) FROM ll_t WHERE k <> ALL (ARRAY[{ints(N)}])"),
    record("I", f"SELECT count(*) FROM ll_t WHERE k = ANY ('{{{ints(N).replace(' ', '')}}}')"),
    record("I", f"SELECT count(*) FROM ll_t WHERE s = ANY ('{{{','.join('v' + str(i) for i in range(0, N, 4))},NULL}}')"),
    # a CASE chain of constants
    record(
        "TI",
        "SELECT CASE k % 500 "
        + " ".join(f"WHEN {i} THEN 'r{i * 2}'" for i in range(0, 500, 2))
        + " ELSE 'odd' END AS r, count(*) FROM ll_t GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 5",
    ),
    record(
        "I",
        "SELECT sum(CASE s " + " ".join(f"WHEN 'v{i}' THEN {i}" for i in range(0, N, 3)) + " END) FROM ll_t",
    ),
    record(
        "IT rowsort",
        "SELECT k, CASE k % 30 WHEN NULL THEN 'never' "
        + " ".join(f"WHEN {i % 20} THEN {'NULL' if i % 7 == 0 else repr('a' + str(i))}" for i in range(40))
        + " ELSE s || '!' END FROM ll_t WHERE k < 40 OR k IS NULL",
    ),
    record(
        "T",
        "SELECT CASE NULL::integer " + " ".join(f"WHEN {i} THEN 'x{i}'" for i in range(30)) + " ELSE 'null subject' END",
    ),
    record(
        "T",
        "SELECT CASE 'v7'::varchar " + " ".join(f"WHEN 'v{i}' THEN 'x{i}'" for i in range(30)) + " END",
    ),
    # VALUES as a table
    record("IIT", f"SELECT count(*), sum(a), max(b) FROM (VALUES {', '.join(f'({i}, {chr(39)}b{i}{chr(39)})' for i in range(N))}) v(a, b)"),
    record("IR", f"SELECT count(*), sum(x) FROM (VALUES {', '.join(f'({i} * 2 + 1, {i}.5)' for i in range(N))}) v(a, x)"),
    # the IN list of a SQL function's body (constants, not lifted parameters)
    record(
        "ok",
        f"CREATE FUNCTION ll_in(x integer) RETURNS boolean LANGUAGE sql AS $$ SELECT x IN ({ints(100)}) $$",
    ),
    record("BBB", "SELECT ll_in(3), ll_in(4), ll_in(NULL)"),
    record("ok", "DROP FUNCTION ll_in(integer)"),
    record(
        "ok",
        "CREATE FUNCTION ll_case(x integer) RETURNS text LANGUAGE sql AS $$ SELECT CASE x "
        + " ".join(f"WHEN {i} THEN {'NULL' if i % 9 == 0 else repr('c' + str(i))}" for i in range(50))
        + " ELSE 'other' END $$",
    ),
    record("TTTT", "SELECT ll_case(3), ll_case(9), ll_case(77), ll_case(NULL)"),
    record("ok", "DROP FUNCTION ll_case(integer)"),
    # VALUES of constants (a routine body's literals are not lifted into parameters)
    record("ok", "CREATE TABLE ll_u (k integer, s text, n numeric(6,2), d date)"),
    record(
        "ok",
        "CREATE FUNCTION ll_fill() RETURNS void LANGUAGE plpgsql AS $$ BEGIN INSERT INTO ll_u VALUES "
        + ", ".join(
            f"({i}, {'NULL' if i % 5 == 0 else repr('u' + str(i))}, {'NULL' if i % 7 == 0 else str(i) + '.5'}, "
            f"{'NULL' if i % 3 == 0 else repr(f'2021-03-{i % 28 + 1:02d}')})"
            for i in range(300)
        )
        + "; END $$",
    ),
    record("ok", "SELECT ll_fill()"),
    record("IIIRII", "SELECT count(*), count(s), sum(k), sum(n), count(d), count(DISTINCT d) FROM ll_u"),
    record("ITRD", "SELECT * FROM ll_u WHERE k IN (0, 1, 21, 299) ORDER BY k"),
    record(
        "ok",
        "CREATE FUNCTION ll_values() RETURNS TABLE (a numeric, b text) LANGUAGE sql AS $$ SELECT * FROM (VALUES "
        + ", ".join(f"({i if i % 2 else str(i) + '.5'}, {'NULL' if i % 4 == 0 else repr('w' + str(i))})" for i in range(40))
        + ") v $$",
    ),
    record("IRI", "SELECT count(*), sum(a), count(b) FROM ll_values()"),
    record("ok", "DROP FUNCTION ll_values()"),
    record("ok", "DROP FUNCTION ll_fill()"),
    record("ok", "DROP TABLE ll_u"),
    record("ok", "DROP TABLE ll_t"),
]

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "long_lists.test"), "w") as out:
    out.write("# Generated by long_lists.py (long IN lists, = ANY arrays, CASE chains and VALUES lists);\n")
    out.write("# edit that script, run it, then regenerate.py this file.\n\n")
    out.write("\n".join(records))
