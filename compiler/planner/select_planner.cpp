// SELECT: the target list, aggregation, DISTINCT, ORDER BY, LIMIT; and VALUES lists.
#include "compiler/planner/statement_planner.h"

#include <fmt/format.h>
#include <algorithm>
#include <charconv>

#include "compiler/planner/index_order.h"
#include "compiler/planner/plan_building.h"
#include "engine/error.h"
#include "engine/limits/interrupts.h"
#include "engine/limits/stack_depth.h"
#include "engine/storage/table.h"
#include "engine/types/text_functions.h"

namespace duet::planner {

NodePtr StatementPlanner::planSubquery(const sql::SelectStmt& s, std::vector<OutputColumn>& columns,
                                       bool resolveUnknowns) {
  bool resolve = resolveUnknowns_;
  resolveUnknowns_ = resolveUnknowns;
  auto* setReturning = b_.collectSetReturning(nullptr);  // the enclosing select list's
  NodePtr node = planSelect(s, columns);
  b_.collectSetReturning(setReturning);
  resolveUnknowns_ = resolve;
  return node;
}

std::vector<int> StatementPlanner::joinColumnsListedAt(const Scope& scope, int entry) {
  std::vector<int> listed;
  for (size_t j = 0; j < scope.joinColumns.size(); ++j) {
    const binder::JoinColumn& jc = scope.joinColumns[j];
    if (jc.firstEntry == entry && jc.mergedInto < 0) listed.push_back(static_cast<int>(j));
  }
  std::stable_sort(listed.begin(), listed.end(),
                   [&](int a, int b) { return scope.joinColumns[a].join > scope.joinColumns[b].join; });
  return listed;
}

ExprPtr StatementPlanner::starColumn(const ScopeEntry& e, size_t c, binder::AggContext* agg, uint32_t location) {
  ExprPtr column = plan::makeColumn(e.offset + static_cast<int>(c), e.types[c]);
  if (!agg) return column;
  for (size_t g = 0; g < agg->groupExprs.size(); ++g)
    if (binder::exprEquals(*column, *agg->groupExprs[g], &b_.paramClasses()))
      return plan::makeColumn(static_cast<int>(g), column->type);
  b_.fail(sqlstate::kGroupingError,
          fmt::format("column \"{}.{}\" must appear in the GROUP BY clause or be used in an aggregate function",
                      e.alias, e.names[c]),
          location);
}

void StatementPlanner::starEntryColumns(const Scope& scope, size_t i, bool qualified, binder::AggContext* agg,
                                        uint32_t location, std::vector<ExprPtr>& exprs,
                                        std::vector<OutputColumn>& columns, std::string* spelled) {
  auto spell = [&](const std::string& reference) {
    if (spelled) *spelled += (spelled->empty() ? "" : ", ") + reference;
  };
  const ScopeEntry& e = scope.entries[i];
  // Unqualified, USING/NATURAL join columns come first in their join (outer joins before
  // inner ones) and stand for the columns they merge; t.* lists t's own.
  if (!qualified) {
    for (int j : joinColumnsListedAt(scope, static_cast<int>(i))) {
      const binder::JoinColumn& jc = scope.joinColumns[j];
      exprs.push_back(plan::cloneExpr(*jc.value));
      columns.push_back({jc.name, jc.value->type});
      spell(quoteIdent(jc.name));
    }
  }
  for (size_t c = 0; c < e.names.size(); ++c) {
    if (e.names[c].empty() || (!qualified && e.joinColumn[c] >= 0)) continue;
    exprs.push_back(starColumn(e, c, agg, location));
    columns.push_back({e.names[c], e.types[c], e.table ? e.table->oid : 0, static_cast<int16_t>(c + 1)});
    spell(quoteIdent(e.alias) + "." + quoteIdent(e.names[c]));
  }
}

void StatementPlanner::expandTargets(const std::vector<sql::ResTarget>& targets, const Scope& scope,
                                     binder::AggContext* agg, std::vector<ExprPtr>& exprs,
                                     std::vector<OutputColumn>& columns) {
  for (const auto& t : targets) {
    if (t.expr->kind == sql::ExprKind::ColumnRef && t.expr->as<sql::ColumnRef>().star) {
      const auto& ref = t.expr->as<sql::ColumnRef>();
      bool any = false;
      bool qualified = !ref.names.empty();
      std::string spelled;  // the columns as references, for req_.noteStar
      for (size_t i = 0; i < scope.entries.size(); ++i) {
        if (qualified && scope.entries[i].alias != ref.names.back()) continue;
        any = true;
        starEntryColumns(scope, i, qualified, agg, t.location, exprs, columns, &spelled);
      }
      if (!any && !ref.names.empty())
        b_.fail(sqlstate::kUndefinedTable, fmt::format("missing FROM-clause entry for table \"{}\"", ref.names.back()),
                t.location);
      if (!any) b_.fail(sqlstate::kSyntaxError, "SELECT * with no tables specified is not valid", t.location);
      if (req_.noteStar && expandingViews_.empty()) req_.noteStar(t.location, spelled);
      continue;
    }
    if (t.expr->kind == sql::ExprKind::FieldSelect && t.expr->as<sql::FieldSelect>().star) {
      for (auto& [name, field] : b_.expandFields(t.expr->as<sql::FieldSelect>(), scope, agg)) {
        columns.push_back({name, field->type});
        exprs.push_back(std::move(field));
      }
      continue;
    }
    ExprPtr e = b_.bind(*t.expr, scope, agg);
    if (e->type.id == TypeId::Unknown && resolveUnknowns_)
      e = b_.coerce(std::move(e), {TypeId::Text, -1}, CastContext::Implicit, t.location);
    OutputColumn col{t.alias.empty() ? Binder::targetName(*t.expr) : t.alias, e->type};
    if (e->kind == ExprKind::Column && !agg) {
      for (const auto& se : scope.entries) {
        int c = e->column - se.offset;
        if (se.table && c >= 0 && c < static_cast<int>(se.names.size())) {
          col.tableOid = se.table->oid;
          col.attnum = static_cast<int16_t>(c + 1);
        }
      }
    }
    exprs.push_back(std::move(e));
    columns.push_back(col);
  }
}

NodePtr StatementPlanner::planSelect(const sql::SelectStmt& s, std::vector<OutputColumn>& columns) {
  checkStackDepth();
  checkForInterrupts();
  WithGuard withScope{with_, with_.size()};
  if (!s.with.empty()) pushWith(s, s);
  // Window calls are this query's only where it collects them (not an enclosing query's).
  Binder::CollectWindows noWindows(b_, nullptr);
  binder::WindowContext windows;
  windows.named = &s.windows;
  NodePtr node;
  std::vector<ExprPtr> targets;
  std::vector<plan::SortKey> orderExprs;
  std::vector<int> distinctOn;  // DISTINCT ON: the key columns among the targets
  Scope scope;
  binder::AggContext aggCtx;
  binder::AggContext* agg = nullptr;
  if (s.body == sql::SelectStmt::Body::Values) {
    node = planValues(s.values, {}, columns);
  } else if (s.body == sql::SelectStmt::Body::SetOp) {
    node = planSetOp(s, columns);
    orderExprs = setOpOrder(s, columns);
  } else {
    FromPlan fp = planFrom(s.from, s.where.get());
    node = std::move(fp.node);
    scope = std::move(fp.scope);
    bool aggregating = !s.groupBy.empty() || (s.having != nullptr);
    for (const auto& t : s.targets) aggregating = aggregating || Binder::containsAggregate(*t.expr);
    for (const auto& o : s.orderBy) aggregating = aggregating || Binder::containsAggregate(*o.expr);
    std::vector<std::vector<int>> groupingSets;
    if (aggregating) {
      agg = &aggCtx;
      groupingSets = bindGroupBy(s, scope, aggCtx);
    }
    // Set-returning functions among the targets (not over an aggregation) add a ProjectSet
    // node below the projection, whose last columns their calls stand for.
    binder::Binder::SetReturningCall setReturning{static_cast<int>(node->outputTypes.size()), {}};
    auto* outerSetReturning = b_.collectSetReturning(aggregating ? nullptr : &setReturning);
    {
      Binder::CollectWindows collect(b_, &windows);
      expandTargets(s.targets, scope, agg, targets, columns);
    }
    b_.collectSetReturning(outerSetReturning);
    if (!setReturning.calls.empty()) {
      auto ps = std::make_unique<Node>(NodeKind::ProjectSet);
      ps->outputTypes = node->outputTypes;
      for (const auto& call : setReturning.calls) ps->outputTypes.push_back(call->type);
      ps->exprs = std::move(setReturning.calls);
      ps->children.push_back(std::move(node));
      node = std::move(ps);
    }
    if (aggregating) {
      ExprPtr having;
      if (s.having) {
        Binder::Clause clause(b_, "HAVING");
        having = b_.coerceToBool(b_.bind(*s.having, scope, agg), "HAVING", s.having->location);
      }
      // ORDER BY expressions may add aggregates: bind them before building the node.
      {
        Binder::CollectWindows collect(b_, &windows);
        orderExprs = bindOrderBy(s, scope, agg, targets, columns);
        if (!s.distinctOn.empty()) distinctOn = bindDistinctOn(s, scope, agg, targets, columns, orderExprs);
      }
      auto a = std::make_unique<Node>(NodeKind::Aggregate);
      for (const auto& g : aggCtx.groupExprs) a->outputTypes.push_back(g->type);
      for (const auto& sp : aggCtx.aggs) a->outputTypes.push_back(sp.resultType);
      a->exprs = std::move(aggCtx.groupExprs);
      a->aggs = std::move(aggCtx.aggs);
      a->groupingSets = std::move(groupingSets);
      a->children.push_back(std::move(node));
      planner::minMaxFromIndex(*a);
      node = filter(std::move(a), std::move(having));
    } else {
      Binder::CollectWindows collect(b_, &windows);
      orderExprs = bindOrderBy(s, scope, nullptr, targets, columns);
      if (!s.distinctOn.empty()) distinctOn = bindDistinctOn(s, scope, nullptr, targets, columns, orderExprs);
    }
    if (!windows.calls.empty()) node = planWindows(std::move(node), windows, targets);
    node = project(std::move(node), std::move(targets));
  }
  if (s.body == sql::SelectStmt::Body::Values) orderExprs = valuesOrder(s, columns);
  size_t visible = columns.size();
  if (!distinctOn.empty()) {
    // DISTINCT ON: sorted, then the first row of each distinct key.
    auto sort = std::make_unique<Node>(NodeKind::Sort);
    sort->outputTypes = node->outputTypes;
    sort->sortKeys = std::move(orderExprs);
    sort->children.push_back(std::move(node));
    auto d = std::make_unique<Node>(NodeKind::Distinct);
    d->outputTypes = sort->outputTypes;
    for (int k : distinctOn) d->exprs.push_back(plan::makeColumn(k, d->outputTypes[k]));
    d->children.push_back(std::move(sort));
    node = std::move(d);
    orderExprs.clear();
  } else if (s.distinct) {
    for (size_t c = 0; c < visible; ++c)
      requireKeyOperator(node->outputTypes[c], false, c < s.targets.size() ? s.targets[c].expr->location : s.begin);
    if (node->outputTypes.size() > visible)
      b_.fail(sqlstate::kInvalidColumnReference, "for SELECT DISTINCT, ORDER BY expressions must appear in select list",
              s.begin);
    auto d = std::make_unique<Node>(NodeKind::Distinct);
    d->outputTypes = node->outputTypes;
    d->children.push_back(std::move(node));
    node = std::move(d);
  }
  if (!orderExprs.empty()) {
    auto sort = std::make_unique<Node>(NodeKind::Sort);
    sort->outputTypes = node->outputTypes;
    sort->sortKeys = std::move(orderExprs);
    sort->children.push_back(std::move(node));
    node = planner::sortFromIndex(std::move(sort), s.limit != nullptr);
  }
  if (s.limit || s.offset) {
    auto l = std::make_unique<Node>(NodeKind::Limit);
    l->outputTypes = node->outputTypes;
    Scope none;
    SqlType i8{TypeId::Int8, -1};
    Binder::Clause clause(b_, "LIMIT");
    if (s.limit) l->limit = b_.coerce(b_.bind(*s.limit, none), i8, CastContext::Implicit, s.limit->location);
    Binder::Clause offsetClause(b_, "OFFSET");
    if (s.offset) l->offset = b_.coerce(b_.bind(*s.offset, none), i8, CastContext::Implicit, s.offset->location);
    l->children.push_back(std::move(node));
    node = std::move(l);
  }
  if (node->outputTypes.size() > visible) {
    std::vector<ExprPtr> keep;
    for (size_t c = 0; c < visible; ++c) keep.push_back(plan::makeColumn(static_cast<int>(c), node->outputTypes[c]));
    node = project(std::move(node), std::move(keep));
  }
  return node;
}

bool StatementPlanner::hasColumn(const Scope& scope, const std::string& name) {
  for (const auto& e : scope.entries)
    for (const auto& n : e.names)
      if (n == name) return true;
  return false;
}

std::vector<plan::SortKey> StatementPlanner::valuesOrder(const sql::SelectStmt& s,
                                                         const std::vector<OutputColumn>& columns) {
  std::vector<plan::SortKey> keys;
  for (const auto& o : s.orderBy) {
    if (o.expr->kind != sql::ExprKind::Literal)
      b_.fail(sqlstate::kFeatureNotSupported, "ORDER BY on VALUES supports positions only", o.expr->location);
    keys.push_back(sortKey(o, static_cast<int>(positionIndex(*o.expr, columns.size(), "ORDER BY"))));
  }
  return keys;
}

size_t StatementPlanner::positionIndex(const sql::Expr& e, size_t count, const char* clause) {
  const sql::Literal& lit = e.as<sql::Literal>();
  const std::string& text = lit.text;
  int64_t pos = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), pos);
  if (lit.literal != sql::LiteralKind::Integer || ec != std::errc() || end != text.data() + text.size() ||
      pos < INT32_MIN || pos > INT32_MAX)
    b_.fail(sqlstate::kSyntaxError, fmt::format("non-integer constant in {}", clause), e.location);
  if (pos < 1 || static_cast<uint64_t>(pos) > count)
    b_.fail(sqlstate::kInvalidColumnReference, fmt::format("{} position {} is not in select list", clause, pos),
            e.location);
  return static_cast<size_t>(pos - 1);
}

plan::SortKey StatementPlanner::sortKey(const sql::SortBy& o, int column) {
  plan::SortKey k;
  k.column = column;
  k.descending = o.dir == sql::SortDir::Desc;
  k.nullsFirst = o.nulls == sql::NullsOrder::Default ? k.descending : o.nulls == sql::NullsOrder::First;
  return k;
}

std::vector<plan::SortKey> StatementPlanner::bindOrderBy(const sql::SelectStmt& s, const Scope& scope,
                                                         binder::AggContext* agg, std::vector<ExprPtr>& targets,
                                                         const std::vector<OutputColumn>& columns) {
  std::vector<plan::SortKey> keys;
  for (const auto& o : s.orderBy) {
    keys.push_back(sortKey(o, targetColumn(*o.expr, "ORDER BY", s, scope, agg, targets, columns)));
    requireKeyOperator(targets[keys.back().column]->type, true, o.expr->location);
  }
  return keys;
}

void StatementPlanner::requireKeyOperator(SqlType type, bool ordering, uint32_t location) {
  if (type.id != TypeId::Json) return;
  b_.fail(sqlstate::kUndefinedFunction,
          fmt::format("could not identify an {} operator for type json", ordering ? "ordering" : "equality"), location,
          {}, ordering ? "Use an explicit ordering operator or modify the query." : "");
}

int StatementPlanner::targetColumn(const sql::Expr& e, const char* clause, const sql::SelectStmt& s, const Scope& scope,
                                   binder::AggContext* agg, std::vector<ExprPtr>& targets,
                                   const std::vector<OutputColumn>& columns) {
  if (e.kind == sql::ExprKind::Literal) return static_cast<int>(positionIndex(e, columns.size(), clause));
  if (e.kind == sql::ExprKind::ColumnRef && e.as<sql::ColumnRef>().names.size() == 1) {
    const std::string& n = e.as<sql::ColumnRef>().names[0];
    int match = -1;
    for (size_t i = 0; i < s.targets.size() && i < columns.size(); ++i)
      if (!s.targets[i].alias.empty() && s.targets[i].alias == n) match = static_cast<int>(i);
    if (match >= 0) return match;
  }
  ExprPtr bound = b_.bind(e, scope, agg);
  for (size_t i = 0; i < targets.size(); ++i)
    if (exprEquals(*targets[i], *bound, &b_.paramClasses())) return static_cast<int>(i);
  targets.push_back(std::move(bound));
  return static_cast<int>(targets.size()) - 1;
}

std::vector<int> StatementPlanner::bindDistinctOn(const sql::SelectStmt& s, const Scope& scope, binder::AggContext* agg,
                                                  std::vector<ExprPtr>& targets,
                                                  const std::vector<OutputColumn>& columns,
                                                  std::vector<plan::SortKey>& order) {
  std::vector<int> keys;
  for (const auto& e : s.distinctOn) {
    int column = targetColumn(*e, "DISTINCT ON", s, scope, agg, targets, columns);
    if (std::find(keys.begin(), keys.end(), column) == keys.end()) keys.push_back(column);
  }
  // PostgreSQL: the leading ORDER BY items are the DISTINCT ON expressions, in any order;
  // with no ORDER BY, the rows are sorted by them.
  if (order.empty()) {
    for (int k : keys) order.push_back({k, false, false});
    return keys;
  }
  std::vector<int> leading;
  for (size_t i = 0; i < order.size() && leading.size() < keys.size(); ++i)
    if (std::find(leading.begin(), leading.end(), order[i].column) == leading.end()) {
      if (std::find(keys.begin(), keys.end(), order[i].column) == keys.end())
        b_.fail(sqlstate::kInvalidColumnReference,
                "SELECT DISTINCT ON expressions must match initial ORDER BY expressions", s.distinctOn[0]->location);
      leading.push_back(order[i].column);
    }
  if (leading.size() < keys.size())
    b_.fail(sqlstate::kInvalidColumnReference, "SELECT DISTINCT ON expressions must match initial ORDER BY expressions",
            s.distinctOn[0]->location);
  return keys;
}

NodePtr StatementPlanner::planValues(const std::vector<std::vector<sql::ExprPtr>>& rows,
                                     const std::vector<SqlType>& targetTypes, std::vector<OutputColumn>& columns) {
  Scope none;
  auto n = std::make_unique<Node>(NodeKind::Values);
  size_t width = rows[0].size();
  for (const auto& r : rows)
    if (r.size() != width)
      b_.fail(sqlstate::kSyntaxError, "VALUES lists must all be the same length", r.empty() ? 0 : r[0]->location);
  std::vector<std::vector<ExprPtr>> bound;
  Binder::Clause clause(b_, "VALUES");
  for (const auto& r : rows) {
    bound.emplace_back();
    for (const auto& e : r) bound.back().push_back(e->kind == sql::ExprKind::Default ? nullptr : b_.bind(*e, none));
  }
  for (size_t c = 0; c < width; ++c) {
    SqlType t{TypeId::Unknown, -1};
    if (!targetTypes.empty()) {
      t = targetTypes[c];
    } else {
      for (auto& r : bound) {
        auto common = commonType(t, r[c]->type);
        if (!common)
          b_.fail(sqlstate::kDatatypeMismatch,
                  fmt::format("VALUES types {} and {} cannot be matched", typeName(t), typeName(r[c]->type)),
                  rows[0][c]->location);
        t = *common;
      }
      t = binder::resolveUnknown(t);
      columns.push_back({fmt::format("column{}", c + 1), t});
    }
    n->outputTypes.push_back(t);
    for (size_t r = 0; r < bound.size(); ++r) {
      if (!bound[r][c]) continue;  // DEFAULT: filled in by the INSERT planner
      bound[r][c] =
          b_.coerce(std::move(bound[r][c]), t, targetTypes.empty() ? CastContext::Implicit : CastContext::Assignment,
                    rows[r][c]->location);
    }
  }
  n->rows = std::move(bound);
  return n;
}

}  // namespace duet::planner
