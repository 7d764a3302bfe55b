// SQL cursors (docs/session.md, "SQL cursors"): DECLARE runs its query once, with the
// compiled plan a SELECT of the same text would have, and keeps every row in the session
// (SqlCursor, both formats); FETCH and MOVE page through them, CLOSE drops them. This
// suits the serial executor: a cursor holds no scan open across statements, so other
// sessions' statements run between FETCHes, and a WITH HOLD cursor needs nothing more.
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

 private:
  void declare(const Statement& st, const uint8_t* params, ResultSink& sink);
  void fetch(const sql::FetchStmt& s, const std::vector<int16_t>& formats, ResultSink& sink, bool describe);

  SessionState& state_;
  StatementPlanner& planner_;
};

}  // namespace duet
