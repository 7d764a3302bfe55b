#include "compiler/planner/plan_building.h"

#include <algorithm>

#include "compiler/binder/binder.h"
#include "compiler/functions/builtin_functions.h"
#include "engine/storage/table.h"

namespace duet::planner {

using plan::ExprKind;
using plan::ExprPtr;
using plan::Node;
using plan::NodeKind;
using plan::NodePtr;

std::vector<SqlType> tableRowTypes(const Table& t) {
  std::vector<SqlType> types;
  for (const auto& c : t.columns()) types.push_back(c.type);
  types.push_back({TypeId::Int8, -1});  // rowid
  return types;
}

void splitConjuncts(ExprPtr e, std::vector<ExprPtr>& out) {
  if (e->kind == ExprKind::And) {
    for (auto& a : e->args) splitConjuncts(std::move(a), out);
    return;
  }
  out.push_back(std::move(e));
}

ExprPtr conjunction(std::vector<ExprPtr> parts) {
  if (parts.empty()) return nullptr;
  if (parts.size() == 1) return std::move(parts[0]);
  auto e = std::make_unique<plan::Expr>(ExprKind::And, SqlType{TypeId::Bool, -1});
  e->args = std::move(parts);
  return e;
}

namespace {

// What evaluating `e` once per row costs, as PostgreSQL's cost_qual_eval counts it: one per
// operator or function call, a routine a hundred, a subquery a thousand; nothing for what
// reads no column (computed once per execution) nor for reading a column or constant.
int evaluationCost(const plan::Expr& e) {
  if (e.kind == ExprKind::Subquery) return 1000;
  if (binder::columnRange(e).first < 0) return 0;
  int cost = 0;
  switch (e.kind) {
    case ExprKind::Column:
    case ExprKind::Const:
    case ExprKind::Param:
    case ExprKind::OuterRef:
    case ExprKind::And:
    case ExprKind::Or: break;
    case ExprKind::RoutineCall: cost = 100; break;
    case ExprKind::InList: cost = static_cast<int>(e.args.size()) - 1; break;
    default: cost = 1; break;
  }
  for (const auto& a : e.args) cost += evaluationCost(*a);
  return cost;
}

}  // namespace

const Table* scannedTable(const Node& plan) {
  const Node* n = &plan;
  while (n->kind == NodeKind::Filter) n = n->children[0].get();
  bool access = n->kind == NodeKind::TableScan || n->kind == NodeKind::IndexLookup || n->kind == NodeKind::IndexRange;
  return access ? n->table : nullptr;
}

NodePtr filter(NodePtr child, ExprPtr predicate) {
  if (!predicate) return child;
  // Cheaper conjuncts first, as PostgreSQL's order_qual_clauses: a row the cheap ones drop
  // costs nothing more (TPC-H Q12's date ranges before its char(10) comparisons); stable,
  // so equal costs keep their written order.
  if (predicate->kind == ExprKind::And) {
    std::vector<std::pair<int, ExprPtr>> costed;
    for (auto& a : predicate->args) {
      int cost = evaluationCost(*a);
      costed.emplace_back(cost, std::move(a));
    }
    std::stable_sort(costed.begin(), costed.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (size_t i = 0; i < costed.size(); ++i) predicate->args[i] = std::move(costed[i].second);
  }
  auto n = std::make_unique<Node>(NodeKind::Filter);
  n->outputTypes = child->outputTypes;
  n->predicate = std::move(predicate);
  n->children.push_back(std::move(child));
  return n;
}

NodePtr project(NodePtr child, std::vector<ExprPtr> exprs) {
  auto n = std::make_unique<Node>(NodeKind::Project);
  for (const auto& e : exprs) n->outputTypes.push_back(e->type);
  n->exprs = std::move(exprs);
  n->children.push_back(std::move(child));
  return n;
}

NodePtr materialize(NodePtr child) {
  auto m = std::make_unique<Node>(NodeKind::Materialize);
  m->outputTypes = child->outputTypes;
  m->children.push_back(std::move(child));
  return m;
}

ExprPtr factorOr(ExprPtr e, const std::vector<int>& paramClasses) {
  if (e->kind != ExprKind::Or) return e;
  std::vector<std::vector<ExprPtr>> branches;
  for (auto& a : e->args) {
    branches.emplace_back();
    splitConjuncts(std::move(a), branches.back());
  }
  std::vector<ExprPtr> common;
  auto& first = branches[0];
  for (size_t i = 0; i < first.size();) {
    std::vector<size_t> at;  // where each other branch has it
    for (size_t b = 1; b < branches.size(); ++b)
      for (size_t j = 0; j < branches[b].size() && at.size() < b; ++j)
        if (binder::exprEquals(*branches[b][j], *first[i], &paramClasses)) at.push_back(j);
    if (at.size() + 1 < branches.size()) {
      ++i;
      continue;
    }
    for (size_t b = 1; b < branches.size(); ++b) branches[b].erase(branches[b].begin() + at[b - 1]);
    common.push_back(std::move(first[i]));
    first.erase(first.begin() + i);
  }
  // A branch left with nothing is true, and so is the OR.
  bool alwaysTrue = false;
  for (const auto& b : branches) alwaysTrue = alwaysTrue || b.empty();
  if (!alwaysTrue) {
    auto any = std::make_unique<plan::Expr>(ExprKind::Or, SqlType{TypeId::Bool, -1});
    for (auto& b : branches) any->args.push_back(conjunction(std::move(b)));
    common.push_back(std::move(any));
  }
  return conjunction(std::move(common));
}

namespace {

// Whether evaluating `e` once more per row changes nothing: no subquery, routine or
// volatile built-in in it.
bool repeatable(const plan::Expr& e) {
  if (e.kind == ExprKind::Subquery || e.kind == ExprKind::RoutineCall) return false;
  if (e.kind == ExprKind::Call) {
    const BuiltinFunction* f = builtinFunctionBySymbol(e.function);
    if (f && f->volatility == Volatility::Volatile) return false;
  }
  return std::all_of(e.args.begin(), e.args.end(), [](const ExprPtr& a) { return repeatable(*a); });
}

void addConjuncts(const plan::Expr& e, std::vector<const plan::Expr*>& out) {
  if (e.kind == ExprKind::And) {
    for (const auto& a : e.args) addConjuncts(*a, out);
    return;
  }
  out.push_back(&e);
}

}  // namespace

ExprPtr orRestriction(const plan::Expr& any, int begin, int end) {
  if (any.kind != ExprKind::Or || !repeatable(any)) return nullptr;
  auto restriction = std::make_unique<plan::Expr>(ExprKind::Or, SqlType{TypeId::Bool, -1});
  for (const auto& branch : any.args) {
    std::vector<const plan::Expr*> conjuncts;
    addConjuncts(*branch, conjuncts);
    std::vector<ExprPtr> own;
    for (const plan::Expr* c : conjuncts) {
      auto [lo, hi] = binder::columnRange(*c);
      if (lo >= begin && hi < end) own.push_back(plan::cloneExpr(*c));
    }
    if (own.empty()) return nullptr;  // that branch may hold for any row of the item
    restriction->args.push_back(conjunction(std::move(own)));
  }
  return restriction;
}

void splitJoinKeys(std::vector<ExprPtr>& conditions, int rightOffset, std::vector<ExprPtr>& leftKeys,
                   std::vector<ExprPtr>& rightKeys, std::vector<ExprPtr>& residual) {
  for (auto& c : conditions) {
    if (c->kind == ExprKind::Compare && c->op == plan::Op::Eq) {
      auto [l0, l1] = binder::columnRange(*c->args[0]);
      auto [r0, r1] = binder::columnRange(*c->args[1]);
      int leftArg = -1;
      if (l0 >= 0 && r0 >= 0 && l1 < rightOffset && r0 >= rightOffset) leftArg = 0;
      if (l0 >= 0 && r0 >= 0 && r1 < rightOffset && l0 >= rightOffset) leftArg = 1;
      if (leftArg >= 0) {
        leftKeys.push_back(std::move(c->args[leftArg]));
        ExprPtr rk = std::move(c->args[1 - leftArg]);
        binder::shiftColumns(*rk, -rightOffset);
        rightKeys.push_back(std::move(rk));
        continue;
      }
    }
    residual.push_back(std::move(c));
  }
  conditions.clear();
}

}  // namespace duet::planner
