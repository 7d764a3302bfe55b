// The greedy join order (compiler/planner/join_order.h) on abstract inputs: sizes, unique
// keys and join predicates, without tables.
#include <catch2/catch.hpp>

#include "compiler/planner/join_order.h"

using duet::planner::greedyJoinOrder;
using duet::planner::JoinInput;
using duet::planner::JoinPredicate;

namespace {

JoinInput input(double rows, double tableRows, std::vector<std::vector<int>> keys = {}) {
  JoinInput in;
  in.rows = rows;
  in.tableRows = tableRows;
  in.uniqueKeys = std::move(keys);
  return in;
}

// a.x = b.y: unkeyed, and keyed on each side's column.
void equality(std::vector<JoinPredicate>& out, int a, int aColumn, int b, int bColumn) {
  uint64_t items = (1ull << a) | (1ull << b);
  out.push_back({items, -1, -1});
  out.push_back({items, a, aColumn});
  out.push_back({items, b, bColumn});
}

}  // namespace

TEST_CASE("greedy join order: no cross product, small and selective first", "[planner][join]") {
  // 0 and 1 share no predicate; 2 joins both.
  std::vector<JoinInput> inputs{input(1000, 1000, {{0}}), input(500, 500, {{0}}), input(100000, 100000)};
  std::vector<JoinPredicate> predicates;
  equality(predicates, 2, 1, 0, 0);  // fact.a = dim0.key
  equality(predicates, 2, 2, 1, 0);  // fact.b = dim1.key
  auto order = greedyJoinOrder(inputs, predicates);
  REQUIRE(order.items.size() == 3);
  // 0 and 1 never meet before 2 joins them.
  CHECK(!((order.items[0] == 0 && order.items[1] == 1) || (order.items[0] == 1 && order.items[1] == 0)));
}

TEST_CASE("greedy join order: a join on a unique key before an equality of non-unique columns", "[planner][join]") {
  // 0: a filtered dimension (10 of 10,000 rows); 1: its facts (key column 0 refers to 0);
  // 2: another table that equals 0 on a non-unique column (many-to-many).
  // 2 is small after its filter, but joined on non-unique columns its rows may multiply.
  std::vector<JoinInput> inputs{input(10, 10000, {{0}}), input(1000000, 1000000, {{0}}), input(5, 30000, {{0}})};
  std::vector<JoinPredicate> predicates;
  equality(predicates, 1, 1, 0, 0);  // facts.ref = dim.key (dim's key: a foreign key)
  equality(predicates, 2, 1, 0, 2);  // other.code = dim.code (neither unique)
  equality(predicates, 2, 0, 1, 2);  // other.key = facts.other (other's key)
  auto order = greedyJoinOrder(inputs, predicates);
  REQUIRE(order.items.size() == 3);
  // Whichever starts, the second joins it on a unique key: 0 and 2 never meet first.
  CHECK(order.items[1] == 1);
}
