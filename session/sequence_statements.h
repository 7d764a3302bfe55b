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

  // SERIAL and identity columns (CREATE TABLE's, ALTER TABLE ... ADD GENERATED's): a column
  // of `columns` (of table `table` in `schemaName`) that needs a sequence, with the
  // identity constraint that asked for it (null for SERIAL).
  struct ColumnSequence {
    size_t column;
    const sql::Constraint* identity;
  };
  // Creates their sequences and gives each column NOT NULL, its identity kind and its
  // nextval default; `own` then makes the table their owner.
  std::vector<SequenceInfo*> createColumnSequences(const std::string& schemaName, const std::string& table,
                                                   std::vector<ColumnDef>& columns,
                                                   const std::vector<ColumnSequence>& sequences);
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
