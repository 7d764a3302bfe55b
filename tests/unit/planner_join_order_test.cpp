// The greedy and dynamic join orders (compiler/planner/join_order.h) on abstract inputs: sizes, unique
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

TEST_CASE("dynamic join order: TPC-H Q5's items, customer and orders before lineitem", "[planner][join]") {
  enum { region, nation, customer, orders, lineitem, supplier };
  // Rows after each item's filters (region ASIA, orders of one year) and each table's rows;
  // column 0 is each table's key (lineitem's is (0, 1)).
  std::vector<JoinInput> inputs{input(1, 5, {{0}}),
                                input(25, 25, {{0}}),
                                input(150000, 150000, {{0}}),
                                input(227000, 1500000, {{0}}),
                                input(6000000, 6000000, {{0, 1}}),
                                input(10000, 10000, {{0}})};
  std::vector<JoinPredicate> predicates;
  equality(predicates, nation, 2, region, 0);      // n_regionkey = r_regionkey
  equality(predicates, customer, 3, nation, 0);    // c_nationkey = n_nationkey (implied)
  equality(predicates, supplier, 3, nation, 0);    // s_nationkey = n_nationkey
  equality(predicates, customer, 3, supplier, 3);  // c_nationkey = s_nationkey
  equality(predicates, orders, 1, customer, 0);    // o_custkey = c_custkey
  equality(predicates, lineitem, 0, orders, 0);    // l_orderkey = o_orderkey
  equality(predicates, lineitem, 2, supplier, 0);  // l_suppkey = s_suppkey
  auto order = duet::planner::dynamicJoinOrder(inputs, predicates);
  CHECK(order.items == std::vector<int>{region, nation, customer, orders, lineitem, supplier});
  REQUIRE(order.sizes.size() == 6);
  CHECK(order.sizes[4] < 1000000);  // no step near lineitem's 6 million rows
}

TEST_CASE("dynamic join order: a cross product only when nothing else joins", "[planner][join]") {
  // 0 and 1 share no predicate; 2 joins both (the greedy test's shape).
  std::vector<JoinInput> inputs{input(1000, 1000, {{0}}), input(500, 500, {{0}}), input(100000, 100000)};
  std::vector<JoinPredicate> predicates;
  equality(predicates, 2, 1, 0, 0);
  equality(predicates, 2, 2, 1, 0);
  auto order = duet::planner::dynamicJoinOrder(inputs, predicates);
  CHECK(order.items.size() == 3);
  CHECK(order.items[2] != 2);
  CHECK(!((order.items[0] == 0 && order.items[1] == 1) || (order.items[0] == 1 && order.items[1] == 0)));
  // Two items with no predicate at all still get an order.
  std::vector<JoinInput> apart{input(10, 10), input(20, 20)};
  CHECK(duet::planner::dynamicJoinOrder(apart, {}).items.size() == 2);
}
