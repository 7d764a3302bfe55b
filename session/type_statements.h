// CREATE TYPE name AS (field type, ...) and DROP TYPE, as PostgreSQL 15 does them for
// composite types (docs/plpgsql.md, "Composite types"). What they change is DDL: undone by a
// rollback, logged as the statement, and archived as CREATE TYPE (session/archive_dump.cpp).
#pragma once
#include "compiler/compiler.h"
#include "session/routine_statements.h"
#include "session/session_state.h"
#include "session/transaction_control.h"

namespace duet {

class TypeStatements {
 public:
  TypeStatements(SessionState& state, TransactionControl& transaction, RoutineStatements& routines)
      : state_(state), transaction_(transaction), routines_(routines) {}

  void create(const sql::CreateTypeStmt& s);
  // DROP TYPE [IF EXISTS] name, ... [CASCADE | RESTRICT]: a table's row type goes only
  // with its table (2BP01); routines using the type are dependents (2BP01, or dropped with
  // CASCADE), and so are other composite types with a field of it (2BP01; CASCADE, which
  // would drop their fields, is 0A000).
  void drop(const sql::DropStmt& s, ResultSink& sink);

 private:
  SessionState& state_;
  TransactionControl& transaction_;
  RoutineStatements& routines_;
};

}  // namespace duet
