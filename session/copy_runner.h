// COPY (docs/session.md): COPY ... TO STDOUT runs a SELECT of the table's columns (or the
// given query) through the plan cache and sends one CopyData per row; COPY ... FROM STDIN
// checks the table and columns, answers CopyIn and waits; once the server has the data
// (CopyDone) `receive` parses it (copy_io.h) and inserts the rows through the undo log.
// Owns the waiting COPY FROM, with the redo log's entry for it.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "session/copy_io.h"
#include "session/redo_recorder.h"
#include "session/session_state.h"
#include "session/statement.h"
#include "session/statement_planner.h"
#include "session/transaction_control.h"

namespace duet {

class CopyRunner {
 public:
  CopyRunner(SessionState& state, TransactionControl& transaction, StatementPlanner& planner, RedoRecorder& redo)
      : state_(state), transaction_(transaction), planner_(planner), redo_(redo) {}

  // Runs a COPY statement: Done after COPY TO, CopyIn when COPY FROM waits for its data.
  QueryState run(const Statement& st, ResultSink& sink);
  // The waiting COPY FROM came from a simple Query, whose rest runs after it.
  void markFromSimpleQuery() { copyIn_->fromSimpleQuery = true; }
  // The redo log's entry for the waiting COPY FROM, completed with the data once it succeeds.
  void setLogEntry(LoggedStatement entry) { copyIn_->log = std::move(entry); }
  bool receiving() const { return copyIn_ != nullptr; }
  // Session::copyInData: inserts the rows of the waiting COPY FROM; returns whether it came
  // from a simple Query (markFromSimpleQuery). A bad row fails the statement.
  bool receive(std::string_view data, ResultSink& sink);
  // Session::copyInFail (CopyFail) while receiving: fails the statement with 57014.
  [[noreturn]] void fail(std::string_view message, ResultSink& sink);
  // Session::abortCurrent: the waiting COPY FROM is dropped.
  void abort() { copyIn_.reset(); }

 private:
  struct ValueQuery;
  // A COPY FROM STDIN waiting for its data.
  struct CopyInState {
    TableInfo* table = nullptr;
    std::vector<int> columns;  // table column per field
    std::vector<std::string> names;
    // Per table column not in the COPY list: its DEFAULT's value as text (nullopt: NULL).
    std::vector<std::pair<int, std::optional<std::string>>> defaults;
    // Those whose DEFAULT is volatile (nextval(), random()): evaluated for every row.
    std::vector<std::pair<int, std::shared_ptr<ValueQuery>>> rowDefaults;
    CopyOptions options;
    UndoLog::Mark mark;
    bool fromSimpleQuery = false;
    // The redo log's entry for this COPY, completed with the data once it succeeds.
    std::optional<LoggedStatement> log;
  };
  void copyOut(const Statement& st, ResultSink& sink);
  // `query` (one row, one column) planned and compiled, to be run by evaluate(); volatile
  // when it calls a volatile function or a routine.
  struct ValueQuery {
    std::shared_ptr<const std::string> text;
    std::unique_ptr<Statement> statement;
    std::unique_ptr<ParamTuple> params;  // its lifted literals, made once
    bool isVolatile = false;
  };
  std::shared_ptr<ValueQuery> prepareValue(const std::string& query);
  // Runs it and returns its value as text (nullopt for NULL).
  std::optional<std::string> evaluate(const ValueQuery& query);
  // INSERT INTO t VALUES ($1, ...) planned with the columns' types, so that a row tuple of
  // the table is its parameter tuple.
  std::unique_ptr<Statement> checkedInsert(const TableInfo& t);

  SessionState& state_;
  TransactionControl& transaction_;
  StatementPlanner& planner_;
  RedoRecorder& redo_;
  std::unique_ptr<CopyInState> copyIn_;
};

}  // namespace duet
