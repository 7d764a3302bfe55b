"""Seeded generator of random PL/pgSQL routines over a small schema, for the differential
test of run.py (README.md here).

Case `index` of seed `seed` is drawn from its own random.Random, so (seed, index) alone
reproduces it. A case is one routine - a function (scalar, void, SETOF, TABLE, OUT
arguments) or a procedure with INOUT arguments - and the calls to make of it.

What keeps PostgreSQL's answer the only right one (so that a difference is DuetDB's):
* Every multi-row query that feeds a scalar or a loop has an ORDER BY on a key; no
  random(), no clock, no LIMIT without ORDER BY, no floating point.
* PostgreSQL folds constant subexpressions while planning, so an operator that can raise
  an error (overflow, division by zero, a failing cast) never has only constant operands:
  PostgreSQL would raise it at plan time even where it is never evaluated. Inside SQL
  statements PostgreSQL plans with the variables' values as constants (custom plans), so
  there such an operator needs a column operand ("rows" expressions), and conditions that
  filter rows (WHERE, ON) raise nothing at all ("nothrow"): which rows PostgreSQL evaluates
  them on depends on its plan (an index scan skips the others).
  Folding also turns an operator with a NULL constant operand into NULL without running
  the others, so work that can raise or has effects is not an operand next to what may
  fold to NULL (Expr.skip); and it raises an error of a statement's constant parts before
  any that come at run time (one_row_values).
* Computed columns that can raise go only where every row is read (RETURN QUERY): for
  SELECT INTO and loops PostgreSQL may compute them for the fetched rows only.
* UPDATEs that change a key column change one row (by primary key), and UPDATEs of
  several rows fail in one way only: over several rows, which error comes first depends
  on the order the rows are visited.

Constructs DuetDB cannot run yet (docs/plpgsql.md: FOREACH, EXECUTE, ASSERT, cursors over
queries) are never generated. Constructs DuetDB runs wrongly are named in KNOWN_GAPS and
left out unless `known_gaps=False`; delete an entry once its defect is fixed.
"""
from __future__ import annotations

import dataclasses
import random

# Construct name -> the defect that makes DuetDB answer differently from PostgreSQL
# (reproduced in tests/sql/plpgsql/differential_regressions.test). The generator leaves
# these constructs out, so the CI round passes on the current server.
KNOWN_GAPS: dict[str, str] = {}

PREFIX = "pd_"
ROUTINE = PREFIX + "r"
# Routines some cases create first, for the routine under test to call.
HELPER_FUNCTION = PREFIX + "hf"      # (h_a integer, h_b text) RETURNS integer
HELPER_PROCEDURE = PREFIX + "hp"     # (h_y text, INOUT h_x integer)
ROUTINE_NAMES = (ROUTINE, HELPER_FUNCTION, HELPER_PROCEDURE)

DROP_TABLES = f"DROP TABLE IF EXISTS {PREFIX}item, {PREFIX}log, {PREFIX}acct"
SCHEMA = [
    DROP_TABLES,
    f"CREATE TABLE {PREFIX}acct (id integer PRIMARY KEY, name text NOT NULL UNIQUE, "
    "bal integer NOT NULL CHECK (bal >= 0), flag boolean, tags integer[])",
    f"CREATE TABLE {PREFIX}item (id integer PRIMARY KEY, acct_id integer REFERENCES {PREFIX}acct (id), "
    "qty integer NOT NULL DEFAULT 0, price numeric(8,2), note text)",
    f"CREATE TABLE {PREFIX}log (id integer PRIMARY KEY, msg text)",
]

# Run before every case: the seed rows, among them values next to the integer limits.
# (Few statements: DuetDB compiles each statement again after DDL, such as a CREATE FUNCTION.)
RESET = [
    f"TRUNCATE {PREFIX}item, {PREFIX}log, {PREFIX}acct",
    f"INSERT INTO {PREFIX}acct VALUES (1, 'ann', 100, true, '{{1,2}}'), (2, 'bob', 0, false, '{{}}'), "
    "(3, 'cy', 2147483000, NULL, NULL), (4, 'dee', 50, true, '{3,NULL,3}')",
    f"INSERT INTO {PREFIX}item VALUES (1, 1, 5, 1.50, 'a'), (2, 1, 0, NULL, NULL), (3, 2, 7, 10.00, 'bb'), "
    "(4, NULL, -3, 0.25, 'c'), (5, 4, 100, 99.99, ''), (6, 4, 2147483647, -1.00, 'x y')",
    f"INSERT INTO {PREFIX}log VALUES (1, 'start')",
]

# Column name and value type of each table, in order; the key column first.
TABLES = {
    PREFIX + "acct": (("id", "int"), ("name", "text"), ("bal", "int"), ("flag", "bool"), ("tags", "intarr")),
    PREFIX + "item": (("id", "int"), ("acct_id", "int"), ("qty", "int"), ("price", "numeric"), ("note", "text")),
    PREFIX + "log": (("id", "int"), ("msg", "text")),
}


def table_contents_query() -> str:
    """All rows of every table in one query, ordered: (table, id, the other columns as text)."""
    width = max(len(cols) for cols in TABLES.values()) - 1
    selects = []
    for table, cols in TABLES.items():
        values = [f"{c}::text" for c, _ in cols[1:]] + ["NULL::text"] * (width + 1 - len(cols))
        selects.append(f"SELECT '{table}'::text AS t, id, {', '.join(values)} FROM {table}")
    return " UNION ALL ".join(selects) + " ORDER BY t, id"


# Value types of expressions, and how PL/pgSQL declares them.
SQL_TYPE = {"int": "integer", "bigint": "bigint", "numeric": "numeric", "text": "text", "bool": "boolean",
            "intarr": "integer[]"}
SCALAR_TYPES = ("int", "bigint", "numeric", "text", "bool")

LITERALS = {
    "int": ["0", "1", "2", "3", "5", "7", "10", "100", "(-1)", "(-7)", "46341", "65536", "1000000",
            "2147483647", "(-2147483648)"],
    "bigint": ["0::bigint", "1::bigint", "(-1)::bigint", "4294967296", "9223372036854775807",
               "(-9223372036854775807)"],
    "numeric": ["0.0", "1.5", "(-2.25)", "10.0", "0.001", "99.99", "1234.5678", "(-0.5)", "1e6"],
    "text": ["''", "'a'", "'abc'", "'ann'", "'bob'", "'x y'", "'it''s'", "'42'", "'Hello'"],
    "bool": ["true", "false"],
    "intarr": ["ARRAY[1, 2, 3]", "'{}'::integer[]", "'{5,NULL,1}'::integer[]", "ARRAY[2147483647]",
               "ARRAY[(-1), 0, 1, 0]"],
}

# Kinds of expression, by when PostgreSQL may evaluate them: constants (folded while
# planning), variables (constants too in SQL statements' custom plans), and values that
# exist only at run time (columns, subqueries).
CONST, VAR, DYN = 0, 1, 2
# Expr.skip and Expr.null_fold.
SKIP_STATIC, SKIP_RUNTIME = 1, 2
FOLD_VAR, FOLD_NULL = 1, 2


@dataclasses.dataclass(frozen=True)
class Expr:
    text: str
    kind: int
    # Holds an operator that can raise with no run-time-only operand: PostgreSQL evaluates
    # it while planning a statement whether or not the statement reaches it.
    static_risk: bool = False
    # Work PostgreSQL may skip while planning, where an operator with an operand folded to
    # a NULL constant becomes NULL: SKIP_STATIC, an operator that can raise on variables
    # (skipped next to a NULL literal; next to a variable it is folded, and raises, first);
    # SKIP_RUNTIME, one that can raise on a run-time value, or a call of a helper (skipped
    # next to a NULL literal or a variable).
    skip: int = 0
    # What may fold to a NULL constant: FOLD_VAR, variables; FOLD_NULL, a NULL literal.
    null_fold: int = 0


@dataclasses.dataclass(frozen=True)
class Ctx:
    """Where an expression stands: `mode` is "plpgsql" (a PL/pgSQL expression, or a SQL
    statement that evaluates it exactly once), "rows" (evaluated per row of a query) or
    "nothrow" (a row filter); `cols` are the columns in scope as (qualified name, type)."""
    mode: str = "plpgsql"
    cols: tuple = ()

    def with_cols(self, cols, mode):
        return Ctx(mode, tuple(cols) + self.cols)


@dataclasses.dataclass
class Var:
    name: str
    type: str
    writable: bool = True
    not_null: bool = False
    typmod: bool = False      # declared varchar(n) or numeric(p,s): storing into it can fail


@dataclasses.dataclass
class Case:
    seed: int
    index: int
    kind: str            # function, setof, table, out, procedure
    helpers: list[str]   # CREATE statements of the helper routines, made first
    create: str
    calls: list[str]
    drops: list[str]     # DROP statements of the routines, the one under test first


class RoutineGen:
    """Draws one routine. Statement methods return lists of lines (indented by the caller)."""

    MAX_DEPTH = 3

    def __init__(self, rng: random.Random, known_gaps: bool = True, helpers: tuple = ()):
        self.rng = rng
        self.helpers = helpers              # names of the helper routines the body may call
        self.try_depth = 0                  # EXCEPTION blocks around the statement being drawn
        self.gaps = KNOWN_GAPS if known_gaps else {}
        self.scopes: list[list[Var]] = []
        self.decls: list[str] = []          # the top block's DECLARE lines
        self.counter = 0
        # The enclosing loops and blocks, innermost last: ("loop" or "block", label or None).
        self.enclosing: list[tuple[str, str | None]] = []
        self.rows: list[tuple[str, str]] = []   # %ROWTYPE variables: (name, table)
        self.kind = ""
        self.result = None                  # value type a scalar function returns
        self.out_vars: list[Var] = []       # OUT / INOUT / TABLE columns
        self.budget = 0                     # statements left to draw
        self.drop = ""                      # the DROP statement of the routine drawn
        self.defaulted = False              # whether the last parameter has a DEFAULT
        self.strict = False                 # whether the function is STRICT
        self.is_helper = False              # a helper: called several times in a transaction
        self.read_only = False              # STABLE or IMMUTABLE: its writes fail (0A000)

    # ---- helpers -------------------------------------------------------------------------

    def allowed(self, construct: str) -> bool:
        return construct not in self.gaps

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def visible(self, pred=lambda v: True) -> list[Var]:
        return [v for scope in self.scopes for v in scope if pred(v)]

    def declare(self, type_: str, decl: str | None = None, init: str | None = None, writable=True) -> Var:
        """A variable of the top block (so that it outlives any loop that uses it)."""
        var = Var(self.fresh("v_"), type_, writable)
        text = f"{var.name} {decl or SQL_TYPE[type_]}"
        self.decls.append(text + (f" := {init};" if init is not None else ";"))
        self.scopes[0].append(var)
        return var

    # ---- expressions ---------------------------------------------------------------------

    def top(self, t: str, ctx: Ctx, depth: int = 2) -> Expr:
        """A whole expression: where it reads a column or runs a subquery, PostgreSQL plans
        it as a query (constant-folding its variables), so it must not also hold a
        static risk."""
        for _ in range(5):
            e = self.expr(t, ctx, depth)
            if not (e.static_risk and e.kind == DYN):
                return e
        return self.expr(t, Ctx("nothrow", ctx.cols), depth)

    def expr(self, t: str, ctx: Ctx, depth: int = 2) -> Expr:
        if depth <= 0 or self.chance(0.3):
            return self.atom(t, ctx)
        makers = self.makers[t]
        for _ in range(4):
            e = self.rng.choice(makers)(self, ctx, depth - 1)
            if e is not None:
                return e
        return self.atom(t, ctx)

    def atom(self, t: str, ctx: Ctx) -> Expr:
        cols = [c for c, ct in ctx.cols if ct == t]
        vars_ = [v.name for v in self.visible(lambda v: v.type == t)]
        r = self.rng.random()
        if cols and r < 0.45:
            return Expr(self.rng.choice(cols), DYN)
        if vars_ and r < 0.8:
            return Expr(self.rng.choice(vars_), VAR, null_fold=FOLD_VAR)
        if self.chance(0.06):
            return Expr(f"NULL::{SQL_TYPE[t]}", CONST, null_fold=FOLD_NULL)
        return Expr(self.rng.choice(LITERALS[t]), CONST)

    def may_raise(self, ctx: Ctx, *parts: Expr) -> bool:
        """Whether an operator that can raise an error may take these operands here."""
        if ctx.mode == "nothrow":
            return False
        need = VAR if ctx.mode == "plpgsql" else DYN
        return any(p.kind >= need for p in parts)

    @staticmethod
    def combine(text: str, *parts: Expr, risk: bool = False, skip: int = 0, choosing: bool = False,
                either: bool = False) -> Expr | None:
        """An expression of these operands, or None where PostgreSQL could fold it to NULL
        without doing an operand's work (see Expr.skip). A `choosing` expression (CASE,
        COALESCE, AND, OR) may fold to one of its operands: with a constant among them it
        may be a constant. AND and OR (`either`) fold to a constant operand that decides
        them wherever it stands, where at run time they stop at the first one that does."""
        def folds(q: Expr) -> int:
            return max(q.null_fold, {CONST: FOLD_NULL, VAR: FOLD_VAR}.get(q.kind, 0) if either else 0)
        for i, p in enumerate(parts):
            folds_it = FOLD_NULL if p.skip == SKIP_STATIC else FOLD_VAR
            if p.skip and any(folds(q) >= folds_it for q in parts[:i] + parts[i + 1:]):
                return None
        kinds = [p.kind for p in parts]
        kind = min(kinds) if choosing and CONST in kinds else max(kinds, default=CONST)
        # A constant expression may fold to NULL too (array_length('{}', 1)).
        null_fold = FOLD_NULL if kind == CONST else max((p.null_fold for p in parts), default=0)
        return Expr(text, kind, risk or any(p.static_risk for p in parts),
                    max([skip] + [p.skip for p in parts]), null_fold)

    def raising(self, ctx: Ctx, text_of, *parts: Expr) -> Expr | None:
        if not self.may_raise(ctx, *parts):
            return None
        static = all(p.kind < DYN for p in parts)
        return self.combine(text_of(*(p.text for p in parts)), *parts, risk=static,
                            skip=SKIP_STATIC if static else SKIP_RUNTIME)

    # int
    def int_arith(self, ctx, d):
        a, b = self.expr("int", ctx, d), self.expr("int", ctx, d)
        op = self.rng.choice(["+", "-", "*", "/", "%"])
        return self.raising(ctx, lambda x, y: f"({x} {op} {y})", a, b)

    def int_neg(self, ctx, d):
        a = self.expr("int", ctx, d)
        return self.raising(ctx, lambda x: self.rng.choice([f"(- {x})", f"abs({x})"]), a)

    def int_case(self, ctx, d):
        c, a, b = self.expr("bool", ctx, d), self.expr("int", ctx, d), self.expr("int", ctx, d)
        return self.combine(f"CASE WHEN {c.text} THEN {a.text} ELSE {b.text} END", c, a, b, choosing=True)

    def int_pick(self, ctx, d):
        a, b = self.expr("int", ctx, d), self.expr("int", ctx, d)
        f = self.rng.choice(["coalesce", "greatest", "least", "nullif"])
        return self.combine(f"{f}({a.text}, {b.text})", a, b, choosing=f == "coalesce")

    def int_from_other(self, ctx, d):
        which = self.rng.choice(["len", "arr", "arrlen", "pos", "cast"])
        if which == "len":
            s = self.expr("text", ctx, d)
            return self.combine(f"length({s.text})", s)
        a = self.expr("intarr", ctx, d)
        if which == "arr":
            i = self.expr("int", ctx, d)
            base = a.text if a.text.startswith("v_") or a.text.startswith("p_") else f"({a.text})"
            return self.combine(f"{base}[{i.text}]", a, i)
        if which == "arrlen":
            return self.combine(self.rng.choice([f"array_length({a.text}, 1)", f"cardinality({a.text})"]), a)
        if which == "pos":
            # With a NULL element to find, DuetDB gives NULL on purpose (docs/sql.md).
            x = self.expr("int", ctx, d)
            return self.combine(f"array_position({a.text}, coalesce({x.text}, 0))", a, x)
        src = self.rng.choice(["bigint", "numeric", "text"])
        x = self.expr(src, ctx, d)
        return self.raising(ctx, lambda y: f"({y})::integer", x)

    def int_subquery(self, ctx, d):
        return self.subquery_scalar("int", ctx, d)

    def int_helper(self, ctx, d):
        # Only where it runs once per evaluation: per row, its changes and errors would
        # depend on the order of the rows.
        if ctx.mode != "plpgsql" or HELPER_FUNCTION not in self.helpers:
            return None
        a, b = self.expr("int", ctx, d), self.expr("text", ctx, d)
        return Expr(f"{HELPER_FUNCTION}({a.text}, {b.text})", DYN, a.static_risk or b.static_risk, SKIP_RUNTIME)

    # bigint
    def big_arith(self, ctx, d):
        a, b = self.expr("bigint", ctx, d), self.expr(self.rng.choice(["bigint", "int"]), ctx, d)
        op = self.rng.choice(["+", "-", "*", "/"])
        return self.raising(ctx, lambda x, y: f"({x} {op} {y})", a, b)

    def big_from_int(self, ctx, d):
        a = self.expr("int", ctx, d)
        return self.combine(f"({a.text})::bigint", a)

    def big_case(self, ctx, d):
        a, b = self.expr("bigint", ctx, d), self.expr("bigint", ctx, d)
        return self.combine(f"coalesce({a.text}, {b.text})", a, b, choosing=True)

    def big_subquery(self, ctx, d):
        return self.subquery_aggregate("bigint", ctx, d)

    # numeric
    def num_arith(self, ctx, d):
        a, b = self.expr("numeric", ctx, d), self.expr(self.rng.choice(["numeric", "int"]), ctx, d)
        op = self.rng.choice(["+", "-", "*", "/", "%"])
        if op in "+-*" and a.kind == CONST and b.kind == CONST:
            return self.combine(f"({a.text} {op} {b.text})", a, b)   # exact, cannot overflow here
        if op == "/" and self.chance(0.5):
            # A quotient has 16 or more decimals: products of them soon pass the 35 digits
            # DuetDB's numeric holds (docs/sql.md).
            return self.raising(ctx, lambda x, y: f"round({x} / {y}, 6)", a, b)
        return self.raising(ctx, lambda x, y: f"({x} {op} {y})", a, b)

    def num_func(self, ctx, d):
        a = self.expr("numeric", ctx, d)
        f = self.rng.choice(["round({}, 1)", "round({})", "trunc({}, 2)", "abs({})", "floor({})", "ceil({})"])
        return self.combine(f.format(a.text), a)

    def num_from_int(self, ctx, d):
        a = self.expr(self.rng.choice(["int", "bigint"]), ctx, d)
        return self.combine(f"({a.text})::numeric", a)

    def num_subquery(self, ctx, d):
        return self.subquery_aggregate("numeric", ctx, d)

    # text
    def text_concat(self, ctx, d):
        a = self.expr("text", ctx, d)
        b = self.expr(self.rng.choice(["text", "text", "int", "numeric", "bool"]), ctx, d)
        return self.combine(f"({a.text} || {b.text})", a, b)

    def text_func(self, ctx, d):
        a = self.expr("text", ctx, d)
        f = self.rng.choice(["upper", "lower", "reverse", "initcap", "btrim"])
        return self.combine(f"{f}({a.text})", a)

    def text_cut(self, ctx, d):
        a, n = self.expr("text", ctx, d), self.expr("int", ctx, d)
        f = self.rng.choice(["left({}, {})", "right({}, {})", "substr({}, {})", "substr({}, {}, 2)",
                             "split_part({}, ' ', {})"])
        if f.startswith("left") or f.startswith("right") or f == "substr({}, {})":
            return self.combine(f.format(a.text, n.text), a, n)
        return self.raising(ctx, lambda x, y: f.format(x, y), a, n)

    def text_from(self, ctx, d):
        src = self.rng.choice(["int", "bigint", "numeric", "bool", "intarr"])
        a = self.expr(src, ctx, d)
        return self.combine(self.rng.choice([f"({a.text})::text", f"concat('<', {a.text}, '>')"]), a)

    def text_format(self, ctx, d):
        a, b = self.expr("text", ctx, d), self.expr(self.rng.choice(["int", "numeric"]), ctx, d)
        f = self.rng.choice(["format('%s/%s', {}, {})", "concat_ws(',', {}, {})", "coalesce({}, {}::text)",
                             "replace({}, 'a', {}::text)"])
        return self.combine(f.format(a.text, b.text), a, b, choosing=f.startswith("coalesce"))

    def text_array(self, ctx, d):
        a = self.expr("intarr", ctx, d)
        e = self.combine(f"array_to_string({a.text}, ',', '*')", a)
        # array_to_string is STABLE: PostgreSQL's planner does not fold it, so what may
        # raise on its value (a cast to integer) is skipped next to a variable folded to
        # NULL, as a run-time value's would be.
        return dataclasses.replace(e, kind=DYN) if e else None

    def text_subquery(self, ctx, d):
        return self.subquery_scalar("text", ctx, d)

    # bool
    def bool_compare(self, ctx, d):
        t = self.rng.choice(["int", "int", "bigint", "numeric", "text", "intarr"])
        a, b = self.expr(t, ctx, d), self.expr(t, ctx, d)
        op = self.rng.choice(["=", "<>", "<", "<=", ">", ">=", "IS DISTINCT FROM", "IS NOT DISTINCT FROM"])
        return self.combine(f"({a.text} {op} {b.text})", a, b)

    def bool_logic(self, ctx, d):
        a, b = self.expr("bool", ctx, d), self.expr("bool", ctx, d)
        form = self.rng.choice(["({} AND {})", "({} OR {})", "(NOT {} OR {})"])
        return self.combine(form.format(a.text, b.text), a, b, choosing=True, either=True)

    def bool_null(self, ctx, d):
        a = self.expr(self.rng.choice(SCALAR_TYPES + ("intarr",)), ctx, d)
        return self.combine(f"({a.text} IS {self.rng.choice(['', 'NOT '])}NULL)", a)

    def bool_any(self, ctx, d):
        x, a = self.expr("int", ctx, d), self.expr("intarr", ctx, d)
        form = self.rng.choice(["({} = ANY({}))", "({} <> ALL({}))", "({} > ANY({}))"])
        array = a.text
        if a.text.startswith("(SELECT"):
            # ANY ((SELECT ...)) would compare with each row of the subquery, not each element.
            array = f"({a.text})::integer[]"
        return self.combine(form.format(x.text, array), x, a)

    def bool_misc(self, ctx, d):
        which = self.rng.choice(["in", "between", "like", "found"])
        if which == "found":
            return Expr("FOUND", VAR, null_fold=FOLD_VAR)
        if which == "like":
            s = self.expr("text", ctx, d)
            return self.combine(f"({s.text} LIKE '{self.rng.choice(['a%', '%b%', '_', '%'])}')", s)
        x, a, b = self.expr("int", ctx, d), self.expr("int", ctx, d), self.expr("int", ctx, d)
        if which == "in":
            items = f"{a.text}, {b.text}, 3"
            return self.combine(f"({x.text} IN ({items}))", x, a, b)
        return self.combine(f"({x.text} BETWEEN {a.text} AND {b.text})", x, a, b)

    def bool_exists(self, ctx, d):
        table, alias, cols = self.from_table(ctx)
        inner = ctx.with_cols(cols, "nothrow")
        cond = self.expr("bool", inner, max(d, 1))
        return Expr(f"{self.rng.choice(['', 'NOT '])}EXISTS (SELECT 1 FROM {table} {alias} WHERE {cond.text})", DYN)

    # int[]
    def arr_build(self, ctx, d):
        items = [self.expr("int", ctx, d) for _ in range(self.rng.randint(1, 3))]
        return self.combine("ARRAY[" + ", ".join(i.text for i in items) + "]", *items)

    def arr_concat(self, ctx, d):
        a = self.expr("intarr", ctx, d)
        b = self.expr(self.rng.choice(["int", "intarr"]), ctx, d)
        text = f"({a.text} || {b.text})" if self.chance(0.7) else f"({b.text} || {a.text})"
        return self.combine(text, a, b)

    def arr_remove(self, ctx, d):
        a, x = self.expr("intarr", ctx, d), self.expr("int", ctx, d)
        return self.combine(f"array_remove({a.text}, {x.text})", a, x)

    def arr_subquery(self, ctx, d):
        table, alias, cols = self.from_table(ctx)
        inner = ctx.with_cols(cols, "nothrow")
        cond = self.expr("bool", inner, 1)
        order = self.rng.choice(["", " DESC"])
        return Expr(f"(SELECT array_agg({alias}.id ORDER BY {alias}.id{order}) FROM {table} {alias} "
                    f"WHERE {cond.text})", DYN)

    makers = {
        "int": [int_arith, int_arith, int_neg, int_case, int_pick, int_from_other, int_from_other, int_subquery,
                int_helper],
        "bigint": [big_arith, big_from_int, big_case, big_subquery],
        "numeric": [num_arith, num_arith, num_func, num_from_int, num_subquery],
        "text": [text_concat, text_concat, text_func, text_cut, text_from, text_format, text_array, text_subquery],
        "bool": [bool_compare, bool_compare, bool_logic, bool_null, bool_any, bool_misc, bool_exists],
        "intarr": [arr_build, arr_concat, arr_remove, arr_subquery],
    }

    # ---- queries -------------------------------------------------------------------------

    def from_table(self, ctx: Ctx, table: str | None = None):
        """A table with a fresh alias, and its columns as (alias.col, type)."""
        table = table or self.rng.choice(list(TABLES))
        alias = self.fresh("t")
        return table, alias, [(f"{alias}.{c}", t) for c, t in TABLES[table]]

    def key_where(self, alias: str) -> str:
        """A filter that selects one row at most (the key is evaluated once, first)."""
        return f"{alias}.id = {self.expr('int', Ctx('nothrow'), 1).text}"

    def where(self, ctx: Ctx, cols, key_alias: str) -> str:
        """A row filter: often on the key, so that it selects one row or a few."""
        inner = ctx.with_cols(cols, "nothrow")
        r = self.rng.random()
        if r < 0.35:
            return self.key_where(key_alias)
        if r < 0.5:
            return f"{key_alias}.id {self.rng.choice(['<', '>', '<=', '>='])} {self.expr('int', inner, 1).text}"
        return self.expr("bool", inner, 2).text

    def subquery_scalar(self, t: str, ctx: Ctx, d: int) -> Expr:
        """A column of one row found by key, or the first row in key order."""
        matching = [(c, tbl) for tbl in TABLES for c, ct in TABLES[tbl] if ct == t]
        col, table = self.rng.choice(matching)
        _, alias, cols = self.from_table(ctx, table)
        inner = ctx.with_cols(cols, "nothrow")
        if self.chance(0.5):
            key = self.expr("int", Ctx("nothrow", ctx.cols), 1)   # not of this row: one row at most
            return Expr(f"(SELECT {alias}.{col} FROM {table} {alias} WHERE {alias}.id = {key.text})", DYN)
        cond = self.expr("bool", inner, 1)
        return Expr(f"(SELECT {alias}.{col} FROM {table} {alias} WHERE {cond.text} "
                    f"ORDER BY {alias}.id{self.rng.choice(['', ' DESC'])} LIMIT 1)", DYN)

    def subquery_aggregate(self, t: str, ctx: Ctx, d: int) -> Expr:
        table, alias, cols = self.from_table(ctx)
        inner = ctx.with_cols(cols, "nothrow")
        cond = self.expr("bool", inner, 1)
        ints = [c for c, ct in cols if ct == "int"]
        if t == "bigint":
            agg = self.rng.choice(["count(*)", f"sum({self.rng.choice(ints)})", f"count({self.rng.choice(ints)})"])
        else:
            num = [c for c, ct in cols if ct == "numeric"] + ints
            agg = self.rng.choice([f"avg({self.rng.choice(ints)})", f"sum({self.rng.choice(num)})::numeric",
                                   f"max({self.rng.choice(num)})::numeric"])
        return Expr(f"(SELECT {agg} FROM {table} {alias} WHERE {cond.text})", DYN)

    def select_list(self, types, ctx: Ctx, cols, every_row: bool = True) -> str:
        """Expressions of these types over a query's columns, evaluated per row. Unless the
        caller reads `every_row`, they raise nothing: PostgreSQL may compute them only for
        the rows it fetches (the first, for SELECT INTO, or up to a loop's EXIT)."""
        inner = ctx.with_cols(cols, "rows" if every_row else "nothrow")
        out = []
        for t in types:
            same = [c for c, ct in cols if ct == t]
            out.append(self.rng.choice(same) if same and self.chance(0.6) else self.expr(t, inner, 1).text)
        return ", ".join(out)

    # ---- statements ----------------------------------------------------------------------

    def body(self, depth: int, count: int) -> list[str]:
        lines = []
        for _ in range(count):
            if self.budget <= 0:
                break
            self.budget -= 1
            lines += self.statement(depth)
        return lines or ["NULL;"]

    def statement(self, depth: int) -> list[str]:
        choices = [(self.st_assign, 6), (self.st_if, 3), (self.st_raise_notice, 1), (self.st_select_into, 3),
                   (self.st_insert, 2), (self.st_update, 2), (self.st_delete, 1), (self.st_perform, 1),
                   (self.st_array_element, 1)]
        choices.append((self.st_diagnostics, 1))
        if depth < self.MAX_DEPTH:
            choices += [(self.st_case, 1), (self.st_loop, 1), (self.st_while, 1), (self.st_for_int, 2),
                        (self.st_for_query, 2), (self.st_exception_block, 3), (self.st_plain_block, 1)]
        if any(label or kind == "loop" for kind, label in self.enclosing):
            choices.append((self.st_exit, 1))
        if HELPER_PROCEDURE in self.helpers:
            choices.append((self.st_call, 2))
        if depth < self.MAX_DEPTH and self.try_depth == 0:
            # PostgreSQL closes a cursor when an EXCEPTION block catches an error after its
            # OPEN; DuetDB leaves it open (docs/plpgsql.md).
            choices.append((self.st_cursor, 1))
        choices.append((self.st_return_early, 1 if self.kind != "setof" else 2))
        if self.kind in ("setof", "table"):
            choices.append((self.st_return_next, 3))
        choices.append((self.st_raise_exception, 1))
        makers, weights = zip(*choices)
        maker = self.rng.choices(makers, weights)[0]
        if self.read_only and maker in (self.st_insert, self.st_update, self.st_delete):
            maker = self.st_write_read_only
        lines = maker(depth)
        if maker in (self.st_select_into, self.st_insert, self.st_update, self.st_delete, self.st_perform) \
                and self.chance(0.25):
            lines += self.st_diagnostics(depth)
        return lines

    def nested(self, depth: int) -> list[str]:
        return indent(self.body(depth + 1, self.rng.randint(1, 3)))

    def into_targets(self, pred) -> list[Var]:
        """Variables a statement may store its row into (or NULLs, without a row)."""
        return self.visible(lambda v: v.writable and pred(v))

    def assign_target(self) -> Var | None:
        targets = self.visible(lambda v: v.writable)
        loop_vars = self.visible(lambda v: v.type == "int" and v.name.startswith("i"))   # st_for_int
        if loop_vars and self.chance(0.05):
            return self.rng.choice(loop_vars)   # the loop goes on from its own count
        return self.rng.choice(targets) if targets else None

    def st_assign(self, depth):
        target = self.assign_target()
        if target is None:
            return ["NULL;"]
        # Now and then a value of another type: PL/pgSQL converts it with an assignment cast.
        source = target.type
        if self.chance(0.15):
            source = {"int": ["bigint", "numeric", "text"], "bigint": ["int", "numeric"],
                      "numeric": ["int", "bigint"], "text": ["int", "numeric", "bool"],
                      "bool": ["bool"], "intarr": ["intarr"]}[target.type]
            source = self.rng.choice(source)
        e = self.top(source, Ctx("plpgsql"), 3)
        return [f"{target.name} {self.rng.choice([':=', ':=', '='])} {e.text};"]

    def st_array_element(self, depth):
        arrays = self.visible(lambda v: v.writable and v.type == "intarr")
        if not arrays:
            return self.st_assign(depth)
        a = self.rng.choice(arrays)
        # The integer FOR loops' variables (st_for_int).
        loop_vars = [v.name for v in self.visible(lambda v: v.type == "int" and v.name.startswith("i"))]
        # Past the end of an empty array PostgreSQL makes one whose lower bound is not 1,
        # which DuetDB does not have (docs/architecture.md).
        position = self.rng.choice(["2", "3", "5"] + [f"greatest({i}, 1)" for i in loop_vars])
        idx = self.rng.choice(["1", f"coalesce(array_length({a.name}, 1), 0) + 1", f"array_length({a.name}, 1)",
                               f"CASE WHEN cardinality({a.name}) > 0 THEN {position} ELSE 1 END"])
        return [f"{a.name}[{idx}] := {self.top('int', Ctx('plpgsql'), 2).text};"]

    def cond(self) -> str:
        return self.top("bool", Ctx("plpgsql"), 3).text

    def st_if(self, depth):
        lines = [f"IF {self.cond()} THEN"] + self.nested(depth)
        for _ in range(self.rng.choice([0, 0, 1, 2])):
            lines += [f"ELSIF {self.cond()} THEN"] + self.nested(depth)
        if self.chance(0.5):
            lines += ["ELSE"] + self.nested(depth)
        return lines + ["END IF;"]

    def st_case(self, depth):
        if self.chance(0.5):
            subject = self.top("int", Ctx("plpgsql"), 2).text
            lines = [f"CASE ({subject})"]   # a CASE expression's WHEN would end it
            for _ in range(self.rng.randint(1, 3)):
                values = ", ".join(self.rng.sample(["0", "1", "2", "3", "5", "7", "(-1)", "100"],
                                                   self.rng.randint(1, 2)))
                lines += [f"  WHEN {values} THEN"] + indent(self.nested(depth))
        else:
            lines = ["CASE"]
            for _ in range(self.rng.randint(1, 3)):
                lines += [f"  WHEN {self.cond()} THEN"] + indent(self.nested(depth))
        if self.chance(0.7):   # without ELSE, no match is error 20000
            lines += ["  ELSE"] + indent(self.nested(depth))
        return lines + ["END CASE;"]

    def loop_counter(self) -> Var:
        return self.declare("int", init="0", writable=False)

    def loop_body(self, depth, label) -> list[str]:
        self.enclosing.append(("loop", label))
        try:
            return self.nested(depth)
        finally:
            self.enclosing.pop()

    def label(self) -> str | None:
        return self.fresh("l") if self.chance(0.3) else None

    def st_loop(self, depth):
        counter, label = self.loop_counter(), self.label()
        head = f"<<{label}>> LOOP" if label else "LOOP"
        start = [f"{counter.name} := 0;", head, f"  {counter.name} := {counter.name} + 1;",
                 f"  EXIT WHEN {counter.name} > {self.rng.randint(1, 5)};"]
        return start + self.loop_body(depth, label) + ["END LOOP;"]

    def st_while(self, depth):
        counter, label = self.loop_counter(), self.label()
        head = f"WHILE {counter.name} < {self.rng.randint(1, 5)} AND {self.cond()} LOOP"
        return [f"{counter.name} := 0;", (f"<<{label}>> " if label else "") + head,
                f"  {counter.name} := {counter.name} + 1;"] + self.loop_body(depth, label) + ["END LOOP;"]

    def st_for_int(self, depth):
        var, label = Var(self.fresh("i"), "int", writable=False), self.label()
        bound = self.top("int", Ctx("plpgsql"), 2).text
        if self.chance(0.1):   # the loop ends at the top of the integer range without overflowing
            low, high = "2147483640", "2147483647"
        else:
            low, high = str(self.rng.randint(-2, 3)), f"least({bound}, {self.rng.randint(0, 8)})"
            if self.chance(0.15):
                high = f"nullif({high}, {self.rng.randint(0, 3)})"
        by = f" BY {self.rng.choice(['2', '3', f'least({bound}, 3)'])}" if self.chance(0.3) else ""
        head = f"FOR {var.name} IN REVERSE {high} .. {low}{by} LOOP" if self.chance(0.3) else \
            f"FOR {var.name} IN {low} .. {high}{by} LOOP"
        self.scopes.append([var])
        try:
            body = self.loop_body(depth, label)
        finally:
            self.scopes.pop()
        return [(f"<<{label}>> " if label else "") + head] + body + ["END LOOP;"]

    def st_for_query(self, depth):
        rec = Var(self.fresh("r"), "record", writable=False)
        self.decls.append(f"{rec.name} record;")
        label = self.label()
        if self.chance(0.25):
            query, fields = self.join_query(Ctx("plpgsql"))
        else:
            table, alias, cols = self.from_table(Ctx("plpgsql"))
            types = [t for _, t in TABLES[table]]
            names = [c for c, _ in TABLES[table]]
            chosen = sorted(self.rng.sample(range(len(names)), self.rng.randint(1, len(names))))
            if 0 not in chosen:
                chosen = [0] + chosen
            fields = [(names[i], types[i]) for i in chosen]
            select = ", ".join(f"{alias}.{names[i]}" for i in chosen)
            if self.chance(0.3):   # a computed column, named
                select += f", {self.select_list(['int'], Ctx('plpgsql'), cols, every_row=False)} AS x"
                fields.append(("x", "int"))
            order = self.rng.choice(["", " DESC"])
            query = (f"SELECT {select} FROM {table} {alias} WHERE {self.where(Ctx('plpgsql'), cols, alias)} "
                     f"ORDER BY {alias}.id{order}")
        self.scopes.append([Var(f"{rec.name}.{name}", t, writable=False) for name, t in fields])
        try:
            body = self.loop_body(depth, label)
        finally:
            self.scopes.pop()
        return [(f"<<{label}>> " if label else "") + f"FOR {rec.name} IN {query} LOOP"] + body + ["END LOOP;"]

    def join_query(self, ctx: Ctx):
        """Accounts with their items, or with aggregates of them; (query, fields)."""
        a, i = self.fresh("t"), self.fresh("t")
        cols = [(f"{a}.{c}", t) for c, t in TABLES[PREFIX + "acct"]] + \
               [(f"{i}.{c}", t) for c, t in TABLES[PREFIX + "item"]]
        cond = self.expr("bool", ctx.with_cols(cols, "nothrow"), 1).text
        if self.chance(0.5):
            return (f"SELECT {a}.id, {a}.name, {i}.id AS item, {i}.qty FROM {PREFIX}acct {a} "
                    f"{self.rng.choice(['JOIN', 'LEFT JOIN'])} {PREFIX}item {i} ON {i}.acct_id = {a}.id "
                    f"WHERE {cond} ORDER BY {a}.id, {i}.id",
                    [("id", "int"), ("name", "text"), ("item", "int"), ("qty", "int")])
        return (f"SELECT {a}.id, count({i}.id) AS n, sum({i}.qty) AS total FROM {PREFIX}acct {a} "
                f"LEFT JOIN {PREFIX}item {i} ON {i}.acct_id = {a}.id GROUP BY {a}.id ORDER BY {a}.id",
                [("id", "int"), ("n", "bigint"), ("total", "bigint")])

    CONDITIONS = ["division_by_zero", "unique_violation", "check_violation", "foreign_key_violation",
                  "not_null_violation", "numeric_value_out_of_range", "no_data_found", "too_many_rows",
                  "raise_exception", "SQLSTATE 'U0001'", "data_exception", "integrity_constraint_violation",
                  "SQLSTATE '22012'", "case_not_found", "string_data_right_truncation", "null_value_not_allowed",
                  "invalid_text_representation", "array_subscript_error"]

    def st_exception_block(self, depth):
        self.try_depth += 1
        try:
            lines = ["BEGIN"] + self.nested(depth) + ["EXCEPTION"]
        finally:
            self.try_depth -= 1
        conditions = self.rng.sample(self.CONDITIONS, self.rng.randint(1, 3))
        handlers = [[c] for c in conditions]
        if self.chance(0.3) and len(handlers) > 1:
            handlers[0] += handlers.pop()
        if self.chance(0.5):
            handlers.append(["OTHERS"])
        for conds in handlers:
            lines.append(f"  WHEN {' OR '.join(conds)} THEN")
            lines += indent(indent(self.handler(depth, conds)))
        return lines + ["END;"]

    def handler(self, depth, conds) -> list[str]:
        # SQLERRM is compared only for errors RAISE made: built-in messages are worded by
        # each server.
        exposes_message = all(c in ("raise_exception", "SQLSTATE 'U0001'") for c in conds)
        scope = [Var("SQLSTATE", "text", writable=False)]
        if exposes_message:
            scope.append(Var("SQLERRM", "text", writable=False))
        self.scopes.append(scope)
        try:
            lines = []
            text_vars = self.visible(lambda v: v.writable and v.type == "text")
            if text_vars and self.chance(0.6):
                lines.append(f"{self.rng.choice(text_vars).name} := {scope[-1].name};")
            if self.chance(0.2):
                target = self.declare("text")
                lines.append(f"GET STACKED DIAGNOSTICS {target.name} = RETURNED_SQLSTATE;")
            lines += self.body(depth + 1, self.rng.randint(0, 2)) if self.budget > 0 else []
            if self.chance(0.1):
                lines.append("RAISE;")
            return lines or ["NULL;"]
        finally:
            self.scopes.pop()

    def st_plain_block(self, depth):
        label = self.label()
        lines = [f"<<{label}>>"] if label else []
        scope = []
        if self.chance(0.6):
            t = self.rng.choice(SCALAR_TYPES)
            var = Var(self.fresh("b_"), t)
            lines += ["DECLARE", f"  {var.name} {SQL_TYPE[t]} := {self.top(t, Ctx('plpgsql'), 1).text};"]
            scope.append(var)
        self.scopes.append(scope)
        self.enclosing.append(("block", label))
        try:
            return lines + ["BEGIN"] + self.nested(depth) + ["END;"]
        finally:
            self.scopes.pop()
            self.enclosing.pop()

    def st_exit(self, depth):
        """EXIT or CONTINUE of a loop, or EXIT of a labelled block (which needs its label)."""
        in_loop = any(kind == "loop" for kind, _ in self.enclosing)
        word = self.rng.choice(["EXIT", "CONTINUE"]) if in_loop else "EXIT"
        labels = [label for kind, label in self.enclosing if label and (kind == "loop" or word == "EXIT")]
        if not labels and not in_loop:
            return ["NULL;"]
        target = f" {self.rng.choice(labels)}" if labels and (self.chance(0.5) or not in_loop) else ""
        if self.chance(0.7):
            return [f"{word}{target} WHEN {self.cond()};"]
        return [f"IF {self.cond()} THEN", f"  {word}{target};", "END IF;"]

    def raise_argument(self, types) -> str:
        t = self.rng.choice(types)
        text = self.top(t, Ctx("plpgsql"), 2).text
        return f"({text})::text" if t == "bool" and not self.allowed("raise_boolean") else text

    def st_raise_notice(self, depth):
        args = [self.raise_argument(SCALAR_TYPES + ("intarr",)) for _ in range(self.rng.randint(0, 2))]
        fmt = "n" + "".join(f" {k}=%" for k in range(len(args)))
        return [f"RAISE NOTICE '{fmt}'" + "".join(f", {a}" for a in args) + ";"]

    def st_raise_exception(self, depth):
        arg = self.raise_argument(SCALAR_TYPES)
        using = self.rng.choice(["", "", " USING ERRCODE = 'U0001'", " USING ERRCODE = 'division_by_zero'",
                                 " USING HINT = 'h'"])
        raise_ = f"RAISE EXCEPTION 'boom %', {arg}{using};"
        if self.chance(0.2):
            raise_ = self.rng.choice(["RAISE division_by_zero;", "RAISE unique_violation USING MESSAGE = 'dup';",
                                      "RAISE SQLSTATE 'U0001';"])
        return [f"IF {self.cond()} THEN", f"  {raise_}", "END IF;"]

    def st_return_early(self, depth):
        if self.kind == "function" and self.result != "void":
            value = self.top(self.result, Ctx("plpgsql"), 2).text
            return [f"IF {self.cond()} THEN", f"  RETURN {value};", "END IF;"]
        return [f"IF {self.cond()} THEN", "  RETURN;", "END IF;"]

    def st_return_next(self, depth):
        if self.kind == "setof":
            if self.chance(0.3):
                table, alias, cols = self.from_table(Ctx("plpgsql"))
                return [f"RETURN QUERY SELECT {self.select_list([self.result], Ctx('plpgsql'), cols)} "
                        f"FROM {table} {alias} WHERE {self.where(Ctx('plpgsql'), cols, alias)} ORDER BY {alias}.id;"]
            return [f"RETURN NEXT {self.top(self.result, Ctx('plpgsql'), 2).text};"]
        if self.chance(0.3):
            table, alias, cols = self.from_table(Ctx("plpgsql"))
            return [f"RETURN QUERY SELECT {self.select_list([v.type for v in self.out_vars], Ctx('plpgsql'), cols)} "
                    f"FROM {table} {alias} WHERE {self.where(Ctx('plpgsql'), cols, alias)} ORDER BY {alias}.id;"]
        lines = [f"{v.name} := {self.top(v.type, Ctx('plpgsql'), 2).text};" for v in self.out_vars if self.chance(0.7)]
        return lines + ["RETURN NEXT;"]

    def st_select_row(self, depth):
        name, table = self.rng.choice(self.rows)
        _, alias, cols = self.from_table(Ctx("plpgsql"), table)
        return [f"SELECT * INTO {name} FROM {table} {alias} WHERE {self.where(Ctx('plpgsql'), cols, alias)} "
                f"ORDER BY {alias}.id DESC;"]

    def st_select_into(self, depth):
        if self.rows and self.chance(0.3):
            return self.st_select_row(depth)
        strict = " STRICT" if self.chance(0.25) else ""
        targets = self.into_targets(lambda v: True)
        if not targets:
            return ["NULL;"]
        chosen = self.rng.sample(targets, min(len(targets), self.rng.randint(1, 2)))
        into = ", ".join(v.name for v in chosen)
        if self.chance(0.2):   # no FROM: evaluated once
            values = ", ".join(self.one_row_values([v.type for v in chosen]))
            return [f"SELECT {values} INTO{strict} {into};"]
        table, alias, cols = self.from_table(Ctx("plpgsql"))
        where = self.where(Ctx("plpgsql"), cols, alias)
        if self.chance(0.2):
            if not self.allowed("aggregates_into_twice"):
                chosen = chosen[:1]
                into = chosen[0].name
            aggs = []
            for v in chosen:
                ints = [c for c, t in cols if t == "int"]
                aggs.append({"int": f"min({self.rng.choice(ints)})", "bigint": "count(*)",
                             "numeric": f"avg({self.rng.choice(ints)})",
                             "text": f"string_agg({alias}.id::text, ',' ORDER BY {alias}.id)",
                             "bool": "bool_and(true)", "intarr": f"array_agg({alias}.id ORDER BY {alias}.id)"}[v.type])
            return [f"SELECT {', '.join(aggs)} INTO{strict} {into} FROM {table} {alias} WHERE {where};"]
        values = self.select_list([v.type for v in chosen], Ctx("plpgsql"), cols, every_row=False)
        order = "" if strict else f" ORDER BY {alias}.id{self.rng.choice(['', ' DESC'])}"
        return [f"SELECT {values} INTO{strict} {into} FROM {table} {alias} WHERE {where}{order};"]

    def one_row_values(self, types: list[str], coerced: frozenset = frozenset()) -> list[str]:
        """Expressions of one statement, each evaluated once (VALUES, a SELECT without FROM).
        PostgreSQL raises the errors of operators on variables alone while planning, before
        any that come at run time (from a helper call, an operator on a subquery's value),
        so one statement does not hold both. The positions in `coerced` are converted to a
        column's typmod, which can fail as well."""
        for _ in range(5):
            exprs = [self.top(t, Ctx("plpgsql"), 2) for t in types]
            planned = any(e.static_risk or (i in coerced and e.kind < DYN) for i, e in enumerate(exprs))
            if not (planned and any(e.skip == SKIP_RUNTIME for e in exprs)):
                return [e.text for e in exprs]
        return [self.rng.choice(LITERALS[t]) for t in types]

    def returning_into(self, alias, cols) -> str:
        targets = self.into_targets(lambda v: v.type in ("int", "text", "bigint"))
        if not targets or not self.chance(0.35):
            return ""
        v = self.rng.choice(targets)
        same = [c for c, t in cols if t == v.type] or [f"{alias}.id"]
        strict = " STRICT" if self.chance(0.2) else ""
        return f" RETURNING {self.rng.choice(same)} INTO{strict} {v.name}"

    def st_insert(self, depth):
        ctx = Ctx("plpgsql")
        table = self.rng.choice(list(TABLES))
        if table == PREFIX + "log" and self.chance(0.5):
            msg = self.top("text", ctx, 2).text
            return [f"INSERT INTO {PREFIX}log VALUES ((SELECT coalesce(max(id), 0) + 1 FROM {PREFIX}log), {msg});"]
        if table == PREFIX + "log" and self.chance(0.4):
            src, alias, cols = self.from_table(ctx, PREFIX + "acct")
            return [f"INSERT INTO {PREFIX}log SELECT {alias}.id + {self.rng.choice(['1', '10', '100'])}, {alias}.name "
                    f"FROM {src} {alias} WHERE {self.where(ctx, cols, alias)};"]
        # Each column: a literal, or "{}" for an expression of the column's type.
        forms = []
        for col, t in TABLES[table]:
            if col == "id" and self.chance(0.7):
                forms.append(str(self.rng.randint(1, 12)))
            elif col == "acct_id" and self.chance(0.7):
                forms.append(self.rng.choice(["1", "2", "4", "NULL", "9"]))
            else:
                forms.append("{}")
        generated = [k for k, form in enumerate(forms) if "{}" in form]
        price = [i for i, k in enumerate(generated) if TABLES[table][k][0] == "price"]
        exprs = iter(self.one_row_values([TABLES[table][k][1] for k in generated], frozenset(price)))
        values = [form.format(next(exprs)) if "{}" in form else form for form in forms]
        conflict = ""
        if table == PREFIX + "log" and self.chance(0.4):
            conflict = self.rng.choice([" ON CONFLICT (id) DO NOTHING",
                                        " ON CONFLICT (id) DO UPDATE SET msg = EXCLUDED.msg || '!'"])
        alias = "ins"
        returning = self.returning_into(alias, [(f"{alias}.{c}", t) for c, t in TABLES[table]])
        return [f"INSERT INTO {table} AS {alias} VALUES ({', '.join(values)}){conflict}{returning};"]

    def st_update(self, depth):
        table = self.rng.choice([PREFIX + "acct", PREFIX + "item", PREFIX + "item"])
        return self.update(table)

    def update(self, table):
        ctx = Ctx("plpgsql")
        _, alias, cols = self.from_table(ctx, table)
        rows = ctx.with_cols(cols, "rows")
        if self.chance(0.35):
            # One row by key: any column may change, the unique ones included.
            col, t = self.rng.choice(TABLES[table][1:])
            e = self.expr(t, rows, 2)
            value = e.text
            if col == "price" and e.kind < DYN:
                # Converting to numeric(8,2) can fail: PostgreSQL would do it while planning.
                value = f"{alias}.price + {value}"
            if self.chance(0.2):
                col, value = "id", self.rng.choice(["1", "3", "7", f"{alias}.id + 10"])
            where = self.key_where(alias)
        else:
            # Several rows: only columns without a unique constraint, and values that can
            # fail in one way only (which row fails first is each server's own order).
            col, t = self.rng.choice([c for c in TABLES[table][1:] if c[0] not in ("name",)])
            same = f"{alias}.{col}"
            operand = self.expr({"bool": "bool", "intarr": "int"}.get(t, t), Ctx("nothrow"), 1).text
            value = {"int": f"{same} + {operand}", "numeric": f"{same} * {operand}",
                     "text": f"{same} || {operand}", "bool": f"NOT {same}", "intarr": f"{same} || {operand}"}[t]
            where = self.where(ctx, cols, alias)
        returning = self.returning_into(alias, cols)
        return [f"UPDATE {table} AS {alias} SET {col} = {value} WHERE {where}{returning};"]

    def st_delete(self, depth):
        ctx = Ctx("plpgsql")
        table = self.rng.choice(list(TABLES))
        _, alias, cols = self.from_table(ctx, table)
        one_row = self.chance(0.4)
        where = self.key_where(alias) if one_row else self.where(ctx, cols, alias)
        return [f"DELETE FROM {table} AS {alias} WHERE {where}{self.returning_into(alias, cols)};"]

    def st_diagnostics(self, depth):
        targets = self.visible(lambda v: v.writable and v.type in ("int", "bigint"))
        if not targets:
            return ["NULL;"]
        return [f"GET DIAGNOSTICS {self.rng.choice(targets).name} = ROW_COUNT;"]

    def st_call(self, depth):
        targets = [v for v in self.visible(lambda v: v.writable and v.type == "int") if "." not in v.name]
        if not targets:
            return ["NULL;"]
        text = self.top("text", Ctx("plpgsql"), 2).text
        return [f"CALL {HELPER_PROCEDURE}({text}, {self.rng.choice(targets).name});"]

    def st_cursor(self, depth):
        """A bound cursor read to its end: OPEN, FETCH in a loop, CLOSE."""
        table = self.rng.choice(list(TABLES))
        _, alias, cols = self.from_table(Ctx("plpgsql"), table)
        fields = [(c, t) for c, t in TABLES[table] if self.into_targets(lambda v, t=t: v.type == t)]
        if not fields:
            return ["NULL;"]
        fields = self.rng.sample(fields, self.rng.randint(1, min(2, len(fields))))
        targets = [self.rng.choice(self.into_targets(lambda v, t=t: v.type == t)).name for _, t in fields]
        cursor = self.fresh("c")
        # The query is declared in the top block: only its variables are in scope there.
        inner_scopes, self.scopes = self.scopes, self.scopes[:1]
        try:
            condition = self.expr("bool", Ctx("nothrow", tuple(cols)), 2).text
        finally:
            self.scopes = inner_scopes
        self.decls.append(f"{cursor} CURSOR FOR SELECT {', '.join(f'{alias}.{c}' for c, _ in fields)} "
                          f"FROM {table} {alias} WHERE {condition} ORDER BY {alias}.id;")
        body = [f"  FETCH {cursor} INTO {', '.join(targets)};", "  EXIT WHEN NOT FOUND;"]
        return [f"OPEN {cursor};", "LOOP"] + body + self.loop_body(depth, None) + ["END LOOP;", f"CLOSE {cursor};"]

    def st_perform(self, depth):
        if self.chance(0.5):
            table, alias, cols = self.from_table(Ctx("plpgsql"))
            return [f"PERFORM 1 FROM {table} {alias} WHERE {self.where(Ctx('plpgsql'), cols, alias)};"]
        return [f"PERFORM {self.top(self.rng.choice(SCALAR_TYPES), Ctx('plpgsql'), 2).text};"]

    # ---- the routine ---------------------------------------------------------------------

    def routine(self) -> tuple[str, str, list[Var]]:
        """The routine under test: (kind, CREATE statement, parameters)."""
        self.kind = self.rng.choices(["function", "setof", "table", "out", "procedure"], [10, 2, 2, 1, 3])[0]
        params = [Var(f"p_{chr(ord('a') + k)}", self.rng.choice(SCALAR_TYPES + ("int", "intarr")))
                  for k in range(self.rng.randint(0, 3))]
        self.scopes = [list(params)]
        self.scopes[0].append(Var("FOUND", "bool", writable=False))
        signature = [f"{p.name} {SQL_TYPE[p.type]}" for p in params]
        returns = ""
        if self.kind == "function":
            self.result = self.rng.choice(SCALAR_TYPES + ("int", "intarr", "void"))
            returns = f" RETURNS {SQL_TYPE.get(self.result, 'void')}"
        elif self.kind == "setof":
            self.result = self.rng.choice(["int", "text"])
            returns = f" RETURNS SETOF {SQL_TYPE[self.result]}"
        elif self.kind == "table":
            self.out_vars = [Var("o_id", "int"), Var("o_val", self.rng.choice(["text", "numeric"]))]
            returns = " RETURNS TABLE (" + ", ".join(f"{v.name} {SQL_TYPE[v.type]}" for v in self.out_vars) + ")"
        else:
            mode = "OUT" if self.kind == "out" else "INOUT"
            self.out_vars = [Var(f"o_{k}", self.rng.choice(SCALAR_TYPES + ("intarr",)))
                             for k in range(self.rng.randint(1, 2))]
            signature += [f"{mode} {v.name} {SQL_TYPE[v.type]}" for v in self.out_vars]
        self.scopes[0] += self.out_vars
        if params and self.kind != "procedure" and self.chance(0.2):
            # INOUT arguments would follow: they would need defaults as well.
            signature[len(params) - 1] += f" DEFAULT {argument(self.rng, params[-1].type)}"
            self.defaulted = True
        if self.kind != "procedure":
            returns += self.function_attributes()
        return self.kind, self.define(ROUTINE, signature, returns, self.rng.randint(4, 22)), params

    def function_attributes(self) -> str:
        # Functions with OUT arguments are called in FROM only.
        self.strict = self.chance(0.1)
        attributes = " STRICT" if self.strict else ""
        if self.chance(0.15):
            attributes += self.rng.choice([" STABLE", " IMMUTABLE"])
            self.read_only = True
        return attributes

    def st_write_read_only(self, depth):
        """A write in a STABLE or IMMUTABLE function, which fails where it runs (0A000).
        PostgreSQL plans it first, raising what folding its variables raises, and DuetDB
        folds no variables: its values are constants that cannot fail."""
        table = self.rng.choice(list(TABLES))
        n = self.rng.randint(1, 12)
        return [self.rng.choice([f"DELETE FROM {table} WHERE id = {n};", f"UPDATE {table} SET id = id WHERE id = {n};",
                                 f"INSERT INTO {PREFIX}log VALUES ({n}, 'w');"])]

    def helper_function(self) -> str:
        self.kind, self.result, self.is_helper = "function", "int", True
        self.scopes = [[Var("h_a", "int"), Var("h_b", "text"), Var("FOUND", "bool", writable=False)]]
        return self.define(HELPER_FUNCTION, ["h_a integer", "h_b text"], " RETURNS integer", self.rng.randint(1, 6))

    def helper_procedure(self) -> str:
        self.kind, self.out_vars, self.is_helper = "procedure", [Var("h_x", "int")], True
        self.scopes = [[Var("h_y", "text"), Var("FOUND", "bool", writable=False)] + self.out_vars]
        return self.define(HELPER_PROCEDURE, ["h_y text", "INOUT h_x integer"], "", self.rng.randint(1, 6))

    def define(self, name: str, signature: list[str], returns: str, budget: int) -> str:
        """The CREATE statement of a routine whose parameters are in scope: declarations,
        `budget` statements, the ending its kind needs."""
        for t in SCALAR_TYPES + ("intarr",):   # a variable of every type: see may_raise()
            self.declare(t, init=self.top(t, Ctx("plpgsql"), 1).text if self.chance(0.7) else None)
        self.declare_odd_variable()
        self.budget = budget
        lines = self.body(0, 999) + self.ending()
        body = "\n".join(["DECLARE"] + indent(self.decls) + ["BEGIN"] + indent(lines) + ["END"])
        what = "PROCEDURE" if self.kind == "procedure" else "FUNCTION"
        # A routine is named by its name and the types of its arguments other than OUT.
        identity = [a.split(" DEFAULT ")[0].split()[-1] for a in signature if not a.startswith("OUT ")]
        self.drop = f"DROP {what} IF EXISTS {name}({', '.join(identity)})"
        return (f"CREATE {what} {name}({', '.join(signature)}){returns} LANGUAGE plpgsql AS $body$\n"
                f"{body}\n$body$")

    def declare_odd_variable(self):
        """Declarations whose assignments convert or check: typmods, NOT NULL, CONSTANT, %ROWTYPE."""
        r = self.rng.random()
        if r < 0.15:
            self.declare("text", decl="varchar(4)", init=self.rng.choice(["'ab'", "NULL"])).typmod = True
        elif r < 0.3:
            self.declare("numeric", decl="numeric(6,2)", init=self.rng.choice(["1.005", "0"])).typmod = True
        elif r < 0.4:
            self.declare("int", decl="integer NOT NULL", init="0").not_null = True
        elif r < 0.5:
            self.declare("int", decl="CONSTANT integer", init=self.rng.choice(["3", "(-1)"]), writable=False)
        elif r < 0.65:
            row = Var(self.fresh("w"), "row", writable=False)
            table = self.rng.choice(list(TABLES))
            self.decls.append(f"{row.name} {table}%ROWTYPE;")
            self.scopes[0] += [Var(f"{row.name}.{c}", t) for c, t in TABLES[table]]
            self.rows.append((row.name, table))

    def ending(self) -> list[str]:
        if self.kind == "function" and self.result != "void":
            if self.chance(0.04):
                return []            # control reaches the end without RETURN: 2F005
            return [f"RETURN {self.top(self.result, Ctx('plpgsql'), 3).text};"]
        if self.kind in ("out", "procedure"):
            return [f"{v.name} := {self.top(v.type, Ctx('plpgsql'), 2).text};"
                    for v in self.out_vars if self.chance(0.5)]
        return ["RETURN;"] if self.chance(0.5) else []


ARGUMENTS = {
    "int": ["0", "1", "2", "3", "4", "7", "(-1)", "100", "2147483647", "(-2147483648)", "NULL"],
    "bigint": ["0", "5", "(-3)", "9223372036854775807", "NULL"],
    "numeric": ["0", "1.5", "(-2.25)", "10.125", "99999.99", "NULL"],
    "text": ["''", "'a'", "'ann'", "'x y'", "'42'", "'it''s'", "NULL"],
    "bool": ["true", "false", "NULL"],
    "intarr": ["'{}'", "'{1,2,3}'", "'{5,NULL,1}'", "ARRAY[4, 2147483647]", "NULL"],
}


def argument(rng: random.Random, t: str) -> str:
    value = rng.choice(ARGUMENTS[t])
    return f"{value}::{SQL_TYPE[t]}" if value == "NULL" or rng.random() < 0.3 else value


def generate_case(seed: int, index: int, known_gaps: bool = True) -> Case:
    rng = random.Random(f"plpgsql-diff:{seed}:{index}")
    helpers, drops = {}, []
    if rng.random() < 0.25:
        helper = RoutineGen(rng, known_gaps)
        helpers[HELPER_FUNCTION] = helper.helper_function()
        drops.append(helper.drop)
    if rng.random() < 0.2:
        helper = RoutineGen(rng, known_gaps)
        helpers[HELPER_PROCEDURE] = helper.helper_procedure()
        drops.append(helper.drop)
    gen = RoutineGen(rng, known_gaps, tuple(helpers))
    kind, create, params = gen.routine()
    calls = []
    for _ in range(rng.choice([1, 2, 2, 3])):
        named = params + (gen.out_vars if kind == "procedure" else [])
        if gen.defaulted and rng.random() < 0.5:
            named = named[:-1]
        args = [argument(rng, p.type) for p in named]
        if rng.random() < 0.15:
            args = [f"{p.name} => {a}" for p, a in zip(named, args)]
        if kind == "procedure":
            calls.append(f"CALL {ROUTINE}({', '.join(args)})")
        elif kind == "function" and (rng.random() < 0.6 or
                                     gen.result == "void" and not gen.allowed("select_star_from_void")):
            calls.append(f"SELECT {ROUTINE}({', '.join(args)})")
        else:
            calls.append(f"SELECT * FROM {ROUTINE}({', '.join(args)})")
    return Case(seed, index, kind, list(helpers.values()), create, calls, [gen.drop] + drops)


def indent(lines: list[str]) -> list[str]:
    return ["  " + line for line in lines]
