// A simple Query (docs/session.md): its statements parsed with literals lifted, then run
// one by one, each possibly routed to a snapshot, in one implicit transaction.
#include "session/simple_query.h"

#include <algorithm>
#include <string>

#include "engine/types/strings.h"

namespace duet {

QueryState SimpleQuery::run(std::string_view sql, ResultSink& sink) {
  std::vector<sql::ParsedStatement> parsed;
  try {
    TimeoutGuard timeout(state_, true);
    checkUtf8(sql);  // PostgreSQL verifies the whole text, comments and names included
    parsed = sql::parseQuery(sql, sql::ParseOptions{.liftLiterals = true});
    // A simple query has no parameters to bind (PREPARE's statement waits for EXECUTE's).
    for (const sql::ParsedStatement& p : parsed)
      if (p.stmt->kind != sql::StmtKind::Prepare) checkParamNumbers(p, sql, 0);
  } catch (const SqlError&) {
    if (state_.txn.inBlock()) state_.txn.statementFailed(state_.txn.undo().mark());
    throw;
  }
  if (parsed.size() == 1 && parsed[0].stmt->kind == sql::StmtKind::Empty) {
    sink.emptyQuery();
    return QueryState::Done;
  }
  pendingSql_ = std::make_shared<const std::string>(sql);
  pendingStmts_ = std::move(parsed);
  pendingImplicitBlock_ = std::count_if(pendingStmts_.begin(), pendingStmts_.end(),
                                        [](const auto& p) { return p.stmt->kind != sql::StmtKind::Empty; }) > 1;
  return continueQuery(sink, true);
}

void SimpleQuery::keepPending(std::vector<Statement>& statements, size_t from) {
  for (size_t j = from; j < statements.size(); ++j) pendingStmts_.push_back(std::move(statements[j].parsed));
}

namespace {

// Holds back a statement's CommandComplete: the last statement of a Query that ends in an
// implicit transaction gets its tag only once that transaction has committed, as in
// PostgreSQL (exec_simple_query), so a commit that fails (a foreign key deferred to it, the
// log's refusal) answers with its error alone.
class HeldTagSink final : public ForwardingSink {
 public:
  using ForwardingSink::ForwardingSink;
  void commandComplete(std::string_view tag) override {
    tag_ = tag;
    held_ = true;
  }
  void release() {
    if (held_) inner_.commandComplete(tag_);
    held_ = false;
  }

 private:
  std::string tag_;
  bool held_ = false;
};

}  // namespace

QueryState SimpleQuery::continueQuery(ResultSink& sink, bool mayRoute) {
  std::vector<Statement> statements;
  for (auto& p : pendingStmts_)
    statements.push_back(Statement{pendingSql_, *pendingSql_, std::move(p), {}, nullptr, {}});
  pendingStmts_.clear();
  // The last statement that is not empty: the implicit transaction commits after it.
  size_t last = statements.size();
  for (size_t i = statements.size(); i-- > 0;)
    if (statements[i].parsed.stmt->kind != sql::StmtKind::Empty) {
      last = i;
      break;
    }
  for (size_t i = 0; i < statements.size(); ++i) {
    Statement& st = statements[i];
    if (st.parsed.stmt->kind == sql::StmtKind::Empty) continue;
    if (mayRoute && router_.routeStatement(st)) {
      keepPending(statements, i + 1);
      return QueryState::OnSnapshot;
    }
    // Beside another session's block, the first statement that cannot go to a snapshot
    // waits with the rest of the message (after one that went, the rest waits on the
    // executor's queue instead: the server resumes it without running beside the block).
    if (state_.besideHolder) throw StatementDeferred{};
    // Several statements in one Query run in an implicit transaction block (PostgreSQL's
    // exec_simple_query), re-entered before each one in case a COMMIT ended it.
    if (pendingImplicitBlock_) state_.txn.startImplicitBlock();
    TimeoutGuard timeout(state_, st.parsed.stmt->kind != sql::StmtKind::Transaction);
    std::unique_ptr<ParamTuple> params;
    if (isQuery(*st.parsed.stmt) && !state_.txn.failed()) {
      UndoLog::Mark mark = state_.txn.undo().mark();
      try {
        // Routing may have found the plan already (a Query of SELECTs: no DDL in between).
        if (!st.plan) st.plan = planner_.planFor(st);
        params = planner_.literalParams(st);
      } catch (const SqlError&) {
        state_.txn.ensureStarted();
        transaction_.failStatement(mark);
        state_.flushReports(sink);
        throw;
      }
    }
    HeldTagSink held(sink);
    QueryState result = runner_.runStatement(st, params ? params->data() : nullptr, {}, held, true);
    if (result == QueryState::CopyIn) {
      held.release();
      copy_.markFromSimpleQuery();
      keepPending(statements, i + 1);
      return result;
    }
    // The statements of one Query form one implicit transaction, unless they opened a
    // block: it commits after the last one, before that one's CommandComplete.
    if (i == last && state_.txn.mode() == TransactionState::Mode::Implicit) transaction_.endTransaction(true);
    held.release();
  }
  // After a COPY FROM STDIN that was the last statement: its transaction commits now.
  if (state_.txn.mode() == TransactionState::Mode::Implicit) transaction_.endTransaction(true);
  state_.flushReports(sink);
  return QueryState::Done;
}

}  // namespace duet
