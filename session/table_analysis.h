// Statistics on the executor (docs/statistics.md): the ANALYZE statement (also VACUUM
// ANALYZE), and automatic analysis of the tables that became due (analysis_queue.h)
// before the session next plans a statement. The computation itself is the engine's
// (engine/storage/table_analyzer.h); this decides which tables and columns, and when.
#pragma once

#include "session/engine_state.h"
#include "session/session_state.h"

namespace duet {

class TableAnalysis {
 public:
  explicit TableAnalysis(SessionState& state) : state_(state) {}

  // ANALYZE [table [(column, ...)], ...]: the listed tables (42P01 for a missing one, 42703
  // for a missing column), or every table of the database this session can see; a view
  // is skipped with PostgreSQL's warning.
  void run(const sql::VacuumStmt& stmt, ResultSink& sink);

  // Analyses the tables due for automatic analysis, in any database. The executor only:
  // a snapshot process's copy of the statistics dies with it, so it analyses nothing.
  static void analyzeDue(EngineState& engine);

 private:
  SessionState& state_;
};

}  // namespace duet
