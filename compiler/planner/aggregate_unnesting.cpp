// WHERE's `x op (SELECT agg(...) FROM ... WHERE inner = outer AND ...)`: a scalar
// subquery that aggregates and reads the outer query only through equalities with its own
// columns (TPC-H Q17 and Q20). Run per outer row, it scans its tables once per row; instead
// it is planned once, grouped by its side of those equalities, and hash-joined to the outer
// rows on them (the unnesting DuckDB and Umbra do; PostgreSQL runs the subplan per row).
//
// The join is an inner one: an outer row without a group is one whose subquery aggregates
// no rows, which gives NULL for the aggregates allowed here (sum, avg, min, max), and a
// comparison with NULL drops the row either way.
#include <fmt/format.h>

#include "compiler/planner/plan_building.h"
#include "compiler/planner/statement_planner.h"
#include "engine/error.h"

namespace duet::planner {

namespace {

// The subquery of a scalar sublink that may be unnested: one target, an aggregation
// without GROUP BY, HAVING, DISTINCT, LIMIT or window clauses, correlated through WHERE.
const sql::SelectStmt* aggregateSubquery(const sql::Expr& e) {
  if (e.kind != sql::ExprKind::SubLink) return nullptr;
  const auto& link = e.as<sql::SubLink>();
  if (link.link != sql::SubLinkKind::Scalar) return nullptr;
  const sql::SelectStmt& s = *link.subquery;
  if (s.body != sql::SelectStmt::Body::Simple || !s.with.empty() || s.from.empty() || !s.where ||
      s.targets.size() != 1 || !s.groupBy.empty() || s.having || s.distinct || !s.distinctOn.empty() || s.limit ||
      s.offset || !s.windows.empty() || !s.orderBy.empty())
    return nullptr;
  return Binder::containsAggregate(*s.targets[0].expr) ? &s : nullptr;
}

// Whether `value`, over an aggregation's output (`keys` group keys, then `aggs`), is NULL
// when its aggregates saw no rows: strict arithmetic and casts over sum/avg/min/max and
// constants, with an aggregate in it.
bool nullWithoutRows(const plan::Expr& value, const std::vector<plan::AggSpec>& aggs, int keys, bool& hasAggregate) {
  using K = plan::ExprKind;
  switch (value.kind) {
    case K::Column: {
      if (value.column < keys) return false;
      const plan::AggSpec& a = aggs[value.column - keys];
      hasAggregate = true;
      return (a.kind == plan::AggKind::Sum || a.kind == plan::AggKind::Avg || a.kind == plan::AggKind::Min ||
              a.kind == plan::AggKind::Max) &&
             !a.filter && !readsOuter(*a.arg);
    }
    case K::Const:
    case K::Param: return true;
    case K::Binary:
    case K::Cast:
    case K::Unary:
      for (const auto& arg : value.args)
        if (!nullWithoutRows(*arg, aggs, keys, hasAggregate)) return false;
      return true;
    default: return false;
  }
}

}  // namespace

bool StatementPlanner::aggregateComparison(const sql::Expr& conjunct) {
  if (conjunct.kind != sql::ExprKind::Binary) return false;
  const auto& op = conjunct.as<sql::BinaryOp>();
  if (binder::comparisonOp(op.op) == plan::Op::None) return false;
  return (aggregateSubquery(*op.right) != nullptr) != (aggregateSubquery(*op.left) != nullptr);
}

bool StatementPlanner::unnestAggregate(FromPlan& outer, const sql::Expr& conjunct) {
  const auto& op = conjunct.as<sql::BinaryOp>();
  bool subqueryLeft = aggregateSubquery(*op.left) != nullptr;
  const sql::SelectStmt& s = *aggregateSubquery(subqueryLeft ? *op.left : *op.right);
  const sql::Expr& other = subqueryLeft ? *op.right : *op.left;

  int outerWidth = static_cast<int>(outer.node->outputTypes.size());
  std::vector<ExprPtr> lifted, captures, innerKeys, outerSides;
  NodePtr grouped;
  SqlType valueType;
  try {
    JoinSidePlanning side(*this);
    captures = b_.correlated(outer.scope, [&] {
      correlated_ = &lifted;
      FromPlan fp = planFrom(s.from, s.where.get());
      // Each correlated conjunct: its own columns = the outer query's values.
      for (auto& c : lifted) {
        if (c->kind != ExprKind::Compare || c->op != plan::Op::Eq) return;
        int innerSide = readsOuter(*c->args[0]) ? 1 : 0;
        const plan::Expr& outerSide = *c->args[1 - innerSide];
        if (readsOuter(*c->args[innerSide]) || columnRange(*c->args[innerSide]).first < 0 ||
            columnRange(outerSide).first >= 0)
          return;
        innerKeys.push_back(std::move(c->args[innerSide]));
        outerSides.push_back(std::move(c->args[1 - innerSide]));
      }
      if (innerKeys.empty() || planReadsOuter(*fp.node)) return;
      binder::AggContext agg;
      for (const auto& k : innerKeys) agg.groupExprs.push_back(plan::cloneExpr(*k));
      ExprPtr value = b_.bind(*s.targets[0].expr, fp.scope, &agg);
      bool hasAggregate = false;
      if (readsOuter(*value) || !nullWithoutRows(*value, agg.aggs, static_cast<int>(innerKeys.size()), hasAggregate) ||
          !hasAggregate)
        return;
      // The grouped row: the keys, then the subquery's value.
      auto a = std::make_unique<Node>(NodeKind::Aggregate);
      for (const auto& g : agg.groupExprs) a->outputTypes.push_back(g->type);
      for (const auto& sp : agg.aggs) a->outputTypes.push_back(sp.resultType);
      a->exprs = std::move(agg.groupExprs);
      a->aggs = std::move(agg.aggs);
      a->children.push_back(std::move(fp.node));
      std::vector<ExprPtr> row;
      for (size_t k = 0; k < innerKeys.size(); ++k)
        row.push_back(plan::makeColumn(static_cast<int>(k), innerKeys[k]->type));
      valueType = value->type;
      row.push_back(std::move(value));
      grouped = project(std::move(a), std::move(row));
    });
  } catch (const SqlError&) {
    grouped = nullptr;  // planned again as an expression, which reports what is wrong
  }
  if (!grouped) return false;
  // x op value, over the outer row joined with the grouped row.
  ExprPtr compared;
  try {
    Binder::Clause clause(b_, "WHERE");
    ExprPtr x = b_.bind(other, outer.scope);
    ExprPtr value = plan::makeColumn(outerWidth + static_cast<int>(innerKeys.size()), valueType);
    plan::Op o = binder::comparisonOp(op.op);
    compared = subqueryLeft ? b_.compare(o, std::move(value), std::move(x), conjunct.location)
                            : b_.compare(o, std::move(x), std::move(value), conjunct.location);
  } catch (const SqlError&) {
    return false;
  }

  std::vector<ExprPtr> conditions;
  for (size_t k = 0; k < outerSides.size(); ++k)
    conditions.push_back(b_.compare(plan::Op::Eq, onJoinedRow(*outerSides[k], 0, captures),
                                    plan::makeColumn(outerWidth + static_cast<int>(k), innerKeys[k]->type),
                                    conjunct.location));
  // The grouped rows are hashed, unless the outer rows are few beside the subquery's input:
  // then they are, and the aggregation skips the rows of groups they do not join
  // (Node::filtersGroups).
  const Node* aggregate = grouped.get();
  while (aggregate->kind == NodeKind::Project) aggregate = aggregate->children[0].get();
  bool buildOuter = worthFilteringGroups(estimateRows(*outer.node), estimateRows(*aggregate->children[0]));
  std::vector<SqlType> outerTypes = outer.node->outputTypes;
  NodePtr joined = joinStep(std::move(outer.node), std::move(grouped), outerWidth, sql::JoinType::Inner, conditions,
                            /*buildRight=*/!buildOuter);
  joined = filter(std::move(joined), std::move(compared));
  std::vector<ExprPtr> outerColumns;
  for (size_t c = 0; c < outerTypes.size(); ++c)
    outerColumns.push_back(plan::makeColumn(static_cast<int>(c), outerTypes[c]));
  outer.node = project(std::move(joined), std::move(outerColumns));
  return true;
}

}  // namespace duet::planner
