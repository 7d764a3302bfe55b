// The rows each plan node is estimated to yield (Node::estimatedRows), for EXPLAIN. Join
// steps carry the join order's own estimates (join_order.h, set where from_planner.cpp
// builds them); every other node gets one here, bottom up, as join_estimates.cpp estimates
// a FROM item's filters (conjunctSelectivity: the table's statistics, or rules of thumb).
#include <algorithm>
#include <cstring>

#include "compiler/planner/plan_building.h"
#include "compiler/planner/statement_planner.h"
#include "engine/limits/stack_depth.h"
#include "engine/storage/index.h"
#include "engine/storage/table.h"

namespace duet::planner {
namespace {

// PostgreSQL's defaults where it knows nothing: groups of an aggregation (DEFAULT_NUM_DISTINCT),
// rows of a function (prorows), rows a set-returning function adds per input row.
constexpr double kDefaultGroups = 200;
constexpr double kFunctionRows = 1000;
constexpr double kSetFunctionRows = 10;

double tableRows(const Table* table) {
  return table ? std::max<double>(1, static_cast<double>(table->liveRowCount())) : 1000;
}

// The share of rows a predicate keeps: the product of its conjuncts' selectivities (with
// `table`'s statistics when the predicate is over its row).
double predicateSelectivity(const plan::Expr* predicate, const Table* table = nullptr) {
  if (!predicate) return 1;
  if (predicate->kind != ExprKind::And) return conjunctSelectivity(*predicate, table);
  double s = 1;
  for (const auto& a : predicate->args) s *= predicateSelectivity(a.get(), table);
  return s;
}

// A LIMIT's count when it is a constant; -1 otherwise.
double constantCount(const plan::Expr* e) {
  while (e && e->kind == ExprKind::Cast) e = e->args[0].get();
  if (!e || e->kind != ExprKind::Const || e->constNull) return -1;
  int64_t v = 0;
  if (e->type.id == TypeId::Int8) {
    std::memcpy(&v, e->constant, sizeof v);
  } else if (e->type.id == TypeId::Int4) {
    int32_t v4 = 0;
    std::memcpy(&v4, e->constant, sizeof v4);
    v = v4;
  } else {
    return -1;
  }
  return static_cast<double>(std::max<int64_t>(v, 0));
}

double estimate(Node& n);

void estimateSubplans(const plan::Expr& e) {
  if (e.subplan) estimate(*e.subplan);
  for (const auto& a : e.args) estimateSubplans(*a);
}

// The values of an index access's key set: an ARRAY[...]'s count, else (a parameter, a
// constant array) as PostgreSQL guesses for an array it cannot see, 10. 1 without a set.
double keySetValues(const Node& n) {
  if (n.keySet < 0) return 1;
  const plan::Expr& values = *n.keys[static_cast<size_t>(n.keySet)];
  return values.kind == plan::ExprKind::ArrayBuild ? static_cast<double>(values.args.size()) : 10;
}

double rangeRows(const Node& n) {
  if (n.index->unique() && n.keys.size() == n.index->columns().size()) return keySetValues(n);
  double rows = tableRows(n.table);
  for (size_t k = 0; k < n.keys.size(); ++k) rows *= static_cast<int>(k) == n.keySet ? 0.1 * keySetValues(n) : 0.1;
  if (n.rangeLow && n.rangeHigh)
    rows *= 0.11;
  else if (n.rangeLow || n.rangeHigh)
    rows *= 0.33;
  return rows;
}

double estimate(Node& n) {
  checkStackDepth();
  std::vector<double> in;
  for (auto& c : n.children) in.push_back(estimate(*c));
  plan::forEachExpr(n, [](const plan::Expr& e) { estimateSubplans(e); });
  if (n.estimatedRows >= 0) return n.estimatedRows;
  double first = in.empty() ? 1 : in[0];
  double rows = first;
  switch (n.kind) {
    case NodeKind::TableScan: rows = tableRows(n.table); break;
    case NodeKind::IndexLookup: rows = keySetValues(n); break;
    case NodeKind::IndexRange: rows = rangeRows(n); break;
    case NodeKind::Values: rows = static_cast<double>(n.rows.size()); break;
    case NodeKind::Filter: rows = first * predicateSelectivity(n.predicate.get(), scannedTable(*n.children[0])); break;
    case NodeKind::NestedLoopJoin: {
      double joined = first * in[1] * predicateSelectivity(n.predicate.get());
      rows = n.outer ? std::max(first, joined) : joined;
      break;
    }
    case NodeKind::HashJoin: {
      double build = in[0], probe = in[1];
      if (n.semi != plan::SemiJoin::None) {
        rows = probe * 0.5;
      } else {
        rows = std::max(build, probe) * predicateSelectivity(n.predicate.get());
        if (n.outer) rows = std::max(rows, probe);
        if (n.keepBuildSide) rows = std::max(rows, build + probe);
      }
      break;
    }
    case NodeKind::Aggregate:
    case NodeKind::Distinct:
      rows = n.kind == NodeKind::Aggregate && n.exprs.empty() ? 1 : std::min(first, kDefaultGroups);
      break;
    case NodeKind::Limit:
      if (double limit = constantCount(n.limit.get()); limit >= 0) rows = std::min(first, limit);
      break;
    case NodeKind::Insert:
    case NodeKind::Update:
    case NodeKind::Delete: rows = n.returning.empty() ? 0 : first; break;
    case NodeKind::FunctionScan: rows = kFunctionRows; break;
    case NodeKind::ProjectSet: rows = first * kSetFunctionRows; break;
    case NodeKind::Append:
      rows = 0;
      for (double r : in) rows += r;
      break;
    case NodeKind::RecursiveUnion: rows = first + 10 * in[1]; break;
    case NodeKind::WorkTableScan: rows = 10; break;
    default: break;  // the rows of its input (Project, Sort, Materialize, Repeat, IndexJoin)
  }
  n.estimatedRows = std::max(1.0, rows);
  if (rows == 0) n.estimatedRows = 0;
  return n.estimatedRows;
}

}  // namespace

double estimateRows(Node& root) { return estimate(root); }

}  // namespace duet::planner
