// plan::UsedColumns over plans built by hand: which columns each node's parent reads, and
// which columns a hash join keeps of the rows it hashes (compiler/plan/used_columns.h).
#include <catch2/catch.hpp>

#include "compiler/plan/used_columns.h"

using namespace duet;
using namespace duet::plan;

namespace {

const SqlType kInt{TypeId::Int4, -1};
const SqlType kBool{TypeId::Bool, -1};

// A leaf of `width` int columns (a Values node stands for a scan).
NodePtr leaf(size_t width) {
  auto n = std::make_unique<Node>(NodeKind::Values);
  n->outputTypes.assign(width, kInt);
  return n;
}

ExprPtr col(int c) { return makeColumn(c, kInt); }

ExprPtr equal(ExprPtr a, ExprPtr b) {
  auto e = std::make_unique<Expr>(ExprKind::Compare, kBool);
  e->op = Op::Eq;
  e->args.push_back(std::move(a));
  e->args.push_back(std::move(b));
  return e;
}

NodePtr project(NodePtr child, std::vector<int> columns) {
  auto p = std::make_unique<Node>(NodeKind::Project);
  for (int c : columns) {
    p->exprs.push_back(col(c));
    p->outputTypes.push_back(kInt);
  }
  p->children.push_back(std::move(child));
  return p;
}

// build (4 columns) joined with probe (2 columns) on build.0 = probe.0.
NodePtr hashJoin() {
  auto j = std::make_unique<Node>(NodeKind::HashJoin);
  j->children.push_back(leaf(4));
  j->children.push_back(leaf(2));
  j->outputTypes.assign(6, kInt);
  j->exprs.push_back(col(0));
  j->rightKeys.push_back(col(0));
  return j;
}

std::vector<bool> readOf(const UsedColumns& used, const Node& n) {
  std::vector<bool> r;
  for (size_t c = 0; c < n.outputTypes.size(); ++c) r.push_back(used.read(n, c));
  return r;
}

}  // namespace

TEST_CASE("a hash join keeps the build columns read above it and by its residual predicate, not its keys") {
  NodePtr j = hashJoin();
  j->predicate = equal(col(2), col(5));  // build.2 = probe.1
  Node& join = *j;
  NodePtr root = project(std::move(j), {1, 4});  // build.1, probe.0
  UsedColumns used(*root);
  CHECK(used.storedByHashJoin(join) == std::vector<bool>{false, true, true, false});
  CHECK(readOf(used, *join.children[0]) == std::vector<bool>{true, true, true, false});
  CHECK(readOf(used, *join.children[1]) == std::vector<bool>{true, true});
}

TEST_CASE("a join whose sides are swapped in its row reads each side by its place") {
  NodePtr j = hashJoin();
  j->rightFirst = true;  // probe.0, probe.1, build.0 .. build.3
  Node& join = *j;
  NodePtr root = project(std::move(j), {5});  // build.3
  UsedColumns used(*root);
  CHECK(used.storedByHashJoin(join) == std::vector<bool>{false, false, false, true});
}

TEST_CASE("a semi join stores only what its residual predicate reads of the build rows") {
  NodePtr j = hashJoin();
  j->semi = SemiJoin::Semi;
  j->outputTypes.assign(2, kInt);
  Node& join = *j;
  NodePtr root = project(std::move(j), {1});
  SECTION("without a predicate: nothing") {
    UsedColumns used(*root);
    CHECK(used.storedByHashJoin(join) == std::vector<bool>{false, false, false, false});
    CHECK(readOf(used, *join.children[0]) == std::vector<bool>{true, false, false, false});
  }
  SECTION("with one: the probe row, then the build row") {
    join.predicate = equal(col(0), col(2 + 3));  // probe.0 = build.3
    UsedColumns used(*root);
    CHECK(used.storedByHashJoin(join) == std::vector<bool>{false, false, false, true});
    CHECK(readOf(used, *join.children[1]) == std::vector<bool>{true, true});
  }
  SECTION("hashing the outer rows: what is read above and by the predicate") {
    join.semiBuildsOuter = true;
    UsedColumns used(*root);
    CHECK(used.storedByHashJoin(join) == std::vector<bool>{false, true});
  }
}

TEST_CASE("a sort keeps its keys and the columns read above it") {
  auto sort = std::make_unique<Node>(NodeKind::Sort);
  sort->children.push_back(leaf(5));
  sort->outputTypes.assign(5, kInt);
  sort->sortKeys.push_back({3});
  Node& s = *sort;
  NodePtr root = project(std::move(sort), {1});
  UsedColumns used(*root);
  CHECK(readOf(used, *s.children[0]) == std::vector<bool>{false, true, false, true, false});
}

TEST_CASE("row changes, set operations and subqueries read whole rows") {
  auto append = std::make_unique<Node>(NodeKind::Append);
  append->children.push_back(leaf(3));
  append->outputTypes.assign(3, kInt);
  Node& a = *append;
  NodePtr root = project(std::move(append), {0});
  // A subquery in the projection: its plan's rows are all read.
  auto sub = std::make_shared<Node>(NodeKind::Project);
  sub->children.push_back(leaf(2));
  sub->outputTypes.assign(1, kInt);
  sub->exprs.push_back(col(1));
  auto link = std::make_unique<Expr>(ExprKind::Subquery, kInt);
  link->sublink = Sublink::Scalar;
  link->subplan = sub;
  root->exprs.push_back(std::move(link));
  root->outputTypes.push_back(kInt);
  UsedColumns used(*root);
  CHECK(readOf(used, *a.children[0]) == std::vector<bool>{true, true, true});
  CHECK(readOf(used, *sub->children[0]) == std::vector<bool>{false, true});
}

TEST_CASE("a node outside the analysed plan keeps all its columns") {
  NodePtr j = hashJoin();
  UsedColumns used;
  CHECK(used.storedByHashJoin(*j) == std::vector<bool>{true, true, true, true});
  CHECK(used.read(*j, 5));
}

TEST_CASE("a projection's plain columns that nothing above reads are not read of its input") {
  // The FROM planner's projection into FROM order passes every column on; the aggregate
  // above reads build.2 of them only, so the join table keeps build.2 alone.
  NodePtr j = hashJoin();
  Node& join = *j;
  NodePtr relay = project(std::move(j), {4, 5, 0, 1, 2, 3});
  Node& relayNode = *relay;
  auto agg = std::make_unique<Node>(NodeKind::Aggregate);
  AggSpec sum{};
  sum.kind = AggKind::Sum;
  sum.arg = col(4);
  sum.resultType = kInt;
  agg->aggs.push_back(std::move(sum));
  agg->outputTypes.push_back(kInt);
  agg->children.push_back(std::move(relay));
  UsedColumns used(*agg);
  CHECK(readOf(used, relayNode) == std::vector<bool>{false, false, false, false, true, false});
  CHECK(used.storedByHashJoin(join) == std::vector<bool>{false, false, true, false});
  // A computed expression is evaluated whether or not it is read: its columns are read.
  relayNode.exprs[1] = equal(col(1), col(5));
  UsedColumns computed(*agg);
  CHECK(computed.storedByHashJoin(join) == std::vector<bool>{false, true, true, false});
}
