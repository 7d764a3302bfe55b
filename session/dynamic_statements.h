// PL/pgSQL's dynamic SQL as the session runs it (rt::SessionServices::executeDynamic; the
// routine's side is compiler/plpgsql/dynamic_sql.h). The command string is parsed with
// literals lifted and each of its statements is planned through the plan cache, with the
// USING values' types as its parameter types, as a Parse message is: a text runs the same
// compiled plan every time, and the one a client's statement of that text would run. A
// statement runs inside the statement that called the routine - its transaction, undo
// log, clock and timeout - with the checks a client's statement gets (read-only
// transactions, the system tables it reads filled in, each utility statement's own), and
// without the frame that statement has: no statement start, no redo log entry (the calling
// statement is logged, and a replay runs the routine again). Utility statements run
// through UtilityStatements, EXPLAIN through ExplainRunner; their rows (SHOW, EXPLAIN),
// which come as text, are read back into tuples of their columns' types.
#pragma once
#include <cstdint>
#include <vector>

#include "compiler/compiler.h"
#include "session/explain_runner.h"
#include "session/routine_cache.h"
#include "session/session_state.h"
#include "session/statement.h"
#include "session/statement_planner.h"
#include "session/utility_statements.h"

namespace duet {

class DynamicStatements {
 public:
  DynamicStatements(SessionState& state, StatementPlanner& planner, RoutineCache& routines, UtilityStatements& utility,
                    ExplainRunner& explain)
      : state_(state), planner_(planner), routines_(routines), utility_(utility), explain_(explain) {}

  // Runs `query`'s statements for the compiled code running in `caller`; their rows go to `rows`.
  rt::DynamicOutcome run(rt::QueryContext& caller, const rt::DynamicQuery& query, rt::DynamicRows& rows);
  // An EXCEPTION block rolled the undo log back: DDL that EXECUTE ran in it is undone, so
  // the catalog version moves on (plans and routine code made since are stale), as after
  // any rollback of DDL.
  void subtransactionRolledBack();

 private:
  rt::DynamicOutcome runStatement(rt::QueryContext& caller, Statement& st, const rt::DynamicQuery& query,
                                  rt::DynamicRows& rows);
  rt::DynamicOutcome runPlan(rt::QueryContext& caller, Statement& st, const rt::DynamicQuery& query,
                             rt::DynamicRows& rows);
  rt::DynamicOutcome runUtility(Statement& st, const rt::DynamicQuery& query, rt::DynamicRows& rows);

  SessionState& state_;
  StatementPlanner& planner_;
  RoutineCache& routines_;
  UtilityStatements& utility_;
  ExplainRunner& explain_;
  // Where each DDL statement that EXECUTE ran began in the undo log, and their transaction
  // (SessionState::endedTransactions while it ran).
  std::vector<UndoLog::Mark> ddlStarts_;
  uint64_t ddlTransaction_ = 0;
};

}  // namespace duet
