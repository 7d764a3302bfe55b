// CREATE TABLE in its three forms, as PostgreSQL 15 runs them (docs/sql.md): with column
// definitions (LIKE another table's among them, INCLUDING DEFAULTS, CONSTRAINTS, INDEXES),
// CREATE TABLE ... AS query [WITH [NO] DATA], and SELECT ... INTO, which the parser makes a
// CREATE TABLE AS. The query's columns give the new table's (names, types as PostgreSQL
// derives them); its rows go in through an INSERT, in the statement's transaction.
#pragma once
#include <string_view>

#include "compiler/compiler.h"
#include "session/constraint_statements.h"
#include "session/sequence_statements.h"
#include "session/session_state.h"
#include "session/statement_planner.h"
#include "session/transaction_control.h"

namespace duet {

class CreateTableStatements {
 public:
  CreateTableStatements(SessionState& state, TransactionControl& transaction, StatementPlanner& planner,
                        SequenceStatements& sequences, ConstraintStatements& constraints)
      : state_(state), transaction_(transaction), planner_(planner), sequences_(sequences), constraints_(constraints) {}

  // `query`: the statement's text (DEFAULT expressions are kept as text).
  void run(const sql::CreateTableStmt& s, std::string_view query, ResultSink& sink);

 private:
  // The storage and parameters WITH (...) gives: storage = row | column, fillfactor.
  StorageKind storageOf(const sql::CreateTableStmt& s) const;
  // The new table's name, storage and ON COMMIT, and in `schema` the schema it goes in
  // (the temporary one for CREATE TEMP and pg_temp; 42P16 for ON COMMIT without TEMP).
  CreateTableSpec tableSpec(const sql::CreateTableStmt& s, std::string& schema);
  void createAs(const sql::CreateTableStmt& s, ResultSink& sink);
  // The columns, keys and indexes LIKE copies into `spec` (at the clause's place).
  void addLikeColumns(const sql::TableLikeClause& like, CreateTableSpec& spec,
                      std::vector<std::vector<std::string>>& indexes);

  SessionState& state_;
  TransactionControl& transaction_;
  StatementPlanner& planner_;
  SequenceStatements& sequences_;      // SERIAL's and identity's
  ConstraintStatements& constraints_;  // CHECK and FOREIGN KEY
};

}  // namespace duet
