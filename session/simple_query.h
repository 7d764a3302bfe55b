// The simple Query protocol (docs/session.md, "A simple Query"): the text is checked and
// parsed with literals lifted, then its statements run one by one through the
// StatementRunner, each first offered to the SnapshotRouter, several of them in one
// implicit transaction block. Owns the statements of a Query still to run: those after a
// COPY FROM STDIN (CopyRunner) or after a statement that went to a snapshot.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "session/copy_runner.h"
#include "session/session_state.h"
#include "session/snapshot_router.h"
#include "session/statement.h"
#include "session/statement_planner.h"
#include "session/statement_runner.h"
#include "session/transaction_control.h"

namespace duet {

class SimpleQuery {
 public:
  SimpleQuery(SessionState& state, TransactionControl& transaction, StatementPlanner& planner, StatementRunner& runner,
              SnapshotRouter& router, CopyRunner& copy)
      : state_(state), transaction_(transaction), planner_(planner), runner_(runner), router_(router), copy_(copy) {}

  // Session::simpleQuery.
  QueryState run(std::string_view sql, ResultSink& sink);
  // Runs the statements still pending. mayRoute: they may go to a snapshot (not after a
  // COPY FROM STDIN).
  QueryState continueQuery(ResultSink& sink, bool mayRoute);
  bool continues() const { return !pendingStmts_.empty(); }
  // The Query failed (its COPY, or a statement the server reported): the rest never runs.
  void dropPending() { pendingStmts_.clear(); }

 private:
  // Keeps statements[from..] pending, to run after a COPY or a snapshot.
  void keepPending(std::vector<Statement>& statements, size_t from);

  SessionState& state_;
  TransactionControl& transaction_;
  StatementPlanner& planner_;
  StatementRunner& runner_;
  SnapshotRouter& router_;
  CopyRunner& copy_;
  // The Query's text, its statements still to run, and whether they run in an implicit
  // transaction block (the Query has several statements).
  std::shared_ptr<const std::string> pendingSql_;
  std::vector<sql::ParsedStatement> pendingStmts_;
  bool pendingImplicitBlock_ = false;
};

}  // namespace duet
