// FROM and joins: the FROM list flattened into items joined left-deep in order, each
// conjunct placed where its columns are first available (and no outer join nulls them),
// hash joins on equalities, index joins through unique keys.
#include "compiler/planner/statement_planner.h"

#include <fmt/format.h>
#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

#include "compiler/parser/ast_walk.h"
#include "compiler/planner/access_path.h"
#include "compiler/planner/plan_building.h"
#include "engine/error.h"
#include "engine/limits/stack_depth.h"
#include "engine/storage/table.h"
#include "engine/types/record.h"

namespace duet::planner {

namespace {
// Whether a join tree holds a RIGHT or FULL join.
bool holdsRightOrFullJoin(const sql::TableRef& ref) {
  for (const sql::TableRef* r = &ref; r->kind == sql::TableRefKind::Join;) {
    const auto& j = r->as<sql::JoinRef>();
    if (j.type == sql::JoinType::Right || j.type == sql::JoinType::Full || holdsRightOrFullJoin(*j.right)) return true;
    r = j.left.get();
  }
  return false;
}
}  // namespace

void StatementPlanner::collectItem(const sql::TableRef& ref, FromItems& from, bool right, sql::JoinType parent) {
  if (ref.kind == sql::TableRefKind::Join) {
    bool outer = parent != sql::JoinType::Inner && parent != sql::JoinType::Cross;
    bool unit = ref.as<sql::JoinRef>().alias || (right && (outer || holdsRightOrFullJoin(ref)));
    if (!unit) return collectFrom(ref, from);
  }
  from.items.push_back(&ref);
  from.steps.emplace_back();
}

void StatementPlanner::collectFrom(const sql::TableRef& ref, FromItems& from) {
  if (ref.kind != sql::TableRefKind::Join) return collectItem(ref, from, false, sql::JoinType::Inner);
  const auto& j = ref.as<sql::JoinRef>();
  bool outer = j.type != sql::JoinType::Inner && j.type != sql::JoinType::Cross;
  size_t leftBegin = from.items.size();
  collectItem(*j.left, from, false, j.type);
  size_t rightBegin = from.items.size();
  collectItem(*j.right, from, true, j.type);
  if (outer) {
    from.steps[rightBegin] = {j.type, j.on.get()};
  } else if (j.on) {
    from.conditions.push_back({j.on.get(), from.items.size() - 1, "JOIN/ON"});
  }
  if (j.natural || !j.using_.empty()) from.merging.push_back({&j, leftBegin, rightBegin, from.items.size()});
}

NodePtr StatementPlanner::joinUnitItem(const sql::JoinRef& j, Scope& into) {
  FromItems items;
  items.hidden = into.hidden;
  for (const ScopeEntry& e : into.entries) items.hidden.push_back(e.alias);
  collectFrom(j, items);
  FromPlan unit = joinItems(items, nullptr, nullptr, nullptr);
  if (j.alias) {
    // One entry: the join's columns as `*` lists them, renamed by the alias's list.
    ScopeEntry e;
    e.alias = j.alias->name;
    std::vector<ExprPtr> columns;
    std::vector<OutputColumn> listed;
    for (size_t i = 0; i < unit.scope.entries.size(); ++i)
      starEntryColumns(unit.scope, i, false, nullptr, j.location, columns, listed, nullptr);
    for (const OutputColumn& c : listed) {
      e.names.push_back(c.name);
      e.types.push_back(c.type);
    }
    if (j.alias->columns.size() > e.names.size())
      b_.fail(sqlstate::kInvalidColumnReference,
              fmt::format("join expression \"{}\" has {} columns available but {} columns specified", e.alias,
                          e.names.size(), j.alias->columns.size()),
              j.location);
    for (size_t i = 0; i < j.alias->columns.size(); ++i) e.names[i] = j.alias->columns[i];
    for (const ScopeEntry& inside : unit.scope.entries) into.hidden.push_back(inside.alias);
    e.joinColumn.assign(e.names.size(), -1);
    e.offset = into.width;
    into.width += static_cast<int>(e.names.size());
    into.entries.push_back(std::move(e));
    return project(std::move(unit.node), std::move(columns));
  }
  // Its tables stay visible by their names: its entries and join columns, moved to where
  // its columns start.
  int entryBase = static_cast<int>(into.entries.size()), joinBase = static_cast<int>(into.joinColumns.size());
  for (ScopeEntry& e : unit.scope.entries) {
    e.offset += into.width;
    for (int& jc : e.joinColumn)
      if (jc >= 0) jc += joinBase;
    into.entries.push_back(std::move(e));
  }
  for (binder::JoinColumn& jc : unit.scope.joinColumns) {
    ExprPtr value = plan::cloneExpr(*jc.value);
    binder::shiftColumns(*value, into.width);
    jc.value = std::move(value);
    jc.firstEntry += entryBase;
    if (jc.mergedInto >= 0) jc.mergedInto += joinBase;
    into.joinColumns.push_back(std::move(jc));
  }
  into.width += unit.scope.width;
  return std::move(unit.node);
}

std::vector<std::string> StatementPlanner::naturalColumns(const Scope& scope, const MergingJoin& m) {
  std::vector<std::string> names;
  for (size_t i = m.leftBegin; i < m.rightBegin; ++i)
    for (const auto& n : scope.entries[i].names) {
      if (n.empty() || std::find(names.begin(), names.end(), n) != names.end()) continue;
      if (binder::findUnqualified(scope, n, m.rightBegin, m.rightEnd).matches > 0) names.push_back(n);
    }
  return names;
}

void StatementPlanner::mergeJoinColumns(Scope& scope, const MergingJoin& m, int joinNumber,
                                        std::vector<ExprPtr>& conjuncts) {
  const sql::JoinRef& j = *m.join;
  std::vector<std::string> names = j.natural ? naturalColumns(scope, m) : j.using_;
  for (size_t k = 0; k < names.size(); ++k) {
    const std::string& name = names[k];
    if (std::find(names.begin(), names.begin() + k, name) != names.begin() + k)
      b_.fail(sqlstate::kDuplicateColumn,
              fmt::format("column name \"{}\" appears more than once in USING clause", name), j.location);
    auto side = [&](size_t first, size_t end, const char* which) {
      binder::ColumnMatch match = binder::findUnqualified(scope, name, first, end);
      if (match.matches == 0)
        b_.fail(sqlstate::kUndefinedColumn,
                fmt::format("column \"{}\" specified in USING clause does not exist in {} table", name, which),
                j.location);
      if (match.matches > 1)
        b_.fail(sqlstate::kAmbiguousColumn,
                fmt::format("common column name \"{}\" appears more than once in {} table", name, which), j.location);
      return match;
    };
    binder::ColumnMatch left = side(m.leftBegin, m.rightBegin, "left");
    binder::ColumnMatch right = side(m.rightBegin, m.rightEnd, "right");
    ExprPtr l = binder::matchValue(scope, left), r = binder::matchValue(scope, right);
    auto common = commonType(l->type, r->type);
    if (!common)
      b_.fail(sqlstate::kDatatypeMismatch,
              fmt::format("JOIN/USING types {} and {} cannot be matched", typeName(l->type), typeName(r->type)),
              j.location);
    l = b_.coerce(std::move(l), *common, CastContext::Implicit, j.location);
    r = b_.coerce(std::move(r), *common, CastContext::Implicit, j.location);
    int index = static_cast<int>(scope.joinColumns.size());
    // The merged column is the preserved side's; both sides' for FULL JOIN (COALESCE).
    ExprPtr merged;
    if (j.type == sql::JoinType::Full) {
      merged = std::make_unique<plan::Expr>(ExprKind::Coalesce, l->type);
      merged->args.push_back(plan::cloneExpr(*l));
      merged->args.push_back(plan::cloneExpr(*r));
    } else {
      merged = plan::cloneExpr(j.type == sql::JoinType::Right ? *r : *l);
    }
    scope.joinColumns.push_back(
        {name, std::shared_ptr<const plan::Expr>(std::move(merged)), static_cast<int>(m.leftBegin), joinNumber, -1});
    conjuncts.push_back(b_.compare(plan::Op::Eq, std::move(l), std::move(r), j.location));
    for (const binder::ColumnMatch& merged : {left, right}) {
      if (merged.join >= 0)
        scope.joinColumns[merged.join].mergedInto = index;
      else
        scope.entries[merged.entry].joinColumn[merged.column] = index;
    }
  }
}

const RoutineCandidate& StatementPlanner::resolveCall(const sql::FuncCall& call, bool procedure) {
  Scope none;
  // Bound into a local list first: an argument may hold a subquery, planned meanwhile.
  std::vector<ExprPtr> args;
  Binder::Clause clause(b_, procedure ? "CALL arguments" : "functions in FROM");
  // PostgreSQL's transformSubLink refuses them in CALL arguments (EXPR_KIND_CALL_ARGUMENT).
  if (procedure)
    for (const auto& a : call.args)
      sql::visitSubLinks(*a, [&](const sql::SubLink& link) {
        b_.fail(sqlstate::kFeatureNotSupported, "cannot use subquery in CALL argument", link.location);
      });
  for (const auto& a : call.args) args.push_back(b_.bind(*a, none));
  boundArgs_ = std::move(args);
  const RoutineCandidate* r = b_.resolveRoutine(call, boundArgs_, procedure);
  if (!r) b_.failUndefinedRoutine(call.names.back(), boundArgs_, procedure, call.location);
  return *r;
}

NodePtr StatementPlanner::functionScan(const RoutineCandidate& r, std::vector<ExprPtr>& args) {
  auto node = std::make_unique<Node>(NodeKind::FunctionScan);
  node->routine = r.oid;
  node->exprs = std::move(args);
  node->outputTypes = r.resultTypes;
  node->alias = r.name;
  return node;
}

NodePtr StatementPlanner::builtinFunctionItem(const sql::RangeFunction& f, ScopeEntry& e) {
  const sql::FuncCall& call = *f.call;
  // information_schema._pg_expandarray: built in, named with its schema.
  std::string qualified = call.names.size() == 2 ? call.names[0] + "." + call.names[1] : "";
  bool otherSchema = !qualified.empty() && b_.isBuiltinSetFunction(qualified);
  if (call.names.size() > 1 && call.names[0] != "pg_catalog" && !otherSchema) return nullptr;
  const std::string& name = otherSchema ? qualified : call.names.back();
  if (name == "pg_options_to_table") return optionsTableItem(f, e);
  if (!b_.isBuiltinSetFunction(name)) return nullptr;
  Scope none;
  std::vector<ExprPtr> args;
  Binder::Clause clause(b_, "functions in FROM");
  for (const auto& a : call.args) args.push_back(b_.bind(*a, none));
  ExprPtr bound = name == "unnest" && args.size() > 1 ? b_.unnestZip(args, call.location)
                                                      : b_.builtinSetCall(name, args, call.location);
  if (!bound) b_.failUndefinedRoutine(name, args, false, call.location);
  if (!f.columnTypes.empty())
    b_.fail(sqlstate::kSyntaxError, "a column definition list is only allowed for functions returning \"record\"",
            f.definitionLocation);
  auto node = std::make_unique<Node>(NodeKind::FunctionScan);
  node->function = bound->function;
  node->exprs = std::move(bound->args);
  node->outputTypes = {bound->type};
  if (bound->type.id == TypeId::Record) return recordColumns(std::move(node), f, e);
  e.alias = f.alias && !f.alias->name.empty() ? f.alias->name : name;
  e.names = {f.alias && !f.alias->columns.empty() ? f.alias->columns[0] : f.alias ? f.alias->name : name};
  e.types = node->outputTypes;
  e.joinColumn.assign(1, -1);
  return node;
}

// A function returning records in FROM gives their fields as columns, as PostgreSQL
// expands a composite result: `scan`'s one record column taken apart by a projection.
NodePtr StatementPlanner::recordColumns(NodePtr scan, const sql::RangeFunction& f, ScopeEntry& e) {
  if (f.ordinality)
    b_.fail(sqlstate::kFeatureNotSupported, "WITH ORDINALITY over a function returning a record is not supported yet",
            f.call->location);
  SqlType record = scan->outputTypes[0];
  const std::vector<RecordField>& fields = recordFields(record);
  std::vector<ExprPtr> columns;
  e.names.clear();
  e.types.clear();
  for (size_t i = 0; i < fields.size(); ++i) {
    auto field = std::make_unique<plan::Expr>(plan::ExprKind::FieldSelect, fields[i].type);
    field->column = static_cast<int>(i);
    field->args.push_back(plan::makeColumn(0, record));
    columns.push_back(std::move(field));
    e.names.push_back(f.alias && i < f.alias->columns.size() ? f.alias->columns[i] : fields[i].name);
    e.types.push_back(fields[i].type);
  }
  e.alias = f.alias && !f.alias->name.empty() ? f.alias->name : f.call->names.back();
  e.joinColumn.assign(fields.size(), -1);
  return project(std::move(scan), std::move(columns));
}

NodePtr StatementPlanner::functionItem(const sql::RangeFunction& f, ScopeEntry& e) {
  NodePtr node = routineFunctionItem(f, e);
  if (f.ordinality) {
    // WITH ORDINALITY: a bigint column after the function's, named by the alias's column
    // list when that goes on that far.
    size_t at = e.names.size();
    node->ordinality = true;
    node->outputTypes.push_back({TypeId::Int8, -1});
    e.names.push_back(f.alias && f.alias->columns.size() > at ? f.alias->columns[at] : "ordinality");
    e.types.push_back({TypeId::Int8, -1});
    e.joinColumn.push_back(-1);
  }
  return node;
}

NodePtr StatementPlanner::routineFunctionItem(const sql::RangeFunction& f, ScopeEntry& e) {
  if (NodePtr builtin = builtinFunctionItem(f, e)) return builtin;
  const RoutineCandidate& r = resolveCall(*f.call, false);
  NodePtr node = functionScan(r, boundArgs_);
  bool definitions = !f.columnTypes.empty();
  if (definitions && r.returnsComposite)
    b_.fail(sqlstate::kSyntaxError,
            "a column definition list is redundant for a function returning a named composite type",
            f.definitionLocation);
  if (definitions && !r.returnsRecord)
    b_.fail(sqlstate::kSyntaxError, "a column definition list is only allowed for functions returning \"record\"",
            f.definitionLocation);
  if (!definitions && r.returnsRecord)
    b_.fail(sqlstate::kSyntaxError, "a column definition list is required for functions returning \"record\"",
            f.call->location);
  e.alias = f.alias && !f.alias->name.empty() ? f.alias->name : r.name;
  if (definitions) {
    e.names = f.alias->columns;
    for (size_t i = 0; i < e.names.size(); ++i) {
      for (size_t j = 0; j < i; ++j)
        if (e.names[j] == e.names[i])
          throw SqlError(sqlstate::kDuplicateColumn,
                         fmt::format("column name \"{}\" specified more than once", e.names[i]));
      e.types.push_back(b_.resolveType(f.columnTypes[i]));
    }
    node->outputTypes = e.types;
  } else {
    e.names = r.resultNames;
    // A function returning scalars (one value or a set of them) names its column after
    // the alias too.
    if (f.alias && r.resultNames.size() == 1 && r.resultNames[0] == r.name) e.names[0] = f.alias->name;
    if (f.alias)
      for (size_t i = 0; i < f.alias->columns.size() && i < e.names.size(); ++i) e.names[i] = f.alias->columns[i];
    e.types = r.resultTypes;
  }
  e.joinColumn.assign(e.names.size(), -1);
  return node;
}

NodePtr StatementPlanner::subqueryItem(const sql::RangeSubquery& r, ScopeEntry& e) {
  std::vector<OutputColumn> columns;
  NodePtr node = planSubquery(*r.subquery, columns);
  e.alias = r.alias->name;
  for (const auto& c : columns) {
    e.names.push_back(c.name);
    e.types.push_back(c.type);
  }
  if (r.alias->columns.size() > e.names.size())
    b_.fail(sqlstate::kInvalidColumnReference,
            fmt::format("table \"{}\" has {} columns available but {} columns specified", e.alias, e.names.size(),
                        r.alias->columns.size()),
            r.location);
  for (size_t i = 0; i < r.alias->columns.size(); ++i) e.names[i] = r.alias->columns[i];
  e.joinColumn.assign(e.names.size(), -1);
  return node;
}

FromPlan StatementPlanner::planFunctionFrom(const sql::RangeFunction& f, const sql::Expr* where) {
  FromPlan fp;
  ScopeEntry e;
  fp.node = functionItem(f, e);
  fp.node->alias = e.alias;
  fp.node->columnNames = e.names;
  fp.scope.width = static_cast<int>(e.types.size());
  fp.scope.entries.push_back(std::move(e));
  if (where) {
    Binder::Clause clause(b_, "WHERE");
    fp.node = filter(std::move(fp.node), b_.coerceToBool(b_.bind(*where, fp.scope), "WHERE", where->location));
  }
  return fp;
}

template <class EntryOf>
NodePtr StatementPlanner::indexJoin(FromPlan& fp, const TableBinding& binding, int offset, std::vector<ExprPtr>& local,
                                    std::vector<ExprPtr>& rest, const EntryOf& entryOf, size_t t, bool outer) {
  Table& table = *binding.table;
  // A value of the left side: it reads columns, all of tables before this one.
  auto fromLeft = [&](const plan::Expr& e) {
    auto [lo, hi] = columnRange(e);
    return lo >= 0 && entryOf(hi) < static_cast<int>(t);
  };
  // The join node under the left side, its rows filtered by the table's other conjuncts.
  auto joinedTo = [&](NodePtr join) {
    join->outputTypes = fp.node->outputTypes;
    std::vector<SqlType> right = tableRowTypes(table);
    join->outputTypes.insert(join->outputTypes.end(), right.begin(), right.end());
    join->children.push_back(std::move(fp.node));
    for (auto& c : local) binder::shiftColumns(*c, offset);
    NodePtr out = filter(std::move(join), conjunction(std::move(local)));
    local.clear();
    return out;
  };
  for (const auto& index : table.indexes()) {
    if (!index->unique()) continue;
    // Per key column: (which list, conjunct, side holding the value).
    std::vector<std::tuple<int, size_t, int>> found;
    for (uint32_t col : index->columns()) {
      TypeId type = table.columns()[col].type.id;
      if (auto m = keyEquality(local, static_cast<int>(col), type, isConstantValue)) {
        found.emplace_back(0, m->first, m->second);
      } else if (auto j = keyEquality(rest, offset + static_cast<int>(col), type, fromLeft)) {
        found.emplace_back(1, j->first, j->second);
      } else {
        break;
      }
    }
    if (found.size() != index->columns().size()) continue;
    if (outer) {
      // Every ON conjunct a key equality: there is no residual condition to match on.
      std::vector<size_t> used;
      for (const auto& [list, i, side] : found)
        if (list == 1) used.push_back(i);
      std::sort(used.begin(), used.end());
      used.erase(std::unique(used.begin(), used.end()), used.end());
      if (!local.empty() || used.size() != rest.size()) continue;
    }
    auto join = std::make_unique<Node>(NodeKind::IndexJoin);
    join->table = &table;
    join->index = index.get();
    join->outer = outer;
    std::vector<size_t> usedLocal, usedRest;
    for (size_t k = 0; k < found.size(); ++k) {
      auto [list, i, side] = found[k];
      std::vector<ExprPtr>& from = list == 0 ? local : rest;
      join->keys.push_back(
          b_.coerce(std::move(from[i]->args[side]), index->keyLayout().types[k], CastContext::Implicit, 0));
      (list == 0 ? usedLocal : usedRest).push_back(i);
    }
    for (auto* used : {&usedLocal, &usedRest}) {
      std::vector<ExprPtr>& from = used == &usedLocal ? local : rest;
      std::sort(used->rbegin(), used->rend());
      used->erase(std::unique(used->begin(), used->end()), used->end());
      for (size_t i : *used) from.erase(from.begin() + i);
    }
    return joinedTo(std::move(join));
  }
  if (outer) return nullptr;
  if (NodePtr join = indexRangeJoin(table, local, rest, offset, fromLeft)) return joinedTo(std::move(join));
  return nullptr;
}

FromPlan StatementPlanner::planFrom(const std::vector<sql::TableRefPtr>& from, const sql::Expr* where) {
  std::vector<const sql::TableRef*> items;
  for (const auto& ref : from) items.push_back(ref.get());
  return planFrom(items, where);
}

FromPlan StatementPlanner::planTargetJoin(const TableBinding& t, const sql::QualifiedName& name,
                                          const std::string& alias, uint32_t location,
                                          const std::vector<sql::TableRefPtr>& items, const sql::Expr* where) {
  sql::RangeTable target(location);
  target.name = name;
  if (!alias.empty()) target.alias = sql::Alias{alias, {}};
  std::vector<const sql::TableRef*> from{&target};
  for (const auto& ref : items) from.push_back(ref.get());
  FromPlan fp = planFrom(from, where, &t);
  auto once = std::make_unique<Node>(NodeKind::Distinct);
  int rowid = static_cast<int>(t.table->columns().size());
  once->exprs.push_back(plan::makeColumn(rowid, {TypeId::Int8, -1}));
  once->outputTypes = fp.node->outputTypes;
  once->children.push_back(std::move(fp.node));
  fp.node = std::move(once);
  return fp;
}

FromPlan StatementPlanner::planFrom(const std::vector<const sql::TableRef*>& from, const sql::Expr* where,
                                    const TableBinding* target) {
  checkStackDepth();
  std::vector<ExprPtr>* lift = std::exchange(correlated_, nullptr);  // for this FROM, not its subqueries'
  if (from.size() == 1 && from[0]->kind == sql::TableRefKind::Function)
    return planFunctionFrom(from[0]->as<sql::RangeFunction>(), where);
  FromItems items;
  for (const auto* ref : from) collectItem(*ref, items, false, sql::JoinType::Inner);
  return joinItems(items, where, target, lift);
}

FromPlan StatementPlanner::joinItems(FromItems& from, const sql::Expr* where, const TableBinding* target,
                                     std::vector<ExprPtr>* lift) {
  FromPlan fp;
  fp.scope.hidden = from.hidden;
  const std::vector<const sql::TableRef*>& tables = from.items;
  std::vector<FromCondition>& conditions = from.conditions;
  const std::vector<MergingJoin>& merging = from.merging;
  const std::vector<JoinStep>& steps = from.steps;
  // WHERE's conjuncts, but for those that become semi or anti joins, or joins with a
  // grouped subquery (unnestAggregate), after the FROM items' joins. Split, each is an
  // "argument of AND" in type errors, as in PostgreSQL.
  struct SubqueryConjunct {
    const sql::Expr* conjunct;
    const sql::SubLink* link;  // null: an aggregate comparison
    plan::SemiJoin kind;
    const char* argumentOf;
  };
  std::vector<SubqueryConjunct> subqueryJoins;
  auto classify = [&](const sql::Expr* c, const char* argumentOf) {
    plan::SemiJoin kind{};
    if (const sql::SubLink* link = tables.empty() ? nullptr : semiJoinLink(*c, kind))
      subqueryJoins.push_back({c, link, kind, argumentOf});
    else if (!tables.empty() && aggregateComparison(*c))
      subqueryJoins.push_back({c, nullptr, kind, argumentOf});
    else
      conditions.push_back({c, kNoDeadline, argumentOf});
  };
  if (where && where->kind == sql::ExprKind::Bool && where->as<sql::BoolExpr>().op == sql::BoolOpKind::And) {
    for (const auto& c : where->as<sql::BoolExpr>().args) classify(c.get(), "AND");
  } else if (where) {
    classify(where, "WHERE");
  }
  if (tables.empty()) {
    auto values = std::make_unique<Node>(NodeKind::Values);
    values->rows.emplace_back();
    fp.node = std::move(values);
    std::vector<ExprPtr> conjuncts;
    Binder::Clause clause(b_, "WHERE");
    for (const auto& c : conditions)
      splitConjuncts(b_.coerceToBool(b_.bind(*c.expr, fp.scope), "WHERE", c.expr->location), conjuncts);
    fp.node = filter(std::move(fp.node), conjunction(std::move(conjuncts)));
    return fp;
  }
  // Per item: its table, or null for a function or subquery, whose rows its plan (made
  // here) computes once per statement; joins then treat them as a table's. A function or
  // LATERAL subquery that reads the items before it is planned as a subquery correlated
  // with them (`lateral`: what it reads of them), run again per row of their join.
  std::vector<const TableBinding*> bound;
  std::vector<NodePtr> functionScans;
  std::vector<std::vector<ExprPtr>> lateral(tables.size());
  auto maybeLateral = [&](size_t item, const std::function<NodePtr()>& planItem) {
    if (fp.scope.entries.empty()) return planItem();
    NodePtr node;
    lateral[item] = b_.correlated(fp.scope, [&] { node = planItem(); });
    return node;
  };
  // Item t's scope entries start at itemEntry[t], its columns at itemOffset[t]: one entry,
  // or a join unit's several.
  std::vector<size_t> itemEntry;
  std::vector<int> itemOffset, itemWidth;
  auto checkAlias = [&](const std::string& alias, size_t before, uint32_t location) {
    for (size_t i = 0; i < before; ++i)
      if (fp.scope.entries[i].alias == alias)
        b_.fail(sqlstate::kDuplicateAlias, fmt::format("table name \"{}\" specified more than once", alias), location);
  };
  for (const auto* ref : tables) {
    ScopeEntry entry;
    const TableBinding* tb = nullptr;
    functionScans.emplace_back();
    size_t item = bound.size();
    itemEntry.push_back(fp.scope.entries.size());
    itemOffset.push_back(fp.scope.width);
    if (ref->kind == sql::TableRefKind::Join) {
      functionScans.back() = joinUnitItem(ref->as<sql::JoinRef>(), fp.scope);
      for (size_t i = itemEntry.back(); i < fp.scope.entries.size(); ++i)
        checkAlias(fp.scope.entries[i].alias, itemEntry.back(), ref->location);
      itemWidth.push_back(fp.scope.width - itemOffset.back());
      bound.push_back(nullptr);
      continue;
    }
    if (ref->kind == sql::TableRefKind::Function) {
      functionScans.back() = maybeLateral(item, [&] { return functionItem(ref->as<sql::RangeFunction>(), entry); });
    } else if (ref->kind == sql::TableRefKind::Subquery) {
      const auto& sub = ref->as<sql::RangeSubquery>();
      functionScans.back() =
          sub.lateral ? maybeLateral(item, [&] { return subqueryItem(sub, entry); }) : subqueryItem(sub, entry);
    } else if (target && item == 0) {
      tb = target;
      const auto& alias = ref->as<sql::RangeTable>().alias;
      entry = entryFor(*tb, alias ? alias->name : std::string(), 0);
    } else if (size_t frame = 0; const sql::CommonTableExpr* cte = findWith(ref->as<sql::RangeTable>().name, frame)) {
      functionScans.back() = withItem(frame, *cte, ref->as<sql::RangeTable>().alias, ref->location, entry);
    } else {
      const auto& t = ref->as<sql::RangeTable>();
      tb = &resolve(t.name);
      if (tb->view) {
        functionScans.back() = viewItem(*tb, t.alias, ref->location, entry);
        tb = nullptr;
      } else {
        entry = entryFor(*tb, t.alias ? t.alias->name : std::string(), 0);
      }
    }
    // It runs per row of the items before it, so only they can be the preserved side.
    if (!lateral[item].empty() &&
        (steps[item].type == sql::JoinType::Right || steps[item].type == sql::JoinType::Full)) {
      int column = columnRange(*lateral[item][0]).first;
      std::string read;
      for (const auto& e : fp.scope.entries)
        if (column >= e.offset && column < e.offset + static_cast<int>(e.names.size())) read = e.alias;
      b_.fail(sqlstate::kInvalidColumnReference,
              fmt::format("invalid reference to FROM-clause entry for table \"{}\"", read), ref->location,
              "The combining JOIN type must be INNER or LEFT for a LATERAL reference.", {});
    }
    checkAlias(entry.alias, fp.scope.entries.size(), ref->location);
    if (NodePtr& item = functionScans.back()) {  // EXPLAIN's names for it
      item->alias = entry.alias;
      item->columnNames = entry.names;
    }
    entry.offset = fp.scope.width;
    fp.scope.width += static_cast<int>(entry.names.size());
    itemWidth.push_back(static_cast<int>(entry.names.size()));
    fp.scope.entries.push_back(std::move(entry));
    bound.push_back(tb);
  }
  itemEntry.push_back(fp.scope.entries.size());
  size_t n = tables.size();
  // The conjuncts of each outer join's ON; those of inner joins and WHERE, with deadlines.
  std::vector<std::vector<ExprPtr>> onConjuncts(n);
  std::vector<std::pair<ExprPtr, size_t>> conjuncts;
  // Numbered after the join units' own (SELECT * lists later joins' columns first).
  int joinBase = static_cast<int>(fp.scope.joinColumns.size());
  for (size_t i = 0; i < merging.size(); ++i) {
    std::vector<ExprPtr> equalities;
    const MergingJoin& m = merging[i];
    MergingJoin entries{m.join, itemEntry[m.leftBegin], itemEntry[m.rightBegin], itemEntry[m.rightEnd]};
    mergeJoinColumns(fp.scope, entries, joinBase + static_cast<int>(i), equalities);
    size_t right = merging[i].rightBegin;
    bool outer = steps[right].type != sql::JoinType::Inner;
    for (auto& e : equalities) {
      if (outer)
        onConjuncts[right].push_back(std::move(e));
      else
        conjuncts.emplace_back(std::move(e), merging[i].rightEnd - 1);
    }
  }
  // PostgreSQL names the clause "WHERE", "AND" or "JOIN/ON" in type errors, and "JOIN
  // conditions" when refusing an aggregate in ON.
  auto bindCondition = [&](const sql::Expr& c, const char* argumentOf, std::vector<ExprPtr>& out) {
    bool on = std::string_view(argumentOf) == "JOIN/ON";
    Binder::Clause clause(b_, on ? "JOIN conditions" : "WHERE");
    ExprPtr e = b_.bind(c, fp.scope);
    std::vector<ExprPtr> conjuncts;
    splitConjuncts(b_.coerceToBool(std::move(e), argumentOf, c.location), conjuncts);
    for (auto& conjunct : conjuncts) splitConjuncts(factorOr(std::move(conjunct), b_.paramClasses()), out);
  };
  for (const auto& c : conditions) {
    std::vector<ExprPtr> split;
    bindCondition(*c.expr, c.argumentOf, split);
    for (auto& e : split) conjuncts.emplace_back(std::move(e), c.deadline);
  }
  for (size_t t = 0; t < n; ++t)
    if (steps[t].on) bindCondition(*steps[t].on, "JOIN/ON", onConjuncts[t]);
  // Which item a column belongs to.
  auto itemOf = [&](int column) {
    for (size_t t = 0; t < n; ++t)
      if (column >= itemOffset[t] && column < itemOffset[t] + itemWidth[t]) return static_cast<int>(t);
    return -1;
  };
  // The latest outer join, up to step `deadline`, that makes item `e`'s columns NULL: a
  // LEFT JOIN its own item's, a RIGHT JOIN those of every item before it, a FULL JOIN
  // both. -1: none.
  auto nulledAt = [&](int e, size_t deadline) {
    int latest = -1;
    for (size_t u = 0; u < n && u <= deadline; ++u) {
      bool nulls = (steps[u].type == sql::JoinType::Left && static_cast<int>(u) == e) ||
                   (steps[u].type == sql::JoinType::Right && e < static_cast<int>(u)) ||
                   (steps[u].type == sql::JoinType::Full && e <= static_cast<int>(u));
      if (nulls) latest = static_cast<int>(u);
    }
    return latest;
  };
  // Where each conjunct applies: in one item's scan when it reads that item alone and
  // no outer join makes the item NULL before the conjunct's deadline; else at the first
  // join step whose rows hold its columns after every outer join that nulls them (after
  // the join of that step: an outer join's own ON decides its matches instead).
  std::vector<std::vector<ExprPtr>> local(n), atStep(n);
  std::vector<ExprPtr> top;
  for (auto& [c, deadline] : conjuncts) {
    // A subquery planned as a semi join's build side: its WHERE conjuncts that read the
    // outer query become the join's condition.
    if (lift && deadline == kNoDeadline && readsOuter(*c)) {
      lift->push_back(std::move(c));
      continue;
    }
    auto [lo, hi] = columnRange(*c);
    if (lo < 0) {
      (deadline == kNoDeadline ? top : atStep[deadline]).push_back(std::move(c));
      continue;
    }
    int first = itemOf(lo), last = itemOf(hi);
    int nulled = -1;
    for (int e = first; e <= last; ++e) nulled = std::max(nulled, nulledAt(e, deadline));
    if (first == last && nulled < 0) {
      binder::shiftColumns(*c, -itemOffset[first]);
      local[first].push_back(std::move(c));
    } else {
      // What an OR of WHERE requires of each item that no outer join makes NULL filters
      // that item's scan too.
      for (int e = first; deadline == kNoDeadline && e <= last; ++e)
        if (nulledAt(e, kNoDeadline) < 0)
          if (ExprPtr restriction = orRestriction(*c, itemOffset[e], itemOffset[e] + itemWidth[e])) {
            binder::shiftColumns(*restriction, -itemOffset[e]);
            local[e].push_back(std::move(restriction));
          }
      atStep[std::max(last, nulled)].push_back(std::move(c));
    }
  }
  // A LEFT JOIN's ON conjuncts that read its own item alone filter that item's scan.
  for (size_t t = 0; t < n; ++t) {
    if (steps[t].type != sql::JoinType::Left) continue;
    std::vector<ExprPtr> keep;
    for (auto& c : onConjuncts[t]) {
      auto [lo, hi] = columnRange(*c);
      if (lo >= 0 && itemOf(lo) == static_cast<int>(t) && itemOf(hi) == static_cast<int>(t)) {
        binder::shiftColumns(*c, -itemOffset[t]);
        local[t].push_back(std::move(c));
      } else {
        keep.push_back(std::move(c));
      }
    }
    onConjuncts[t] = std::move(keep);
  }
  // WHERE's subqueries as semi and anti joins (semi joins first: they only drop outer
  // rows). One whose outer side reads a single item, which no outer join makes NULL, and
  // that is estimated to keep less than half of it filters that item before the joins, so
  // that the join order sees the smaller item (CH Q20's stock of a few items, TPC-H Q18's
  // few orders); the others filter the joined rows.
  std::stable_partition(subqueryJoins.begin(), subqueryJoins.end(),
                        [](const SubqueryConjunct& s) { return s.link != nullptr; });
  std::vector<SemiJoinPlan> semiJoins(subqueryJoins.size());
  std::vector<double> semiShare(subqueryJoins.size(), 1), itemShare(n, 1);
  std::vector<std::vector<size_t>> itemSemiJoins(n);
  std::vector<bool> pushedDown(subqueryJoins.size(), false);
  for (size_t i = 0; i < subqueryJoins.size() && subqueryJoins[i].link; ++i) {
    const SubqueryConjunct& s = subqueryJoins[i];
    SemiJoinPlan& planned = semiJoins[i] = planSemiJoin(fp.scope, fp.scope.width, *s.link, s.kind);
    if (!planned.join) continue;
    Node& join = *planned.join;
    // Outer keys that cover a unique key of an item: each subquery row matches one of its
    // rows at most.
    double keyShare = planned.innerKeyShare;
    for (size_t t = 0; t < n; ++t)
      if (bound[t] && keysCoverUniqueIndex(*bound[t]->table, join.rightKeys, itemOffset[t]))
        keyShare = std::min(keyShare < 0 ? 1.0 : keyShare,
                            planned.innerRows / std::max<double>(1, bound[t]->table->liveRowCount()));
    semiShare[i] = keyShare < 0 ? 0.5 : s.kind == plan::SemiJoin::Semi ? keyShare : 1 - keyShare;
    int first = static_cast<int>(n), last = -1;
    std::function<void(const plan::Expr&)> readOuter = [&](const plan::Expr& e) {
      if (e.kind == ExprKind::Column && e.column < fp.scope.width) {
        first = std::min(first, itemOf(e.column));
        last = std::max(last, itemOf(e.column));
      }
      for (const auto& a : e.args) readOuter(*a);
    };
    for (const auto& key : join.rightKeys) readOuter(*key);
    if (join.predicate) readOuter(*join.predicate);
    if (n > 1 && first == last && nulledAt(first, n - 1) < 0 && semiShare[i] < 0.5) {
      moveSemiJoinColumns(join, fp.scope.width, -itemOffset[first], itemWidth[first]);
      itemSemiJoins[first].push_back(i);
      itemShare[first] *= semiShare[i];
      pushedDown[i] = true;
    }
  }
  // The join order: FROM order where an outer join fixes it, else greedy by estimated
  // sizes (join_order.h). Items are joined in that order, their columns laid out in it,
  // and a projection puts them back in FROM order, as the scope binds them.
  bool innerOnly =
      n <= 64 &&
      std::all_of(steps.begin(), steps.end(), [](const JoinStep& s) { return s.type == sql::JoinType::Inner; }) &&
      std::all_of(lateral.begin(), lateral.end(), [](const auto& reads) { return reads.empty(); }) &&
      itemEntry.back() == n;  // each item one scope entry, as chooseJoinOrder reads them
  std::vector<double> itemRows(n, 0);
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::vector<double> joinedRows;
  if (innerOnly && n > 2) addImpliedEqualities(atStep, itemOf);
  if (innerOnly && n > 1) {
    JoinOrder chosen = chooseJoinOrder(fp.scope, bound, local, atStep, itemShare, itemRows);
    order = std::move(chosen.items);
    joinedRows = std::move(chosen.sizes);
  }
  std::vector<size_t> position(n);
  std::vector<int> offset(n);
  for (size_t p = 0, at = 0; p < n; ++p) {
    position[order[p]] = p;
    offset[order[p]] = static_cast<int>(at);
    at += itemWidth[order[p]];
  }
  bool moved = !std::is_sorted(order.begin(), order.end());
  if (moved) {
    // Each join conjunct applies once all the items it reads are joined.
    std::vector<std::vector<ExprPtr>> byPosition(n);
    for (size_t t = 0; t < n; ++t)
      for (auto& c : atStep[t]) {
        uint64_t items = itemsRead(fp.scope, *c);
        size_t p = position[t];
        if (items) {
          p = 0;
          for (size_t i = 0; i < n; ++i)
            if ((items >> i) & 1) p = std::max(p, position[i]);
        }
        relayColumns(fp.scope, offset, *c);
        byPosition[p].push_back(std::move(c));
      }
    atStep = std::move(byPosition);
  }
  // The item a column of the join row belongs to, by its position in the order.
  auto positionOf = [&](int column) {
    for (size_t p = 0; p < n; ++p) {
      int item = order[p];
      if (column >= offset[item] && column < offset[item] + itemWidth[item]) return static_cast<int>(p);
    }
    return -1;
  };
  for (size_t p = 0; p < n; ++p) {
    size_t t = order[p];
    bool outer = steps[t].type != sql::JoinType::Inner;
    // A LEFT JOIN's right table too, when its ON conjuncts are all key equalities
    // (HammerDB's NEWORD: FROM UNNEST(items) LEFT JOIN item ON i_id = item_id).
    const bool leftOuter = outer && steps[t].type == sql::JoinType::Left;
    if (p > 0 && bound[t] && (!outer || leftOuter)) {
      if (NodePtr joined =
              indexJoin(fp, *bound[t], offset[t], local[t], outer ? onConjuncts[t] : atStep[p], positionOf, p, outer)) {
        Node* probe = joined->kind == NodeKind::Filter ? joined->children[0].get() : joined.get();
        probe->alias = fp.scope.entries[itemEntry[t]].alias;
        if (!joinedRows.empty()) probe->estimatedRows = joinedRows[p] / itemShare[t];
        fp.node = filter(std::move(joined), conjunction(std::move(atStep[p])));
        int width = static_cast<int>(fp.node->outputTypes.size());
        for (size_t i : itemSemiJoins[t]) {
          moveSemiJoinColumns(*semiJoins[i].join, itemWidth[t], offset[t], width);
          attachSemiJoin(fp.node, std::move(semiJoins[i].join), semiShare[i]);
        }
        continue;
      }
    }
    NodePtr scan = bound[t] ? accessPath(*bound[t], local[t], b_) : std::move(functionScans[t]);
    if (bound[t]) scan->alias = fp.scope.entries[itemEntry[t]].alias;
    scan = filter(std::move(scan), conjunction(std::move(local[t])));
    for (size_t i : itemSemiJoins[t]) attachSemiJoin(scan, std::move(semiJoins[i].join), semiShare[i]);
    if (p == 0) {
      fp.node = filter(std::move(scan), conjunction(std::move(atStep[0])));
      continue;
    }
    if (!lateral[t].empty()) {
      fp.node = lateralJoin(std::move(fp.node), std::move(scan), std::move(lateral[t]), steps[t].type,
                            outer ? onConjuncts[t] : atStep[p]);
      if (outer) fp.node = filter(std::move(fp.node), conjunction(std::move(atStep[p])));
      continue;
    }
    // The smaller side, as estimated, is the hash table (inner joins).
    bool buildRight = !joinedRows.empty() && itemRows[t] < joinedRows[p - 1];
    fp.node = joinStep(std::move(fp.node), std::move(scan), offset[t], steps[t].type,
                       outer ? onConjuncts[t] : atStep[p], buildRight);
    if (!joinedRows.empty()) fp.node->estimatedRows = joinedRows[p];
    if (outer) fp.node = filter(std::move(fp.node), conjunction(std::move(atStep[p])));
  }
  if (moved) {
    std::vector<ExprPtr> fromOrder;
    for (size_t t = 0; t < n; ++t)
      for (size_t e = itemEntry[t], at = 0; e < itemEntry[t + 1]; ++e)
        for (const SqlType& type : fp.scope.entries[e].types)
          fromOrder.push_back(plan::makeColumn(offset[t] + static_cast<int>(at++), type));
    fp.node = project(std::move(fp.node), std::move(fromOrder));
  }
  for (size_t i = 0; i < subqueryJoins.size(); ++i) {
    const SubqueryConjunct& s = subqueryJoins[i];
    if (pushedDown[i]) continue;
    if (s.link && semiJoins[i].join) {
      attachSemiJoin(fp.node, std::move(semiJoins[i].join), semiShare[i]);
      continue;
    }
    if (!s.link && unnestAggregate(fp, *s.conjunct)) continue;
    std::vector<ExprPtr> bound;
    bindCondition(*s.conjunct, s.argumentOf, bound);
    fp.node = filter(std::move(fp.node), conjunction(std::move(bound)));
  }
  fp.node = filter(std::move(fp.node), conjunction(std::move(top)));
  return fp;
}

void StatementPlanner::addImpliedEqualities(std::vector<std::vector<ExprPtr>>& atStep,
                                            const std::function<int(int)>& itemOf) {
  // Columns joined by equalities of plain columns of one type, as classes (union-find).
  std::map<int, int> parent;
  std::function<int(int)> find = [&](int c) {
    auto it = parent.try_emplace(c, c).first;
    return it->second == c ? c : it->second = find(it->second);
  };
  std::set<std::pair<int, int>> linked;  // items an equality of a class already joins
  std::map<int, SqlType> types;
  for (const auto& conjuncts : atStep)
    for (const auto& c : conjuncts) {
      if (c->kind != ExprKind::Compare || c->op != plan::Op::Eq) continue;
      const plan::Expr& a = *c->args[0];
      const plan::Expr& b = *c->args[1];
      if (a.kind != ExprKind::Column || b.kind != ExprKind::Column || a.type.id != b.type.id) continue;
      int ia = itemOf(a.column), ib = itemOf(b.column);
      if (ia == ib) continue;
      parent[find(a.column)] = find(b.column);
      types[a.column] = a.type;
      types[b.column] = b.type;
      linked.insert({std::min(ia, ib), std::max(ia, ib)});
    }
  std::map<int, std::vector<int>> classes;
  for (const auto& [column, type] : types) classes[find(column)].push_back(column);
  for (const auto& [root, columns] : classes)
    for (size_t i = 0; i < columns.size(); ++i)
      for (size_t j = i + 1; j < columns.size(); ++j) {
        int ia = itemOf(columns[i]), ib = itemOf(columns[j]);
        if (ia == ib || !linked.insert({std::min(ia, ib), std::max(ia, ib)}).second) continue;
        atStep[static_cast<size_t>(std::max(ia, ib))].push_back(
            b_.compare(plan::Op::Eq, plan::makeColumn(columns[i], types[columns[i]]),
                       plan::makeColumn(columns[j], types[columns[j]]), 0));
      }
}

NodePtr StatementPlanner::joinStep(NodePtr left, NodePtr right, int rightOffset, sql::JoinType type,
                                   std::vector<ExprPtr>& conditions, bool buildRight) {
  auto join = std::make_unique<Node>(NodeKind::HashJoin);
  std::vector<ExprPtr> leftKeys, rightKeys, residual;
  splitJoinKeys(conditions, rightOffset, leftKeys, rightKeys, residual);
  join->outer = type != sql::JoinType::Inner;
  join->predicate = conjunction(std::move(residual));
  join->outputTypes = left->outputTypes;
  join->outputTypes.insert(join->outputTypes.end(), right->outputTypes.begin(), right->outputTypes.end());
  // children[1] probes a hash join's table of children[0]; children[0] drives a nested
  // loop over children[1]. The preserved side of an outer join must drive.
  bool hash = !leftKeys.empty();
  if (type == sql::JoinType::Full && !hash)
    throw SqlError(sqlstate::kFeatureNotSupported,
                   "FULL JOIN is only supported with merge-joinable or hash-joinable join conditions");
  // FULL JOIN: the left side is built and its unmatched rows follow the probe.
  join->keepBuildSide = type == sql::JoinType::Full;
  bool leftIsFirstChild = hash ? type != sql::JoinType::Left && !(type == sql::JoinType::Inner && buildRight)
                               : type != sql::JoinType::Right;
  if (hash) {
    join->exprs = std::move(leftIsFirstChild ? leftKeys : rightKeys);
    join->rightKeys = std::move(leftIsFirstChild ? rightKeys : leftKeys);
  } else {
    join->kind = NodeKind::NestedLoopJoin;
  }
  join->rightFirst = !leftIsFirstChild;
  join->children.push_back(leftIsFirstChild ? std::move(left) : std::move(right));
  join->children.push_back(leftIsFirstChild ? std::move(right) : std::move(left));
  return join;
}

NodePtr StatementPlanner::lateralJoin(NodePtr left, NodePtr right, std::vector<ExprPtr> reads, sql::JoinType type,
                                      std::vector<ExprPtr>& conditions) {
  auto join = std::make_unique<Node>(NodeKind::NestedLoopJoin);
  join->outer = type == sql::JoinType::Left;
  join->exprs = std::move(reads);
  join->predicate = conjunction(std::move(conditions));
  join->outputTypes = left->outputTypes;
  join->outputTypes.insert(join->outputTypes.end(), right->outputTypes.begin(), right->outputTypes.end());
  join->children.push_back(std::move(left));
  join->children.push_back(std::move(right));
  return join;
}

}  // namespace duet::planner
