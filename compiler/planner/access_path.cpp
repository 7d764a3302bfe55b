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

// The conjunct as a set of values for a plain column of `table` (no cast): `column = ANY
// (array)` or `column IN (v1, v2, ...)`, reading no column, of the column's own type.
// Returns the column, or -1.
int keySetColumn(const plan::Expr& c, const Table& table) {
  bool any = c.kind == ExprKind::ArrayCompare && c.sublink == plan::Sublink::Any && c.op == plan::Op::Eq;
  if (!any && c.kind != ExprKind::InList) return -1;
  const plan::Expr& col = *c.args[0];
  if (col.kind != ExprKind::Column || col.column >= static_cast<int>(table.columns().size())) return -1;
  if (col.type.id != table.columns()[col.column].type.id) return -1;
  for (size_t i = 1; i < c.args.size(); ++i) {
    const plan::Expr& v = *c.args[i];
    TypeId type = any ? v.type.elementType().id : v.type.id;
    if (type != col.type.id || columnRange(v).first >= 0) return -1;
  }
  return col.column;
}

// The values of a key-set conjunct as one array: the ANY's array, or ARRAY[v1, v2, ...].
ExprPtr keySetArray(const plan::Expr& c) {
  if (c.kind == ExprKind::ArrayCompare) return plan::cloneExpr(*c.args[1]);
  auto array = std::make_unique<plan::Expr>(ExprKind::ArrayBuild, SqlType::arrayOf(c.args[0]->type));
  for (size_t i = 1; i < c.args.size(); ++i) array->args.push_back(plan::cloneExpr(*c.args[i]));
  return array;
}

// A conjunct `column op value` that can bound an ordered index over that column, or (`set`)
// pin it to each of a set of values.
struct IndexBound {
  int column;   // table column
  plan::Op op;  // Eq, Lt, Le, Gt, Ge with the column on the left
  const plan::Expr* value;
  bool set = false;  // value is the key-set conjunct itself
};

// The conjunct as an index bound, if it is one: a plain column (no cast) compared with a
// value that reads no column and has the column's own type, so that the index's order is
// the order the comparison uses. Cross-type comparisons get a cast on one side from the
// binder; a cast column disqualifies, a cast value is fine (integer widening).
std::optional<IndexBound> indexBoundOf(const plan::Expr& c, const Table& table) {
  using plan::Op;
  if (int column = keySetColumn(c, table); column >= 0) return IndexBound{column, Op::Eq, &c, true};
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
// leading prefix count most, a set of values in it a little less, one range on the next
// column least), or null when none is pinned at all. The conjuncts are left in place: the
// caller filters on all of them, so the range only needs to hold every matching row; the
// first lower and upper bound found serve.
NodePtr indexRange(Table& table, const std::vector<ExprPtr>& conjuncts) {
  using plan::Op;
  std::vector<IndexBound> bounds;
  for (const auto& c : conjuncts)
    if (auto bound = indexBoundOf(*c, table)) bounds.push_back(*bound);
  auto find = [&](int column, auto pred) -> const IndexBound* {
    for (const auto& ib : bounds)
      if (ib.column == column && pred(ib)) return &ib;
    return nullptr;
  };
  auto equality = [](const IndexBound& ib) { return ib.op == Op::Eq && !ib.set; };
  auto set = [](const IndexBound& ib) { return ib.set; };
  auto bound = [](const IndexBound& ib) { return ib.op != Op::Eq; };
  Index* best = nullptr;
  size_t bestEq = 0;
  int bestSet = -1, bestScore = 0;
  for (const auto& index : table.indexes()) {
    if (index->kind() != IndexKind::Ordered) continue;
    const auto& key = index->columns();
    size_t eq = 0;
    int setAt = -1;  // at most one key column takes a set of values
    for (; eq < key.size(); ++eq) {
      if (find(static_cast<int>(key[eq]), equality)) continue;
      if (setAt >= 0 || !find(static_cast<int>(key[eq]), set)) break;
      setAt = static_cast<int>(eq);
    }
    int score = static_cast<int>(eq) * 4 - (setAt >= 0 ? 1 : 0);
    if (eq < key.size() && find(static_cast<int>(key[eq]), bound)) score += 2;
    if (score > bestScore) {
      best = index.get();
      bestEq = eq;
      bestSet = setAt;
      bestScore = score;
    }
  }
  if (!best) return nullptr;
  auto n = std::make_unique<Node>(NodeKind::IndexRange);
  n->table = &table;
  n->index = best;
  n->outputTypes = tableRowTypes(table);
  const auto& key = best->columns();
  for (size_t k = 0; k < bestEq; ++k) {
    int column = static_cast<int>(key[k]);
    n->keys.push_back(static_cast<int>(k) == bestSet ? keySetArray(*find(column, set)->value)
                                                     : plan::cloneExpr(*find(column, equality)->value));
  }
  n->keySet = bestSet;
  if (bestEq < key.size()) {
    int column = static_cast<int>(key[bestEq]);
    if (auto* low = find(column, [](const IndexBound& ib) { return ib.op == Op::Gt || ib.op == Op::Ge; })) {
      n->rangeLow = plan::cloneExpr(*low->value);
      n->lowInclusive = low->op == Op::Ge;
    }
    if (auto* high = find(column, [](const IndexBound& ib) { return ib.op == Op::Lt || ib.op == Op::Le; })) {
      n->rangeHigh = plan::cloneExpr(*high->value);
      n->highInclusive = high->op == Op::Le;
    }
  }
  return n;
}

// A lookup in a unique index whose every key column the conjuncts pin to a value - one of
// them, when `allowSet`, to a set of values - or null. Uses up those conjuncts.
NodePtr uniqueLookup(Table& table, std::vector<ExprPtr>& conjuncts, Binder& b, bool allowSet) {
  for (const auto& index : table.indexes()) {
    if (!index->unique()) continue;
    std::vector<int> used(index->columns().size(), -1);
    int setAt = -1;
    for (size_t k = 0; k < index->columns().size(); ++k) {
      uint32_t col = index->columns()[k];
      if (auto m = keyEquality(conjuncts, static_cast<int>(col), table.columns()[col].type.id, isConstantValue)) {
        used[k] = static_cast<int>(m->first) * 2 + m->second;
        continue;
      }
      for (size_t i = 0; allowSet && setAt < 0 && i < conjuncts.size(); ++i)
        if (keySetColumn(*conjuncts[i], table) == static_cast<int>(col)) {
          used[k] = static_cast<int>(i) * 2;
          setAt = static_cast<int>(k);
        }
    }
    if (std::find(used.begin(), used.end(), -1) != used.end()) continue;
    auto n = std::make_unique<Node>(NodeKind::IndexLookup);
    n->table = &table;
    n->index = index.get();
    n->outputTypes = tableRowTypes(table);
    n->keySet = setAt;
    std::vector<size_t> consumed;
    for (size_t k = 0; k < used.size(); ++k) {
      size_t i = used[k] / 2;
      int valueSide = used[k] % 2;
      SqlType keyType = index->keyLayout().types[k];
      if (static_cast<int>(k) == setAt)
        n->keys.push_back(keySetArray(*conjuncts[i]));
      else
        n->keys.push_back(b.coerce(std::move(conjuncts[i]->args[valueSide]), keyType, CastContext::Implicit, 0));
      consumed.push_back(i);
    }
    std::sort(consumed.rbegin(), consumed.rend());
    for (size_t i : consumed) conjuncts.erase(conjuncts.begin() + i);
    return n;
  }
  return nullptr;
}

}  // namespace

const Index* rangeIndex(const Node& n) {
  if (n.kind == NodeKind::Filter) return rangeIndex(*n.children[0]);
  if (n.kind == NodeKind::IndexLookup && n.keySet >= 0) return n.index;
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
  // A key pinned to single values first: one probe.
  if (NodePtr lookup = uniqueLookup(table, conjuncts, b, false)) return lookup;
  if (NodePtr lookup = uniqueLookup(table, conjuncts, b, true)) return lookup;
  if (NodePtr range = indexRange(table, conjuncts)) return range;
  auto n = std::make_unique<Node>(NodeKind::TableScan);
  n->table = &table;
  n->outputTypes = tableRowTypes(table);
  return n;
}

}  // namespace duet::planner
