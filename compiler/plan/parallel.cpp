#include "compiler/plan/parallel.h"

#include <algorithm>

#include "engine/storage/table.h"

namespace duet::plan {
namespace {

// A scan worth sharing out: at least one chunk (morsel) per thread of two.
constexpr uint32_t kMinChunks = 2;

bool threadSafe(const Expr& e) {
  // Subqueries keep per-statement state in the generated function; routines run in the
  // session; random() and clock_timestamp() advance the transaction's recorded state.
  if (e.kind == ExprKind::Subquery || e.kind == ExprKind::RoutineCall) return false;
  if (e.kind == ExprKind::Call && (e.function == "duet_q_random" || e.function == "duet_q_clock_timestamp"))
    return false;
  return std::all_of(e.args.begin(), e.args.end(), [](const ExprPtr& a) { return threadSafe(*a); });
}

bool threadSafe(const Node& n) {
  if (n.kind == NodeKind::FunctionScan || n.kind == NodeKind::ProjectSet || n.kind == NodeKind::Insert ||
      n.kind == NodeKind::Update || n.kind == NodeKind::Delete)
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
    case NodeKind::HashJoin: return drivingScan(*n.children[1]);  // the probe side
    default: return nullptr;
  }
}

}  // namespace

void markParallel(Node& n, uint32_t threads) {
  if (threads < 2) return;
  if (n.kind == NodeKind::Aggregate &&
      std::none_of(n.aggs.begin(), n.aggs.end(), [](const AggSpec& a) { return a.distinct; })) {
    Node* scan = drivingScan(*n.children[0]);
    if (scan && scan->table->directory().count >= kMinChunks && threadSafe(n)) {
      n.parallelThreads = threads;
      scan->morsels = true;
      return;  // one level of parallelism: what runs inside the workers stays serial
    }
  }
  for (auto& c : n.children) markParallel(*c, threads);
}

}  // namespace duet::plan
