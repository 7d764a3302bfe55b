#include "compiler/planner/join_order.h"

#include <algorithm>
#include <bit>
#include <limits>

namespace duet::planner {
namespace {

bool has(uint64_t set, int item) { return (set >> item) & 1; }

// How much more a step counts in the dynamic order when its estimate has nothing to stand on
// (an equality of non-unique columns without statistics), and when it is a cross product.
constexpr double kUnboundedPenalty = 10;
constexpr double kCrossProductPenalty = 1000;

// Whether the equalities among `predicates` that key item `keyed` to items of `others`
// cover one of its unique keys.
bool uniqueMatch(const JoinInput& input, int keyed, uint64_t others, const std::vector<JoinPredicate>& predicates) {
  for (const auto& key : input.uniqueKeys) {
    bool covered = !key.empty();
    for (int column : key) {
      bool found = false;
      for (const auto& p : predicates)
        found = found || (p.keyItem == keyed && p.keyColumn == column && (p.items & ~(others | (1ull << keyed))) == 0 &&
                          (p.items & others) != 0);
      covered = covered && found;
    }
    if (covered) return true;
  }
  return false;
}

// Estimated rows of joining `item` to the items `joined` (estimated `joinedRows`), whether
// a predicate connects them, whether a unique key of `item` serves the join (an index
// probe per joined row then needs no hash table), and whether a unique key on either side
// does (`bounded`: the estimate then has a key to stand on; an equality between two
// non-unique columns may multiply rows far beyond it).
double joinedSize(const std::vector<JoinInput>& inputs, const std::vector<JoinPredicate>& predicates, uint64_t joined,
                  double joinedRows, int item, bool& connected, bool& keyed, bool& bounded) {
  const JoinInput& in = inputs[item];
  uint64_t both = joined | (1ull << item);
  connected = false;
  keyed = false;
  bounded = false;
  bool equality = false;
  for (const auto& p : predicates) {
    if ((p.items & ~both) != 0 || !has(p.items, item) || (p.items & joined) == 0) continue;
    connected = true;
    equality = equality || p.keyItem >= 0;
  }
  if (!connected) return joinedRows * in.rows;
  if (!equality) return joinedRows * in.rows / 3;  // a range or other condition
  // Equalities of columns whose distinct values are known, each keeping 1/distinct of the
  // pairs; then a unique key below may still bound the estimate more tightly.
  double pairs = joinedRows * in.rows;
  bool counted = false;
  for (const auto& p : predicates)
    if (p.keyItem < 0 && p.distinct > 0 && (p.items & ~both) == 0 && has(p.items, item) && (p.items & joined) != 0) {
      pairs /= p.distinct;
      counted = true;
    }
  // Each joined row meets one row of `item` at most: the filtered share of them.
  if (uniqueMatch(in, item, joined, predicates)) {
    keyed = bounded = true;
    return joinedRows * std::min(1.0, in.rows / in.tableRows);
  }
  // Each row of `item` meets one row of a joined item at most (a foreign key to it): as
  // many joined rows as hold that row, joinedRows / its table's rows (below 1 when a filter
  // kept some of its rows, above when joined rows repeat them: supplier to customers joined
  // on their nation).
  for (int x = 0; x < static_cast<int>(inputs.size()); ++x)
    if (has(joined, x) && uniqueMatch(inputs[x], x, 1ull << item, predicates)) {
      bounded = true;
      return in.rows * joinedRows / inputs[x].tableRows;
    }
  if (counted) {
    bounded = true;
    return std::max(1.0, pairs);
  }
  return std::max(joinedRows, in.rows);
}

// The greedy order from item `first`, and its cost: the rows every step produces plus the
// rows every hash table holds (the smaller side of each join that no unique key serves).
JoinOrder greedyFrom(const std::vector<JoinInput>& inputs, const std::vector<JoinPredicate>& predicates, int first,
                     double& cost) {
  JoinOrder order;
  int n = static_cast<int>(inputs.size());
  uint64_t joined = 1ull << first;
  double rows = inputs[first].rows;
  cost = rows;
  order.items.push_back(first);
  order.sizes.push_back(rows);
  while (static_cast<int>(order.items.size()) < n) {
    int best = -1, bestRank = -1;
    double bestRows = std::numeric_limits<double>::infinity(), bestCost = bestRows;
    for (int i = 0; i < n; ++i) {
      if (has(joined, i)) continue;
      bool connected = false, keyed = false, bounded = false;
      double size = joinedSize(inputs, predicates, joined, rows, i, connected, keyed, bounded);
      double stepCost = size + (keyed ? 0 : std::min(rows, inputs[i].rows));
      // A join on a unique key before one on other conditions, and that before a cross
      // product; then the cheapest step; ties keep FROM order.
      int rank = !connected ? 0 : bounded ? 2 : 1;
      if (rank > bestRank || (rank == bestRank && stepCost < bestCost)) {
        best = i;
        bestRank = rank;
        bestRows = size;
        bestCost = stepCost;
      }
    }
    joined |= 1ull << best;
    rows = std::max(1.0, bestRows);
    cost += bestCost;
    order.items.push_back(best);
    order.sizes.push_back(rows);
  }
  return order;
}

}  // namespace

JoinOrder dynamicJoinOrder(const std::vector<JoinInput>& inputs, const std::vector<JoinPredicate>& predicates) {
  // Per set of items (a bit mask), the cheapest left-deep order found that joins them: its
  // cost, its estimated rows, and its last item (the order of the rest is that of the set
  // without it). Sets are visited in increasing value, so a set's subsets come first.
  struct Best {
    double cost = std::numeric_limits<double>::infinity();
    double rows = 0;
    int last = -1;
  };
  int n = static_cast<int>(inputs.size());
  std::vector<Best> best(size_t{1} << n);
  for (int i = 0; i < n; ++i) best[size_t{1} << i] = {inputs[i].rows, inputs[i].rows, i};
  for (uint64_t set = 1; set < best.size(); ++set) {
    if (std::popcount(set) < 2) continue;
    // The later items first: on equal costs the order nearest FROM order stays.
    for (int i = n - 1; i >= 0; --i) {
      if (!has(set, i)) continue;
      const Best& before = best[set & ~(1ull << i)];
      if (before.last < 0) continue;
      bool connected = false, keyed = false, bounded = false;
      double size = joinedSize(inputs, predicates, set & ~(1ull << i), before.rows, i, connected, keyed, bounded);
      double step = size + (keyed ? 0 : std::min(before.rows, inputs[i].rows));
      // The greedy order's preferences as costs: an equality of non-unique columns may
      // multiply rows far beyond its estimate, and a cross product comes last.
      if (!connected) {
        step *= kCrossProductPenalty;
      } else if (!bounded) {
        step *= kUnboundedPenalty;
      }
      double cost = before.cost + step;
      if (cost < best[set].cost) best[set] = {cost, std::max(1.0, size), i};
    }
  }
  JoinOrder order;
  for (uint64_t set = best.size() - 1; set != 0; set &= ~(1ull << best[set].last)) {
    order.items.push_back(best[set].last);
    order.sizes.push_back(best[set].rows);
  }
  std::reverse(order.items.begin(), order.items.end());
  std::reverse(order.sizes.begin(), order.sizes.end());
  return order;
}

JoinOrder joinOrder(const std::vector<JoinInput>& inputs, const std::vector<JoinPredicate>& predicates) {
  return inputs.size() <= kDynamicItems ? dynamicJoinOrder(inputs, predicates) : greedyJoinOrder(inputs, predicates);
}

JoinOrder greedyJoinOrder(const std::vector<JoinInput>& inputs, const std::vector<JoinPredicate>& predicates) {
  JoinOrder best;
  double bestCost = std::numeric_limits<double>::infinity();
  for (int first = 0; first < static_cast<int>(inputs.size()); ++first) {
    double cost = 0;
    JoinOrder order = greedyFrom(inputs, predicates, first, cost);
    if (cost < bestCost) {
      best = std::move(order);
      bestCost = cost;
    }
  }
  return best;
}

}  // namespace duet::planner
