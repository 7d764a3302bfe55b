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

// PostgreSQL's defaults where it knows nothing: a group key's distinct values (DEFAULT_NUM_DISTINCT),
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

// The distinct values of column `c` of `n`'s rows when it is a table's column, followed
// through filters, projections of plain columns and joins to the scan that reads it and the
// table's statistics; 0 when it is computed or not known.
double sourceDistinct(const Node& n, int c) {
  switch (n.kind) {
    case NodeKind::TableScan:
    case NodeKind::IndexLookup:
    case NodeKind::IndexRange: return c < static_cast<int>(n.table->columns().size()) ? columnDistinct(*n.table, c) : 0;
    case NodeKind::Filter:
    case NodeKind::Sort:
    case NodeKind::Limit:
    case NodeKind::Materialize: return sourceDistinct(*n.children[0], c);
    case NodeKind::Project: {
      const plan::Expr& e = *n.exprs[static_cast<size_t>(c)];
      return e.kind == ExprKind::Column ? sourceDistinct(*n.children[0], e.column) : 0;
    }
    case NodeKind::HashJoin:
    case NodeKind::NestedLoopJoin: {
      if (n.semi != plan::SemiJoin::None) return sourceDistinct(*n.children[1], c);
      const Node& first = *n.children[n.rightFirst ? 1 : 0];
      const Node& second = *n.children[n.rightFirst ? 0 : 1];
      int width = static_cast<int>(first.outputTypes.size());
      return c < width ? sourceDistinct(first, c) : sourceDistinct(second, c - width);
    }
    case NodeKind::IndexJoin: {
      int width = static_cast<int>(n.children[0]->outputTypes.size());
      int tableWidth = static_cast<int>(n.outputTypes.size()) - width;
      int left = n.rightFirst ? c - tableWidth : c;  // the position in children[0]'s row, if there
      if (left >= 0 && left < width) return sourceDistinct(*n.children[0], left);
      int column = n.rightFirst ? c : c - width;
      return column < static_cast<int>(n.table->columns().size()) ? columnDistinct(*n.table, column) : 0;
    }
    default: return 0;
  }
}

// The groups of an aggregation or DISTINCT, as PostgreSQL's estimate_num_groups: the product
// of each key's distinct values (from statistics; 200 when unknown), at most the input's rows.
double groupCount(const Node& n, double inputRows) {
  std::vector<int> keys;
  if (n.kind == NodeKind::Distinct && n.exprs.empty()) {
    for (size_t c = 0; c < n.outputTypes.size(); ++c) keys.push_back(static_cast<int>(c));
  } else {
    for (const auto& e : n.exprs) keys.push_back(e->kind == ExprKind::Column ? e->column : -1);
  }
  double groups = 1;
  for (int k : keys) {
    double distinct = k >= 0 ? sourceDistinct(*n.children[0], k) : 0;
    groups *= distinct > 0 ? distinct : kDefaultGroups;
    if (groups >= inputRows) break;
  }
  return std::min(groups, inputRows);
}

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
    case NodeKind::Distinct: rows = n.kind == NodeKind::Aggregate && n.exprs.empty() ? 1 : groupCount(n, first); break;
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
