// Which parts of a plan a snapshot process runs on several threads (docs/snapshots.md,
// "Parallel queries"). The executor is one thread by design and never gets such plans.
#pragma once
#include <cstdint>

#include "compiler/plan/plan.h"

namespace duet::plan {

// Marks the pipeline breakers whose input is one pipeline driven by a scan of a table of
// at least two chunks (rows flow from it through filters, projections and hash join
// probes), in whose subtree nothing is unsafe on several threads at once (a subquery, a
// user-defined routine, random(), clock_timestamp()): an aggregation without DISTINCT, a
// sort, a hash join's build side, a semi join's subquery side that marks the outer rows it
// hashed (Node::semiBuildsOuter). Sets Node::parallelThreads = threads on the breaker and
// `morsels` on the driving scan. When the root itself is such a pipeline with a filter or a
// join in it, the root gets Node::gatherThreads instead: its rows stream from the workers.
// Nothing is marked when threads < 2.
void markParallel(Node& root, uint32_t threads);

}  // namespace duet::plan
