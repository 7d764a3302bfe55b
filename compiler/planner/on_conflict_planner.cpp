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
    wanted.push_back(static_cast<uint32_t>(found - d.names.begin()));
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

void StatementPlanner::planOnConflict(const sql::InsertStmt& s, const DmlTarget& d, Node& insert) {
  const sql::OnConflictClause& c = *s.onConflict;
  if (d.view)
    b_.fail(sqlstate::kFeatureNotSupported, "INSERT ... ON CONFLICT on a view is not supported yet", c.location);
  if (c.update && c.columns.empty() && c.constraint.empty())
    b_.fail(sqlstate::kSyntaxError, "ON CONFLICT DO UPDATE requires inference specification or constraint name",
            c.location, {}, "For example, ON CONFLICT (column_name).");
  // The target's row and rowid, then EXCLUDED's row and a rowid slot.
  const TableBinding& t = *d.table;
  const auto& cols = t.table->columns();
  Scope scope = targetScope(d, s.alias);
  scope.entries.push_back(entryFor(t, "excluded", scope.width));
  scope.width += static_cast<int>(scope.entries.back().names.size());
  std::vector<Index*> arbiters = arbiterIndexes(c, d, s.alias);
  if (c.update) {
    std::vector<ExprPtr> values = bindSetClauses(d, c.set, scope);
    for (size_t k = 0; k < cols.size(); ++k)
      insert.exprs.push_back(values[k] ? std::move(values[k]) : plan::makeColumn(static_cast<int>(k), cols[k].type));
    if (c.where) {
      Binder::Clause clause(b_, "WHERE");
      insert.predicate = b_.coerceToBool(bindOverTarget(d, *c.where, scope), "WHERE", c.where->location);
    }
  }
  if (arbiters.empty() && !c.columns.empty())
    throw SqlError(sqlstate::kInvalidColumnReference,
                   "there is no unique or exclusion constraint matching the ON CONFLICT specification");
  insert.onConflict = c.update ? plan::OnConflict::Update : plan::OnConflict::Nothing;
  insert.arbiters = std::move(arbiters);
}

}  // namespace duet::planner
