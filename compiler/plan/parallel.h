// Which parts of a plan a snapshot process runs on several threads (docs/snapshots.md,
// "Parallel queries"). The executor is one thread by design and never gets such plans.
#pragma once
#include <cstdint>

#include "compiler/plan/plan.h"

namespace duet::plan {

// Marks each aggregation whose input is one pipeline driven by a scan of a table of at
// least two chunks (rows reach the aggregate through filters, projections and hash join
// probes), whose aggregates have no DISTINCT, and in whose subtree nothing is unsafe on
// several threads at once (a subquery, a user-defined routine, random(),
// clock_timestamp()): Node::parallelThreads = threads, and the driving scan's morsels.
// Nothing is marked when threads < 2.
void markParallel(Node& root, uint32_t threads);

}  // namespace duet::plan
