"""The parts of Pgtcl (the libpq binding HammerDB's Tcl uses) that pgoltp.tcl calls, over
psycopg's libpq wrapper (psycopg.pq), so that the server sees the same protocol messages:

  pg_connect -conninfo   PQconnectdb                       connect()
  pg_exec                PQexec (simple Query)              Connection.exec()
  pg_exec_prepared       PQexecPrepared, text parameters    Connection.exec_prepared()
  pg_select              PQexec, then the rows              Connection.select()
  puts $lda ... "\\."    PQputCopyData, then PQendcopy      Connection.copy_in()

Results carry Pgtcl's status names ("PGRES_TUPLES_OK", ...), which pgoltp.tcl compares.
"""
from psycopg import pq

from statements import CLIENT_MIN_MESSAGES

# Tcl's default channel buffer: a `puts` of more than this reaches Pgtcl in pieces this size.
TCL_CHANNEL_BUFFER = 4096


class HammerDBError(Exception):
    """What HammerDB's Tcl raises with `error`: it ends the schema build, the check or the
    virtual user."""


class Result:
    """A PGresult, read out: its status name, rows (text or None) and error."""

    def __init__(self, pgresult):
        self.status = "PGRES_" + pq.ExecStatus(pgresult.status).name
        self.sqlstate = (pgresult.error_field(pq.DiagnosticField.SQLSTATE) or b"").decode()
        self.error = pgresult.error_message.decode(errors="replace").strip()
        # The primary message alone, for counting errors by kind.
        self.message = (pgresult.error_field(pq.DiagnosticField.MESSAGE_PRIMARY) or b"").decode(errors="replace")
        self.rows = [tuple(_text(pgresult.get_value(r, c)) for c in range(pgresult.nfields))
                     for r in range(pgresult.ntuples)]
        pgresult.clear()

    def ok(self, *statuses):
        return self.status in statuses


def _text(value):
    return None if value is None else value.decode()


def conninfo(host, port, sslmode, user, password, dbname, options=None):
    """ConnectToPostgres's conninfo ([list host = $host port = $port ...]); options, when
    given, is libpq's `options` keyword (startup settings such as -c synchronous_commit=off),
    which HammerDB does not send."""
    info = f"host = {host} port = {port} sslmode = {sslmode} user = {user} password = {password} dbname = {dbname}"
    if options:
        info += " options = '" + options.replace("\\", "\\\\").replace("'", "\\'") + "'"
    return info


class Connection:
    """A Pgtcl connection handle."""

    def __init__(self, info):
        self.pgconn = pq.PGconn.connect(info.encode())
        if self.pgconn.status != pq.ConnStatus.OK:
            message = self.pgconn.error_message.decode(errors="replace").strip()
            self.pgconn.finish()
            raise HammerDBError(message)
        # pg_notice_handler $lda puts
        self.pgconn.notice_handler = lambda notice: print(notice.error_message.decode(errors="replace").strip())

    def exec(self, sql):
        return Result(self.pgconn.exec_(sql.encode()))

    def exec_prepared(self, name, *params):
        """pg_exec_prepared $lda NAME {} {} PARAMS...: text parameters, text results."""
        return Result(self.pgconn.exec_prepared(name.encode(), [str(p).encode() for p in params]))

    def select(self, sql):
        """pg_select: the rows, or a HammerDBError when the statement fails (pg_select raises
        a Tcl error then)."""
        result = self.exec(sql)
        if not result.ok("PGRES_TUPLES_OK"):
            raise HammerDBError(result.error)
        return result.rows

    def copy_in(self, statement, pieces):
        """A COPY ... FROM STDIN as HammerDB's loaders send it: pg_exec of the statement
        (which must answer PGRES_COPY_IN), then each of pieces written with `puts` to the
        line-buffered connection channel, then `puts $lda "\\."`. Tcl hands a write that holds
        a newline to Pgtcl at once, in TCL_CHANNEL_BUFFER pieces, and Pgtcl sends each as it
        comes (PQputCopyData); the "\\.\\n" line, sent as data too, makes Pgtcl end the COPY
        (PQendcopy). Returns the COPY's result: PGRES_COMMAND_OK, or the error."""
        result = self.exec(statement)
        if not result.ok("PGRES_COPY_IN"):
            raise HammerDBError(result.error)
        for piece in pieces:
            data = piece.encode()
            for start in range(0, len(data), TCL_CHANNEL_BUFFER):
                self.pgconn.put_copy_data(data[start:start + TCL_CHANNEL_BUFFER])
        self.pgconn.put_copy_data(b"\\.\n")
        self.pgconn.put_copy_end()
        results = []
        while (pgresult := self.pgconn.get_result()) is not None:
            results.append(Result(pgresult))
        return results[0]

    def close(self):
        self.pgconn.finish()


def connect(host, port, sslmode, user, password, dbname, options=None):
    """ConnectToPostgres: the connection, its notice handler, then CLIENT_MIN_MESSAGES (its
    result unchecked, as in HammerDB)."""
    lda = Connection(conninfo(host, port, sslmode, user, password, dbname, options))
    lda.exec(CLIENT_MIN_MESSAGES)
    return lda
