// INSERT ... ON CONFLICT: the arbiter indexes a proposed row is looked up in before it is
// inserted, and DO UPDATE's SET and WHERE, bound over the existing row and the proposed
// one (EXCLUDED), as PostgreSQL's transformOnConflictClause and infer_arbiter_indexes do.
// The Insert node's code (compiler/codegen/on_conflict_codegen.cpp) does the rest.
#include <fmt/format.h>
#include <algorithm>

#include "compiler/planner/plan_building.h"
#include "compiler/planner/statement_planner.h"
#include "engine/error.h"
#include "engine/storage/table.h"

namespace duet::planner {

std::vector<Index*> StatementPlanner::arbiterIndexes(const sql::OnConflictClause& c, const DmlTarget& d,
                                                     const std::string& alias) {
  const Table& table = *d.table->table;
  std::vector<Index*> arbiters;
  if (!c.constraint.empty()) {
    // PRIMARY KEY and UNIQUE constraints are the hash indexes (a CREATE UNIQUE INDEX is no
    // constraint), named as their constraints.
    for (const auto& index : table.indexes())
      if (index->kind() == IndexKind::Hash && index->name() == c.constraint) arbiters.push_back(index.get());
    if (arbiters.empty())
      throw SqlError(sqlstate::kUndefinedObject,
                     fmt::format("constraint \"{}\" for table \"{}\" does not exist", c.constraint, d.name));
    return arbiters;
  }
  if (c.columns.empty()) {
    for (const auto& index : table.indexes())
      if (index->unique()) arbiters.push_back(index.get());
    return arbiters;
  }
  std::vector<uint32_t> wanted;
  for (size_t i = 0; i < c.columns.size(); ++i) {
    auto found = std::find(d.names.begin(), d.names.end(), c.columns[i]);
    if (found == d.names.end())
      b_.fail(sqlstate::kUndefinedColumn, fmt::format("column \"{}\" does not exist", c.columns[i]),
              c.columnLocations[i]);
    // A view's column as the table's column it is (one computed from them matches no index).
    int column = d.baseColumns[found - d.names.begin()];
    wanted.push_back(column < 0 ? UINT32_MAX : static_cast<uint32_t>(column));
  }
  std::sort(wanted.begin(), wanted.end());
  wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
  // A predicate infers a partial unique index; DuetDB has none, and PostgreSQL takes an
  // index without one whatever the predicate says. It is still bound (over the target
  // alone, as PostgreSQL binds it), for its errors.
  if (c.indexWhere) {
    Binder::Clause clause(b_, "WHERE");
    b_.coerceToBool(b_.bind(*c.indexWhere, targetScope(d, alias)), "WHERE", c.indexWhere->location);
  }
  // Every unique index over exactly these columns, in any order.
  for (const auto& index : table.indexes()) {
    if (!index->unique()) continue;
    std::vector<uint32_t> key = index->columns();
    std::sort(key.begin(), key.end());
    if (key == wanted) arbiters.push_back(index.get());
  }
  return arbiters;
}

namespace {

void shiftColumns(plan::Expr& e, int by) {
  if (e.kind == ExprKind::Column) e.column += by;
  for (ExprPtr& a : e.args) shiftColumns(*a, by);
}

// A view's EXCLUDED columns (from `first` on in the scope's row) as the view's values over
// the proposed row, which the code puts after the existing row and its rowid (PostgreSQL's
// rewriteTargetView maps them the same way).
void inlineExcludedViewColumns(const std::vector<ExprPtr>& viewValues, int first, int tableWidth, ExprPtr& e) {
  if (e->kind == ExprKind::Column && e->column >= first) {
    e = plan::cloneExpr(*viewValues[e->column - first]);
    shiftColumns(*e, tableWidth);
    return;
  }
  for (ExprPtr& a : e->args) inlineExcludedViewColumns(viewValues, first, tableWidth, a);
}

}  // namespace

void StatementPlanner::planOnConflict(const sql::InsertStmt& s, const DmlTarget& d, Node& insert) {
  const sql::OnConflictClause& c = *s.onConflict;
  if (c.update && c.columns.empty() && c.constraint.empty())
    b_.fail(sqlstate::kSyntaxError, "ON CONFLICT DO UPDATE requires inference specification or constraint name",
            c.location, {}, "For example, ON CONFLICT (column_name).");
  // The code's row: the target's row and rowid, then EXCLUDED's row and a rowid slot. A
  // table's scope is that row; a view's has the view's columns after the target's row and
  // EXCLUDED's view columns after those, all replaced by their values over the two rows.
  const TableBinding& t = *d.table;
  const auto& cols = t.table->columns();
  int tableWidth = static_cast<int>(cols.size()) + 1;
  Scope scope = targetScope(d, s.alias);
  int excludedFirst = scope.width;
  if (d.view) {
    ScopeEntry excluded;
    excluded.alias = "excluded";
    excluded.names = d.names;
    excluded.types = d.types;
    excluded.joinColumn.assign(d.names.size(), -1);
    excluded.offset = excludedFirst;
    scope.entries.push_back(std::move(excluded));
  } else {
    scope.entries.push_back(entryFor(t, "excluded", excludedFirst));
  }
  scope.width += static_cast<int>(scope.entries.back().names.size());
  auto overBothRows = [&](ExprPtr& e) {
    if (d.view) inlineExcludedViewColumns(d.values, excludedFirst, tableWidth, e);
  };
  std::vector<Index*> arbiters = arbiterIndexes(c, d, s.alias);
  if (c.update) {
    // PostgreSQL checks DO UPDATE's columns of a view as INSERT's.
    std::vector<ExprPtr> values = bindSetClauses(d, c.set, scope, "insert into");
    for (size_t k = 0; k < cols.size(); ++k) {
      if (values[k]) overBothRows(values[k]);
      insert.exprs.push_back(values[k] ? std::move(values[k]) : plan::makeColumn(static_cast<int>(k), cols[k].type));
    }
    if (c.where) {
      Binder::Clause clause(b_, "WHERE");
      insert.predicate = b_.coerceToBool(bindOverTarget(d, *c.where, scope), "WHERE", c.where->location);
      overBothRows(insert.predicate);
    }
  }
  if (arbiters.empty() && !c.columns.empty())
    throw SqlError(sqlstate::kInvalidColumnReference,
                   "there is no unique or exclusion constraint matching the ON CONFLICT specification");
  insert.onConflict = c.update ? plan::OnConflict::Update : plan::OnConflict::Nothing;
  insert.arbiters = std::move(arbiters);
}

}  // namespace duet::planner
