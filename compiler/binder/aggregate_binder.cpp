// Aggregate calls and grouping(): resolved from the aggregate table
// (compiler/functions/builtin_aggregates.h) and bound into the query's AggContext as
// plan::AggSpecs, whose results the expression reads as columns of the aggregation.
#include <fmt/format.h>

#include "compiler/binder/binder.h"
#include "compiler/functions/builtin_aggregates.h"
#include "engine/error.h"

namespace duet::binder {

using plan::ExprPtr;

namespace {

// Whether an argument of type `arg` can go to an aggregate's polymorphic parameter of
// `row` (min and max take no booleans, bytea or uuid, as PostgreSQL 15 has no min of those).
bool takesAny(const BuiltinAggregate& row, SqlType arg) {
  if (row.kind == plan::AggKind::Min || row.kind == plan::AggKind::Max)
    return arg.id != TypeId::Bool && arg.id != TypeId::Bytea && arg.id != TypeId::Uuid;
  return true;
}

// The type of `row`'s parameter i (Unknown: any).
SqlType parameterType(const BuiltinAggregate& row, size_t i) {
  return row.args[i] == TypeId::Array ? SqlType::arrayOf({row.argElement, -1}) : SqlType{row.args[i], -1};
}

// ORDER BY inside the call changes nothing for these: the result does not depend on the
// order of the rows (float sums do, by rounding).
bool orderInsensitive(const plan::AggSpec& spec) {
  switch (spec.kind) {
    case plan::AggKind::CountStar:
    case plan::AggKind::Count:
    case plan::AggKind::Min:
    case plan::AggKind::Max:
    case plan::AggKind::BoolAnd:
    case plan::AggKind::BoolOr: return true;
    case plan::AggKind::Sum:
    case plan::AggKind::Avg: return spec.arg->type.id != TypeId::Float4 && spec.arg->type.id != TypeId::Float8;
    default: return false;
  }
}

}  // namespace

bool Binder::isAggregateCall(const sql::FuncCall& f) {
  // pg_catalog.array_agg is array_agg (pg_dump qualifies every name).
  bool builtinName = f.names.size() == 1 || (f.names.size() == 2 && f.names[0] == "pg_catalog");
  return builtinName && (isBuiltinAggregate(f.names.back()) || f.names.back() == "grouping");
}

// The arguments of an aggregate call are bound over the FROM row (not over the
// aggregation's output), where a further aggregate is an error of its own.
ExprPtr Binder::bindAggregateInput(const sql::Expr& e, const Scope& scope, AggContext* argContext) {
  if (argContext) return bind(e, scope, argContext);
  bool outer = bindingAggregateInput_;
  bindingAggregateInput_ = true;
  try {
    ExprPtr bound = bind(e, scope, nullptr);
    bindingAggregateInput_ = outer;
    return bound;
  } catch (...) {
    bindingAggregateInput_ = outer;
    throw;
  }
}

ExprPtr Binder::bindAggregate(const sql::FuncCall& f, const Scope& scope, AggContext* agg) {
  const std::string& name = f.names.back();
  if (name == "grouping") return bindGrouping(f, scope, agg);
  if (bindingAggregateInput_) fail(sqlstate::kGroupingError, "aggregate function calls cannot be nested", f.location);
  if (!agg)
    fail(sqlstate::kGroupingError, fmt::format("aggregate functions are not allowed in {}", clause_), f.location);
  plan::AggSpec spec = aggregateSpec(f, scope, nullptr);
  SqlType type = spec.resultType;
  int column = static_cast<int>(agg->groupExprs.size() + agg->aggs.size());
  agg->aggs.push_back(std::move(spec));
  return plan::makeColumn(column, type);
}

plan::AggSpec Binder::aggregateSpec(const sql::FuncCall& f, const Scope& scope, AggContext* argContext) {
  const std::string& name = f.names.back();
  std::vector<const BuiltinAggregate*> rows = builtinAggregatesNamed(name);
  // WITHIN GROUP: an ordered-set aggregate's call (the row chosen must be one, checked below).
  bool orderedSet = f.withinGroup;
  if (f.args.empty() && !f.star && !orderedSet)
    fail(sqlstate::kWrongObjectType, "count(*) must be used to call a parameterless aggregate function", f.location);

  // The arguments: an ordered-set aggregate's direct ones, then what it orders.
  std::vector<ExprPtr> args;
  for (const auto& a : f.args) args.push_back(bindAggregateInput(*a, scope, argContext));
  std::vector<plan::AggOrder> order;
  for (const auto& o : f.orderBy) {
    plan::AggOrder k;
    k.expr = bindAggregateInput(*o.expr, scope, argContext);
    k.descending = o.dir == sql::SortDir::Desc;
    k.nullsFirst = o.nulls == sql::NullsOrder::Default ? k.descending : o.nulls == sql::NullsOrder::First;
    order.push_back(std::move(k));
  }
  if (orderedSet)
    for (const auto& k : order) args.push_back(plan::cloneExpr(*k.expr));

  // The row, as functions are chosen (CandidateScore); polymorphic parameters take any
  // type as it is.
  BestCandidate<BuiltinAggregate> chosen;
  for (const BuiltinAggregate* row : rows) {
    if (row->args.size() != args.size() || (row->args.empty() != f.star)) continue;
    CandidateScore score;
    bool ok = true;
    for (size_t i = 0; i < args.size() && ok; ++i)
      ok = row->args[i] == TypeId::Unknown ? takesAny(*row, args[i]->type)
                                           : score.add(args[i]->type, parameterType(*row, i));
    if (ok) chosen.offer(row, score);
  }
  if (!chosen.best) failUndefinedRoutine(name, args, false, f.location);
  if (chosen.ambiguous) failAmbiguousRoutine(name, args, false, f.location);
  const BuiltinAggregate& row = *chosen.best;
  if (f.withinGroup && !row.orderedSet)
    fail(sqlstate::kWrongObjectType,
         fmt::format("{} is not an ordered-set aggregate, so it cannot have WITHIN GROUP", name), f.location);
  if (!f.withinGroup && row.orderedSet)
    fail(sqlstate::kWrongObjectType, fmt::format("WITHIN GROUP is required for ordered-set aggregate {}", name),
         f.location);
  // Arguments take the row's types; an untyped literal given to a polymorphic parameter
  // is text.
  for (size_t i = 0; i < args.size(); ++i) {
    bool untyped = args[i]->type.id == TypeId::Unknown;
    if (row.args[i] != TypeId::Unknown || untyped)
      args[i] = coerce(std::move(args[i]),
                       untyped && row.args[i] == TypeId::Unknown ? SqlType{TypeId::Text, -1} : parameterType(row, i),
                       CastContext::Implicit, f.location);
  }

  if (row.jsonArgs)
    for (auto& a : args) a = toJson(std::move(a), false, f.location);

  plan::AggSpec spec;
  spec.kind = row.kind;
  spec.aggregate = static_cast<uint16_t>(&row - builtinAggregates().data());
  spec.name = row.name;
  spec.distinct = f.distinct;
  if (orderedSet) {  // the value ordered is the aggregated argument; the direct ones follow
    spec.arg = std::move(args.back());
    args.pop_back();
    for (auto& a : args) spec.extraArgs.push_back(std::move(a));
    order[0].expr = plan::cloneExpr(*spec.arg);
  } else if (!args.empty()) {
    spec.arg = std::move(args[0]);
    for (size_t i = 1; i < args.size(); ++i) spec.extraArgs.push_back(std::move(args[i]));
  }
  SqlType valueType = spec.arg ? spec.arg->type : SqlType{TypeId::Unknown, -1};
  if (row.result == TypeId::Array) {
    if (row.resultElement == TypeId::Unknown && valueType.id == TypeId::Array)
      fail(sqlstate::kFeatureNotSupported, fmt::format("{} of arrays is not supported yet", name), f.location);
    // array_agg(oid) is an oid[] (the value's alias kept), as PostgreSQL's anyarray result.
    spec.resultType =
        row.resultElement != TypeId::Unknown ? SqlType::arrayOf({row.resultElement, -1}) : SqlType::arrayOf(valueType);
  } else if (row.result == TypeId::Unknown) {
    TypeId t = valueType.id;
    spec.resultType = t == TypeId::Varchar || t == TypeId::Char || t == TypeId::Array
                          ? valueType
                          : SqlType{t, -1, TypeId::Unknown, valueType.alias};
  } else {
    spec.resultType = {row.result, -1};
  }

  if (f.distinct && !order.empty()) {
    // PostgreSQL sorts the distinct arguments, so it can only order by them.
    for (const auto& k : order) {
      bool inArgs = spec.arg && exprEquals(*k.expr, *spec.arg, &paramClass_);
      for (const auto& a : spec.extraArgs) inArgs = inArgs || exprEquals(*k.expr, *a, &paramClass_);
      if (!inArgs)
        fail(sqlstate::kInvalidColumnReference,
             "in an aggregate with DISTINCT, ORDER BY expressions must appear in argument list", f.location);
    }
  }
  spec.orderBy = std::move(order);
  if (orderInsensitive(spec)) {
    spec.orderBy.clear();
  } else if (f.distinct && spec.orderBy.empty()) {
    // PostgreSQL finds the distinct arguments by sorting them: they are folded in that order.
    auto ascending = [](const ExprPtr& e) { return plan::AggOrder{plan::cloneExpr(*e), false, false}; };
    spec.orderBy.push_back(ascending(spec.arg));
    for (const auto& a : spec.extraArgs) spec.orderBy.push_back(ascending(a));
  }
  if (f.filter) {
    Clause clause(*this, "FILTER");
    spec.filter = coerceToBool(bind(*f.filter, scope, argContext), "FILTER", f.filter->location);
  }
  return spec;
}

// grouping(a, b, ...): a bit per argument, the first argument's the highest, set when the
// output row's grouping set leaves that key out.
ExprPtr Binder::bindGrouping(const sql::FuncCall& f, const Scope& scope, AggContext* agg) {
  if (!agg)
    fail(sqlstate::kGroupingError, fmt::format("grouping operations are not allowed in {}", clause_), f.location);
  if (f.args.size() > 31) fail("54023", "GROUPING must have fewer than 32 arguments", f.location);
  plan::AggSpec spec;
  spec.kind = plan::AggKind::Grouping;
  spec.name = "grouping";
  spec.resultType = {TypeId::Int4, -1};
  for (const auto& a : f.args) {
    ExprPtr bound = bind(*a, scope, nullptr);
    int key = -1;
    for (size_t g = 0; g < agg->groupExprs.size() && key < 0; ++g)
      if (exprEquals(*bound, *agg->groupExprs[g], &paramClass_)) key = static_cast<int>(g);
    if (key < 0)
      fail(sqlstate::kGroupingError, "arguments to GROUPING must be grouping expressions of the associated query level",
           a->location);
    spec.groupingKeys.push_back(key);
  }
  int column = static_cast<int>(agg->groupExprs.size() + agg->aggs.size());
  agg->aggs.push_back(std::move(spec));
  return plan::makeColumn(column, {TypeId::Int4, -1});
}

}  // namespace duet::binder
