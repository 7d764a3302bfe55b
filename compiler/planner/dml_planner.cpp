// INSERT, UPDATE and DELETE: target columns, defaults, assignment casts, RETURNING.
#include "compiler/planner/statement_planner.h"

#include <fmt/format.h>
#include <algorithm>

#include "compiler/parser/parser.h"
#include "compiler/planner/access_path.h"
#include "compiler/planner/plan_building.h"
#include "engine/error.h"
#include "engine/storage/table.h"

namespace duet::planner {
namespace {
constexpr const char* kGeneratedAlways = "428C9";

bool subqueryReads(const plan::Expr& e, const Table* table);

// Whether a subquery in the plan (its filters', its new values') reads `table`.
bool subqueriesRead(const plan::Node& n, const Table* table, bool inSubquery = false) {
  if (inSubquery && n.table == table) return true;
  bool reads = false;
  plan::forEachExpr(n, [&](const plan::Expr& e) { reads = reads || subqueryReads(e, table); });
  if (reads) return true;
  for (const auto& c : n.children)
    if (subqueriesRead(*c, table, inSubquery)) return true;
  return false;
}

bool subqueryReads(const plan::Expr& e, const Table* table) {
  if (e.subplan && subqueriesRead(*e.subplan, table, true)) return true;
  for (const auto& a : e.args)
    if (subqueryReads(*a, table)) return true;
  return false;
}

// The rows an UPDATE or DELETE changes, with their new values: all of them read before the
// first change when a subquery reads the table, which PostgreSQL's snapshot shows it as the
// statement started (a subquery must not see the rows already changed).
NodePtr changedRows(NodePtr rows, const Table* table) {
  return subqueriesRead(*rows, table) ? materialize(std::move(rows)) : std::move(rows);
}
}  // namespace

std::vector<ExprPtr> StatementPlanner::bindReturning(const std::vector<sql::ResTarget>& returning, const DmlTarget& d,
                                                     const std::string& alias, std::vector<OutputColumn>& columns,
                                                     const std::vector<std::string>& hidden) {
  std::vector<ExprPtr> out;
  if (returning.empty()) return out;
  Scope scope = targetScope(d, alias);
  scope.hidden = hidden;
  Binder::Clause clause(b_, "RETURNING");
  expandTargets(returning, scope, nullptr, out, columns);
  for (ExprPtr& e : out) inlineViewColumns(d, e);
  return out;
}

std::vector<ExprPtr> StatementPlanner::bindJoinedReturning(const std::vector<sql::ResTarget>& returning,
                                                           const FromPlan& fp, size_t tableWidth,
                                                           std::vector<ExprPtr>& row,
                                                           std::vector<OutputColumn>& columns) {
  std::vector<ExprPtr> out;
  if (returning.empty()) return out;
  // The joined row's columns after the target's: its rowid, then the other items'.
  const std::vector<SqlType>& types = fp.node->outputTypes;
  for (size_t c = tableWidth; c < types.size(); ++c) row.push_back(plan::makeColumn(static_cast<int>(c), types[c]));
  Binder::Clause clause(b_, "RETURNING");
  expandTargets(returning, fp.scope, nullptr, out, columns);
  return out;
}

NodePtr StatementPlanner::planInsert(const sql::InsertStmt& s, std::vector<OutputColumn>& columns) {
  WithGuard withScope{with_, with_.size()};
  if (!s.with.empty()) pushWith(s, s);
  DmlTarget d = dmlTarget(s.table, sql::StmtKind::Insert);
  const TableBinding& t = *d.table;
  const auto& cols = t.table->columns();
  // Which column of the relation each source column fills (then: which table column).
  std::vector<int> target;
  if (s.columns.empty()) {
    for (size_t c = 0; c < d.names.size(); ++c) target.push_back(static_cast<int>(c));
  } else {
    for (size_t i = 0; i < s.columns.size(); ++i) {
      int found = -1;
      for (size_t c = 0; c < d.names.size(); ++c)
        if (d.names[c] == s.columns[i]) found = static_cast<int>(c);
      if (found < 0)
        b_.fail(sqlstate::kUndefinedColumn,
                fmt::format("column \"{}\" of relation \"{}\" does not exist", s.columns[i], d.name),
                s.columnLocations[i]);
      if (std::find(target.begin(), target.end(), found) != target.end())
        b_.fail(sqlstate::kDuplicateColumn, fmt::format("column \"{}\" specified more than once", s.columns[i]),
                s.columnLocations[i]);
      target.push_back(found);
    }
  }
  // With no column list, a shorter source fills the first columns (PostgreSQL's rule).
  bool valuesSource =
      s.source && s.source->body == sql::SelectStmt::Body::Values && s.source->orderBy.empty() && !s.source->limit;
  if (s.columns.empty() && valuesSource && !s.source->values.empty() && s.source->values[0].size() < target.size())
    target.resize(s.source->values[0].size());
  NodePtr source;
  std::vector<SqlType> targetTypes;
  for (int c : target) targetTypes.push_back(d.types[c]);
  std::vector<OutputColumn> ignored;
  if (!s.source) {
    source = std::make_unique<Node>(NodeKind::Values);
    source->rows.emplace_back();
    target.clear();
  } else if (valuesSource) {
    for (const auto& r : s.source->values)
      if (r.size() > target.size())
        b_.fail(sqlstate::kSyntaxError, "INSERT has more expressions than target columns", r[target.size()]->location);
      else if (r.size() < target.size())
        b_.fail(sqlstate::kSyntaxError, "INSERT has more target columns than expressions", s.begin);
    target = baseColumns(d, target, "insert into");
    source = planValues(s.source->values, targetTypes, ignored);
    // DEFAULT entries become the column's default expression.
    for (auto& row : source->rows)
      for (size_t c = 0; c < row.size(); ++c) {
        if (row[c] && s.overriding == sql::InsertStmt::Overriding::None) checkIdentityAssigned(t, target[c], false);
        if (!row[c]) row[c] = defaultFor(t, target[c]);
      }
  } else {
    // As in PostgreSQL, untyped literals of the SELECT take the target columns' types.
    resolveUnknowns_ = false;
    source = planSelect(*s.source, ignored);
    resolveUnknowns_ = true;
    if (s.columns.empty() && ignored.size() < target.size()) target.resize(ignored.size());
    target = baseColumns(d, target, "insert into");
    if (ignored.size() != target.size())
      b_.fail(sqlstate::kSyntaxError,
              ignored.size() > target.size() ? "INSERT has more expressions than target columns"
                                             : "INSERT has more target columns than expressions",
              s.begin);
    if (s.overriding == sql::InsertStmt::Overriding::None)
      for (int c : target) checkIdentityAssigned(t, c, false);
    // Read the whole source before inserting (INSERT INTO t SELECT ... FROM t).
    source = materialize(std::move(source));
  }
  // Full table rows: source columns assigned (with assignment casts), defaults elsewhere.
  std::vector<ExprPtr> row;
  for (size_t c = 0; c < cols.size(); ++c) {
    auto it = std::find(target.begin(), target.end(), static_cast<int>(c));
    // OVERRIDING USER VALUE: an identity column takes its sequence's value whatever is given.
    bool userOverridden = s.overriding == sql::InsertStmt::Overriding::User && c < t.identity.size() && t.identity[c];
    if (it == target.end() || userOverridden) {
      row.push_back(defaultFor(t, c));
      continue;
    }
    int src = static_cast<int>(it - target.begin());
    row.push_back(
        b_.coerce(plan::makeColumn(src, source->outputTypes[src]), cols[c].type, CastContext::Assignment, s.begin));
  }
  auto ins = std::make_unique<Node>(NodeKind::Insert);
  ins->table = t.table;
  bindChecks(t, *ins);
  ins->children.push_back(project(std::move(source), std::move(row)));
  if (s.onConflict) planOnConflict(s, d, *ins);
  // EXCLUDED is there, but only for ON CONFLICT's own clauses (PostgreSQL's hint says so).
  ins->returning = bindReturning(s.returning, d, s.alias, columns,
                                 s.onConflict ? std::vector<std::string>{"excluded"} : std::vector<std::string>{});
  return ins;
}

std::vector<ExprPtr> StatementPlanner::subSelectColumns(const DmlTarget& d, const sql::SubLink& link,
                                                        const Scope& scope, size_t count) {
  std::vector<ExprPtr> fields;
  for (size_t i = 0; i < count; ++i) {
    std::vector<OutputColumn> columns;
    NodePtr sub;
    std::vector<ExprPtr> captures = b_.correlated(scope, [&] { sub = planSubquery(*link.subquery, columns); });
    if (columns.size() != count)
      b_.fail(sqlstate::kSyntaxError, "number of columns does not match number of values", link.location);
    auto field = std::make_unique<plan::Expr>(ExprKind::Subquery, columns[i].type);
    field->sublink = plan::Sublink::Scalar;
    field->captures = static_cast<int>(captures.size());
    field->args = std::move(captures);
    std::vector<ExprPtr> picked;
    picked.push_back(plan::makeColumn(static_cast<int>(i), columns[i].type));
    field->subplan = std::shared_ptr<plan::Node>(project(std::move(sub), std::move(picked)).release());
    inlineViewColumns(d, field);
    fields.push_back(std::move(field));
  }
  return fields;
}

std::vector<ExprPtr> StatementPlanner::bindSetClauses(const DmlTarget& d, const std::vector<sql::SetClause>& clauses,
                                                      const Scope& scope, const char* verb) {
  const TableBinding& t = *d.table;
  const auto& cols = t.table->columns();
  std::vector<ExprPtr> values(cols.size());
  for (const auto& set : clauses) {
    // SET (a, b) = ROW(x, y) assigns field by field, SET (a, b) = (SELECT x, y ...) column
    // by column.
    std::vector<const sql::Expr*> sources{set.value.get()};
    std::vector<ExprPtr> subSelected;
    if (set.multi && set.value->kind == sql::ExprKind::SubLink &&
        set.value->as<sql::SubLink>().link == sql::SubLinkKind::Scalar) {
      Binder::Clause clause(b_, "UPDATE");
      subSelected = subSelectColumns(d, set.value->as<sql::SubLink>(), scope, set.columns.size());
      sources.assign(set.columns.size(), set.value.get());
    } else if (set.multi) {
      if (set.value->kind != sql::ExprKind::Row)
        b_.fail(sqlstate::kFeatureNotSupported,
                "source for a multiple-column UPDATE item must be a sub-SELECT or ROW() expression",
                set.value->location);
      sources.clear();
      for (const auto& field : set.value->as<sql::RowExpr>().args) sources.push_back(field.get());
      if (sources.size() != set.columns.size())
        b_.fail(sqlstate::kSyntaxError, "number of columns does not match number of values", set.value->location);
    }
    for (size_t i = 0; i < set.columns.size(); ++i) {
      int found = -1;
      for (size_t c = 0; c < d.names.size(); ++c)
        if (d.names[c] == set.columns[i]) found = static_cast<int>(c);
      if (found < 0)
        b_.fail(sqlstate::kUndefinedColumn,
                fmt::format("column \"{}\" of relation \"{}\" does not exist", set.columns[i], d.name),
                set.columnLocations[i]);
      found = baseColumns(d, {found}, verb)[0];
      if (values[found])
        b_.fail(sqlstate::kSyntaxError, fmt::format("multiple assignments to same column \"{}\"", set.columns[i]),
                set.columnLocations[i]);
      Binder::Clause clause(b_, "UPDATE");
      const sql::Expr& source = *sources[i];
      if (source.kind != sql::ExprKind::Default) checkIdentityAssigned(t, found, true);
      ExprPtr v = !subSelected.empty()                    ? std::move(subSelected[i])
                  : source.kind == sql::ExprKind::Default ? defaultFor(t, found)
                                                          : bindOverTarget(d, source, scope);
      values[found] = b_.coerce(std::move(v), cols[found].type, CastContext::Assignment, source.location);
    }
  }
  return values;
}

NodePtr StatementPlanner::planUpdate(const sql::UpdateStmt& s, std::vector<OutputColumn>& columns) {
  WithGuard withScope{with_, with_.size()};
  if (!s.with.empty()) pushWith(s, s);
  DmlTarget d = dmlTarget(s.table, sql::StmtKind::Update);
  const TableBinding& t = *d.table;
  if (d.view && !s.from.empty())
    b_.fail(sqlstate::kFeatureNotSupported, "UPDATE ... FROM of a view is not supported yet", s.begin);
  if (s.currentOf && !s.from.empty())
    b_.fail(sqlstate::kFeatureNotSupported, "UPDATE ... FROM with WHERE CURRENT OF is not supported yet",
            s.currentOf->location);
  FromPlan fp = s.from.empty() ? planTarget(d, s.alias, s.where.get(), s.currentOf.get())
                               : planTargetJoin(t, s.table, s.alias, s.begin, s.from, s.where.get());
  const auto& cols = t.table->columns();
  std::vector<ExprPtr> values = bindSetClauses(d, s.set, fp.scope, "update");
  // Joined with FROM items, every row to update is found before any changes.
  if (!s.from.empty()) fp.node = materialize(std::move(fp.node));
  // An index range scan would meet a row again after the update moved it further along
  // the index, as would the probe for a later value of a key set: when the update sets a
  // key column of that index, read every matching row before changing any. (DELETE needs no such care: the scan steps
  // past a row before returning it, and erasing it leaves the rest.)
  if (const Index* walked = rangeIndex(*fp.node)) {
    bool setsKey = false;
    for (uint32_t c : walked->columns()) setsKey = setsKey || values[c] != nullptr;
    if (setsKey) fp.node = materialize(std::move(fp.node));
  }
  std::vector<ExprPtr> row;
  row.push_back(plan::makeColumn(static_cast<int>(cols.size()), {TypeId::Int8, -1}));  // rowid
  for (size_t c = 0; c < cols.size(); ++c)
    row.push_back(values[c] ? std::move(values[c]) : plan::makeColumn(static_cast<int>(c), cols[c].type));
  auto upd = std::make_unique<Node>(NodeKind::Update);
  upd->table = t.table;
  bindChecks(t, *upd);
  // RETURNING reads the new row; after UPDATE ... FROM also the FROM items' columns.
  upd->returning = s.from.empty() ? bindReturning(s.returning, d, s.alias, columns)
                                  : bindJoinedReturning(s.returning, fp, cols.size(), row, columns);
  upd->children.push_back(changedRows(project(std::move(fp.node), std::move(row)), t.table));
  return upd;
}

NodePtr StatementPlanner::planDelete(const sql::DeleteStmt& s, std::vector<OutputColumn>& columns) {
  WithGuard withScope{with_, with_.size()};
  if (!s.with.empty()) pushWith(s, s);
  DmlTarget d = dmlTarget(s.table, sql::StmtKind::Delete);
  const TableBinding& t = *d.table;
  if (d.view && !s.using_.empty())
    b_.fail(sqlstate::kFeatureNotSupported, "DELETE ... USING of a view is not supported yet", s.begin);
  if (s.currentOf && !s.using_.empty())
    b_.fail(sqlstate::kFeatureNotSupported, "DELETE ... USING with WHERE CURRENT OF is not supported yet",
            s.currentOf->location);
  FromPlan fp = s.using_.empty() ? planTarget(d, s.alias, s.where.get(), s.currentOf.get())
                                 : planTargetJoin(t, s.table, s.alias, s.begin, s.using_, s.where.get());
  const auto& cols = t.table->columns();
  std::vector<ExprPtr> row;
  row.push_back(plan::makeColumn(static_cast<int>(cols.size()), {TypeId::Int8, -1}));
  for (size_t c = 0; c < cols.size(); ++c) row.push_back(plan::makeColumn(static_cast<int>(c), cols[c].type));
  auto del = std::make_unique<Node>(NodeKind::Delete);
  del->table = t.table;
  // RETURNING reads the deleted row; after DELETE ... USING also the USING items' columns.
  del->returning = s.using_.empty() ? bindReturning(s.returning, d, s.alias, columns)
                                    : bindJoinedReturning(s.returning, fp, cols.size(), row, columns);
  del->children.push_back(changedRows(project(std::move(fp.node), std::move(row)), t.table));
  return del;
}

void StatementPlanner::checkIdentityAssigned(const TableBinding& t, size_t column, bool update) {
  if (column >= t.identity.size() || t.identity[column] != 'a') return;
  const std::string& name = t.table->columns()[column].name;
  std::string detail = fmt::format("Column \"{}\" is an identity column defined as GENERATED ALWAYS.", name);
  if (update)
    throw SqlError(kGeneratedAlways, fmt::format("column \"{}\" can only be updated to DEFAULT", name), detail);
  throw SqlError(kGeneratedAlways, fmt::format("cannot insert a non-DEFAULT value into column \"{}\"", name), detail,
                 "Use OVERRIDING SYSTEM VALUE to override.");
}

ExprPtr StatementPlanner::defaultFor(const TableBinding& t, size_t column) {
  SqlType type = t.table->columns()[column].type;
  if (column >= t.defaults.size() || t.defaults[column].empty()) return plan::makeNullConst(type);
  // Defaults are stored as SQL text; they may only hold constants and functions like now().
  auto parsed = sql::parseQuery("SELECT " + t.defaults[column]);
  const auto& select = parsed.at(0).stmt->as<sql::SelectStmt>();
  Scope none;
  // Positions in the default's own text mean nothing in this statement's: report none.
  try {
    return b_.coerce(b_.bind(*select.targets.at(0).expr, none), type, CastContext::Assignment, 0);
  } catch (SqlError& e) {
    e.position = 0;
    throw;
  }
}

void StatementPlanner::bindChecks(const TableBinding& t, Node& node) {
  Scope scope;
  scope.entries.push_back(entryFor(t, "", 0));
  scope.width = static_cast<int>(scope.entries[0].names.size());
  // In name order, as PostgreSQL checks them: that decides which one a row's error names.
  std::vector<const CheckBinding*> checks;
  for (const CheckBinding& check : t.checks) checks.push_back(&check);
  std::sort(checks.begin(), checks.end(), [](const auto* a, const auto* b) { return a->name < b->name; });
  for (const CheckBinding* c : checks) {
    const CheckBinding& check = *c;
    // Kept as SQL text, as defaults are; positions in it mean nothing in this statement.
    auto parsed = sql::parseQuery("SELECT " + check.exprSql);
    const sql::Expr& e = *parsed.at(0).stmt->as<sql::SelectStmt>().targets.at(0).expr;
    try {
      Binder::Clause clause(b_, "check constraints");
      node.checks.push_back(b_.coerceToBool(b_.bind(e, scope), "CHECK", 0));
    } catch (SqlError& error) {
      error.position = 0;
      throw;
    }
    node.checkNames.push_back(check.name);
  }
}

}  // namespace duet::planner
