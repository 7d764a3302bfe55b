#include "compiler/planner/access_path.h"

#include <algorithm>

#include "compiler/planner/plan_building.h"
#include "engine/storage/table.h"

namespace duet::planner {

using binder::Binder;
using binder::CastContext;
using binder::columnRange;
using plan::ExprKind;
using plan::ExprPtr;
using plan::Node;
using plan::NodeKind;
using plan::NodePtr;

namespace {

// A conjunct `column op value` that can bound an ordered index over that column.
struct IndexBound {
  int column;   // table column
  plan::Op op;  // Eq, Lt, Le, Gt, Ge with the column on the left
  const plan::Expr* value;
};

// The conjunct as an index bound, if it is one: a plain column (no cast) compared with a
// value that reads no column and has the column's own type, so that the index's order is
// the order the comparison uses. Cross-type comparisons get a cast on one side from the
// binder; a cast column disqualifies, a cast value is fine (integer widening).
std::optional<IndexBound> indexBoundOf(const plan::Expr& c, const Table& table) {
  using plan::Op;
  if (c.kind != ExprKind::Compare || c.op == Op::Ne) return std::nullopt;
  for (int side = 0; side < 2; ++side) {
    const plan::Expr& col = *c.args[side];
    const plan::Expr& val = *c.args[1 - side];
    if (col.kind != ExprKind::Column || col.column >= static_cast<int>(table.columns().size())) continue;
    if (col.type.id != table.columns()[col.column].type.id || val.type.id != col.type.id) continue;
    if (columnRange(val).first >= 0) continue;
    Op op = c.op;
    if (side == 1)
      op = op == Op::Lt ? Op::Gt : op == Op::Le ? Op::Ge : op == Op::Gt ? Op::Lt : op == Op::Ge ? Op::Le : op;
    return IndexBound{col.column, op, &val};
  }
  return std::nullopt;
}

// A range scan of the ordered index whose key the conjuncts pin furthest (equalities on a
// leading prefix count double, one range on the next column once), or null when none is
// pinned at all. The conjuncts are left in place: the caller filters on all of them, so the
// range only needs to hold every matching row; the first lower and upper bound found serve.
NodePtr indexRange(Table& table, const std::vector<ExprPtr>& conjuncts) {
  using plan::Op;
  std::vector<IndexBound> bounds;
  for (const auto& c : conjuncts)
    if (auto bound = indexBoundOf(*c, table)) bounds.push_back(*bound);
  auto find = [&](int column, auto pred) -> const IndexBound* {
    for (const auto& ib : bounds)
      if (ib.column == column && pred(ib.op)) return &ib;
    return nullptr;
  };
  Index* best = nullptr;
  size_t bestEq = 0;
  int bestScore = 0;
  for (const auto& index : table.indexes()) {
    if (index->kind() != IndexKind::Ordered) continue;
    const auto& key = index->columns();
    size_t eq = 0;
    while (eq < key.size() && find(static_cast<int>(key[eq]), [](Op op) { return op == Op::Eq; })) ++eq;
    int score = static_cast<int>(eq) * 2;
    if (eq < key.size() && find(static_cast<int>(key[eq]), [](Op op) { return op != Op::Eq; })) ++score;
    if (score > bestScore) {
      best = index.get();
      bestEq = eq;
      bestScore = score;
    }
  }
  if (!best) return nullptr;
  auto n = std::make_unique<Node>(NodeKind::IndexRange);
  n->table = &table;
  n->index = best;
  n->outputTypes = tableRowTypes(table);
  const auto& key = best->columns();
  for (size_t k = 0; k < bestEq; ++k)
    n->keys.push_back(plan::cloneExpr(*find(static_cast<int>(key[k]), [](Op op) { return op == Op::Eq; })->value));
  if (bestEq < key.size()) {
    int column = static_cast<int>(key[bestEq]);
    if (auto* low = find(column, [](Op op) { return op == Op::Gt || op == Op::Ge; })) {
      n->rangeLow = plan::cloneExpr(*low->value);
      n->lowInclusive = low->op == Op::Ge;
    }
    if (auto* high = find(column, [](Op op) { return op == Op::Lt || op == Op::Le; })) {
      n->rangeHigh = plan::cloneExpr(*high->value);
      n->highInclusive = high->op == Op::Le;
    }
  }
  return n;
}

}  // namespace

const Index* rangeIndex(const Node& n) {
  if (n.kind == NodeKind::Filter) return rangeIndex(*n.children[0]);
  return n.kind == NodeKind::IndexRange ? n.index : nullptr;
}

std::optional<std::pair<size_t, int>> keyEquality(const std::vector<ExprPtr>& conjuncts, int column, TypeId type,
                                                  const std::function<bool(const plan::Expr&)>& valueOk) {
  for (size_t i = 0; i < conjuncts.size(); ++i) {
    const plan::Expr& c = *conjuncts[i];
    if (c.kind != ExprKind::Compare || c.op != plan::Op::Eq) continue;
    for (int side = 0; side < 2; ++side) {
      const plan::Expr& col = *c.args[side];
      if (col.kind == ExprKind::Column && col.column == column && col.type.id == type && valueOk(*c.args[1 - side]))
        return std::make_pair(i, 1 - side);
    }
  }
  return std::nullopt;
}

bool isConstantValue(const plan::Expr& e) { return columnRange(e).first < 0; }

NodePtr accessPath(const TableBinding& binding, std::vector<ExprPtr>& conjuncts, Binder& b) {
  Table& table = *binding.table;
  for (const auto& index : table.indexes()) {
    if (!index->unique()) continue;
    std::vector<int> used(index->columns().size(), -1);
    for (size_t k = 0; k < index->columns().size(); ++k) {
      uint32_t col = index->columns()[k];
      if (auto m = keyEquality(conjuncts, static_cast<int>(col), table.columns()[col].type.id, isConstantValue))
        used[k] = static_cast<int>(m->first) * 2 + m->second;
    }
    if (std::find(used.begin(), used.end(), -1) != used.end()) continue;
    auto n = std::make_unique<Node>(NodeKind::IndexLookup);
    n->table = &table;
    n->index = index.get();
    n->outputTypes = tableRowTypes(table);
    std::vector<size_t> consumed;
    for (size_t k = 0; k < used.size(); ++k) {
      size_t i = used[k] / 2;
      int valueSide = used[k] % 2;
      SqlType keyType = index->keyLayout().types[k];
      n->keys.push_back(b.coerce(std::move(conjuncts[i]->args[valueSide]), keyType, CastContext::Implicit, 0));
      consumed.push_back(i);
    }
    std::sort(consumed.rbegin(), consumed.rend());
    for (size_t i : consumed) conjuncts.erase(conjuncts.begin() + i);
    return n;
  }
  if (NodePtr range = indexRange(table, conjuncts)) return range;
  auto n = std::make_unique<Node>(NodeKind::TableScan);
  n->table = &table;
  n->outputTypes = tableRowTypes(table);
  return n;
}
}  // namespace duet::planner
