// The precompiled half of parallel aggregation (compiler/codegen/aggregate_codegen.cpp):
// a run of one generated worker function on several threads of a snapshot process, each
// with a query context of its own, taking morsels (one table chunk each) of the scan that
// drives the pipeline, sharing hash join tables that the first worker to need one builds,
// and leaving one partial group table per worker for the leader to merge.
#pragma once
#include <atomic>
#include <condition_variable>
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
  void setPartial(const QueryContext* worker, GroupTable* partial);
  const std::vector<GroupTable*>& partials() const { return partials_; }
  // The join table of `slot`: *mustBuild is set for the one worker that builds it; the
  // others wait until it calls joinBuilt.
  JoinTable* sharedJoin(uint32_t slot, const TupleLayout* keyLayout, const TupleLayout* rowLayout,
                        bool* mustBuild);
  void joinBuilt(uint32_t slot);

 private:
  void fail(std::exception_ptr error);
  struct SharedJoin {
    std::unique_ptr<JoinTable> table;
    bool built = false;
  };
  std::vector<std::unique_ptr<QueryContext>> contexts_;
  std::vector<std::unique_ptr<Arena>> arenas_;  // the worker threads' statement arenas
  std::vector<GroupTable*> partials_;
  std::atomic<uint32_t> nextChunk_{0};
  std::atomic<bool> failed_{false};
  std::mutex mutex_;
  std::condition_variable joinReady_;
  std::vector<SharedJoin> joins_;
  std::exception_ptr error_;
};

}  // namespace duet::rt

extern "C" {
// Runs `worker` in parallel for the leader's query (ParallelRun), owned by the leader's context.
duet::rt::ParallelRun* duet_q_parallel_run(duet::rt::QueryContext* leader, duet::rt::ParallelRun::Worker worker,
                                           uint32_t threads);
uint32_t duet_q_parallel_partials(duet::rt::ParallelRun* run);
duet::rt::GroupTable* duet_q_parallel_partial(duet::rt::ParallelRun* run, uint32_t i);
void duet_q_parallel_set_partial(duet::rt::QueryContext* worker, duet::rt::GroupTable* partial);
int64_t duet_q_morsel_next(duet::rt::QueryContext* worker, uint32_t chunkCount);
duet::rt::JoinTable* duet_q_join_shared(duet::rt::QueryContext* worker, uint32_t slot,
                                        const duet::TupleLayout* keyLayout, const duet::TupleLayout* rowLayout,
                                        bool* mustBuild);
void duet_q_join_shared_built(duet::rt::QueryContext* worker, uint32_t slot);
}
