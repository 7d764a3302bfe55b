// rt::ParallelRun with code tiers (compiler/runtime/code_tiers.h): a run that starts while
// the statement's optimised tier is still being made begins with the cheap tier's workers;
// once the tier is published, each cheap worker stops at its next morsel and the optimised
// worker carries on in its context, so every morsel is taken exactly once and each worker
// function that ran leaves a partial. A run that starts after the publication runs the
// optimised workers only.
#include <catch2/catch.hpp>

#include <atomic>
#include <mutex>
#include <vector>

#include "compiler/runtime/code_tiers.h"
#include "compiler/runtime/parallel_runtime.h"

using duet::rt::CodeTiers;
using duet::rt::ParallelRun;
using duet::rt::QueryContext;

namespace {

constexpr uint32_t kChunks = 200;

// What the workers did, for the checks (one run at a time).
struct Record {
  std::mutex mutex;
  std::vector<int> taken = std::vector<int>(kChunks, 0);     // times each chunk was taken
  std::vector<bool> optimised = std::vector<bool>(kChunks);  // by which tier
  std::atomic<int> calls{0};                                 // worker functions that ran
  std::atomic<bool> wrongFlag{false};                        // a context's optimisedCode disagreed with its worker
  CodeTiers* publishAfterFirstMorsel = nullptr;              // the optimiser "finishes" then
  std::atomic<bool> published{false};
};
Record* record = nullptr;

void workLoop(QueryContext* ctx, bool optimised) {
  // Catch2's assertions are not for other threads: the checks read the record afterwards.
  auto* part = new std::vector<int64_t>();  // freed by the test, through the run's partials
  ++record->calls;
  ctx->parallel->setPartial(ctx, part);
  for (int64_t c; (c = ctx->parallel->nextMorsel(ctx, kChunks)) >= 0;) {
    part->push_back(c);
    {
      std::lock_guard lock(record->mutex);
      ++record->taken[c];
      record->optimised[c] = optimised;
    }
    if (ctx->optimisedCode != optimised) record->wrongFlag = true;
    if (record->publishAfterFirstMorsel && !record->published.exchange(true))
      record->publishAfterFirstMorsel->publish(nullptr, {[](QueryContext* c) { workLoop(c, true); }});
  }
}

void cheapWorker(QueryContext* ctx) { workLoop(ctx, false); }

}  // namespace

TEST_CASE("a parallel run switches its workers to the optimised tier at their next morsel", "[runtime][tiers]") {
  for (uint32_t threads : {1u, 2u, 3u}) {
    INFO(threads << " threads");
    Record r;
    record = &r;
    CodeTiers tiers;
    r.publishAfterFirstMorsel = &tiers;
    QueryContext leader;
    leader.tiers = &tiers;
    ParallelRun run(leader, cheapWorker, 0, threads);
    size_t cheap = 0, optimised = 0;
    for (uint32_t c = 0; c < kChunks; ++c) {
      CHECK(r.taken[c] == 1);
      (r.optimised[c] ? optimised : cheap) += 1;
    }
    CHECK(cheap >= 1);
    CHECK(optimised >= kChunks - 2 * threads);  // at most a morsel or two per cheap worker after it
    CHECK_FALSE(r.wrongFlag);
    // Every worker function that ran left its partial: the switched ones two.
    CHECK(run.partials().size() == static_cast<size_t>(r.calls.load()));
    CHECK(run.partials().size() > threads - 1);
    size_t chunksInPartials = 0;
    for (void* p : run.partials()) {
      auto* part = static_cast<std::vector<int64_t>*>(p);
      chunksInPartials += part->size();
      delete part;
    }
    CHECK(chunksInPartials == kChunks);
  }
  record = nullptr;
}

TEST_CASE("a parallel run started after the publication runs only the optimised workers", "[runtime][tiers]") {
  Record r;
  record = &r;
  CodeTiers tiers;
  tiers.publish(nullptr, {[](QueryContext* c) { workLoop(c, true); }});
  QueryContext leader;
  leader.tiers = &tiers;
  ParallelRun run(leader, cheapWorker, 0, 2);
  for (uint32_t c = 0; c < kChunks; ++c) {
    CHECK(r.taken[c] == 1);
    CHECK(r.optimised[c]);
  }
  CHECK_FALSE(r.wrongFlag);
  CHECK(run.partials().size() == 2);
  for (void* p : run.partials()) delete static_cast<std::vector<int64_t>*>(p);
  record = nullptr;
}
