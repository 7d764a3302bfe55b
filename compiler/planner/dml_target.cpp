// The relation an INSERT, UPDATE or DELETE writes: a table, or a view PostgreSQL 15 updates
// automatically (rewriteTargetView), written as its table. A view's columns and WHERE are
// bound over the table's row once, then every expression of the statement that names
// the view's columns is bound over them and has them replaced by those values: the
// statement becomes one on the table, as the rewriter makes it. WITH CHECK OPTION is
// refused at CREATE VIEW, so an INSERT or UPDATE need not check the view's WHERE.
#include <fmt/format.h>

#include "compiler/planner/access_path.h"
#include "compiler/planner/plan_building.h"
#include "compiler/planner/statement_planner.h"
#include "engine/error.h"
#include "engine/storage/table.h"

namespace duet::planner {

namespace {

[[noreturn]] void failNotUpdatable(const std::string& view, sql::StmtKind command, const char* reason) {
  struct Wording {
    const char* verb;
    const char* gerund;
    const char* name;
  };
  Wording w = command == sql::StmtKind::Insert   ? Wording{"insert into", "inserting into", "INSERT"}
              : command == sql::StmtKind::Update ? Wording{"update", "updating", "UPDATE"}
                                                 : Wording{"delete from", "deleting from", "DELETE"};
  throw SqlError(
      sqlstate::kObjectNotInPrerequisiteState, fmt::format("cannot {} view \"{}\"", w.verb, view), reason,
      fmt::format("To enable {} the view, provide an INSTEAD OF {} trigger or an unconditional ON {} DO INSTEAD rule.",
                  w.gerund, w.name, w.name));
}

// Why PostgreSQL would not update a view with this query (view_query_is_auto_updatable,
// in its order), or null. The FROM list, aggregates and window functions are checked by
// the caller.
const char* notUpdatable(const sql::SelectStmt& q) {
  if (q.body == sql::SelectStmt::Body::SetOp)
    return "Views containing UNION, INTERSECT, or EXCEPT are not automatically updatable.";
  if (q.distinct || !q.distinctOn.empty()) return "Views containing DISTINCT are not automatically updatable.";
  if (!q.groupBy.empty()) return "Views containing GROUP BY are not automatically updatable.";
  if (q.having) return "Views containing HAVING are not automatically updatable.";
  if (!q.with.empty()) return "Views containing WITH are not automatically updatable.";
  if (q.limit || q.offset) return "Views containing LIMIT or OFFSET are not automatically updatable.";
  for (const sql::ResTarget& t : q.targets)
    if (binder::Binder::containsAggregate(*t.expr))
      return "Views that return aggregate functions are not automatically updatable.";
  if (q.body != sql::SelectStmt::Body::Simple || q.from.size() != 1 || q.from[0]->kind != sql::TableRefKind::Table)
    return "Views that do not select from a single table or view are not automatically updatable.";
  return nullptr;
}

}  // namespace

StatementPlanner::DmlTarget StatementPlanner::dmlTarget(const sql::QualifiedName& name, sql::StmtKind command) {
  const TableBinding& relation = resolve(name);
  DmlTarget d;
  d.name = relation.name;
  if (!relation.view) {
    d.table = &relation;
    for (const auto& c : relation.table->columns()) {
      d.baseColumns.push_back(static_cast<int>(d.names.size()));
      d.names.push_back(c.name);
      d.types.push_back(c.type);
    }
    return d;
  }
  d.view = true;
  const sql::SelectStmt& q = viewQuery(relation);
  if (const char* reason = notUpdatable(q)) failNotUpdatable(relation.name, command, reason);
  const auto& from = q.from[0]->as<sql::RangeTable>();
  insideView(relation, name.location, [&] {
    DmlTarget inner = dmlTarget(from.name, command);
    d.table = inner.table;
    Scope scope = targetScope(inner, from.alias ? from.alias->name : std::string());
    std::vector<OutputColumn> columns;
    binder::WindowContext windows;
    {
      Binder::CollectWindows collect(b_, &windows);
      Binder::Clause clause(b_, "SELECT");
      expandTargets(q.targets, scope, nullptr, d.values, columns);
    }
    if (!windows.calls.empty())
      failNotUpdatable(relation.name, command, "Views that return window functions are not automatically updatable.");
    for (ExprPtr& v : d.values) inlineViewColumns(inner, v);
    d.conditions = std::move(inner.conditions);
    if (q.where) {
      Binder::Clause clause(b_, "WHERE");
      splitConjuncts(b_.coerceToBool(bindOverTarget(inner, *q.where, scope), "WHERE", q.where->location), d.conditions);
    }
  });
  d.names = relation.view->columns;
  int tableColumns = static_cast<int>(d.table->table->columns().size());
  bool anyUpdatable = false;
  for (const ExprPtr& v : d.values) {
    d.types.push_back(v->type);
    bool column = v->kind == ExprKind::Column && v->column < tableColumns;
    d.baseColumns.push_back(column ? v->column : -1);
    anyUpdatable = anyUpdatable || column;
  }
  if (!anyUpdatable && command != sql::StmtKind::Delete)
    failNotUpdatable(relation.name, command, "Views that have no updatable columns are not automatically updatable.");
  return d;
}

std::vector<int> StatementPlanner::baseColumns(const DmlTarget& d, const std::vector<int>& columns, const char* verb) {
  std::vector<int> out;
  for (int c : columns) {
    if (d.baseColumns[c] < 0)
      throw SqlError(sqlstate::kFeatureNotSupported,
                     fmt::format("cannot {} column \"{}\" of view \"{}\"", verb, d.names[c], d.name),
                     "View columns that are not columns of their base relation are not updatable.");
    out.push_back(d.baseColumns[c]);
  }
  return out;
}

Scope StatementPlanner::targetScope(const DmlTarget& d, const std::string& alias) {
  Scope scope;
  ScopeEntry table = entryFor(*d.table, alias, 0);
  scope.width = static_cast<int>(table.names.size());
  if (!d.view) {
    scope.entries.push_back(std::move(table));
    return scope;
  }
  // The table's row stays, unnamed: only the view's columns can be named.
  table.alias.clear();
  table.table = nullptr;
  std::fill(table.names.begin(), table.names.end(), std::string());
  scope.entries.push_back(std::move(table));
  ScopeEntry view;
  view.alias = alias.empty() ? d.name : alias;
  view.names = d.names;
  view.types = d.types;
  view.joinColumn.assign(view.names.size(), -1);
  view.offset = scope.width;
  scope.width += static_cast<int>(view.names.size());
  scope.entries.push_back(std::move(view));
  return scope;
}

void StatementPlanner::inlineViewColumns(const DmlTarget& d, ExprPtr& e) {
  if (!d.view) return;
  int first = static_cast<int>(d.table->table->columns().size()) + 1;  // after the table's row and rowid
  int end = first + static_cast<int>(d.values.size());                 // (ON CONFLICT's EXCLUDED may follow)
  if (e->kind == ExprKind::Column && e->column >= first && e->column < end) {
    e = plan::cloneExpr(*d.values[e->column - first]);
    return;
  }
  for (ExprPtr& a : e->args) inlineViewColumns(d, a);
}

ExprPtr StatementPlanner::bindOverTarget(const DmlTarget& d, const sql::Expr& e, const Scope& scope) {
  ExprPtr bound = b_.bind(e, scope);
  inlineViewColumns(d, bound);
  return bound;
}

FromPlan StatementPlanner::planTarget(const DmlTarget& d, const std::string& alias, const sql::Expr* where,
                                      const sql::ColumnRef* currentOf) {
  FromPlan fp;
  fp.scope = targetScope(d, alias);
  if (currentOf) {
    if (d.view) throw SqlError(sqlstate::kFeatureNotSupported, "WHERE CURRENT OF on a view is not implemented");
    fp.node = std::make_unique<Node>(NodeKind::CurrentOf);
    fp.node->table = d.table->table;
    fp.node->outputTypes = tableRowTypes(*d.table->table);
    fp.node->keys.push_back(cursorName(*currentOf));
    fp.node->alias = fp.scope.entries[0].alias;
    return fp;
  }
  std::vector<ExprPtr> conjuncts;
  for (const ExprPtr& c : d.conditions) conjuncts.push_back(plan::cloneExpr(*c));
  if (where) {
    Binder::Clause clause(b_, "WHERE");
    splitConjuncts(b_.coerceToBool(bindOverTarget(d, *where, fp.scope), "WHERE", where->location), conjuncts);
  }
  fp.node = accessPath(*d.table, conjuncts, b_);
  fp.node->alias = d.view ? d.table->name : fp.scope.entries[0].alias;
  fp.node = filter(std::move(fp.node), conjunction(std::move(conjuncts)));
  return fp;
}

ExprPtr StatementPlanner::cursorName(const sql::ColumnRef& cursor) {
  const std::string& name = cursor.names[0];
  if (req_.resolveVariable) {
    int param = req_.resolveVariable(cursor.names, cursor.location);
    if (param >= 0 && b_.paramTypes()[param].alias == TypeAlias::RefCursor)
      return plan::makeParam(param, b_.paramTypes()[param]);
  }
  auto e = std::make_unique<plan::Expr>(ExprKind::Const, SqlType::of(TypeAlias::RefCursor));
  e->constString = name;
  return e;
}

}  // namespace duet::planner
