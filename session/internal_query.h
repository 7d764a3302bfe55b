// A statement that a utility statement runs itself: CREATE TABLE AS's query and the INSERT
// that fills its table, the INSERT ... SELECT through which ALTER TABLE converts a table's
// rows into the table that replaces it. Planned and compiled like any statement; one that
// names a table no catalog lists yet (kTarget) is not cached.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "session/session_state.h"
#include "session/statement.h"
#include "session/statement_planner.h"

namespace duet {

class InternalQuery {
 public:
  // The name that stands for `target` in the statement's text.
  static constexpr const char* kTarget = "\"duet rewrite target\"";

  // Parses and plans `sql`, one SELECT or INSERT.
  InternalQuery(SessionState& state, StatementPlanner& planner, std::string sql, Table* target = nullptr);
  // Its output columns (an unknown-typed one, such as a bare 'x', is text, as PostgreSQL
  // resolves it when it makes a table of them).
  std::vector<OutputColumn> columns() const;
  // Runs it, its row changes recorded in `undo` (the transaction's if null); returns how
  // many rows it inserted (INSERT) or returned (SELECT).
  int64_t run(UndoLog* undo = nullptr);

 private:
  SessionState& state_;
  StatementPlanner& planner_;
  Statement statement_;
};

}  // namespace duet
