#include "compiler/planner/access_path.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>

#include "compiler/planner/plan_building.h"
#include "compiler/planner/statement_planner.h"
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

// The column of `table` under an integer widening cast, as the binder compares a smallint
// key with an integer (`(d_id)::integer = $1`), or null.
const plan::Expr* widenedColumn(const plan::Expr& e, const Table& table, int offset = 0) {
  if (e.kind != ExprKind::Cast || e.args[0]->kind != ExprKind::Column) return nullptr;
  const plan::Expr& col = *e.args[0];
  const int column = col.column - offset;
  if (column < 0 || column >= static_cast<int>(table.columns().size()) ||
      col.type.id != table.columns()[column].type.id)
    return nullptr;
  auto width = [](TypeId t) { return t == TypeId::Int2 ? 2 : t == TypeId::Int4 ? 4 : 8; };
  if (!isIntegerType(col.type.id) || !isIntegerType(e.type.id) || width(e.type.id) <= width(col.type.id))
    return nullptr;
  return &col;
}

ExprPtr integerConst(int64_t v, SqlType type) {
  auto c = std::make_unique<plan::Expr>(ExprKind::Const, type);
  if (type.id == TypeId::Int8) {
    std::memcpy(c->constant, &v, sizeof v);
  } else {
    auto v32 = static_cast<int32_t>(v);
    std::memcpy(c->constant, &v32, sizeof v32);
  }
  return c;
}

// A wider integer value as a key of a narrower column: brought into the column's range
// (LEAST(GREATEST(value, min), max)) and cast to its type. A value out of the range finds
// the range's end or nothing, never every match: the comparison itself stays as a filter.
ExprPtr clampedKey(const plan::Expr& value, SqlType columnType) {
  const int64_t min = columnType.id == TypeId::Int2 ? INT16_MIN : INT32_MIN;
  const int64_t max = columnType.id == TypeId::Int2 ? INT16_MAX : INT32_MAX;
  auto atLeast = std::make_unique<plan::Expr>(ExprKind::Greatest, value.type);
  atLeast->op = plan::Op::Gt;
  atLeast->args.push_back(plan::cloneExpr(value));
  atLeast->args.push_back(integerConst(min, value.type));
  auto within = std::make_unique<plan::Expr>(ExprKind::Greatest, value.type);
  within->op = plan::Op::Lt;
  within->args.push_back(std::move(atLeast));
  within->args.push_back(integerConst(max, value.type));
  return plan::makeCast(std::move(within), columnType, false);
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
  bool set = false;                       // value is the key-set conjunct itself
  std::shared_ptr<const plan::Expr> key;  // a widened column's: the value as its key (value points here)
};

// The conjunct as an index bound, if it is one: a plain column (no cast) compared with a
// value that reads no column and has the column's own type, so that the index's order is
// the order the comparison uses. Cross-type comparisons get a cast on one side from the
// binder: a cast value is fine (integer widening), and so is an integer column widened to
// the value's type (the same order), with the value clamped into the column's range.
// `offset`: where the table's columns start in the row c reads (an index join's conjuncts
// read the join row); `valueOk`: what the value may read (by default nothing: a constant).
std::optional<IndexBound> indexBoundOf(const plan::Expr& c, const Table& table, int offset = 0,
                                       const std::function<bool(const plan::Expr&)>& valueOk = isConstantValue) {
  using plan::Op;
  if (offset == 0)
    if (int column = keySetColumn(c, table); column >= 0) return IndexBound{column, Op::Eq, &c, true, nullptr};
  if (c.kind != ExprKind::Compare || c.op == Op::Ne) return std::nullopt;
  const int width = static_cast<int>(table.columns().size());
  for (int side = 0; side < 2; ++side) {
    const plan::Expr& val = *c.args[1 - side];
    const plan::Expr* widened = widenedColumn(*c.args[side], table, offset);
    const plan::Expr& col = widened ? *widened : *c.args[side];
    if (col.kind != ExprKind::Column || col.column < offset || col.column >= offset + width) continue;
    const int column = col.column - offset;
    if (col.type.id != table.columns()[column].type.id) continue;
    if (val.type.id != (widened ? c.args[side]->type.id : col.type.id)) continue;
    if (!valueOk(val)) continue;
    Op op = c.op;
    if (side == 1)
      op = op == Op::Lt ? Op::Gt : op == Op::Le ? Op::Ge : op == Op::Gt ? Op::Lt : op == Op::Ge ? Op::Le : op;
    if (widened) {
      std::shared_ptr<const plan::Expr> key = clampedKey(val, col.type);
      return IndexBound{column, op, key.get(), false, key};
    }
    return IndexBound{column, op, &val, false, nullptr};
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

// An equality of integer column `column` widened to a constant's wider type, as keyEquality.
std::optional<std::pair<size_t, int>> widenedKeyEquality(const std::vector<ExprPtr>& conjuncts, int column,
                                                         const Table& table) {
  for (size_t i = 0; i < conjuncts.size(); ++i) {
    const plan::Expr& c = *conjuncts[i];
    if (c.kind != ExprKind::Compare || c.op != plan::Op::Eq) continue;
    for (int side = 0; side < 2; ++side) {
      const plan::Expr* col = widenedColumn(*c.args[side], table);
      const plan::Expr& value = *c.args[1 - side];
      if (col && col->column == column && value.type.id == c.args[side]->type.id && isConstantValue(value))
        return std::make_pair(i, 1 - side);
    }
  }
  return std::nullopt;
}

// A lookup in a unique index whose every key column the conjuncts pin to a value - one of
// them, when `allowSet`, to a set of values - or null. Uses up those conjuncts (but the
// equalities of widened columns, whose clamped keys may find a row they do not hold).
NodePtr uniqueLookup(Table& table, std::vector<ExprPtr>& conjuncts, Binder& b, bool allowSet) {
  for (const auto& index : table.indexes()) {
    if (!index->unique()) continue;
    std::vector<int> used(index->columns().size(), -1);
    std::vector<bool> widened(index->columns().size(), false);  // kept as a filter too
    int setAt = -1;
    for (size_t k = 0; k < index->columns().size(); ++k) {
      uint32_t col = index->columns()[k];
      if (auto m = keyEquality(conjuncts, static_cast<int>(col), table.columns()[col].type.id, isConstantValue)) {
        used[k] = static_cast<int>(m->first) * 2 + m->second;
        continue;
      }
      if (auto m = widenedKeyEquality(conjuncts, static_cast<int>(col), table)) {
        used[k] = static_cast<int>(m->first) * 2 + m->second;
        widened[k] = true;
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
      if (static_cast<int>(k) == setAt) {
        n->keys.push_back(keySetArray(*conjuncts[i]));
      } else if (widened[k]) {
        n->keys.push_back(clampedKey(*conjuncts[i]->args[valueSide], keyType));
        continue;
      } else {
        n->keys.push_back(b.coerce(std::move(conjuncts[i]->args[valueSide]), keyType, CastContext::Implicit, 0));
      }
      consumed.push_back(i);
    }
    std::sort(consumed.rbegin(), consumed.rend());
    for (size_t i : consumed) conjuncts.erase(conjuncts.begin() + i);
    return n;
  }
  return nullptr;
}

}  // namespace

namespace {

// The rows an index walk over equal values of its first `prefix` key columns is estimated to
// meet, by the columns' statistics (their distinct counts multiplied, at most the rows);
// -1 when a column has none.
double rowsPerPrefix(const Table& table, const std::vector<uint32_t>& key, size_t prefix) {
  double rows = static_cast<double>(table.liveRowCount()), combinations = 1;
  for (size_t k = 0; k < prefix; ++k) {
    const ColumnStatistics* s = columnStatistics(table, static_cast<int>(key[k]));
    if (!s || s->distinct < 1) return -1;
    combinations *= s->distinct;
  }
  return std::max(1.0, rows / std::min(combinations, std::max(1.0, rows)));
}

// An index walk per left row that meets more rows than this reads more than a hash join,
// which reads the table once.
constexpr double kMaxRowsPerProbe = 64;

}  // namespace

NodePtr indexRangeJoin(Table& table, const std::vector<ExprPtr>& local, const std::vector<ExprPtr>& rest, int offset,
                       const std::function<bool(const plan::Expr&)>& fromLeft) {
  using plan::Op;
  struct Found {
    IndexBound bound;
    bool left;  // its value reads the left side
  };
  std::vector<Found> found;
  for (const auto& c : local)
    if (auto ib = indexBoundOf(*c, table); ib && !ib->set) found.push_back({*ib, false});
  for (const auto& c : rest)
    if (auto ib = indexBoundOf(*c, table, offset, fromLeft)) found.push_back({*ib, true});
  auto find = [&](int column, auto pred) -> const Found* {
    for (const auto& f : found)
      if (f.bound.column == column && pred(f.bound)) return &f;
    return nullptr;
  };
  auto equality = [](const IndexBound& ib) { return ib.op == Op::Eq; };
  auto lower = [](const IndexBound& ib) { return ib.op == Op::Gt || ib.op == Op::Ge; };
  auto upper = [](const IndexBound& ib) { return ib.op == Op::Lt || ib.op == Op::Le; };
  Index* best = nullptr;
  size_t bestEq = 0;
  int bestScore = 0;
  for (const auto& index : table.indexes()) {
    if (index->kind() != IndexKind::Ordered) continue;
    const auto& key = index->columns();
    size_t eq = 0;
    bool readsLeft = false;
    for (; eq < key.size(); ++eq) {
      const Found* f = find(static_cast<int>(key[eq]), equality);
      if (!f) break;
      readsLeft = readsLeft || f->left;
    }
    int score = static_cast<int>(eq) * 4;
    // A whole key of an index that is not unique, or a unique key less its last column (the
    // order lines of one order): few rows per left row, unless statistics say otherwise
    // (CH's orders of one district).
    bool bounded = eq == key.size() || (index->unique() && eq + 1 == key.size());
    if (double perProbe = rowsPerPrefix(table, key, eq); bounded && perProbe > kMaxRowsPerProbe) bounded = false;
    if (eq < key.size()) {
      const Found* low = find(static_cast<int>(key[eq]), lower);
      const Found* high = find(static_cast<int>(key[eq]), upper);
      if (low || high) score += 2;
      bounded = bounded || low || high;
      readsLeft = readsLeft || (low && low->left) || (high && high->left);
    }
    // Without a value of the left side, the table's own access path serves as well; and an
    // unbounded prefix (CH's order lines of a warehouse per stock row) can walk most of the
    // table per left row, where a hash join reads it once.
    if (readsLeft && bounded && score > bestScore) {
      best = index.get();
      bestEq = eq;
      bestScore = score;
    }
  }
  if (!best) return nullptr;
  auto n = std::make_unique<Node>(NodeKind::IndexJoin);
  n->table = &table;
  n->index = best;
  const auto& key = best->columns();
  for (size_t k = 0; k < bestEq; ++k)
    n->keys.push_back(plan::cloneExpr(*find(static_cast<int>(key[k]), equality)->bound.value));
  if (bestEq < key.size()) {
    if (const Found* low = find(static_cast<int>(key[bestEq]), lower)) {
      n->rangeLow = plan::cloneExpr(*low->bound.value);
      n->lowInclusive = low->bound.op == Op::Ge;
    }
    if (const Found* high = find(static_cast<int>(key[bestEq]), upper)) {
      n->rangeHigh = plan::cloneExpr(*high->bound.value);
      n->highInclusive = high->bound.op == Op::Le;
    }
  }
  return n;
}

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
