// ALTER TABLE and ALTER INDEX as PostgreSQL 15 runs them (docs/sql.md, "ALTER TABLE"): the
// commands of one statement run in order, all or nothing (the statement's undo mark). A
// command that changes the columns' layout (ADD/DROP COLUMN, ALTER TYPE) rebuilds the table
// (Catalog::rewriteTable), its rows converted by an INSERT ... SELECT into the new table,
// so values are converted as an INSERT assigns them; the rest change the catalog in place.
// Every command moves the catalog version on, so no cached plan or compiled routine runs
// against the table as it was.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "compiler/compiler.h"
#include "session/constraint_statements.h"
#include "session/sequence_statements.h"
#include "session/session_state.h"
#include "session/statement_planner.h"
#include "session/transaction_control.h"
#include "session/view_statements.h"

namespace duet {

class AlterTableStatements {
 public:
  AlterTableStatements(SessionState& state, TransactionControl& transaction, StatementPlanner& planner,
                       ViewStatements& views, SequenceStatements& sequences, ConstraintStatements& constraints)
      : state_(state),
        transaction_(transaction),
        planner_(planner),
        views_(views),
        sequences_(sequences),
        constraints_(constraints) {}

  // `query`: the statement's text (DEFAULT and USING expressions are kept or run as text).
  void run(const sql::AlterTableStmt& s, std::string_view query, ResultSink& sink);

 private:
  void checkOwner(const sql::AlterTableCmd& cmd) const;
  void refuseOnView(const sql::AlterTableStmt& s, const std::string& view);
  void renameRelation(const sql::AlterTableStmt& s, ResultSink& sink);
  void runCommand(TableInfo& table, const sql::AlterTableCmd& cmd, std::string_view query, ResultSink& sink);
  void addColumn(TableInfo& table, const sql::AlterTableCmd& cmd, std::string_view query, ResultSink& sink);
  void dropColumn(TableInfo& table, const sql::AlterTableCmd& cmd, ResultSink& sink);
  void alterColumnType(TableInfo& table, const sql::AlterTableCmd& cmd, std::string_view query);
  void renameColumn(TableInfo& table, const sql::AlterTableCmd& cmd);
  // ALTER COLUMN ... ADD GENERATED ... AS IDENTITY: the column gets a sequence of its own.
  void addIdentity(TableInfo& table, const sql::AlterTableCmd& cmd);
  void checkNotIdentity(const TableInfo& table, uint32_t column, bool setting) const;
  // Whether a CHECK constraint of the table reads `column`.
  static bool checkReads(const TableInfo& table, uint32_t column);
  // The column a command names: 42703 `column "c" of relation "t" does not exist`.
  uint32_t column(const TableInfo& table, const std::string& name) const;
  // Rebuilds the table with `columns`, new column i holding values[i] (SQL over the old
  // row) for each row; sourceColumn as Catalog::rewriteTable takes it.
  void rewrite(TableInfo& table, std::vector<ColumnDef> columns, const std::vector<int>& sourceColumn,
               const std::vector<std::string>& values);

  SessionState& state_;
  TransactionControl& transaction_;
  StatementPlanner& planner_;
  ViewStatements& views_;
  SequenceStatements& sequences_;      // identity columns' and SERIAL's
  ConstraintStatements& constraints_;  // CHECK and FOREIGN KEY
};

}  // namespace duet
