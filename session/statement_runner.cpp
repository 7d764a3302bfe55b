// Running one statement: the frame every statement gets, and compiled plans.
#include "session/statement_runner.h"

#include <algorithm>
#include <chrono>
#include <cstring>

#include "compiler/compiler.h"
#include "engine/storage/table.h"
#include "session/live_system_rows.h"

namespace duet {
namespace {

// Hands each result row to the sink as a DataRow.
class SinkConsumer final : public rt::RowConsumer {
 public:
  SinkConsumer(const TupleLayout& layout, std::vector<int16_t> formats, ResultSink& sink, const TypeContext& ctx)
      : encoder_(layout, std::move(formats)), sink_(sink), ctx_(ctx) {}
  void consume(const uint8_t* tuple) override {
    encoder_.encode(tuple, ctx_);
    sink_.dataRow(encoder_.fields(), encoder_.size());
    ++rows;
  }
  int64_t rows = 0;

 private:
  RowEncoder encoder_;
  ResultSink& sink_;
  const TypeContext& ctx_;
};

// Whether PostgreSQL takes the transaction's snapshot for the statement
// (PlannedStmtRequiresSnapshot): transaction control, SET, SHOW and CHECKPOINT run before
// one, so they may set up a transaction that must not have read yet.
bool takesSnapshot(const sql::Stmt& stmt) {
  switch (stmt.kind) {
    case sql::StmtKind::Transaction:
    case sql::StmtKind::Set:
    case sql::StmtKind::Show:
    case sql::StmtKind::Checkpoint: return false;
    default: return true;
  }
}

// SET CONSTRAINTS: it decides when foreign keys are checked, which a PL/pgSQL handler that
// catches a violation sees, so the redo log records it too.
bool setsConstraints(const sql::Stmt& stmt) {
  return stmt.kind == sql::StmtKind::Transaction &&
         stmt.as<sql::TransactionStmt>().action == sql::TransactionKind::SetConstraints;
}

}  // namespace

QueryState StatementRunner::runStatement(Statement& st, const uint8_t* params, const std::vector<int16_t>& formats,
                                         ResultSink& sink, bool describe) {
  const sql::Stmt& stmt = *st.parsed.stmt;
  transaction_.checkNotFailed(stmt);
  transaction_.startStatement();
  if (takesSnapshot(stmt)) state_.txn.noteStatement();
  UndoLog::Mark mark = state_.txn.undo().mark();
  state_.sequences.changedInStatement = false;
  RedoRecorder::StatementInputs inputs = redo_.statementInputs();
  CallTransactions::Scope call(calls_, st, params, inputs, mark);
  TimeoutGuard timeout(state_, stmt.kind != sql::StmtKind::Transaction);
  state_.query.assign(st.sql.substr(stmt.begin, stmt.end - stmt.begin));
  state_.queryStart = state_.txn.statementTimestamp();  // pg_stat_activity.query_start
  try {
    if (state_.cancel.load() && stmt.kind != sql::StmtKind::Transaction) raiseQueryCanceled(&state_.timedOut);
    QueryState result = QueryState::Done;
    std::optional<TextParams> explained;  // EXPLAIN ANALYZE's $n values
    // EXECUTE: the redo log records the prepared statement with its parameters.
    const Statement* logged = &st;
    std::unique_ptr<ParamTuple> executeParams;
    if (st.plan) {
      runPlan(st, params, formats, sink, describe);
    } else if (stmt.kind == sql::StmtKind::Prepare) {
      prepare(st);
      sink.commandComplete("PREPARE");
    } else if (stmt.kind == sql::StmtKind::Execute) {
      execute(st, executeParams, formats, sink, describe);
      logged = state_.statements.at(stmt.as<sql::ExecuteStmt>().name).get();
      params = executeParams->data();
    } else if (stmt.kind == sql::StmtKind::Copy) {
      result = copy_.run(st, sink);
    } else if (stmt.kind == sql::StmtKind::Explain) {
      explained = explain_.run(st, params, sink, describe);
    } else if (stmt.kind == sql::StmtKind::DeclareCursor || stmt.kind == sql::StmtKind::Fetch ||
               stmt.kind == sql::StmtKind::ClosePortal) {
      cursors_.run(st, params, formats, sink, describe);
    } else {
      utility_.run(st, sink);
    }
    if (state_.engine.commitLog) {
      if (result == QueryState::CopyIn) {
        copy_.setLogEntry(redo_.loggedStatement(st, params, inputs));
      } else if (calls_.callEndedTransactions()) {
        calls_.logCallEnd();  // the call's last transaction, as the end of its run of records
      } else if ((state_.txn.undo().mark() != mark && stmt.kind != sql::StmtKind::Transaction) ||
                 changingCommand(stmt) || setsConstraints(stmt) || state_.sequences.changedInStatement ||
                 redo_.tookTransactionId(inputs)) {
        // (ROLLBACK TO SAVEPOINT moves the undo log back: what it undid leaves the record.)
        redo_.add(redo_.loggedStatement(*logged, params, inputs, explained ? &*explained : nullptr));
      } else if (std::string cursor = cursorOfTransaction(stmt); !cursor.empty()) {
        // Kept at commit only if WHERE CURRENT OF used the cursor (keepCursorStatements).
        LoggedStatement entry = redo_.loggedStatement(st, params, inputs);
        entry.cursor = std::move(cursor);
        redo_.add(std::move(entry));
      }
    }
    if (state_.nestedStatements == 0) state_.endRoutineCursorUse();
    state_.flushReports(sink);
    return result;
  } catch (const SqlError&) {
    if (state_.txn.mode() != TransactionState::Mode::None) transaction_.failStatement(mark);
    state_.flushReports(sink);
    throw;
  }
}

std::string StatementRunner::cursorOfTransaction(const sql::Stmt& stmt) {
  std::set<std::string, std::less<>>& logged = state_.loggedCursors;
  switch (stmt.kind) {
    case sql::StmtKind::DeclareCursor: {
      const std::string& name = stmt.as<sql::DeclareCursorStmt>().name;
      logged.insert(name);
      return name;
    }
    case sql::StmtKind::Fetch: {
      const std::string& name = stmt.as<sql::FetchStmt>().name;
      return logged.count(name) ? name : std::string();
    }
    case sql::StmtKind::ClosePortal: {
      const std::string& name = stmt.as<sql::ClosePortalStmt>().name;
      if (!logged.erase(name)) return {};
      return name;
    }
    default: return {};
  }
}

void StatementRunner::runPlan(Statement& st, const uint8_t* params, const std::vector<int16_t>& formats,
                              ResultSink& sink, bool describe) {
  // A cached plan may have been compiled before DDL this statement must see, or along
  // another search path.
  if (planner_.stale(*st.plan)) st.plan = planner_.replan(st);
  PreparedPlan& plan = *st.plan;
  // Before it runs, so a change of no row is refused too, as in PostgreSQL.
  if (const char* command = writingCommand(plan, *st.parsed.stmt)) state_.txn.undo().checkWritable(command);
  std::vector<int16_t> fmts = formats.empty() ? std::vector<int16_t>(plan.columns.size(), 0) : formats;
  if (describe && plan.returnsRows) sink.rowDescription(columnsOf(plan, fmts));
  if (plan.directCall && state_.settings.directCalls() && directCaller_.call(plan, params, fmts, sink)) return;
  fillSystemTables(state_, plan);
  SinkConsumer consumer(plan.compiled->outputLayout, fmts, sink, state_.settings.typeContext());
  rt::QueryContext ctx = state_.queryContext(params);
  ctx.output = &consumer;
  auto start = std::chrono::steady_clock::now();
  plan.compiled->run(&ctx);
  plan.executionNs += static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count());
  ++plan.executions;
  sink.commandComplete(commandTag(plan, consumer.rows, ctx.affectedRows));
}

}  // namespace duet
