// WHERE's [NOT] EXISTS (subquery) and [NOT] IN (subquery) as semi and anti joins: the
// subquery's rows go into a hash table once per statement, and each row of the FROM list
// probes it, instead of running the subquery once per row. A correlated subquery is
// planned with its references to the outer query lifted out of it (conjuncts that read an
// OuterRef become the join's keys and residual predicate); PostgreSQL's planner pulls up
// such sublinks the same way (convert_EXISTS_sublink_to_join, convert_ANY_sublink_to_join).
#include "compiler/planner/statement_planner.h"

#include <fmt/format.h>
#include <functional>

#include "compiler/planner/plan_building.h"
#include "engine/error.h"
#include "engine/storage/index.h"
#include "engine/storage/table.h"

namespace duet::planner {

bool readsOuter(const plan::Expr& e) {
  if (e.kind == ExprKind::OuterRef) return true;
  for (const auto& a : e.args)
    if (readsOuter(*a)) return true;
  return false;
}

bool planReadsOuter(const Node& n) {
  bool reads = false;
  plan::forEachExpr(n, [&](const plan::Expr& e) { reads = reads || readsOuter(e); });
  for (const auto& c : n.children) reads = reads || planReadsOuter(*c);
  return reads;
}

ExprPtr onJoinedRow(const plan::Expr& e, int outerWidth, const std::vector<ExprPtr>& captures) {
  if (e.kind == ExprKind::OuterRef) return plan::cloneExpr(*captures[e.column]);
  ExprPtr out = plan::cloneExpr(e);
  if (out->kind == ExprKind::Column) out->column += outerWidth;
  for (size_t i = 0; i < e.args.size(); ++i) out->args[i] = onJoinedRow(*e.args[i], outerWidth, captures);
  return out;
}

namespace {

// A subquery whose FROM and WHERE alone decide which rows it has, so that they can be
// planned as the join's build side: no grouping, aggregates (which the binder finds when
// binding the list), LIMIT or OFFSET. DISTINCT and ORDER BY change nothing for EXISTS or IN.
bool plainSubquery(const sql::SelectStmt& s) {
  if (s.body != sql::SelectStmt::Body::Simple || !s.groupBy.empty() || s.having || s.limit || s.offset) return false;
  for (const auto& t : s.targets)
    if (Binder::containsAggregate(*t.expr)) return false;
  return !s.from.empty();
}

// How many values IN compares: a row constructor's fields, or one.
size_t rowWidth(const sql::Expr& test) {
  return test.kind == sql::ExprKind::Row ? test.as<sql::RowExpr>().args.size() : 1;
}

// Whether the subquery reads one table through filters alone and `keys` (over its row)
// cover a unique index of it: then, as for an inner join (indexJoin), one index probe per
// outer row beats hashing the whole table, and the subquery stays an expression whose
// correlated equalities are an index lookup's keys.
bool servedByUniqueIndex(const Node& inner, const std::vector<ExprPtr>& keys) {
  const Node* n = &inner;
  while (n->kind == NodeKind::Filter) n = n->children[0].get();
  return n->kind == NodeKind::TableScan && keysCoverUniqueIndex(*n->table, keys, 0);
}

}  // namespace

const sql::SubLink* StatementPlanner::semiJoinLink(const sql::Expr& conjunct, plan::SemiJoin& kind) {
  const sql::Expr* e = &conjunct;
  bool negated = false;
  if (e->kind == sql::ExprKind::Bool && e->as<sql::BoolExpr>().op == sql::BoolOpKind::Not) {
    e = e->as<sql::BoolExpr>().args[0].get();
    negated = true;
  }
  if (e->kind != sql::ExprKind::SubLink) return nullptr;
  const auto& link = e->as<sql::SubLink>();
  if (link.link == sql::SubLinkKind::Exists) {
    kind = negated ? plan::SemiJoin::Anti : plan::SemiJoin::Semi;
    return &link;
  }
  if (link.link == sql::SubLinkKind::Any && link.op == "=") {
    kind = negated ? plan::SemiJoin::NotIn : plan::SemiJoin::Semi;
    return &link;
  }
  return nullptr;
}

StatementPlanner::SemiJoinPlan StatementPlanner::planSemiJoin(const Scope& scope, int outerWidth,
                                                              const sql::SubLink& link, plan::SemiJoin kind) {
  const sql::SelectStmt& s = *link.subquery;
  bool plain = plainSubquery(s);
  NodePtr inner;
  std::vector<ExprPtr> innerValues;  // IN: the subquery's values, over its own row
  std::vector<ExprPtr> lifted;
  std::vector<ExprPtr> captures;
  try {
    JoinSidePlanning side(*this);
    captures = b_.correlated(scope, [&] {
      std::vector<OutputColumn> columns;
      if (!plain) {
        inner = planSelect(s, columns);
        if (link.link == sql::SubLinkKind::Any)
          for (size_t i = 0; i < inner->outputTypes.size(); ++i)
            innerValues.push_back(plan::makeColumn(static_cast<int>(i), inner->outputTypes[i]));
        return;
      }
      correlated_ = &lifted;
      FromPlan fp = planFrom(s.from, s.where.get());
      std::vector<ExprPtr> targets;
      expandTargets(s.targets, fp.scope, nullptr, targets, columns);
      // IN's values (they may read the outer row: they become part of the join condition).
      if (link.link == sql::SubLinkKind::Any) innerValues = std::move(targets);
      inner = std::move(fp.node);
    });
  } catch (const SqlError&) {
    inner = nullptr;  // planned again as an expression, which reports what is wrong with it
  }
  if (!inner || planReadsOuter(*inner)) return {};
  if (link.link == sql::SubLinkKind::Any && innerValues.size() != rowWidth(*link.test)) return {};
  // NOT IN's NULL rules hold for the subquery's values as a whole, not per correlated group.
  if (kind == plan::SemiJoin::NotIn && (!captures.empty() || !lifted.empty())) return {};

  std::vector<ExprPtr> conditions;
  for (const auto& c : lifted) conditions.push_back(onJoinedRow(*c, outerWidth, captures));
  if (link.link == sql::SubLinkKind::Any) {
    Binder::Clause clause(b_, "WHERE");
    std::vector<ExprPtr> left = b_.bindRowFields(*link.test, scope);
    for (size_t i = 0; i < left.size(); ++i)
      conditions.push_back(b_.compare(plan::Op::Eq, std::move(left[i]),
                                      onJoinedRow(*innerValues[i], outerWidth, captures), link.location));
  }
  auto join = std::make_unique<Node>(NodeKind::HashJoin);
  // The outer row is the join row's left side: its keys probe, the subquery's are hashed.
  std::vector<ExprPtr> residual;
  splitJoinKeys(conditions, outerWidth, join->rightKeys, join->exprs, residual);
  // No key: the subquery stays an expression, run per row until it decides. NOT IN's one
  // comparison must be the key.
  if (join->exprs.empty() || (kind == plan::SemiJoin::NotIn && (join->exprs.size() != 1 || !residual.empty())))
    return {};
  if (!captures.empty() && servedByUniqueIndex(*inner, join->exprs)) return {};
  SemiJoinPlan planned;
  planned.innerRows = estimateRows(*inner);
  // The subquery's rows are distinct keys of its table: the outer rows whose keys reference
  // that table (a foreign key, as the join order assumes) match in the same share.
  if (const Table* table = scannedTable(*inner); table && keysCoverUniqueIndex(*table, join->exprs, 0))
    planned.innerKeyShare = std::min(1.0, planned.innerRows / std::max<double>(1, table->liveRowCount()));
  // The hash table holds what the join reads of the subquery's rows, its keys and the
  // columns the residual predicate reads, not whole rows (a semi join over lineitem would
  // otherwise hold every column of it).
  std::vector<ExprPtr> kept = std::move(join->exprs);
  join->exprs.clear();
  for (size_t k = 0; k < kept.size(); ++k) join->exprs.push_back(plan::makeColumn(static_cast<int>(k), kept[k]->type));
  std::vector<int> keptAt(inner->outputTypes.size(), -1);
  std::function<void(plan::Expr&)> readKept = [&](plan::Expr& e) {
    if (e.kind == ExprKind::Column && e.column >= outerWidth) {
      int c = e.column - outerWidth;
      if (keptAt[c] < 0) {
        keptAt[c] = static_cast<int>(kept.size());
        kept.push_back(plan::makeColumn(c, inner->outputTypes[c]));
      }
      e.column = outerWidth + keptAt[c];
    }
    for (auto& a : e.args) readKept(*a);
  };
  for (auto& r : residual) readKept(*r);
  inner = project(std::move(inner), std::move(kept));
  join->semi = kind;
  join->rightFirst = true;
  join->predicate = conjunction(std::move(residual));
  join->children.push_back(std::move(inner));
  planned.join = std::move(join);
  return planned;
}

void attachSemiJoin(NodePtr& outer, NodePtr join, double share) {
  join->outputTypes = outer->outputTypes;
  double outerRows = estimateRows(*outer);
  join->estimatedRows = std::max(1.0, outerRows * share);
  // The smaller side is hashed, as for inner joins (NOT IN's NULL rules need the
  // subquery's values whole).
  join->semiBuildsOuter = join->semi != plan::SemiJoin::NotIn && outerRows < estimateRows(*join->children[0]);
  join->children.push_back(std::move(outer));
  outer = std::move(join);
}

void moveSemiJoinColumns(Node& join, int fromWidth, int outerShift, int toWidth) {
  std::function<void(plan::Expr&)> move = [&](plan::Expr& e) {
    if (e.kind == ExprKind::Column) e.column += e.column < fromWidth ? outerShift : toWidth - fromWidth;
    for (auto& a : e.args) move(*a);
  };
  for (auto& key : join.rightKeys) move(*key);
  if (join.predicate) move(*join.predicate);
}

}  // namespace duet::planner
