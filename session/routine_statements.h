// CREATE [OR REPLACE] FUNCTION | PROCEDURE and DROP FUNCTION | PROCEDURE | ROUTINE, checked
// in PostgreSQL 15's order, run on the catalog with the transaction's undo log; and the
// functions a DROP TABLE takes with it. The code of a created routine is compiled and
// cached through the RoutineCache at once; a dropped or replaced one's is discarded.
#pragma once
#include <optional>
#include <string_view>

#include "compiler/compiler.h"
#include "session/routine_cache.h"
#include "session/session_state.h"
#include "session/transaction_control.h"

namespace duet {

class RoutineStatements {
 public:
  RoutineStatements(SessionState& state, TransactionControl& transaction, RoutineCache& routines)
      : state_(state), transaction_(transaction), routines_(routines) {}

  void createRoutine(const sql::CreateFunctionStmt& s, std::string_view query, ResultSink& sink);
  void dropRoutines(const sql::DropRoutineStmt& s, ResultSink& sink);
  // ALTER FUNCTION | PROCEDURE | ROUTINE ... OWNER TO role: checked, nothing kept.
  void alterRoutine(const sql::AlterRoutineStmt& s, ResultSink& sink);
  // DROP TABLE and DROP TYPE: routines whose result or parameters have the named
  // composite type `schema`.`name` depend on it (2BP01 "cannot drop <dropping> because
  // other objects depend on it", or dropped too with CASCADE).
  void dropRoutinesUsingType(const std::string& schema, const std::string& name, const std::string& dropping,
                             bool cascade, ResultSink& sink);
  // The routine a name with or without an argument list means (LookupFuncWithArgs), its
  // kind checked; null when it does not exist and `ifExists` made that a notice.
  RoutineInfo* findRoutineRef(sql::RoutineObject object, const sql::RoutineRef& ref, bool ifExists, ResultSink& sink);

 private:
  void applyRoutineOptions(const sql::CreateFunctionStmt& s, std::string_view query, RoutineInfo& info);
  void configure(RoutineInfo& info, const sql::RoutineOption& o);
  void defineRoutineSignature(const sql::CreateFunctionStmt& s, std::string_view query, RoutineInfo& info,
                              ResultSink& sink);
  // `table.column%TYPE`: the column's type, with PostgreSQL's notice.
  RoutineType columnType(const sql::TypeName& t, ResultSink& sink) const;
  void validateRoutineBody(const RoutineInfo& info, const sql::CreateFunctionStmt& s, std::string_view query);
  std::optional<RoutineType> namedRowType(const sql::TypeName& t) const;

  SessionState& state_;
  TransactionControl& transaction_;
  RoutineCache& routines_;
};

}  // namespace duet
