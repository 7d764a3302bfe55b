#include "compiler/planner/parallel.h"

#include <algorithm>
#include <functional>

#include "compiler/functions/builtin_functions.h"
#include "engine/storage/table.h"

namespace duet::plan {
namespace {

// A scan worth sharing out: at least one chunk (morsel) per thread of two.
constexpr uint32_t kMinChunks = 2;

bool threadSafe(const Node& n);

bool threadSafe(const Expr& e) {
  // Routines run in the session; volatile built-ins (random(), clock_timestamp()) advance
  // the transaction's recorded state. A subquery keeps its state in the function that runs
  // it: an uncorrelated scalar or EXISTS one (CH Q22's average balance) runs once in each
  // worker function, reading the frozen snapshot as the leader would, when what it runs is
  // safe; others stay with the leader.
  if (e.kind == ExprKind::RoutineCall) return false;
  if (e.kind == ExprKind::Subquery &&
      (e.captures != 0 || (e.sublink != plan::Sublink::Scalar && e.sublink != plan::Sublink::Exists) ||
       !threadSafe(*e.subplan)))
    return false;
  if (e.kind == ExprKind::Call) {
    const BuiltinFunction* f = builtinFunctionBySymbol(e.function);
    if (f && f->volatility == Volatility::Volatile) return false;
  }
  return std::all_of(e.args.begin(), e.args.end(), [](const ExprPtr& a) { return threadSafe(*a); });
}

bool threadSafe(const Node& n) {
  // A CteScan fills its buffer in the function of the read that runs first.
  if (n.kind == NodeKind::FunctionScan || n.kind == NodeKind::ProjectSet || n.kind == NodeKind::Insert ||
      n.kind == NodeKind::Update || n.kind == NodeKind::Delete || n.kind == NodeKind::CteScan)
    return false;
  bool safe = true;
  forEachExpr(n, [&](const Expr& e) { safe = safe && threadSafe(e); });
  return safe && std::all_of(n.children.begin(), n.children.end(), [](const NodePtr& c) { return threadSafe(*c); });
}

// The table scan whose rows flow to `n`'s consumer without a pipeline break, if any.
Node* drivingScan(Node& n) {
  switch (n.kind) {
    case NodeKind::TableScan: return &n;
    case NodeKind::Filter:
    case NodeKind::Project: return drivingScan(*n.children[0]);
    // The probe side; a FULL JOIN's probe must see every row before its last pass, and a
    // semi join that hashes its outer rows passes them on after all of its subquery's.
    case NodeKind::HashJoin: return n.keepBuildSide || n.semiBuildsOuter ? nullptr : drivingScan(*n.children[1]);
    // Its left rows probe the index (a read of the snapshot's frozen index and table).
    case NodeKind::IndexJoin: return drivingScan(*n.children[0]);
    default: return nullptr;
  }
}

// The driving scan of the pipeline `sink` consumes (its child `input`), when it is worth
// running on several threads and safe to: a table scan of at least kMinChunks chunks, and
// nothing unsafe in the subtree or in the sink's own expressions (aggregate arguments, join
// keys), which the workers evaluate too.
Node* parallelScan(const Node& sink, Node& input) {
  Node* scan = drivingScan(input);
  if (!scan || scan->table->directory().count < kMinChunks || !threadSafe(input)) return nullptr;
  bool safe = true;
  forEachExpr(sink, [&](const Expr& e) { safe = safe && threadSafe(e); });
  return safe ? scan : nullptr;
}

void markPipelineJoins(Node& n, uint32_t threads);
void markSinks(Node& n, uint32_t threads);

// Whether the pipeline from `n` down to its driving scan drops or matches rows (a filter or
// a join probe): a gather of a bare scan would only copy the rows on their way out.
bool selects(const Node& n) {
  switch (n.kind) {
    case NodeKind::Filter:
    case NodeKind::HashJoin:
    case NodeKind::IndexJoin: return true;
    case NodeKind::Project: return selects(*n.children[0]);
    default: return false;
  }
}

// Marks the pipeline `sink` consumes (`input`) to run on `threads` threads when it can:
// its driving scan hands out morsels, the joins it probes are built first. Returns whether
// it did; otherwise what is inside `input` may run in parallel (marked here too).
bool markPipeline(const Node& sink, Node& input, uint32_t threads) {
  Node* scan = parallelScan(sink, input);
  if (!scan) {
    markSinks(input, threads);
    return false;
  }
  scan->morsels = true;
  markPipelineJoins(input, threads);
  return true;
}

// A hash join's build side runs in parallel when it is such a pipeline.
void markJoinBuild(Node& join, uint32_t threads) {
  if (markPipeline(join, *join.children[0], threads)) join.parallelThreads = threads;
}

// The hash joins a pipeline probes, down to its driving scan: the leader builds their
// tables before the pipeline runs, each perhaps in parallel.
void markPipelineJoins(Node& n, uint32_t threads) {
  switch (n.kind) {
    case NodeKind::Filter:
    case NodeKind::Project:
    case NodeKind::IndexJoin: markPipelineJoins(*n.children[0], threads); return;
    case NodeKind::HashJoin:
      markJoinBuild(n, threads);
      markPipelineJoins(*n.children[1], threads);
      return;
    default: return;
  }
}

// Marks the aggregations and sorts whose input can run in parallel, and the hash join
// builds, in the subtree `n`.
void markSinks(Node& n, uint32_t threads) {
  // Aggregates whose workers' states merge: not DISTINCT (a seen set per worker), nor
  // calls that keep their rows (whose order would be the workers'), nor grouping sets.
  bool sink =
      n.kind == NodeKind::Sort || (n.kind == NodeKind::Aggregate && n.groupingSets.empty() &&
                                   std::none_of(n.aggs.begin(), n.aggs.end(), [](const AggSpec& a) {
                                     return a.distinct || a.kind == plan::AggKind::Collected || !a.orderBy.empty();
                                   }));
  if (sink) {
    if (markPipeline(n, *n.children[0], threads)) n.parallelThreads = threads;
    return;
  }
  if (n.kind == NodeKind::HashJoin && n.semiBuildsOuter) {
    // The subquery's rows mark the hashed outer rows: a pipeline of its own, whose workers
    // mark through the shared table. The outer rows it hashes are collected in parallel as
    // a join's build side is.
    if (markPipeline(n, *n.children[0], threads)) n.parallelThreads = threads;
    if (markPipeline(n, *n.children[1], threads)) n.outerBuildThreads = threads;
    return;
  }
  if (n.kind == NodeKind::HashJoin) {  // in a pipeline that stays serial
    markJoinBuild(n, threads);
    markSinks(*n.children[1], threads);
    return;
  }
  for (auto& c : n.children) markSinks(*c, threads);
}

// Whether `n` runs pipelines of its own on several threads (or streams its rows from them).
bool runsParallel(const Node& n) { return n.parallelThreads > 1 || n.outerBuildThreads > 1 || n.gatherThreads > 1; }

// The plans of the subqueries in `e`, and of those inside them.
void subplansIn(const Expr& e, std::vector<Node*>& out);

void subplansIn(Node& n, std::vector<Node*>& out) {
  forEachExpr(n, [&](const Expr& e) { subplansIn(e, out); });
  for (auto& c : n.children) subplansIn(*c, out);
}

void subplansIn(const Expr& e, std::vector<Node*>& out) {
  if (e.subplan) {
    out.push_back(e.subplan.get());
    subplansIn(*e.subplan, out);
  }
  for (const auto& a : e.args) subplansIn(*a, out);
}

// The uncorrelated scalar and EXISTS subqueries in the expressions of nodes the leader
// alone runs - above every node that runs in parallel (a HAVING over a parallel
// aggregation: TPC-H and CH Q11) - into `leader`; every subquery plan at or below such a
// node, which a worker may run, into `workers`.
void collectSubplans(Node& n, std::vector<Node*>& leader, std::vector<Node*>& workers) {
  if (runsParallel(n)) {
    subplansIn(n, workers);
    return;
  }
  forEachExpr(n, [&](const Expr& e) {
    std::function<void(const Expr&)> visit = [&](const Expr& x) {
      if (x.kind == ExprKind::Subquery && x.captures == 0 &&
          (x.sublink == plan::Sublink::Scalar || x.sublink == plan::Sublink::Exists)) {
        leader.push_back(x.subplan.get());
        return;
      }
      if (x.subplan) subplansIn(*x.subplan, workers);  // run per row, or ANY/ALL: left serial
      for (const auto& a : x.args) visit(*a);
    };
    visit(e);
  });
  for (auto& c : n.children) collectSubplans(*c, leader, workers);
}

// The statement's own pipelines: its output streamed from workers when it selects from a
// big table (no LIMIT above it: a limit would leave them scanning), else its sinks.
void markStatement(Node& root, uint32_t threads) {
  Node* scan = parallelScan(root, root);
  if (scan && selects(root)) {
    root.gatherThreads = threads;
    scan->morsels = true;
    markPipelineJoins(root, threads);
    return;
  }
  markSinks(root, threads);
}

// An uncorrelated subquery the leader runs (once, on first use) runs its own pipelines in
// parallel as the statement's do, unless a worker may run the same plan: a worker starts
// no parallel run of its own.
void markLeaderSubplans(Node& root, uint32_t threads) {
  std::vector<Node*> leader, workers;
  collectSubplans(root, leader, workers);
  std::sort(leader.begin(), leader.end());
  leader.erase(std::unique(leader.begin(), leader.end()), leader.end());
  for (Node* sub : leader) {
    if (std::find(workers.begin(), workers.end(), sub) != workers.end()) continue;
    markSinks(*sub, threads);
    markLeaderSubplans(*sub, threads);
  }
}

}  // namespace

void markParallel(Node& root, uint32_t threads) {
  if (threads < 2) return;
  markStatement(root, threads);
  markLeaderSubplans(root, threads);
}

}  // namespace duet::plan
