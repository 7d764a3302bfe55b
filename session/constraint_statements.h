// CHECK and FOREIGN KEY constraints for the utility statements: CREATE TABLE's and ALTER
// TABLE ADD's (checked by planning and, for existing rows, running queries through the
// compiled path), ALTER TABLE DROP CONSTRAINT, and what DROP TABLE and TRUNCATE must do
// about the foreign keys that reference a table (docs/session.md).
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "session/session_state.h"
#include "session/statement.h"
#include "session/statement_planner.h"
#include "session/transaction_control.h"

namespace duet {

class ConstraintStatements {
 public:
  ConstraintStatements(SessionState& state, TransactionControl& transaction, StatementPlanner& planner)
      : state_(state), transaction_(transaction), planner_(planner) {}

  // SET CONSTRAINTS {ALL | name, ...} {DEFERRED | IMMEDIATE}: which deferrable foreign keys
  // wait for the commit (UndoLog::setConstraintMode); the checks of those now IMMEDIATE
  // run at once. 42704 for an unknown name, 42809 for a constraint that is not deferrable.
  void setModes(const sql::TransactionStmt& s);
  // `command` ("ALTER TABLE", "DROP TABLE", "TRUNCATE") on a table whose foreign keys have
  // checks waiting for the commit: 55006, as PostgreSQL's "pending trigger events".
  void refusePendingChecks(const TableInfo& table, const char* command);

  // A CHECK or FOREIGN KEY constraint of `table` (`query`: the statement's text, which holds
  // a CHECK's condition). `existingRows`: validate the rows the table has (ALTER TABLE,
  // unless NOT VALID). `column`: the column a column constraint is written on.
  void add(TableInfo& table, const sql::Constraint& c, std::string_view query, bool existingRows,
           const std::string& column = {});
  // ALTER TABLE DROP CONSTRAINT [IF EXISTS] of a CHECK or FOREIGN KEY.
  void drop(TableInfo& table, const std::string& name, bool ifExists, ResultSink& sink);
  // DROP TABLE: the foreign keys of tables not in `dropped` that reference `table` are
  // 2BP01, or with CASCADE dropped with a NOTICE.
  void dropReferencingKeys(TableInfo& table, const std::vector<const Table*>& dropped, bool cascade, ResultSink& sink);
  // TRUNCATE: refuses (0A000) a table referenced from one not in `tables`, or with CASCADE
  // adds those tables (NOTICE for each), until every referencing table is in the list.
  void truncateClosure(std::vector<TableInfo*>& tables, bool cascade, ResultSink& sink);

 private:
  void addCheck(TableInfo& table, const sql::Constraint& c, std::string_view query, bool existingRows);
  void addForeignKey(TableInfo& table, const sql::Constraint& c, bool existingRows, const std::string& column);
  // Plans (binding and compiling) a query; plans and runs one: whether it produced a row.
  Statement plan(const std::string& query);
  bool producesRow(const std::string& query);

  SessionState& state_;
  TransactionControl& transaction_;
  StatementPlanner& planner_;
};

}  // namespace duet
