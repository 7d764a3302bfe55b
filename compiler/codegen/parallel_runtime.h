// The precompiled half of parallel pipelines (compiler/codegen/parallel_codegen.cpp): a run
// of one generated worker function on several threads of a snapshot process, each with a
// query context of its own, taking morsels (one table chunk each) of the scan that drives
// the pipeline and leaving one partial result per worker (a group table, a join table's
// rows, a sorted run) for the leader to merge. Hash join tables the pipeline probes are
// built by the leader before the run and shared read-only (QueryContext::sharedJoins).
#pragma once
#include <atomic>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <vector>

#include "compiler/codegen/query_runtime.h"

namespace duet::rt {

class ParallelRun {
 public:
  using Worker = void (*)(QueryContext*);
  // Runs worker on `threads` threads (the calling thread is one of them) and returns
  // once all have finished; rethrows the first error any of them raised.
  ParallelRun(QueryContext& leader, Worker worker, uint32_t threads);

  int64_t nextMorsel(uint32_t chunkCount);  // a chunk index, or -1: no more (or failed)
  void setPartial(const QueryContext* worker, void* partial);
  // The partial results of the workers that ran, in worker order.
  const std::vector<void*>& partials() const { return partials_; }

 private:
  void fail(std::exception_ptr error);
  std::vector<std::unique_ptr<QueryContext>> contexts_;
  std::vector<std::unique_ptr<Arena>> arenas_;  // the worker threads' statement arenas
  std::vector<void*> partials_;
  std::atomic<uint32_t> nextChunk_{0};
  std::atomic<bool> failed_{false};
  std::mutex mutex_;
  std::exception_ptr error_;
};

}  // namespace duet::rt

extern "C" {
// Runs `worker` in parallel for the leader's query (ParallelRun), owned by the leader's context.
duet::rt::ParallelRun* duet_q_parallel_run(duet::rt::QueryContext* leader, duet::rt::ParallelRun::Worker worker,
                                           uint32_t threads);
uint32_t duet_q_parallel_partials(duet::rt::ParallelRun* run);
void* duet_q_parallel_partial(duet::rt::ParallelRun* run, uint32_t i);
void duet_q_parallel_set_partial(duet::rt::QueryContext* worker, void* partial);
int64_t duet_q_morsel_next(duet::rt::QueryContext* worker, uint32_t chunkCount);
// The leader shares a finished join table under `slot` before a run; workers read it.
void duet_q_join_share(duet::rt::QueryContext* leader, uint32_t slot, duet::rt::JoinTable* table);
duet::rt::JoinTable* duet_q_join_shared(duet::rt::QueryContext* worker, uint32_t slot);
// Fills `into` with the rows of the run's partial join tables and finishes it.
void duet_q_join_merge(duet::rt::JoinTable* into, duet::rt::ParallelRun* run);
// Fills the empty sorter `into` with the run's sorted partial runs, merged in order.
void duet_q_sorter_merge(duet::rt::TupleBuffer* into, duet::rt::ParallelRun* run);
}
