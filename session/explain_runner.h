// EXPLAIN [ANALYZE] (docs/explain.md): the statement's plan as rows of one text column
// "QUERY PLAN", rendered by plan::explain (compiler/plan/explain.h). The statement is planned
// as it would be run here - on the executor, or with parallel pipelines in a snapshot
// process, where SnapshotRouter sends an EXPLAIN of a SELECT that would go there - and with
// ANALYZE compiled with counters per plan node and run; a writing statement's changes then
// stand, as in PostgreSQL. Without ANALYZE nothing runs.
#pragma once
#include <optional>
#include <string_view>
#include <vector>

#include "compiler/compiler.h"
#include "session/routine_cache.h"
#include "session/session_state.h"
#include "session/statement.h"
#include "session/statement_planner.h"

namespace duet {

// EXPLAIN's options checked as PostgreSQL 15 checks them: 42601 for an unknown option or a
// value that is not a Boolean, 22023 for an unknown FORMAT or TIMING without ANALYZE.
plan::ExplainOptions explainOptions(const sql::ExplainStmt& s, std::string_view sql);

// EXPLAIN's result: one text column "QUERY PLAN" (DuetDB has no json type: FORMAT JSON
// sends its document as text).
std::vector<ColumnDesc> explainColumns();

class ExplainRunner {
 public:
  ExplainRunner(SessionState& state, StatementPlanner& planner, RoutineCache& routines)
      : state_(state), planner_(planner), routines_(routines) {}

  // Runs EXPLAIN `st` with the parameter tuple of its $n (null: none); describe: send the
  // RowDescription (simple Query). Returns the $n values of a statement ANALYZE ran, as
  // the redo log records them (the statement has no plan of its own to read them by).
  std::optional<TextParams> run(const Statement& st, const uint8_t* params, ResultSink& sink, bool describe);
  // The plan request of the statement EXPLAIN explains.
  PlanRequest innerRequest(const Statement& st);

 private:
  SessionState& state_;
  StatementPlanner& planner_;
  RoutineCache& routines_;
};

}  // namespace duet
