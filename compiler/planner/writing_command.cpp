// writingCommand (planner.h): which plans change the database, for read-only transactions
// and for the statements of non-volatile routines.
#include <algorithm>

#include "compiler/planner/planner.h"

namespace duet {
namespace {

bool readsTable(const sql::TableRef& item);

// Whether a FROM list reaches a table, through joins and subqueries: FOR UPDATE and the
// like lock the rows of every table a query's FROM list reads, its subqueries' too.
bool readsTable(const std::vector<sql::TableRefPtr>& from) {
  return std::any_of(from.begin(), from.end(), [](const sql::TableRefPtr& item) { return readsTable(*item); });
}

bool readsTable(const sql::TableRef& item) {
  switch (item.kind) {
    case sql::TableRefKind::Table: return true;
    case sql::TableRefKind::Join: {
      const auto& join = item.as<sql::JoinRef>();
      return readsTable(*join.left) || readsTable(*join.right);
    }
    case sql::TableRefKind::Subquery: return readsTable(item.as<sql::RangeSubquery>().subquery->from);
    case sql::TableRefKind::Function: return false;
  }
  return false;
}

}  // namespace

const char* writingCommand(const PreparedPlan& plan, const sql::Stmt& stmt) {
  switch (plan.command) {
    case PreparedPlan::Command::Insert: return "INSERT";
    case PreparedPlan::Command::Update: return "UPDATE";
    case PreparedPlan::Command::Delete: return "DELETE";
    case PreparedPlan::Command::Call: return nullptr;
    case PreparedPlan::Command::Select: break;
  }
  if (stmt.kind != sql::StmtKind::Select) return nullptr;
  const auto& select = stmt.as<sql::SelectStmt>();
  // A data-modifying WITH query makes the SELECT a writer (PostgreSQL names it SELECT).
  for (const sql::CommonTableExpr& cte : select.with)
    if (cte.dml) return "SELECT";
  const char* command = nullptr;
  switch (select.locking) {
    case sql::LockStrength::None: return nullptr;
    case sql::LockStrength::KeyShare: command = "SELECT FOR KEY SHARE"; break;
    case sql::LockStrength::Share: command = "SELECT FOR SHARE"; break;
    case sql::LockStrength::NoKeyUpdate: command = "SELECT FOR NO KEY UPDATE"; break;
    case sql::LockStrength::Update: command = "SELECT FOR UPDATE"; break;
  }
  return readsTable(select.from) ? command : nullptr;
}

}  // namespace duet
