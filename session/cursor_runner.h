// SQL cursors (docs/session.md, "SQL cursors"): DECLARE runs its query once, with the
// compiled plan a SELECT of the same text would have, and keeps every row in the session
// (SqlCursor's portal); FETCH and MOVE page through them, encoding the rows they return,
// CLOSE drops them. This suits the serial executor: a cursor holds no scan open across
// statements, so other sessions' statements run between FETCHes, and a WITH HOLD cursor
// needs nothing more. PL/pgSQL's cursors are portals of the same table (open, find, close).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "session/session_state.h"
#include "session/statement.h"
#include "session/statement_planner.h"

namespace duet {

class CursorRunner {
 public:
  CursorRunner(SessionState& state, StatementPlanner& planner) : state_(state), planner_(planner) {}

  // DECLARE, FETCH / MOVE, CLOSE; params: DECLARE's $n (extended protocol).
  void run(const Statement& st, const uint8_t* params, const std::vector<int16_t>& formats, ResultSink& sink,
           bool describe);
  // What DECLARE plans: its query, with the DECLARE statement's parameter types.
  PlanRequest queryRequest(const Statement& st);
  // FETCH's result columns in `formats` (none: the cursor's own), or none for MOVE or an
  // unknown cursor (Describe).
  std::vector<ColumnDesc> fetchColumns(const sql::Stmt& stmt, const std::vector<int16_t>& formats) const;
  // Describe of a cursor by its name (psycopg describes a named cursor so); null if none.
  const SqlCursor* find(const std::string& name) const;

  // rt::SessionServices' cursor calls, for PL/pgSQL: OPEN (42P03 while `name` is open),
  // FETCH's and MOVE's look-up, CLOSE (24000 for a FOR loop's), a NULL variable's name.
  rt::Portal& open(std::string name, const TupleLayout& layout, std::vector<std::string> columnNames, bool scrollable);
  rt::Portal* portal(std::string_view name);
  void close(rt::Portal& portal);
  std::string unnamedName();
  // WHERE CURRENT OF (rt::SessionServices::currentRowOf): 34000 for no such cursor, 24000
  // for one held over its transaction's commit (PostgreSQL keeps no executor for it).
  uint64_t currentRow(std::string_view name, const Table& table);

 private:
  void declare(const Statement& st, const uint8_t* params, ResultSink& sink);
  void fetch(const sql::FetchStmt& s, const std::vector<int16_t>& formats, ResultSink& sink, bool describe);

  SessionState& state_;
  StatementPlanner& planner_;
  uint64_t unnamed_ = 0;  // "<unnamed portal N>" names handed out
};

}  // namespace duet
