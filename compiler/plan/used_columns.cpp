// UsedColumns: each node's read columns, pushed down from the root. A node reads, of its
// children's rows, what its parent reads of its own rows where it passes columns through,
// and the columns its own expressions read. Kinds that pass nothing through by position
// (row changes, set operations, WITH queries, windows) read all of their children's columns.
#include "compiler/plan/used_columns.h"

namespace duet::plan {
namespace {

using Columns = std::vector<bool>;

// Marks the columns of its input row that `e` reads (not inside its subqueries, which read
// their captures, args of the Subquery). A reference past the row marks all of it.
void markColumns(const Expr& e, Columns& row) {
  if (e.kind == ExprKind::Column || e.kind == ExprKind::Aggregate) {
    if (e.column >= 0 && static_cast<size_t>(e.column) < row.size()) {
      row[static_cast<size_t>(e.column)] = true;
    } else {
      row.assign(row.size(), true);
    }
  }
  for (const auto& a : e.args)
    if (a) markColumns(*a, row);
}

void markColumns(const ExprPtr& e, Columns& row) {
  if (e) markColumns(*e, row);
}

Columns slice(const Columns& row, size_t from, size_t count) {
  return Columns(row.begin() + static_cast<std::ptrdiff_t>(from),
                 row.begin() + static_cast<std::ptrdiff_t>(from + count));
}

// A join's output row (or the row its predicate sees): `first`'s columns, then `second`'s.
void splitJoined(const Columns& joined, size_t firstWidth, Columns& first, Columns& second) {
  for (size_t c = 0; c < first.size(); ++c) first[c] = first[c] || joined[c];
  for (size_t c = 0; c < second.size(); ++c) second[c] = second[c] || joined[firstWidth + c];
}

}  // namespace

UsedColumns::UsedColumns(const Node& root) { require(root, Columns(root.outputTypes.size(), true)); }

UsedColumns::UsedColumns(const Expr& e) { requireSubplans(e); }

bool UsedColumns::read(const Node& n, size_t c) const {
  auto it = read_.find(&n);
  return it == read_.end() || c >= it->second.size() || it->second[c];
}

std::vector<bool> UsedColumns::storedByHashJoin(const Node& join) const {
  auto it = hashStored_.find(&join);
  if (it != hashStored_.end()) return it->second;
  const Node& stored = join.semiBuildsOuter ? *join.children[1] : *join.children[0];
  return Columns(stored.outputTypes.size(), true);
}

void UsedColumns::requireSubplans(const Expr& e) {
  if (e.subplan) require(*e.subplan, Columns(e.subplan->outputTypes.size(), true));
  for (const auto& a : e.args)
    if (a) requireSubplans(*a);
}

void UsedColumns::require(const Node& n, Columns cols) {
  cols.resize(n.outputTypes.size(), true);
  auto [it, first] = read_.try_emplace(&n, cols);
  if (!first) {
    // Reached again (a subquery's plan shared by copies of its expression): go on only
    // when this demand adds columns.
    bool grew = false;
    for (size_t c = 0; c < cols.size(); ++c)
      if (cols[c] && !it->second[c]) it->second[c] = grew = true;
    if (!grew) return;
  }
  const Columns have = it->second;
  forEachExpr(n, [&](const Expr& e) { requireSubplans(e); });

  auto width = [&](size_t child) { return n.children[child]->outputTypes.size(); };
  std::vector<Columns> demand;
  for (const auto& child : n.children) demand.emplace_back(child->outputTypes.size(), false);
  auto all = [&] {
    for (Columns& d : demand) d.assign(d.size(), true);
  };

  switch (n.kind) {
    case NodeKind::Filter:
      demand[0] = have;
      markColumns(n.predicate, demand[0]);
      break;
    case NodeKind::Limit:
    case NodeKind::Materialize: demand[0] = have; break;
    case NodeKind::Sort:
      demand[0] = have;
      for (const SortKey& k : n.sortKeys) demand[0][static_cast<size_t>(k.column)] = true;
      break;
    case NodeKind::Repeat:
      demand[0] = have;
      markColumns(n.exprs[0], demand[0]);
      break;
    case NodeKind::Distinct:
      if (n.exprs.empty()) {
        all();
      } else {
        demand[0] = have;
        for (const auto& e : n.exprs) markColumns(e, demand[0]);
      }
      break;
    case NodeKind::Project:
      // Every expression is computed (a volatile one must be), so every one's columns; but
      // a column passed on that nothing reads needs nothing (the FROM planner's Project
      // putting a join's row in FROM order passes every column of every table on).
      for (size_t c = 0; c < n.exprs.size(); ++c)
        if (have[c] || n.exprs[c]->kind != ExprKind::Column) markColumns(n.exprs[c], demand[0]);
      break;
    case NodeKind::Aggregate: forEachExpr(n, [&](const Expr& e) { markColumns(e, demand[0]); }); break;
    case NodeKind::ProjectSet:
      demand[0] = slice(have, 0, width(0));
      for (const auto& e : n.exprs) markColumns(e, demand[0]);
      break;
    case NodeKind::NestedLoopJoin: {
      Columns joined = have;
      markColumns(n.predicate, joined);
      size_t first = n.rightFirst ? 1 : 0;
      splitJoined(joined, width(first), demand[first], demand[1 - first]);
      for (const auto& e : n.exprs) markColumns(e, demand[0]);  // LATERAL captures
      break;
    }
    case NodeKind::HashJoin: {
      Columns stored;
      if (n.semi != SemiJoin::None) {
        // Output: the probe row; the predicate sees the probe row, then the build row.
        Columns seen(width(1) + width(0), false);
        markColumns(n.predicate, seen);
        Columns probe = slice(seen, 0, width(1));
        for (size_t c = 0; c < probe.size(); ++c) probe[c] = probe[c] || have[c];
        Columns build = slice(seen, width(1), width(0));
        stored = n.semiBuildsOuter ? probe : build;
        demand[1] = probe;
        demand[0] = build;
      } else {
        Columns joined = have;
        markColumns(n.predicate, joined);
        size_t first = n.rightFirst ? 1 : 0;
        splitJoined(joined, width(first), demand[first], demand[1 - first]);
        stored = demand[0];
      }
      hashStored_[&n] = stored;
      for (const auto& e : n.exprs) markColumns(e, demand[0]);
      for (const auto& e : n.rightKeys) markColumns(e, demand[1]);
      break;
    }
    case NodeKind::IndexJoin: {
      // children[0] and the index's table; the keys and bounds are over children[0]'s row.
      size_t tableWidth = n.outputTypes.size() - width(0);
      Columns joined = have;
      markColumns(n.predicate, joined);
      Columns table(tableWidth, false);
      if (n.rightFirst) {
        splitJoined(joined, tableWidth, table, demand[0]);
      } else {
        splitJoined(joined, width(0), demand[0], table);
      }
      for (const auto& e : n.keys) markColumns(e, demand[0]);
      markColumns(n.rangeLow, demand[0]);
      markColumns(n.rangeHigh, demand[0]);
      break;
    }
    default: all(); break;
  }
  for (size_t i = 0; i < n.children.size(); ++i) require(*n.children[i], std::move(demand[i]));
}

}  // namespace duet::plan
