"""Grammar-based generator of hostile SQL for tests/fuzz/sql_fuzzer.py.

A case is a short list of statements, each sent with the simple or the extended protocol
(with parameter values). make_case(seed, index) draws it from a random.Random of its own,
so any case can be regenerated from (seed, index) alone. Each case carries its rule name
(which generator made it), used for grouping findings.

What it makes: random typed expressions over the fixture tables (every supported type);
every built-in function DuetDB binds (compiler/binder/binder.cpp bindFunction, the SQL
value functions and the aggregates) with extreme arguments; deep nesting (subqueries,
parentheses, CASE, unary minus, NOT, casts, ARRAY, nested calls); big sizes (IN lists, OR
chains, joins, GROUP BY / ORDER BY lists, multi-row VALUES, statements per message, $n
parameters, huge literals); DML inside rolled-back blocks; and illegal SQL (token soup,
mutated and truncated statements, bad literals).
"""
import random

# ---- fixture -----------------------------------------------------------------------------

# (name, type, generator type): the generator type picks literals and operators.
ALL_COLUMNS = [
    ("k", "integer", "int4"), ("i2", "smallint", "int2"), ("i4", "integer", "int4"),
    ("i8", "bigint", "int8"), ("n", "numeric(20,5)", "numeric"), ("nn", "numeric", "numeric"),
    ("r", "real", "float4"), ("d", "double precision", "float8"), ("c", "char(5)", "bpchar"),
    ("v", "varchar(10)", "varchar"), ("t", "text", "text"), ("dt", "date", "date"),
    ("ts", "timestamp", "timestamp"), ("tz", "timestamptz", "timestamptz"), ("b", "boolean", "bool"),
    ("ai", "integer[]", "int4[]"), ("at", "text[]", "text[]"),
]
TABLES = {
    "fz_all": ALL_COLUMNS,
    "fz_col": [c for c in ALL_COLUMNS if c[0] in ("k", "i4", "i8", "n", "d", "t", "dt", "b")],
    "fz_small": [("k", "integer", "int4"), ("i4", "integer", "int4"), ("t", "text", "text")],
}

FIXTURE_ROWS = [
    "(1, 0, 0, 0, 0, 0, 0, 0, '', '', '', '2000-01-01', '2000-01-01 00:00', '2000-01-01 00:00+00', false, '{}', '{}')",
    "(2, 32767, 2147483647, 9223372036854775807, 999999999999999.99999, 1234567890123456789.123456789, 3.4e38, 1.7e308, 'zzzzz', 'ü€😀x', "
    "'" + "x" * 3000 + "', '5874897-12-31', '294276-12-31 23:59:59.999999', '294276-12-30 00:00+00', true, "
    "'{2147483647,-2147483648,NULL}', '{\"a,b\",\"\\\\\",NULL,\"\"}')",
    "(3, -32768, -2147483648, -9223372036854775808, -999999999999999.99999, -0.5, 'NaN', '-Infinity', "
    "'a', 'b''c', E'tab\\there\\nnl', '4713-01-01 BC', '4713-01-01 00:00 BC', '4713-01-02 00:00+00 BC', NULL, "
    "'{NULL}', NULL)",
    "(4, -1, -1, -1, 0.00001, -0.0, '-0', 'Infinity', NULL, NULL, NULL, 'infinity', '-infinity', 'infinity', "
    "true, NULL, '{x}')",
    "(5, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)",
    "(6, 7, 42, 1000000, 3.14159, 2.5, 1.5, 1e-300, 'ab ', 'abc', '%_\\', '2024-02-29', '2024-02-29 12:34:56.789', "
    "'2024-02-29 12:34:56+14', false, '{1,2,3}', '{a,b,c}')",
]


def fixture_sql(duet: bool) -> list[str]:
    """Statements that create and fill the fixture tables (DuetDB gets a column table)."""
    out = []
    for name, cols in TABLES.items():
        out.append(f"DROP TABLE IF EXISTS {name}")
        body = ", ".join(f"{c} {t}" + (" PRIMARY KEY" if c == "k" else "") for c, t, _ in cols)
        storage = " WITH (storage = column)" if duet and name == "fz_col" else ""
        out.append(f"CREATE TABLE {name} ({body}){storage}")
    out += [f"INSERT INTO fz_all VALUES {row}" for row in FIXTURE_ROWS]  # one by one: a row one side refuses
    col_names = ", ".join(c for c, _, _ in TABLES["fz_col"])
    out.append(f"INSERT INTO fz_col SELECT {col_names} FROM fz_all")
    out.append("INSERT INTO fz_small VALUES (1, 1, 'a'), (2, NULL, 'b'), (3, 3, NULL), (4, -2147483648, '')")
    out.append("CREATE INDEX fz_all_i4 ON fz_all (i4)")
    out.append("CREATE INDEX fz_all_dt_t ON fz_all (dt, t)")
    return out


# ---- values ------------------------------------------------------------------------------

NUM_TYPES = ["int2", "int4", "int8", "numeric", "float4", "float8"]
STR_TYPES = ["text", "varchar", "bpchar"]
TIME_TYPES = ["date", "timestamp", "timestamptz"]
SCALAR_TYPES = NUM_TYPES + STR_TYPES + TIME_TYPES + ["bool"]
ARRAY_TYPES = ["int4[]", "text[]"]
ALL_TYPES = SCALAR_TYPES + ARRAY_TYPES
SQL_TYPE = {"int2": "smallint", "int4": "integer", "int8": "bigint", "numeric": "numeric",
            "float4": "real", "float8": "double precision", "text": "text", "varchar": "varchar",
            "bpchar": "char(3)", "date": "date", "timestamp": "timestamp",
            "timestamptz": "timestamptz", "bool": "boolean", "int4[]": "integer[]", "text[]": "text[]"}
CAST_TARGETS = ["smallint", "int", "integer", "bigint", "int8", "numeric", "numeric(5,2)", "numeric(1000,0)",
                "numeric(3)", "real", "float", "float8", "double precision", "text", "varchar", "varchar(1)",
                "char", "char(2)", "bpchar", "date", "timestamp", "timestamptz", "timestamp(0)", "boolean", "bool",
                "int[]", "integer[]", "text[]", "bigint[]", "numeric[]", "varchar(2)[]", "date[]"]

INT_EXTREMES = {
    "int2": ["0", "1", "-1", "32767", "-32768", "32768", "-32769"],
    "int4": ["0", "1", "-1", "2147483647", "-2147483648", "2147483648", "-2147483649", "(-2147483647 - 1)"],
    "int8": ["0", "-1", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
             "(-9223372036854775807 - 1)", "'-9223372036854775808'::bigint"],
}


def text_literal(rng: random.Random) -> str:
    choice = rng.randrange(14)
    if choice == 0:
        return "''"
    if choice == 1:
        return "'" + "x" * rng.choice([1, 64, 65, 255, 256, 4096, 65536]) + "'"
    if choice == 2:
        return "'ü€😀'"
    if choice == 3:
        return "'it''s'"
    if choice == 4:
        return "E'\\\\x00\\\\'"
    if choice == 5:
        return "'%_'"
    if choice == 6:
        return "'   '"
    if choice == 7:
        return "'NaN'"
    if choice == 8:
        return "'{1,2}'"
    if choice == 9:
        return "E'\\t\\n\\r'"
    if choice == 10:
        return "'" + rng.choice(["a", "B", "abc", "ABC", "zz", "-1", "1e5", "true", "2000-01-01"]) + "'"
    if choice == 11:
        return "U&'\\0041\\00FC'"
    if choice == 12:
        return "$$dollar'quoted$$"
    return "'" + "".join(rng.choice("abcXYZ019 _%'") for _ in range(rng.randint(1, 12))).replace("'", "''") + "'"


def literal(rng: random.Random, ty: str) -> str:
    if rng.random() < 0.08:
        return "NULL" if rng.random() < 0.5 else f"NULL::{SQL_TYPE[ty]}"
    if ty in INT_EXTREMES:
        v = rng.choice(INT_EXTREMES[ty] + [str(rng.randint(-1000, 1000))])
        return v if rng.random() < 0.6 else f"{v}::{SQL_TYPE[ty]}" if not v.startswith("(") else v
    if ty == "numeric":
        return rng.choice(["0", "0.5", "-0.5", "1.5", "2.5", "-2.5", "123456789.123456789", "'NaN'::numeric",
                           "1e-1000", "'1e131071'::numeric", "'-1e-16383'::numeric", "9" * rng.choice([20, 38, 1000]),
                           "0." + "0" * 300 + "1", "99999999999999999999.99999", "1e308", "'Infinity'::numeric",
                           f"{rng.randint(-10**6, 10**6)}.{rng.randint(0, 999)}"])
    if ty in ("float4", "float8"):
        cast = "real" if ty == "float4" else "float8"
        return rng.choice([f"'NaN'::{cast}", f"'Infinity'::{cast}", f"'-Infinity'::{cast}", f"1e308::{cast}",
                           f"'1e-45'::{cast}", f"4.9e-324::{cast}", f"'-0'::{cast}", f"3.4028235e38::{cast}",
                           f"0.1::{cast}", f"{rng.uniform(-1e6, 1e6):.4f}::{cast}", f"1.5e10::{cast}"])
    if ty in STR_TYPES:
        lit = text_literal(rng)
        return lit if ty == "text" or rng.random() < 0.5 else f"{lit}::{SQL_TYPE[ty]}"
    if ty == "bool":
        return rng.choice(["true", "false", "'t'::boolean", "'yes'::bool", "NOT true"])
    if ty == "date":
        return "DATE '" + rng.choice(["2000-01-01", "4713-01-01 BC", "5874897-12-31", "infinity", "-infinity",
                                       "2024-02-29", "1999-12-31", "0001-01-01", "epoch", "1970-01-01"]) + "'"
    if ty == "timestamp":
        return "TIMESTAMP '" + rng.choice(["2000-01-01 00:00", "294276-12-31 23:59:59.999999", "4713-01-01 00:00 BC",
                                            "infinity", "-infinity", "2024-02-29 23:59:60", "epoch",
                                            "2000-01-01 12:00:00.0000005"]) + "'"
    if ty == "timestamptz":
        return "TIMESTAMPTZ '" + rng.choice(["2000-01-01 00:00+00", "294276-12-30 00:00+00", "infinity",
                                              "4713-01-02 00:00+00 BC", "2000-01-01 00:00+15:59",
                                              "2000-01-01 00:00 Europe/Berlin", "-infinity"]) + "'"
    if ty == "int4[]":
        return rng.choice(["'{}'::int[]", "'{NULL}'::int[]", "'{1,2,3}'::int[]", "ARRAY[1,NULL,2147483647]",
                           "ARRAY[-2147483648]", "'{" + ",".join(str(i) for i in range(rng.choice([5, 500]))) + "}'::int[]",
                           "ARRAY[]::integer[]", "'[2:3]={1,2}'::int[]"])
    if ty == "text[]":
        return rng.choice(["'{}'::text[]", "'{a,b}'::text[]", "ARRAY['x', NULL, '']", "'{\"a,b\",\"\\\\\"\"}'::text[]",
                           "ARRAY['" + "y" * 1000 + "']", "'{NULL,null,\"NULL\"}'::text[]"])
    raise ValueError(ty)


# ---- expressions -------------------------------------------------------------------------

SIMPLE_FUNCS = ["length", "char_length", "character_length", "lower", "upper"]
NOARG_FUNCS = ["now()", "transaction_timestamp()", "statement_timestamp()", "clock_timestamp()", "random()",
               "version()", "current_timestamp", "localtimestamp", "current_date", "current_user",
               "session_user", "user", "current_role", "current_schema", "current_time", "localtime",
               "current_catalog", "current_timestamp(3)", "pg_catalog.now()"]
SETTINGS = ["'TimeZone'", "'search_path'", "'DateStyle'", "'server_version'", "'duet.default_storage'",
            "'no.such_setting'", "''", "NULL", "'x" + "y" * 100 + "'", "'application_name'"]
OTHER_FUNCS = ["extract(year FROM {ts})", "substring({t} FROM 2 FOR 3)", "position('a' IN {t})",
               "trim(both 'x' FROM {t})", "date_part('epoch', {ts})", "concat({t}, 1)", "repeat({t}, 3)",
               "to_char({ts}, 'YYYY')", "sqrt({n})", "mod({i}, {i})", "power({n}, {n})"]


class Gen:
    def __init__(self, rng: random.Random, scale: int):
        self.rng = rng
        self.scale = scale          # the size knob of this case
        self.params: list = []      # extended protocol parameter values

    # columns in scope: list of (qualified name, gen type)
    def column(self, scope, ty):
        cols = [c for c in scope if c[1] == ty]
        return self.rng.choice(cols)[0] if cols else None

    def expr(self, ty: str, depth: int, scope) -> str:
        r = self.rng
        if depth <= 0 or r.random() < 0.25:
            col = self.column(scope, ty)
            if col and r.random() < 0.6:
                return col
            return literal(r, ty)
        if ty == "bool":
            return self.bool_expr(depth, scope)
        if ty in NUM_TYPES:
            return self.num_expr(ty, depth, scope)
        if ty in STR_TYPES:
            return self.str_expr(ty, depth, scope)
        if ty in TIME_TYPES:
            return self.time_expr(ty, depth, scope)
        return self.array_expr(ty, depth, scope)

    def any_type(self):
        return self.rng.choice(ALL_TYPES if self.rng.random() < 0.3 else SCALAR_TYPES)

    def generic(self, ty, depth, scope) -> str | None:
        """Forms that exist for every type; None leaves the choice to the caller."""
        r = self.rng
        c = r.randrange(12)
        d = depth - 1
        if c == 0:
            return (f"CASE WHEN {self.bool_expr(d, scope)} THEN {self.expr(ty, d, scope)} "
                    f"ELSE {self.expr(ty, d, scope)} END")
        if c == 1:
            return f"COALESCE({', '.join(self.expr(ty, d, scope) for _ in range(r.randint(1, 4)))})"
        if c == 2:
            return f"NULLIF({self.expr(ty, d, scope)}, {self.expr(ty, d, scope)})"
        if c == 3:
            f = r.choice(["GREATEST", "LEAST"])
            return f"{f}({', '.join(self.expr(ty, d, scope) for _ in range(r.randint(1, 4)))})"
        if c == 4:
            return f"({self.expr(ty, d, scope)})"
        if c == 5 and ty in SCALAR_TYPES:
            return f"(SELECT {self.expr(ty, d, [])} )" if r.random() < 0.5 else self.scalar_subquery(ty, d)
        if c == 6:
            src = self.any_type()
            return f"CAST({self.expr(src, d, scope)} AS {SQL_TYPE[ty]})" if r.random() < 0.5 else \
                f"({self.expr(src, d, scope)})::{SQL_TYPE[ty]}"
        if c == 7 and ty in SCALAR_TYPES:
            arr = "int4[]" if ty in NUM_TYPES else "text[]"
            if arr == "int4[]" and ty == "int4":
                return f"({self.array_expr(arr, d, scope)})[{self.expr('int4', d, scope)}]"
        return None

    def scalar_subquery(self, ty, depth):
        table = self.rng.choice(list(TABLES))
        scope = [(f"{table}.{c}", g) for c, _, g in TABLES[table]]
        where = f" WHERE {self.bool_expr(depth - 1, scope)}" if self.rng.random() < 0.5 else ""
        return f"(SELECT {self.expr(ty, depth - 1, scope)} FROM {table}{where} LIMIT 1)"

    def num_expr(self, ty, depth, scope):
        r = self.rng
        g = self.generic(ty, depth, scope)
        if g and r.random() < 0.4:
            return g
        d = depth - 1
        c = r.randrange(8)
        if c <= 2:
            op = r.choice(["+", "-", "*", "/", "%"] if ty not in ("float4", "float8") else ["+", "-", "*", "/"])
            return f"({self.expr(ty, d, scope)} {op} {self.expr(r.choice([ty, r.choice(NUM_TYPES)]), d, scope)})"
        if c == 3:
            return f"- {self.expr(ty, d, scope)}" if r.random() < 0.5 else f"-({self.expr(ty, d, scope)})"
        if c == 4:
            return f"abs({self.expr(ty, d, scope)})"
        if c == 5:
            f = r.choice(["round", "trunc"])
            if r.random() < 0.5:
                return f"{f}({self.expr(r.choice(NUM_TYPES), d, scope)})"
            places = r.choice(["0", "2", "-2", "1000", "-1000", "2147483647", "-2147483648", "NULL",
                               str(r.randint(-50, 50)), self.expr("int4", d, scope)])
            return f"{f}({self.expr(r.choice(['numeric', 'int4', 'float8']), d, scope)}, {places})"
        if c == 6 and ty == "int4":
            f = r.choice(SIMPLE_FUNCS[:3] + ["array_length", "array_upper", "array_lower", "cardinality"])
            if f in SIMPLE_FUNCS:
                return f"{f}({self.expr(r.choice(STR_TYPES), d, scope)})"
            arr = self.array_expr(r.choice(ARRAY_TYPES), d, scope)
            if f == "cardinality":
                return f"cardinality({arr})"
            return f"{f}({arr}, {r.choice(['1', '0', '2', '-1', '2147483647', 'NULL', self.expr('int4', d, scope)])})"
        if c == 6 and ty == "float8":
            return "random()"
        if c == 7 and ty in ("int4", "int8"):
            return f"(DATE '2000-01-01' - {self.expr('date', d, scope)})"
        return self.expr(ty, d, scope) if not g else g

    def str_expr(self, ty, depth, scope):
        r = self.rng
        g = self.generic(ty, depth, scope)
        if g and r.random() < 0.4:
            return g
        d = depth - 1
        c = r.randrange(6)
        if c <= 1:
            return f"({self.expr(ty, d, scope)} || {self.expr(r.choice(SCALAR_TYPES), d, scope)})"
        if c == 2:
            return f"{r.choice(['lower', 'upper'])}({self.expr(r.choice(STR_TYPES), d, scope)})"
        if c == 3:
            name = r.choice(SETTINGS)
            if r.random() < 0.5:
                return f"current_setting({name})"
            return f"current_setting({name}, {r.choice(['true', 'false', 'NULL'])})"
        if c == 4:
            return r.choice(["version()", "current_user", "session_user", "current_schema", "user",
                             "current_role", "current_catalog"])
        return f"{self.expr(r.choice(ALL_TYPES), d, scope)}::{SQL_TYPE[ty]}"

    def time_expr(self, ty, depth, scope):
        r = self.rng
        g = self.generic(ty, depth, scope)
        if g and r.random() < 0.4:
            return g
        d = depth - 1
        c = r.randrange(4)
        if c == 0 and ty == "date":
            return f"({self.expr('date', d, scope)} {r.choice(['+', '-'])} {self.expr('int4', d, scope)})"
        if c == 1:
            return {"date": "current_date", "timestamp": "localtimestamp",
                    "timestamptz": r.choice(["now()", "clock_timestamp()", "statement_timestamp()",
                                             "transaction_timestamp()", "current_timestamp"])}[ty]
        if c == 2:
            return f"({self.expr(r.choice(TIME_TYPES + STR_TYPES), d, scope)})::{SQL_TYPE[ty]}"
        return literal(r, ty)

    def array_expr(self, ty, depth, scope):
        r = self.rng
        d = depth - 1
        el = "int4" if ty == "int4[]" else "text"
        c = r.randrange(4)
        if c == 0:
            n = r.choice([0, 1, 2, 3, self.scale])
            items = ", ".join(self.expr(el, d, scope) for _ in range(n))
            return f"ARRAY[{items}]" + ("" if n else f"::{SQL_TYPE[ty]}")
        if c == 1:
            col = self.column(scope, ty)
            if col:
                return col
        if c == 2:
            return f"({self.expr('text', d, scope)})::{SQL_TYPE[ty]}"
        return literal(r, ty)

    def bool_expr(self, depth, scope):
        r = self.rng
        d = depth - 1
        if depth <= 0:
            return r.choice(["true", "false", "NULL"]) if r.random() < 0.3 else \
                f"{self.expr('int4', 0, scope)} = {self.expr('int4', 0, scope)}"
        c = r.randrange(16)
        ty = self.any_type()
        if c <= 2:
            op = r.choice(["=", "<>", "<", "<=", ">", ">=", "!="])
            return f"{self.expr(ty, d, scope)} {op} {self.expr(ty if r.random() < 0.8 else self.any_type(), d, scope)}"
        if c == 3:
            return f"({self.bool_expr(d, scope)} {r.choice(['AND', 'OR'])} {self.bool_expr(d, scope)})"
        if c == 4:
            return f"NOT ({self.bool_expr(d, scope)})"
        if c == 5:
            return f"{self.expr(ty, d, scope)} IS {r.choice(['', 'NOT '])}NULL"
        if c == 6:
            return f"{self.expr(ty, d, scope)} IS {r.choice(['', 'NOT '])}DISTINCT FROM {self.expr(ty, d, scope)}"
        if c == 7:
            ty = r.choice(SCALAR_TYPES)
            return (f"{self.expr(ty, d, scope)} {r.choice(['', 'NOT '])}BETWEEN {r.choice(['', 'SYMMETRIC '])}"
                    f"{self.expr(ty, d, scope)} AND {self.expr(ty, d, scope)}")
        if c == 8:
            n = r.choice([1, 2, 3, 5, self.scale])
            ty = r.choice(SCALAR_TYPES)
            return f"{self.expr(ty, d, scope)} {r.choice(['', 'NOT '])}IN ({', '.join(self.expr(ty, d, scope) for _ in range(n))})"
        if c == 9:
            op = r.choice(["LIKE", "NOT LIKE", "ILIKE", "NOT ILIKE"])
            esc = f" ESCAPE {r.choice(['$$!$$', chr(39) * 2, chr(39) + 'ab' + chr(39)])}" if r.random() < 0.1 else ""
            return f"{self.expr('text', d, scope)} {op} {self.expr('text', d, scope)}{esc}"
        if c == 10:
            return f"{r.choice(['', 'NOT '])}EXISTS ({self.select(d, simple=True)})"
        if c == 11:
            table = r.choice(list(TABLES))
            return f"{self.expr('int4', d, scope)} {r.choice(['', 'NOT '])}IN (SELECT {r.choice(['k', 'i4'])} FROM {table})"
        if c == 12:
            table = r.choice(list(TABLES))
            op = r.choice(["=", "<", ">=", "<>"])
            q = r.choice(["ANY", "ALL", "SOME"])
            if r.random() < 0.5:
                return f"{self.expr('int4', d, scope)} {op} {q} (SELECT k FROM {table})"
            return f"{self.expr('int4', d, scope)} {op} {q} ({self.array_expr('int4[]', d, scope)})"
        if c == 13:
            return f"({self.bool_expr(d, scope)}) IS {r.choice(['', 'NOT '])}{r.choice(['TRUE', 'FALSE', 'UNKNOWN'])}"
        if c == 14:
            col = self.column(scope, "bool")
            return col or "true"
        g = self.generic("bool", depth, scope)
        return g or self.bool_expr(d, scope)

    # ---- statements ------------------------------------------------------------------------

    def from_clause(self, depth):
        r = self.rng
        n = 1 if r.random() < 0.6 else r.randint(2, 3)
        items, scope = [], []
        for i in range(n):
            table = r.choice(list(TABLES))
            alias = f"a{i}"
            cols = [(f"{alias}.{c}", g) for c, _, g in TABLES[table]]
            if i == 0:
                items.append(f"{table} {alias}")
            else:
                kind = r.choice(["JOIN", "INNER JOIN", "CROSS JOIN", "LEFT JOIN", "NATURAL JOIN", ","])
                if kind in ("JOIN", "INNER JOIN", "LEFT JOIN"):
                    on = self.bool_expr(min(depth, 2), scope + cols) if r.random() < 0.5 else f"{alias}.k = a0.k"
                    items.append(f" {kind} {table} {alias} ON {on}")
                elif kind == ",":
                    items.append(f", {table} {alias}")
                else:
                    items.append(f" {kind} {table} {alias}")
            scope += cols
        if r.random() < 0.1:
            sub = self.select(depth - 1, simple=True)
            items.append(f", ({sub}) sq")
        return "".join(items), scope

    def select(self, depth, simple=False):
        r = self.rng
        frm, scope = self.from_clause(depth)
        n = r.randint(1, 4)
        targets = []
        agg = not simple and r.random() < 0.25
        group = []
        if agg:
            group = [c for c, g in r.sample(scope, min(len(scope), r.randint(0, 2)))]
            targets += group
            for _ in range(n):
                f = r.choice(["count", "sum", "avg", "min", "max"])
                ty = r.choice(NUM_TYPES if f in ("sum", "avg") else SCALAR_TYPES)
                if f == "count" and r.random() < 0.3:
                    targets.append("count(*)")
                else:
                    dist = "DISTINCT " if r.random() < 0.2 else ""
                    targets.append(f"{f}({dist}{self.expr(ty, depth - 1, scope)})")
        else:
            for _ in range(n):
                targets.append(self.expr(self.any_type(), depth, scope) + (f" AS c{len(targets)}" if r.random() < 0.3 else ""))
        distinct = "DISTINCT " if r.random() < 0.1 else ""
        sql = f"SELECT {distinct}{', '.join(targets)} FROM {frm}"
        if r.random() < 0.6:
            sql += f" WHERE {self.bool_expr(depth, scope)}"
        if group:
            sql += " GROUP BY " + ", ".join(group)
            if r.random() < 0.3:
                sql += f" HAVING count(*) > {r.choice(['0', '1', '-1'])}"
        if not simple and r.random() < 0.4:
            keys = [str(r.randint(1, len(targets))) if r.random() < 0.5 and not agg else
                    (r.choice(group) if group else str(r.randint(1, len(targets))))
                    for _ in range(r.randint(1, 2))]
            sql += " ORDER BY " + ", ".join(k + r.choice(["", " DESC", " ASC NULLS FIRST", " DESC NULLS LAST"])
                                             for k in keys)
        if r.random() < 0.3:
            sql += f" LIMIT {r.choice(['0', '1', '3', 'ALL', 'NULL', '9223372036854775807', '-1'])}"
        if r.random() < 0.15:
            sql += f" OFFSET {r.choice(['0', '1', '9223372036854775807', '-1'])}"
        return sql


# ---- case kinds --------------------------------------------------------------------------

def st(sql, proto="simple", params=None):
    return {"proto": proto, "sql": sql, "params": params or []}


def rule_random_select(g: Gen):
    return [st(g.select(g.rng.randint(1, 4)))]


def rule_function(g: Gen):
    r = g.rng
    d = r.randint(0, 2)
    args = lambda ty, n: ", ".join(g.expr(ty if ty != "any" else g.any_type(), d, []) for _ in range(n))  # noqa: E731
    c = r.randrange(12)
    ty = r.choice(SCALAR_TYPES)
    if c == 0:
        e = r.choice(NOARG_FUNCS)
    elif c == 1:
        e = f"current_setting({r.choice(SETTINGS)}{', ' + r.choice(['true', 'false', 'NULL']) if r.random() < 0.5 else ''})"
    elif c == 2:
        e = f"{r.choice(['coalesce', 'greatest', 'least'])}({args(ty if r.random() < 0.8 else 'any', r.randint(0, 5))})"
    elif c == 3:
        e = f"nullif({args(ty, 1)}, {args(ty if r.random() < 0.8 else 'any', 1)})"
    elif c == 4:
        e = f"{r.choice(['array_length', 'array_upper', 'array_lower'])}({args(r.choice(ARRAY_TYPES), 1)}, {args('int4', 1)})"
    elif c == 5:
        e = f"cardinality({args(r.choice(ARRAY_TYPES + ['text']), 1)})"
    elif c == 6:
        e = f"{r.choice(SIMPLE_FUNCS)}({args(r.choice(STR_TYPES + ['int4', 'text[]']), 1)})"
    elif c == 7:
        e = f"abs({args(r.choice(NUM_TYPES + ['text']), 1)})"
    elif c == 8:
        f = r.choice(["round", "trunc"])
        if r.random() < 0.3:
            e = f"{f}({args(r.choice(NUM_TYPES), 1)})"
        else:
            e = f"{f}({args(r.choice(NUM_TYPES), 1)}, {args('int4', 1)})"
    elif c == 9:
        f = r.choice(["count", "sum", "avg", "min", "max"])
        table = r.choice(list(TABLES))
        col, _, gt = r.choice(TABLES[table])
        return [st(f"SELECT {f}({'DISTINCT ' if r.random() < 0.3 else ''}{col}) FROM {table}")]
    elif c == 10:
        e = r.choice(OTHER_FUNCS).format(ts=literal(r, "timestamp"), t=literal(r, "text"), n=literal(r, "numeric"),
                                         i=literal(r, "int4"))
    else:
        e = f"{r.choice(['now', 'random', 'version', 'abs', 'round', 'length', 'cardinality', 'coalesce'])}" \
            f"({args('any', r.randint(0, 3))})"
    return [st(f"SELECT {e}")]


NESTERS = ["subquery", "paren", "case", "neg", "not", "cast", "array", "abs", "coalesce", "lower", "round",
           "exists", "in_subquery"]


def nest(kind: str, depth: int) -> str:
    if kind == "subquery":
        return "SELECT " + "(SELECT " * depth + "1" + ")" * depth
    if kind == "paren":
        return "SELECT " + "(" * depth + "1" + ")" * depth
    if kind == "case":
        return "SELECT " + "CASE WHEN true THEN " * depth + "1" + " END" * depth
    if kind == "neg":
        return "SELECT " + "- " * depth + "1"
    if kind == "not":
        return "SELECT " + "NOT " * depth + "true"
    if kind == "cast":
        return "SELECT 1" + "::int" * depth
    if kind == "array":
        return "SELECT " + "ARRAY[" * depth + "1" + "]" * depth
    if kind == "abs":
        return "SELECT " + "abs(" * depth + "1" + ")" * depth
    if kind == "coalesce":
        return "SELECT " + "coalesce(" * depth + "1" + ")" * depth
    if kind == "lower":
        return "SELECT " + "lower(" * depth + "'A'" + ")" * depth
    if kind == "round":
        return "SELECT " + "round(" * depth + "1.5" + ")" * depth
    if kind == "exists":
        return "SELECT " + "EXISTS (SELECT " * depth + "1" + ")" * depth
    if kind == "in_subquery":
        return "SELECT 1 WHERE 1 IN " + "(SELECT 1 WHERE 1 IN " * depth + "(1)" + ")" * depth
    raise ValueError(kind)


def rule_deep(g: Gen):
    r = g.rng
    depth = r.choice([2, 10, 30, 64, 100, 200, 500, 1000, 3000, 10000])
    if r.random() < 0.3:
        # A mixed chain: each level picks its own form.
        e = literal(r, "int4")
        for _ in range(min(depth, 2000)):
            e = r.choice([f"({e})", f"- {e}", f"abs({e})", f"CAST({e} AS int)", f"coalesce({e}, 0)",
                          f"CASE WHEN {e} > 0 THEN {e} END" if depth < 12 else f"(SELECT {e})", f"({e} + 1)"])
        return [st(f"SELECT {e}")], f"deep:mixed:{depth}"
    kind = r.choice(NESTERS)
    return [st(nest(kind, depth))], f"deep:{kind}:{depth}"


BIG_KINDS = ["in_list", "or_chain", "joins", "group_by", "order_by", "values", "statements", "params",
             "huge_text", "huge_numeric", "many_columns", "array_literal", "and_chain", "concat_chain",
             "insert_values"]


def rule_big(g: Gen):
    r = g.rng
    kind = r.choice(BIG_KINDS)
    n = r.choice([10, 100, 500, 1000, 5000, 20000]) if kind != "joins" else r.choice([2, 8, 16, 32, 64, 200])
    if kind == "in_list":
        items = ", ".join(str(i) for i in range(n))
        return [st(f"SELECT k FROM fz_all WHERE i4 IN ({items})")], f"big:in_list:{n}"
    if kind == "or_chain":
        return [st("SELECT k FROM fz_all WHERE " + " OR ".join(f"i4 = {i}" for i in range(n)))], f"big:or_chain:{n}"
    if kind == "and_chain":
        return [st("SELECT count(*) FROM fz_all WHERE " + " AND ".join(f"k <> {i}" for i in range(n)))], f"big:and_chain:{n}"
    if kind == "joins":
        frm = ", ".join(f"fz_small s{i}" for i in range(n))
        where = " AND ".join(f"s{i}.k = s{i + 1}.k" for i in range(n - 1)) or "true"
        return [st(f"SELECT count(*) FROM {frm} WHERE {where}")], f"big:joins:{n}"
    if kind == "group_by":
        m = min(n, 2000)
        exprs = ", ".join(f"i4 + {i}" for i in range(m))
        return [st(f"SELECT count(*) FROM fz_all GROUP BY {exprs}")], f"big:group_by:{m}"
    if kind == "order_by":
        m = min(n, 2000)
        exprs = ", ".join(f"i4 * {i}" for i in range(m))
        return [st(f"SELECT k FROM fz_all ORDER BY {exprs}")], f"big:order_by:{m}"
    if kind == "values":
        rows = ", ".join(f"({i}, 'r{i}', {i}.5)" for i in range(n))
        return [st(f"SELECT count(*), sum(column1) FROM (VALUES {rows}) v")], f"big:values:{n}"
    if kind == "insert_values":
        rows = ", ".join(f"({1000 + i}, {i}, 'r{i}')" for i in range(n))
        return [st("BEGIN"), st(f"INSERT INTO fz_small VALUES {rows}"), st("SELECT count(*) FROM fz_small"),
                st("ROLLBACK")], f"big:insert_values:{n}"
    if kind == "statements":
        m = min(n, 5000)
        return [st("; ".join(f"SELECT {i}" for i in range(m)))], f"big:statements:{m}"
    if kind == "params":
        m = min(n, 65535) if r.random() < 0.9 else 65536
        sql = "SELECT " + " + ".join(f"${i}::int" for i in range(1, m + 1))
        return [st(sql, "extended", [str(i % 7) for i in range(m)])], f"big:params:{m}"
    if kind == "huge_text":
        size = r.choice([1 << 16, 1 << 20, 8 << 20])
        return [st(f"SELECT length('{'x' * size}')")], f"big:huge_text:{size}"
    if kind == "huge_numeric":
        digits = r.choice([100, 1000, 10000, 131072, 200000])
        return [st(f"SELECT {'9' * digits} + 1")], f"big:huge_numeric:{digits}"
    if kind == "many_columns":
        m = min(n, 1664 if r.random() < 0.8 else 5000)
        return [st("SELECT " + ", ".join(f"{i} AS c{i}" for i in range(m)))], f"big:many_columns:{m}"
    if kind == "array_literal":
        return [st("SELECT cardinality('{" + ",".join(str(i) for i in range(n)) + "}'::int[])")], f"big:array_literal:{n}"
    if kind == "concat_chain":
        m = min(n, 5000)
        return [st("SELECT " + " || ".join(f"'{i}'" for i in range(m)))], f"big:concat_chain:{m}"
    raise ValueError(kind)


def rule_dml(g: Gen):
    r = g.rng
    scope = [(c, gt) for c, _, gt in TABLES["fz_all"]]
    c = r.randrange(4)
    if c == 0:
        vals = ", ".join(g.expr(gt, 1, []) if col != "k" else str(r.choice([1, 100, -2147483648, 2147483647]))
                         for col, _, gt in TABLES["fz_all"])
        stmt = f"INSERT INTO fz_all VALUES ({vals})" + (" RETURNING *" if r.random() < 0.3 else "")
    elif c == 1:
        col, _, gt = r.choice(TABLES["fz_all"][1:])
        stmt = f"UPDATE fz_all SET {col} = {g.expr(gt, 2, scope)} WHERE {g.bool_expr(2, scope)}" + \
            (" RETURNING k" if r.random() < 0.3 else "")
    elif c == 2:
        stmt = f"DELETE FROM fz_all WHERE {g.bool_expr(2, scope)}" + (" RETURNING *" if r.random() < 0.3 else "")
    else:
        stmt = f"INSERT INTO fz_small SELECT k + 100, i4, t FROM fz_all WHERE {g.bool_expr(2, scope)}"
    return [st("BEGIN"), st(stmt), st("SELECT count(*) FROM fz_all"), st("ROLLBACK")]


def rule_params(g: Gen):
    """Extended protocol with parameters of extreme text values."""
    r = g.rng
    n = r.randint(1, 4)
    vals = [r.choice(["0", "-2147483648", "2147483647", "9223372036854775807", "NaN", "Infinity", "", "abc",
                      "1e400", "4713-01-01 BC", "infinity", "{1,2}", "{", "t", None, "x" * 100000,
                      "2000-01-01 00:00+15:59", " 1 ", "-0", "1.5"]) for _ in range(n)]
    casts = [r.choice(["", "::int", "::bigint", "::numeric", "::float8", "::text", "::date", "::timestamptz",
                       "::boolean", "::int[]", "::smallint", "::real", "::varchar(1)"]) for _ in range(n)]
    body = ", ".join(f"${i + 1}{casts[i]}" for i in range(n))
    if r.random() < 0.3:
        body = f"coalesce(${r.randint(1, n)}{casts[0]}, NULL)"
    where = f" FROM fz_all WHERE i4 = $1{casts[0]}" if r.random() < 0.3 else ""
    sql = f"SELECT {body}{where}"
    if r.random() < 0.15:
        return [st(sql, "simple")]  # $n in a simple query: there are no parameter values
    return [st(sql, "extended", vals)]


SQL_WORDS = ["SELECT", "FROM", "WHERE", "GROUP", "BY", "ORDER", "HAVING", "LIMIT", "OFFSET", "JOIN", "ON", "AND",
             "OR", "NOT", "IN", "IS", "NULL", "CASE", "WHEN", "THEN", "ELSE", "END", "CAST", "AS", "ARRAY", "EXISTS",
             "INSERT", "INTO", "VALUES", "UPDATE", "SET", "DELETE", "RETURNING", "DISTINCT", "ALL", "ANY", "BETWEEN",
             "LIKE", "(", ")", "[", "]", ",", ";", "::", "+", "-", "*", "/", "%", "||", "=", "<", ">", "<=", "!=",
             "$1", "$0", "$99999999999", "1", "0", "-1", "2147483648", "1.5e", "'x'", "'", "\"", "\"id\"", "fz_all",
             "fz_small", "k", "t", "i4", "ai", "*", ".", "E'\\", "U&'", "$$", "/*", "*/", "--", "\\", "int",
             "numeric(", "text[]", "CREATE", "TABLE", "DROP", "INDEX", "WITH", "BEGIN", "COMMIT", "ROLLBACK",
             "COPY", "SHOW", "RESET", "PREPARE", "EXECUTE", "DEALLOCATE", "EXPLAIN", "FUNCTION", "LANGUAGE",
             "plpgsql", "DO", "CALL", "TRUNCATE", "VACUUM", "ANALYZE", "CHECKPOINT", "LATERAL", "UNION",
             "OVER", "WINDOW", "FILTER", "WITHIN", "COLLATE", "AT", "TIME", "ZONE", "INTERVAL", "ROW", "DEFAULT"]


def rule_illegal(g: Gen):
    r = g.rng
    c = r.randrange(5)
    if c == 0:
        sql = " ".join(r.choice(SQL_WORDS) for _ in range(r.randint(1, 30)))
        return [st(sql)], "illegal:soup"
    base = g.select(r.randint(1, 3))
    toks = base.split(" ")
    if c == 1:
        for _ in range(r.randint(1, 3)):
            op = r.randrange(3)
            i = r.randrange(len(toks))
            if op == 0 and len(toks) > 1:
                del toks[i]
            elif op == 1:
                toks.insert(i, r.choice(SQL_WORDS))
            else:
                toks[i] = r.choice(SQL_WORDS)
        return [st(" ".join(toks))], "illegal:mutated"
    if c == 2:
        return [st(base[:r.randrange(1, len(base))])], "illegal:truncated"
    if c == 3:
        bad = r.choice(["'1e999999'::float8", "'99999999999'::int", "'abc'::int", "'2000-13-45'::date",
                        "'{1,2'::int[]", "'1.5.5'::numeric", "'{{1},{2}}'::int[]", "1/0", "0/0.0::float8",
                        "2147483647 + 1", "-9223372036854775808::int8 / -1", "(-2147483648)::int % -1",
                        "'infinity'::date + 1", "'5874897-12-31'::date + 1", "'294276-12-31'::timestamp::date",
                        "'NaN'::numeric::int", "'Infinity'::float8::int", "'x'::char(2147483647)",
                        "repeat('x', 1073741824)", "'\\xff'::text", "chr(0)", "''::bool", "(-32768)::int2 * -1::int2"])
        return [st(f"SELECT {bad}")], "illegal:bad_value"
    stmt = r.choice(["SELECT", "SELECT ;", "SELECT 1 FROM", "SELECT * FROM nosuch", "SELECT (", "SELECT )",
                     "SELECT 'unterminated", "SELECT \"unterminated", "SELECT $$unterminated", "SELECT /* open",
                     "SELECT 1 WHERE", "INSERT INTO fz_all", "UPDATE fz_all SET", "SELECT k FROM fz_all GROUP",
                     "SELECT 1::", "SELECT ARRAY[", "SELECT CASE END", "SELECT CASE WHEN THEN END", "SELECT 1 +",
                     "SELECT -", "SELECT E'\\u", "SELECT U&'\\d800'", "SELECT $0", "SELECT $2147483648",
                     "SELECT 1 ORDER BY 0", "SELECT 1 ORDER BY 2", "SELECT 1 LIMIT 'x'", "SELECT k FROM fz_all, fz_all",
                     "SELECT count(*) OVER ()", "SELECT 1 UNION SELECT 2", "WITH x AS (SELECT 1) SELECT * FROM x",
                     "SELECT * FROM fz_all LEFT JOIN fz_small USING (k)", "SELECT (1, 2)", "SELECT ROW(1)",
                     "SELECT ARRAY(SELECT 1)", "SELECT '{1}'::int[][]", "SELECT 1 IN ()", "SELECT 1 =",
                     "SELECT \"\"", "SELECT 1e", "SELECT .e1", "SELECT 0x", "SELECT 1_000", "SELECT 'a' 'b'",
                     "SELECT 'a'\n'b'", "SELECT DEFAULT", "SELECT count(DISTINCT *) FROM fz_all", "SELECT sum()",
                     "SELECT max(k, k) FROM fz_all", "SELECT count(count(*)) FROM fz_all", "SELECT * FROM fz_all WHERE sum(k) > 0"])
    return [st(stmt)], "illegal:fixed"


def rule_extended_illegal(g: Gen):
    """The extended protocol with SQL the simple protocol allows, or wrong parameter counts."""
    r = g.rng
    c = r.randrange(4)
    if c == 0:
        return [st("SELECT 1; SELECT 2", "extended")]
    if c == 1:
        return [st("SELECT $1::int", "extended", [])]
    if c == 2:
        return [st("SELECT 1", "extended", ["1", "2"])]
    return [st(g.select(2), "extended", [])]


RULES = [
    (rule_random_select, 30), (rule_function, 20), (rule_deep, 8), (rule_big, 10), (rule_dml, 8),
    (rule_params, 8), (rule_illegal, 12), (rule_extended_illegal, 4),
]


def make_case(seed: int, index: int) -> dict:
    """Case `index` of the run with `seed`: {"rule": name, "statements": [...]}."""
    rng = random.Random(f"{seed}:{index}")
    scale = rng.choice([1, 2, 3, 5, 8, 20, 100])
    g = Gen(rng, scale)
    total = sum(w for _, w in RULES)
    pick = rng.randrange(total)
    for fn, w in RULES:
        if pick < w:
            break
        pick -= w
    out = fn(g)
    if isinstance(out, tuple):
        statements, rule = out
    else:
        statements, rule = out, fn.__name__[5:]
    return {"seed": seed, "index": index, "rule": rule, "statements": statements}
