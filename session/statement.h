// A statement as the parts of a SQL session (sql_session.h) hand it to each other - its
// text, its parse with literals lifted, its declared parameter types and its plan - and a
// portal, a statement bound to parameters; with the functions of a statement that need no
// session: which statements run as plans, Boolean options, the $n check, command tags,
// result columns, explicit parameters as text.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/compiler.h"
#include "engine/types/type_context.h"
#include "session/session_api.h"
#include "session/value_io.h"

namespace duet {

// A parsed statement with its plan (for SELECT/VALUES/INSERT/UPDATE/DELETE/CALL).
struct Statement {
  // The whole query text the statement came in (positions count from its start),
  // shared by every statement of a message: a copy each made 20,000 statements of one
  // message cost 20,000 times its size.
  std::shared_ptr<const std::string> text;
  std::string_view sql;  // *text
  sql::ParsedStatement parsed;
  std::vector<SqlType> declaredTypes;
  std::shared_ptr<PreparedPlan> plan;  // null for utility statements
  // EXPLAIN with $n (extended protocol): how Bind lays out their values for it.
  std::optional<TupleLayout> utilityParams;
};

// A statement bound to its parameters and result formats (Bind), run by Execute.
struct Portal {
  std::shared_ptr<Statement> stmt;
  std::shared_ptr<PreparedPlan> plan;  // keeps the params' layout alive
  std::unique_ptr<ParamTuple> params;
  std::vector<int16_t> formats;
  // Rows of a partially fetched query, encoded on the first Execute (or sent by the
  // snapshot that ran it: fillPortal).
  bool ran = false;
  std::vector<std::vector<std::optional<std::string>>> rows;
  size_t next = 0;
  std::string tag;
  bool finished = false;  // ran to completion: a further Execute gets no rows
};

// A cursor (docs/session.md, "SQL cursors"): DECLARE ... CURSOR FOR query's, or one a
// PL/pgSQL routine opened (rt::SessionServices::openCursor). Its query ran when it opened;
// the portal keeps the rows, which FETCH encodes in the format asked for.
struct SqlCursor {
  explicit SqlCursor(rt::Portal portal) : portal(std::move(portal)) {}
  rt::Portal portal;
  std::vector<ColumnDesc> columns;    // text format
  bool binaryCursor = false;          // DECLARE ... BINARY: a simple Query's FETCH sends binary
  bool hold = false;                  // WITH HOLD: it outlives its transaction's commit
  bool declaredInTransaction = true;  // its transaction has not committed yet
  bool autoHeld = false;              // held over a procedure's COMMIT for a FOR loop (holdPinnedCursors)
};

// Whether the statement runs as a compiled plan: SELECT, INSERT, UPDATE, DELETE, CALL.
bool isQuery(const sql::Stmt& stmt);

// A Boolean option of a statement (EXPLAIN's, VACUUM's), as PostgreSQL's defGetBoolean reads
// it: true/false/on/off in any case, 1/0, or no value (true); 42601 otherwise.
bool booleanOption(const sql::DefElem& d);

// The CommandComplete tag of a plan's statement: "SELECT n", "INSERT 0 n", "UPDATE n", ...
std::string commandTag(const PreparedPlan& plan, int64_t rows, int64_t affected);
// A plan's result columns as RowDescription sends them, in the result formats (text if none).
std::vector<ColumnDesc> columnsOf(const PreparedPlan& plan, const std::vector<int16_t>& formats);

// The most parameters a Bind message can carry (its count is 16 bits).
inline constexpr int kMaxBindParams = 65535;
// 42P02 unless every $n of the statement is in 1..bindable: 0 in a simple query, the
// protocol's 65,535 in a Parse message.
void checkParamNumbers(const sql::ParsedStatement& p, std::string_view sql, int bindable);

// A statement's explicit parameters ($1..$n; lifted literals stay in its text) as text in
// the session's type context, with their types: how a snapshot (SnapshotRouter) and the
// redo log (RedoRecorder) take them.
struct TextParams {
  std::vector<uint32_t> typeOids;
  std::vector<std::optional<std::string>> values;
};
TextParams explicitParamsAsText(const Statement& st, const PreparedPlan& plan, const uint8_t* params,
                                const TypeContext& typeContext);

}  // namespace duet
