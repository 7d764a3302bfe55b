// The order in which the planner joins the items of a FROM list of inner joins: greedy, by
// estimated sizes, over left-deep trees. From each item in turn it adds, each time, the
// item whose step costs least (the rows it produces, plus the rows of its hash table
// unless a unique key of the item serves the join) among those joined on a unique key
// (either side's), else among those joined on other conditions (whose size the estimate
// cannot bound), and a cross product only when nothing else is left; the start whose whole
// order costs least wins. For up to a dozen items, dynamic programming finds the cheapest
// order by the same costs instead (joinOrder).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace duet::planner {

// One FROM item as the ordering sees it.
struct JoinInput {
  double rows = 1000;       // estimated rows after its own filters
  double tableRows = 1000;  // before them (a table's live rows)
  // Column sets of its unique indexes: an equality on all of them matches one row at most.
  std::vector<std::vector<int>> uniqueKeys;
};

// A condition over several items (bit i: item i). When it is an equality between one
// item's column and a value of the others (`keyItem`, `keyColumn`), a unique key of that
// item may bound the join's size.
struct JoinPredicate {
  uint64_t items = 0;
  int keyItem = -1;
  int keyColumn = -1;
  // An equality of two columns with statistics: the larger of their distinct counts (each
  // row then meets 1/distinct of the other side's, PostgreSQL's eqjoinsel); 0 unknown.
  double distinct = 0;
};

struct JoinOrder {
  std::vector<int> items;     // in join order
  std::vector<double> sizes;  // estimated rows of the join of items[0..i]
};

// For at most 64 items.
JoinOrder greedyJoinOrder(const std::vector<JoinInput>& inputs, const std::vector<JoinPredicate>& predicates);

// The cheapest left-deep order by dynamic programming over the sets of items (2^n sets), with
// the greedy order's costs: the rows of every step plus every hash table's, a step whose
// estimate has no unique key or statistics to stand on counting ten times, a cross product
// a thousand times. It finds orders a greedy choice misses: TPC-H Q5 joins supplier, the
// smallest next step, and then all of its 1.2 million lineitems, where region, nation,
// customer, orders, lineitem keeps every step under 200,000 rows.
JoinOrder dynamicJoinOrder(const std::vector<JoinInput>& inputs, const std::vector<JoinPredicate>& predicates);

// The dynamic order for up to kDynamicItems items (4,096 sets), the greedy one beyond.
inline constexpr size_t kDynamicItems = 12;
JoinOrder joinOrder(const std::vector<JoinInput>& inputs, const std::vector<JoinPredicate>& predicates);

}  // namespace duet::planner
