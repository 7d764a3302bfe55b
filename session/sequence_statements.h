// CREATE, ALTER and DROP SEQUENCE, and the sequences of SERIAL and identity columns, as
// PostgreSQL 15 does them (docs/sql.md, "Sequences"). What the statements change is DDL,
// undone by a rollback; the values nextval hands out are SessionSequences'.
#pragma once
#include <string>
#include <vector>

#include "compiler/compiler.h"
#include "session/session_state.h"
#include "session/transaction_control.h"

namespace duet {

class SequenceStatements {
 public:
  SequenceStatements(SessionState& state, TransactionControl& transaction) : state_(state), transaction_(transaction) {}

  void create(const sql::CreateSequenceStmt& s, ResultSink& sink);
  void alter(const sql::AlterSequenceStmt& s);
  void drop(const sql::DropStmt& s, ResultSink& sink);

  // CREATE TABLE's SERIAL and identity columns: a column of `spec` (in `schemaName`) that
  // needs a sequence, with the identity constraint that asked for it (null for SERIAL).
  struct ColumnSequence {
    size_t column;
    const sql::Constraint* identity;
  };
  // Creates their sequences and gives each column its type, NOT NULL and nextval default;
  // `own` then makes the new table their owner.
  std::vector<SequenceInfo*> createColumnSequences(const std::string& schemaName, CreateTableSpec& spec,
                                                   const std::vector<ColumnSequence>& columns);
  void own(const std::vector<SequenceInfo*>& sequences, const TableInfo& table);

 private:
  // The parameters of an option list; OWNED BY and SEQUENCE NAME are the caller's.
  SequenceOptions options(const std::vector<sql::SequenceOption>& list) const;
  // OWNED BY table.column | NONE.
  void setOwner(SequenceInfo& sequence, const sql::SequenceOption& ownedBy);

  SessionState& state_;
  TransactionControl& transaction_;
};

}  // namespace duet
