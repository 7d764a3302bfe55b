// CREATE [OR REPLACE] VIEW and DROP VIEW, and the views a DROP TABLE or DROP VIEW takes
// with it (CASCADE) or is refused for (2BP01), as PostgreSQL 15 does them. A view is kept
// as its query's text with the columns and dependencies CREATE found by planning it
// (docs/sql.md, "Views").
#pragma once
#include <string>
#include <vector>

#include "compiler/compiler.h"
#include "session/routine_cache.h"
#include "session/session_state.h"
#include "session/statement.h"
#include "session/transaction_control.h"

namespace duet {

class ViewStatements {
 public:
  ViewStatements(SessionState& state, TransactionControl& transaction, RoutineCache& routines)
      : state_(state), transaction_(transaction), routines_(routines) {}

  void createView(const Statement& st);
  void dropViews(const sql::DropStmt& s, ResultSink& sink);
  // Before relation `oid` (described as "table t" or "view v") is dropped by `drop`: the
  // views that read it, but for those in `droppedToo`, make the DROP fail (2BP01) or,
  // with CASCADE, are dropped first, with PostgreSQL's notice.
  void dropDependents(uint32_t oid, const std::string& described, const sql::DropStmt& drop,
                      const std::vector<uint32_t>& droppedToo, ResultSink& sink);
  // The views that read column `column` of `table`: those that no longer plan with the
  // column hidden (DuetDB keeps a view as its query's text, so this is what reading it means).
  std::vector<ViewInfo*> viewsReadingColumn(TableInfo& table, uint32_t column);
  // Before ALTER TABLE DROP COLUMN: the views that read the column, and those that read
  // them, make it fail (2BP01) or, with CASCADE, are dropped, with PostgreSQL's notice.
  void dropColumnDependents(TableInfo& table, uint32_t column, sql::DropBehavior behavior, ResultSink& sink);

 private:
  // Whether `query` plans at all.
  bool plans(const std::string& query);
  // Whether `query` plans to columns of these names and types.
  bool sameColumns(const std::string& query, const std::vector<OutputColumn>& columns);

  SessionState& state_;
  TransactionControl& transaction_;
  RoutineCache& routines_;
};

}  // namespace duet
