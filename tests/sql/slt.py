"""Parser and executor for DuetDB's sqllogictest-style test files (format: README.md here).

Shared by run.py (compares answers) and regenerate.py (rewrites expectations from PG15).
Statements go over the wire through psycopg's libpq binding (psycopg.pq), which hands back
the raw text of every value and the SQLSTATE of every error, so no client-side type
conversion can hide or invent a difference.
"""
from __future__ import annotations

import dataclasses
import re

from psycopg import pq

# Column type letters of a query header, by result column type OID.
_TYPE_LETTER_BY_OID = {
    16: "B",                                   # boolean
    20: "I", 21: "I", 23: "I", 26: "I",        # bigint, smallint, integer, oid
    700: "R", 701: "R", 1700: "R",             # real, double precision, numeric
    1082: "D", 1083: "D", 1114: "D", 1184: "D", 1186: "D", 1266: "D",  # date/time types
}
TYPE_LETTERS = "BIRDT"   # T: anything else (text, char, varchar, name, ...)


def type_letter(oid: int) -> str:
    return _TYPE_LETTER_BY_OID.get(oid, "T")


@dataclasses.dataclass
class Record:
    kind: str                 # "statement" or "query"
    first_line: int           # 1-based line of the header
    end_line: int             # 1-based line after the record's last line (exclusive)
    sql: str
    expect_error: str | None = None     # statement error: SQLSTATE, "" = any error
    expect_message: str | None = None   # statement error with a ---- block: the message
    column_spec: str = ""               # query: column count ("3") or type letters ("ITR")
    sort_mode: str = "nosort"           # query: "nosort" or "rowsort"
    expected_rows: list[str] = dataclasses.field(default_factory=list)
    only_on: str | None = None          # "onlyif TARGET": run only against that target
    skip_on: str | None = None          # "skipif TARGET": run against every other target

    def runs_on(self, target: str) -> bool:
        return (self.only_on in (None, target)) and self.skip_on != target


class FormatError(Exception):
    pass


TARGETS = ("duetdb", "postgres")
_CONDITION_RE = re.compile(r"^(onlyif|skipif) (" + "|".join(TARGETS) + r")$")
_STATEMENT_RE = re.compile(r"^statement (ok|error)(?: ([0-9A-Z]{5}))?$")
_QUERY_RE = re.compile(r"^query ([0-9]+|[" + TYPE_LETTERS + r"]+)(?: (rowsort|nosort))?$")


def parse(path: str) -> tuple[list[str], list[Record]]:
    """Return the file's lines (without newlines) and its records."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    records = []
    i = 0
    while i < len(lines):
        line = lines[i].rstrip()
        if not line or line.startswith("#"):
            i += 1
            continue
        condition = _CONDITION_RE.match(line)
        if condition:
            i += 1
            line = lines[i].rstrip() if i < len(lines) else ""
        header_line = i + 1
        m_stmt = _STATEMENT_RE.match(line)
        m_query = _QUERY_RE.match(line)
        if not (m_stmt or m_query):
            raise FormatError(f"{path}:{header_line}: unknown record header: {line!r}")
        i += 1
        sql_lines = []
        while i < len(lines) and lines[i].strip() and lines[i].rstrip() != "----":
            sql_lines.append(lines[i])
            i += 1
        if not sql_lines:
            raise FormatError(f"{path}:{header_line}: record without SQL")
        rec = Record(kind="statement" if m_stmt else "query", first_line=header_line,
                     end_line=0, sql="\n".join(sql_lines))
        if condition and condition.group(1) == "onlyif":
            rec.only_on = condition.group(2)
        elif condition:
            rec.skip_on = condition.group(2)
        if m_stmt:
            if m_stmt.group(1) == "error":
                rec.expect_error = m_stmt.group(2) or ""
                # An error record may also name the primary message, after a ---- line.
                if i < len(lines) and lines[i].rstrip() == "----":
                    if i + 1 >= len(lines) or not lines[i + 1]:
                        raise FormatError(f"{path}:{header_line}: ---- without a message")
                    rec.expect_message = lines[i + 1]
                    i += 2
            elif m_stmt.group(2):
                raise FormatError(f"{path}:{header_line}: 'statement ok' takes no SQLSTATE")
        else:
            rec.column_spec = m_query.group(1)
            rec.sort_mode = m_query.group(2) or "nosort"
            if i >= len(lines) or lines[i].rstrip() != "----":
                raise FormatError(f"{path}:{header_line}: query without a ---- line")
            i += 1
            while i < len(lines) and lines[i] != "":
                rec.expected_rows.append(lines[i])
                i += 1
        rec.end_line = i + 1
        records.append(rec)
    return lines, records


def format_value(value: bytes | None) -> str:
    """Text form of one result value as it appears in a test file."""
    if value is None:
        return "NULL"
    text = value.decode("utf-8")
    if text == "":
        return "(empty)"
    # Keep one row per line and columns tab-separated even for odd values.
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


@dataclasses.dataclass
class Outcome:
    """What the server answered to one record's SQL."""
    error: str | None = None           # SQLSTATE when the statement failed
    message: str = ""                  # primary error message, for reports
    column_letters: str = ""           # one type letter per result column
    rows: list[str] = dataclasses.field(default_factory=list)   # tab-joined, in server order


def execute(conn: pq.PGconn, sql: str) -> Outcome:
    res = conn.exec_(sql.encode("utf-8"))
    status = res.status
    if status in (pq.ExecStatus.FATAL_ERROR, pq.ExecStatus.NONFATAL_ERROR):
        code = res.error_field(pq.DiagnosticField.SQLSTATE)
        msg = res.error_field(pq.DiagnosticField.MESSAGE_PRIMARY)
        return Outcome(error=code.decode() if code else "?????",
                       message=msg.decode("utf-8", "replace") if msg else
                       conn.error_message.decode("utf-8", "replace").strip())
    if status not in (pq.ExecStatus.COMMAND_OK, pq.ExecStatus.TUPLES_OK,
                      pq.ExecStatus.EMPTY_QUERY):
        return Outcome(error="?????", message=f"unexpected result status {status.name}: "
                       + conn.error_message.decode("utf-8", "replace").strip())
    out = Outcome(column_letters="".join(type_letter(res.ftype(c)) for c in range(res.nfields)))
    for r in range(res.ntuples):
        out.rows.append("\t".join(format_value(res.get_value(r, c)) for c in range(res.nfields)))
    return out


def arranged_rows(rec: Record, rows: list[str]) -> list[str]:
    """Rows in the order they are compared and written: sorted for rowsort."""
    return sorted(rows) if rec.sort_mode == "rowsort" else list(rows)


def connect(conninfo: str) -> pq.PGconn:
    conn = pq.PGconn.connect(conninfo.encode("utf-8"))
    if conn.status != pq.ConnStatus.OK:
        raise ConnectionError(conn.error_message.decode("utf-8", "replace").strip())
    return conn
