// What the join ordering (join_order.h) is told about a FROM list: each item's estimated
// rows after its own filters, its unique keys, and the join conjuncts between items, with
// the distinct values of the columns an equality joins. Where a table has statistics
// (ANALYZE, docs/statistics.md), a conjunct on one of its columns keeps what they say, as
// PostgreSQL's eqsel and scalarineqsel do without most common values: an equality with a
// value (1 - null fraction) / distinct values, a range the share of the histogram on its
// side, IS NULL the null fraction. Otherwise rules of thumb: an equality with a constant
// keeps a tenth of the rows (or one row when it pins a unique key), a range a third, a
// LIKE what PostgreSQL's like_selectivity makes of its pattern, anything else a half.
// Functions and subqueries count as 1,000 rows, as in PostgreSQL.
#include <algorithm>
#include <bit>

#include "compiler/planner/statement_planner.h"
#include "engine/storage/index.h"
#include "engine/storage/table.h"
#include "engine/types/value_io.h"

namespace duet::planner {

namespace {

int entryOf(const Scope& scope, int column) {
  for (size_t i = 0; i < scope.entries.size(); ++i) {
    const auto& e = scope.entries[i];
    if (column >= e.offset && column < e.offset + static_cast<int>(e.names.size())) return static_cast<int>(i);
  }
  return -1;
}

// Whether a value reads no column (a constant or parameter per statement).
bool isConstant(const plan::Expr& e) { return columnRange(e).first < 0; }

}  // namespace

namespace {

// PostgreSQL's like_selectivity for a pattern with no statistics to ask: each literal
// character keeps a fifth, each _ nine tenths, each % (but a leading one) multiplies by
// five; DEFAULT_MATCH_SEL (0.005) for a pattern not known while planning.
double likeSelectivity(const plan::Expr& pattern) {
  const plan::Expr* p = &pattern;
  while (p->kind == ExprKind::Cast) p = p->args[0].get();
  if (p->kind != ExprKind::Const || p->constNull || !isStringType(p->type.id)) return 0.005;
  std::string_view text = p->constString;
  double sel = 1.0;
  for (size_t i = text.starts_with('%') ? 1 : 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\\' && i + 1 < text.size()) {
      ++i;
      sel *= 0.2;
    } else {
      sel *= c == '_' ? 0.9 : c == '%' ? 5.0 : 0.2;
    }
  }
  return std::clamp(sel, 0.0, 1.0);
}

}  // namespace

const ColumnStatistics* columnStatistics(const Table& table, int column) {
  const TableStatistics* s = table.statistics();
  if (!s || column < 0 || column >= static_cast<int>(s->columns.size()) || !s->columns[column].analyzed) return nullptr;
  return &s->columns[column];
}

namespace {

// The share of a column's non-NULL values below `value` by its histogram: the buckets
// wholly below, and half of the one it falls in. -1 without a histogram.
double shareBelow(const ColumnStatistics& s, SqlType type, const void* value) {
  const auto& bounds = s.histogram;
  if (bounds.size() < 2) return -1;
  if (compareValues(type, value, bounds.front()->value()) <= 0) return 0;
  if (compareValues(type, value, bounds.back()->value()) >= 0) return 1;
  size_t i = 1;
  while (compareValues(type, value, bounds[i]->value()) > 0) ++i;
  return (static_cast<double>(i - 1) + 0.5) / static_cast<double>(bounds.size() - 1);
}

// What `table`'s statistics say of a conjunct over its row; -1 when they say nothing.
double statisticsSelectivity(const Table& table, const plan::Expr& c) {
  auto columnOf = [&](const plan::Expr& e) {
    return e.kind == ExprKind::Column ? columnStatistics(table, e.column) : nullptr;
  };
  if (c.kind == ExprKind::IsNull) {
    const ColumnStatistics* s = columnOf(*c.args[0]);
    return !s ? -1 : c.negated ? 1 - s->nullFraction : s->nullFraction;
  }
  if (c.kind == ExprKind::InList) {
    const ColumnStatistics* s = columnOf(*c.args[0]);
    if (!s || s->distinct < 1) return -1;
    bool constants = std::all_of(c.args.begin() + 1, c.args.end(), [](const ExprPtr& a) { return isConstant(*a); });
    double values = static_cast<double>(c.args.size() - 1);
    double in = std::min(1.0, values / s->distinct) * (1 - s->nullFraction);
    return !constants ? -1 : c.negated ? 1 - in - s->nullFraction : in;
  }
  if (c.kind != ExprKind::Compare) return -1;
  int side = columnOf(*c.args[0]) && isConstant(*c.args[1])   ? 0
             : columnOf(*c.args[1]) && isConstant(*c.args[0]) ? 1
                                                              : -1;
  if (side < 0) return -1;
  const ColumnStatistics& s = *columnOf(*c.args[side]);
  double nonNull = 1 - s.nullFraction;
  if (c.op == plan::Op::Eq || c.op == plan::Op::Ne) {
    if (s.distinct < 1) return -1;
    double equal = nonNull / s.distinct;
    return c.op == plan::Op::Eq ? equal : nonNull - equal;
  }
  // A range: against a constant of the column's own fixed-width type, by the histogram.
  const plan::Expr& value = *c.args[1 - side];
  SqlType type = c.args[side]->type;
  if (value.kind != ExprKind::Const || value.constNull || value.type.id != type.id || isVarlenaType(type.id)) return -1;
  double below = shareBelow(s, type, value.constant);
  if (below < 0) return -1;
  bool less = c.op == plan::Op::Lt || c.op == plan::Op::Le;
  if (side == 1) less = !less;  // 5 < x is x > 5
  return nonNull * (less ? below : 1 - below);
}

}  // namespace

double conjunctSelectivity(const plan::Expr& c, const Table* table) {
  if (c.kind == ExprKind::And) {
    double sel = 1;
    for (const auto& a : c.args) sel *= conjunctSelectivity(*a, table);
    return sel;
  }
  if (c.kind == ExprKind::Or) {  // as independent events, like PostgreSQL's clauselist_selectivity_or
    double none = 1;
    for (const auto& a : c.args) none *= 1 - conjunctSelectivity(*a, table);
    return 1 - none;
  }
  if (table)
    if (double sel = statisticsSelectivity(*table, c); sel >= 0) return std::max(sel, 1e-6);
  if (c.kind == ExprKind::Like) {
    double sel = likeSelectivity(*c.args[1]);
    return c.negated ? 1.0 - sel : sel;
  }
  if (c.kind == ExprKind::Compare && (isConstant(*c.args[0]) || isConstant(*c.args[1])))
    return c.op == plan::Op::Eq ? 0.1 : c.op == plan::Op::Ne ? 0.9 : 0.33;
  if (c.kind == ExprKind::IsNull) return c.negated ? 0.9 : 0.1;
  if (c.kind == ExprKind::InList) return std::min(0.5, 0.1 * static_cast<double>(c.args.size() - 1));
  return 0.5;
}

namespace {

// An item's estimated rows: a table's live rows through its own conjuncts (`local`, over
// its row), one when they pin a unique key to constants.
double estimatedRows(const TableBinding* binding, const std::vector<ExprPtr>& local) {
  if (!binding) return 1000;
  const Table& table = *binding->table;
  double rows = std::max<double>(1, static_cast<double>(table.liveRowCount()));
  for (const auto& index : table.indexes()) {
    if (!index->unique()) continue;
    bool pinned = true;
    for (uint32_t column : index->columns()) {
      bool found = false;
      for (const auto& c : local) {
        if (c->kind != ExprKind::Compare || c->op != plan::Op::Eq) continue;
        for (int side = 0; side < 2; ++side)
          found = found || (c->args[side]->kind == ExprKind::Column &&
                            c->args[side]->column == static_cast<int>(column) && isConstant(*c->args[1 - side]));
      }
      pinned = pinned && found;
    }
    if (pinned) return 1;
  }
  for (const auto& c : local) rows *= conjunctSelectivity(*c, &table);
  return std::max(1.0, rows);
}

}  // namespace

bool keysCoverUniqueIndex(const Table& table, const std::vector<ExprPtr>& keys, int offset) {
  for (const auto& index : table.indexes()) {
    if (!index->unique()) continue;
    bool covered = true;
    for (uint32_t column : index->columns()) {
      bool keyed = false;
      for (const auto& k : keys)
        keyed = keyed || (k->kind == ExprKind::Column && k->column == offset + static_cast<int>(column));
      covered = covered && keyed;
    }
    if (covered) return true;
  }
  return false;
}

uint64_t itemsRead(const Scope& scope, const plan::Expr& e) {
  uint64_t items = 0;
  if (e.kind == ExprKind::Column) {
    int entry = entryOf(scope, e.column);
    if (entry >= 0) items |= 1ull << entry;
  }
  for (const auto& a : e.args) items |= itemsRead(scope, *a);
  return items;
}

void relayColumns(const Scope& scope, const std::vector<int>& offset, plan::Expr& e) {
  if (e.kind == ExprKind::Column) {
    int entry = entryOf(scope, e.column);
    e.column = offset[entry] + (e.column - scope.entries[entry].offset);
  }
  for (auto& a : e.args) relayColumns(scope, offset, *a);
}

double columnDistinct(const Table& table, int column) {
  const ColumnStatistics* s = columnStatistics(table, column);
  const TableStatistics* t = table.statistics();
  if (!s || s->distinct < 1 || t->rows < 1) return 0;
  double rows = static_cast<double>(table.liveRowCount());
  return s->pgNDistinct(t->rows) < 0 ? std::max(1.0, s->distinct * rows / t->rows) : s->distinct;
}

namespace {

// The distinct values of a column of an item that is a table with statistics
// (columnDistinct); 0 for anything else. (Each scope entry is one item here.)
double distinctValues(const Scope& scope, const std::vector<const TableBinding*>& bound, const plan::Expr& e) {
  if (e.kind != ExprKind::Column) return 0;
  int item = entryOf(scope, e.column);
  if (item < 0 || !bound[item]) return 0;
  return columnDistinct(*bound[item]->table, e.column - scope.entries[item].offset);
}

}  // namespace

JoinOrder StatementPlanner::chooseJoinOrder(const Scope& scope, const std::vector<const TableBinding*>& bound,
                                            const std::vector<std::vector<ExprPtr>>& local,
                                            const std::vector<std::vector<ExprPtr>>& atStep,
                                            const std::vector<double>& itemShare, std::vector<double>& itemRows) {
  std::vector<JoinInput> inputs(bound.size());
  for (size_t t = 0; t < bound.size(); ++t) {
    JoinInput& in = inputs[t];
    in.rows = itemRows[t] = std::max(1.0, estimatedRows(bound[t], local[t]) * itemShare[t]);
    if (!bound[t]) continue;
    in.tableRows = std::max<double>(1, static_cast<double>(bound[t]->table->liveRowCount()));
    for (const auto& index : bound[t]->table->indexes())
      if (index->unique()) in.uniqueKeys.emplace_back(index->columns().begin(), index->columns().end());
  }
  std::vector<JoinPredicate> predicates;
  for (const auto& conjuncts : atStep)
    for (const auto& c : conjuncts) {
      JoinPredicate p;
      p.items = itemsRead(scope, *c);
      if (std::popcount(p.items) < 2) continue;
      if (c->kind == ExprKind::Compare && c->op == plan::Op::Eq)
        p.distinct = std::max(distinctValues(scope, bound, *c->args[0]), distinctValues(scope, bound, *c->args[1]));
      predicates.push_back(p);
      // An equality keys each side that is a plain column (a.x = b.y keys a by x and b by y).
      if (c->kind == ExprKind::Compare && c->op == plan::Op::Eq)
        for (int side = 0; side < 2; ++side) {
          const plan::Expr& key = *c->args[side];
          if (key.kind != ExprKind::Column) continue;
          int item = entryOf(scope, key.column);
          uint64_t others = itemsRead(scope, *c->args[1 - side]);
          if (others == 0 || ((others >> item) & 1)) continue;
          JoinPredicate keyed = p;
          keyed.keyItem = item;
          keyed.keyColumn = key.column - scope.entries[item].offset;
          predicates.push_back(keyed);
        }
    }
  return joinOrder(inputs, predicates);
}

}  // namespace duet::planner
