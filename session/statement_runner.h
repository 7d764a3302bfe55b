// Runs one statement of either protocol (docs/session.md, "A simple Query"). Every
// statement gets the same frame - the failed-block check, the statement's start, an undo
// mark, the redo log's inputs, a TimeoutGuard, a cancel check; afterwards its redo entry
// and its notices; on an error its changes undone to the mark - around one of three runs:
// a compiled plan (re-planned when stale; RowDescription, the direct-call path or the
// plan's code, the command tag), a utility statement (UtilityStatements) or a COPY
// (CopyRunner).
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "session/call_transactions.h"
#include "session/copy_runner.h"
#include "session/cursor_runner.h"
#include "session/direct_caller.h"
#include "session/explain_runner.h"
#include "session/redo_recorder.h"
#include "session/routine_cache.h"
#include "session/session_state.h"
#include "session/statement.h"
#include "session/statement_planner.h"
#include "session/transaction_control.h"
#include "session/utility_statements.h"

namespace duet {

class StatementRunner {
 public:
  StatementRunner(SessionState& state, TransactionControl& transaction, StatementPlanner& planner, RedoRecorder& redo,
                  RoutineCache& routines, UtilityStatements& utility, CopyRunner& copy, CallTransactions& calls)
      : state_(state),
        transaction_(transaction),
        calls_(calls),
        planner_(planner),
        redo_(redo),
        utility_(utility),
        copy_(copy),
        directCaller_(state, routines),
        explain_(state, planner, routines),
        cursors_(state, planner) {}

  // Runs one statement of a simple Query or an Execute with its parameter tuple (null for
  // a utility statement) and result formats; describe: send the RowDescription (simple
  // Query; Describe sends it in the extended protocol). Returns CopyIn for COPY FROM.
  QueryState runStatement(Statement& st, const uint8_t* params, const std::vector<int16_t>& formats, ResultSink& sink,
                          bool describe);
  // PREPARE: the extended protocol's Parse makes the prepared statement (SqlSession sets it).
  using Prepare = std::function<void(const std::string&, std::string_view, const std::vector<uint32_t>&)>;
  void setPrepare(Prepare prepare) { prepare_ = std::move(prepare); }
  ExplainRunner& explain() { return explain_; }
  CursorRunner& cursors() { return cursors_; }

 private:
  void runPlan(Statement& st, const uint8_t* params, const std::vector<int16_t>& formats, ResultSink& sink,
               bool describe);
  // DECLARE of a cursor in a transaction, and FETCH, MOVE and CLOSE of one so declared:
  // the cursor's name, which the redo log records them under (LoggedStatement::cursor);
  // else empty.
  std::string cursorOfTransaction(const sql::Stmt& stmt);
  // PREPARE name [(types)] AS statement.
  void prepare(const Statement& st);
  // EXECUTE name [(arguments)]: the arguments, evaluated and cast to the parameter types,
  // become the prepared statement's parameter tuple (`bound`), and its plan runs.
  void execute(const Statement& st, std::unique_ptr<ParamTuple>& bound, const std::vector<int16_t>& formats,
               ResultSink& sink, bool describe);

  SessionState& state_;
  TransactionControl& transaction_;
  CallTransactions& calls_;
  StatementPlanner& planner_;
  RedoRecorder& redo_;
  UtilityStatements& utility_;
  CopyRunner& copy_;
  DirectCaller directCaller_;
  ExplainRunner explain_;
  CursorRunner cursors_;
  Prepare prepare_;
};

}  // namespace duet
