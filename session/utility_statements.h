// Utility statements (docs/session.md), run on the catalog directly, never as compiled
// code: transaction control, SET/SHOW/RESET, DROP TABLE, CREATE/DROP INDEX, TRUNCATE,
// CREATE DATABASE and ROLE, DEALLOCATE, DISCARD, CHECKPOINT, and VACUUM and ANALYZE
// (accepted, nothing to do). DDL goes through the catalog with the transaction's undo log,
// so a ROLLBACK undoes it. CREATE TABLE goes on to CreateTableStatements, ALTER TABLE and
// ALTER INDEX to AlterTableStatements, CREATE/DROP FUNCTION to RoutineStatements,
// CREATE/DROP VIEW to ViewStatements, CREATE/ALTER/DROP SEQUENCE to SequenceStatements,
// CREATE/DROP TYPE to TypeStatements;
// COPY is not one of these (StatementRunner hands it to CopyRunner).
#pragma once
#include <string_view>
#include <vector>

#include "compiler/compiler.h"
#include "session/alter_table_statements.h"
#include "session/constraint_statements.h"
#include "session/create_table_statements.h"
#include "session/routine_statements.h"
#include "session/sequence_statements.h"
#include "session/session_state.h"
#include "session/statement.h"
#include "session/transaction_control.h"
#include "session/type_statements.h"
#include "session/view_statements.h"

namespace duet {

// The command a read-only transaction refuses to run, as PostgreSQL names it: a utility
// statement that changes the catalog or a table (CREATE TABLE, DROP FUNCTION, TRUNCATE
// TABLE, ...). Null for any other. Read-only refusal (25006) and the redo log use it.
const char* changingCommand(const sql::Stmt& stmt);

// SHOW x: one text column named after the setting (its canonical spelling); SHOW ALL: name,
// setting, description. Describe reports the same columns before anything runs.
std::vector<ColumnDesc> showColumns(const sql::ShowStmt& s);

class UtilityStatements {
 public:
  UtilityStatements(SessionState& state, TransactionControl& transaction, StatementPlanner& planner,
                    RoutineStatements& routineStatements, ViewStatements& viewStatements,
                    SequenceStatements& sequenceStatements, ConstraintStatements& constraints)
      : state_(state),
        transaction_(transaction),
        routineStatements_(routineStatements),
        viewStatements_(viewStatements),
        sequenceStatements_(sequenceStatements),
        constraints_(constraints),
        createTables_(state, transaction, planner, sequenceStatements, constraints),
        alterTables_(state, transaction, planner, viewStatements, sequenceStatements, constraints),
        typeStatements_(state, transaction, routineStatements) {}

  // Runs a statement that has no plan, COPY aside; its answers go to sink.
  void run(const Statement& st, ResultSink& sink);

 private:
  void runTransaction(const sql::TransactionStmt& s, ResultSink& sink);
  void runSet(const sql::SetStmt& s, ResultSink& sink);
  void setSessionCharacteristics(const sql::TransactionStmt& s);
  void checkRole(const SettingDef& def, const std::string& value) const;
  void runShow(const sql::ShowStmt& s, ResultSink& sink);
  void dropObjects(const sql::DropStmt& s, ResultSink& sink);
  void truncate(const sql::TruncateStmt& s, ResultSink& sink);
  // COMMENT ON ... IS: pg_description's texts (Catalog::setComment).
  void comment(const sql::CommentStmt& s, ResultSink& sink);
  // 25001 "<command> cannot run inside a transaction block", or "cannot be executed from a
  // function" for a routine's EXECUTE (PreventInTransactionBlock).
  void preventInTransactionBlock(std::string_view command) const;

  SessionState& state_;
  TransactionControl& transaction_;
  RoutineStatements& routineStatements_;
  ViewStatements& viewStatements_;
  SequenceStatements& sequenceStatements_;
  ConstraintStatements& constraints_;
  CreateTableStatements createTables_;
  AlterTableStatements alterTables_;
  TypeStatements typeStatements_;
};

}  // namespace duet
