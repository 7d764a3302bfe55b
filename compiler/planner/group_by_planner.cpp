// GROUP BY: its keys, and the grouping sets of GROUPING SETS, ROLLUP and CUBE expanded as
// PostgreSQL does (the sets of the items multiplied out: GROUP BY a, ROLLUP (b, c) groups
// by (a, b, c), (a, b) and (a); GROUP BY DISTINCT drops repeated sets).
#include <fmt/format.h>

#include <algorithm>

#include "compiler/planner/statement_planner.h"
#include "engine/error.h"

namespace duet::planner {

namespace {

using Sets = std::vector<std::vector<int>>;

// PostgreSQL's limit on the sets one GROUP BY expands to.
constexpr size_t kMaxGroupingSets = 4096;

Sets product(const Sets& a, const Sets& b) {
  Sets out;
  for (const auto& x : a)
    for (const auto& y : b) {
      std::vector<int> set = x;
      for (int k : y)
        if (std::find(set.begin(), set.end(), k) == set.end()) set.push_back(k);
      out.push_back(std::move(set));
    }
  return out;
}

}  // namespace

// One GROUP BY expression: an output column position, an output column's name (when no
// input column has it), or an expression over the FROM row; its index among the keys.
int StatementPlanner::groupKey(const sql::Expr& g, const sql::SelectStmt& s, const Scope& scope,
                               binder::AggContext& agg) {
  ExprPtr key;
  if (g.kind == sql::ExprKind::Literal) {
    size_t index = positionIndex(g, s.targets.size(), "GROUP BY");
    key = b_.bind(*s.targets[index].expr, scope);
  } else if (g.kind == sql::ExprKind::ColumnRef && g.as<sql::ColumnRef>().names.size() == 1 &&
             !hasColumn(scope, g.as<sql::ColumnRef>().names[0])) {
    const std::string& n = g.as<sql::ColumnRef>().names[0];
    const sql::ResTarget* match = nullptr;
    for (const auto& t : s.targets)
      if (t.alias == n) match = &t;
    if (!match) b_.fail(sqlstate::kUndefinedColumn, fmt::format("column \"{}\" does not exist", n), g.location);
    key = b_.bind(*match->expr, scope);
  } else {
    key = b_.bind(g, scope);
  }
  for (size_t i = 0; i < agg.groupExprs.size(); ++i)
    if (binder::exprEquals(*agg.groupExprs[i], *key, &b_.paramClasses())) return static_cast<int>(i);
  requireKeyOperator(key->type, false, g.location);
  agg.groupExprs.push_back(std::move(key));
  return static_cast<int>(agg.groupExprs.size()) - 1;
}

// The sets one GROUP BY item stands for.
Sets StatementPlanner::groupingSetsOf(const sql::Expr& item, const sql::SelectStmt& s, const Scope& scope,
                                      binder::AggContext& agg) {
  // A ROLLUP or CUBE element, or a set in GROUPING SETS: (a, b) groups its keys together.
  auto keysOf = [&](const sql::Expr& e) {
    std::vector<int> keys;
    if (e.kind == sql::ExprKind::Row) {
      for (const auto& a : e.as<sql::RowExpr>().args) keys.push_back(groupKey(*a, s, scope, agg));
    } else {
      keys.push_back(groupKey(e, s, scope, agg));
    }
    return keys;
  };
  if (item.kind != sql::ExprKind::GroupingSet) return {keysOf(item)};
  const auto& set = item.as<sql::GroupingSet>();
  std::vector<std::vector<int>> elements;
  Sets sets;
  switch (set.set) {
    case sql::GroupingSetKind::Empty: return {{}};
    case sql::GroupingSetKind::Sets:
      for (const auto& i : set.items) {
        Sets inner = i->kind == sql::ExprKind::GroupingSet ? groupingSetsOf(*i, s, scope, agg) : Sets{keysOf(*i)};
        sets.insert(sets.end(), inner.begin(), inner.end());
      }
      return sets;
    case sql::GroupingSetKind::Rollup:
      // (a, b, c), (a, b), (a), ()
      for (const auto& i : set.items) elements.push_back(keysOf(*i));
      for (size_t n = elements.size() + 1; n-- > 0;) {
        std::vector<int> keys;
        for (size_t e = 0; e < n; ++e) keys.insert(keys.end(), elements[e].begin(), elements[e].end());
        sets.push_back(std::move(keys));
      }
      return sets;
    case sql::GroupingSetKind::Cube: {
      // Every subset of the elements, the whole first.
      for (const auto& i : set.items) elements.push_back(keysOf(*i));
      if (elements.size() > 12)
        b_.fail("54001", fmt::format("too many grouping sets present (maximum {})", kMaxGroupingSets), item.location);
      size_t n = elements.size();
      for (size_t mask = (size_t(1) << n); mask-- > 0;) {
        std::vector<int> keys;
        for (size_t e = 0; e < n; ++e)
          if (mask & (size_t(1) << (n - 1 - e))) keys.insert(keys.end(), elements[e].begin(), elements[e].end());
        sets.push_back(std::move(keys));
      }
      return sets;
    }
  }
  return sets;
}

Sets StatementPlanner::bindGroupBy(const sql::SelectStmt& s, const Scope& scope, binder::AggContext& agg) {
  Binder::Clause clause(b_, "GROUP BY");
  bool anySets = false;
  Sets sets{{}};
  for (const auto& g : s.groupBy) {
    anySets = anySets || g->kind == sql::ExprKind::GroupingSet;
    sets = product(sets, groupingSetsOf(*g, s, scope, agg));
    if (sets.size() > kMaxGroupingSets)
      b_.fail("54001", fmt::format("too many grouping sets present (maximum {})", kMaxGroupingSets), g->location);
  }
  if (s.groupByDistinct) {
    // Sets of the same keys, in whatever order, are one set.
    Sets distinct;
    for (auto& set : sets) {
      std::sort(set.begin(), set.end());
      if (std::find(distinct.begin(), distinct.end(), set) == distinct.end()) distinct.push_back(set);
    }
    sets = std::move(distinct);
  }
  // One set of every key is a plain GROUP BY (GROUP BY () a plain aggregate).
  if (!anySets || (sets.size() == 1 && sets[0].size() == agg.groupExprs.size())) return {};
  return sets;
}

}  // namespace duet::planner
