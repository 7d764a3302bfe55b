// What the join ordering (join_order.h) is told about a FROM list: each item's estimated
// rows after its own filters, its unique keys, and the join conjuncts between items. The
// estimates are rules of thumb over live row counts until there are statistics (issue 23):
// an equality with a constant keeps a tenth of the rows (or one row when it pins a unique
// key), a range a third, a LIKE what PostgreSQL's like_selectivity makes of its pattern,
// anything else a half. Functions and subqueries count as 1,000 rows, as in PostgreSQL.
#include <algorithm>
#include <bit>

#include "compiler/planner/statement_planner.h"
#include "engine/storage/index.h"
#include "engine/storage/table.h"

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

double conjunctSelectivity(const plan::Expr& c) {
  if (c.kind == ExprKind::And) {
    double sel = 1;
    for (const auto& a : c.args) sel *= conjunctSelectivity(*a);
    return sel;
  }
  if (c.kind == ExprKind::Or) {  // as independent events, like PostgreSQL's clauselist_selectivity_or
    double none = 1;
    for (const auto& a : c.args) none *= 1 - conjunctSelectivity(*a);
    return 1 - none;
  }
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
  for (const auto& c : local) rows *= conjunctSelectivity(*c);
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
  return greedyJoinOrder(inputs, predicates);
}

}  // namespace duet::planner
