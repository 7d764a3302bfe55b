#include "compiler/planner/parallel.h"

#include <algorithm>

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

}  // namespace

void markParallel(Node& root, uint32_t threads) {
  if (threads < 2) return;
  // The statement's output pipeline itself, when it selects from a big table: the workers
  // stream their rows to the statement's thread, which sends them (no LIMIT above it: a
  // limit would leave them scanning).
  Node* scan = parallelScan(root, root);
  if (scan && selects(root)) {
    root.gatherThreads = threads;
    scan->morsels = true;
    markPipelineJoins(root, threads);
    return;
  }
  markSinks(root, threads);
}

}  // namespace duet::plan
