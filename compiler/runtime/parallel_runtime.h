// The precompiled half of parallel pipelines (compiler/codegen/parallel_codegen.cpp): a run
// of one generated worker function on several threads of a snapshot process, each with a
// query context of its own, taking morsels (one table chunk each) of the scan that drives
// the pipeline and leaving one partial result per worker (a group table, a join table's
// rows, a sorted run) for the leader to merge. Hash join tables the pipeline probes are
// built by the leader before the run and shared read-only (QueryContext::sharedJoins).
// A gather run streams instead: its workers put the statement's output rows into batches
// that the leader takes and sends on while they go on scanning.
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "compiler/runtime/query_runtime.h"

namespace duet::rt {

class ParallelRun {
 public:
  using Worker = void (*)(QueryContext*);
  // Runs worker on `threads` threads (the calling thread is one of them) and returns
  // once all have finished; rethrows the first error any of them raised. `number` is the
  // worker's in the leader's code tiers (code_tiers.h): the optimised tier's worker runs
  // instead once it is ready, from the start or from a worker's next morsel on.
  ParallelRun(QueryContext& leader, Worker worker, uint32_t number, uint32_t threads);
  // A gather: starts worker on `threads` threads of its own and returns at once; the rows
  // the workers put (of `rowLayout`) come out of nextBatch.
  ParallelRun(QueryContext& leader, Worker worker, uint32_t number, uint32_t threads, const TupleLayout& rowLayout);
  // Stops the workers of a gather that the leader left before its end (an error in the
  // leader) and waits for them.
  ~ParallelRun();
  ParallelRun(const ParallelRun&) = delete;
  ParallelRun& operator=(const ParallelRun&) = delete;

  // A chunk index, or -1: no more (or failed, or the worker is to switch to the optimised
  // tier, which then goes on taking chunks in its context).
  int64_t nextMorsel(QueryContext* worker, uint32_t chunkCount);
  // A worker's partial result (one per worker function that ran: a worker that switched
  // tiers leaves two).
  void setPartial(const QueryContext* worker, void* partial);
  // The partial results of the workers that ran, in worker order.
  const std::vector<void*>& partials() const { return partials_; }

  // Gather: a worker adds an output row to its batch, handing full batches over (and
  // waiting while the leader is kMaxReadyPerThread batches a thread behind).
  void put(const QueryContext* worker, const uint8_t* tuple);
  // The next batch of rows, valid until the next call; null once every worker finished
  // or one failed.
  TupleBuffer* nextBatch();
  void finishGather();  // waits for the workers; rethrows the first error any raised

 private:
  static constexpr size_t kBatchRows = 1024;
  static constexpr size_t kMaxReadyPerThread = 4;
  void createContexts(QueryContext& leader, Worker worker, uint32_t number, uint32_t threads);
  // Starts workers first..threads-1 on threads of their own; returns how many started.
  uint32_t startHelpers(uint32_t first, uint32_t threads);
  // Worker i's function: worker_, then the optimised tier's if it switches.
  void runWorker(uint32_t i);
  void fail(std::exception_ptr error);
  void workerDone(uint32_t i);  // gather: hands its last batch over
  void joinHelpers();
  void addCounts();  // EXPLAIN ANALYZE: the workers' counts into the leader's

  Instrumentation* leaderCounts_ = nullptr;
  std::vector<std::unique_ptr<Instrumentation>> workerCounts_;

  Worker worker_ = nullptr;
  const CodeTiers* tiers_ = nullptr;  // the leader's; null: one tier
  uint32_t number_ = 0;               // the worker's number in tiers_
  std::vector<std::unique_ptr<QueryContext>> contexts_;
  std::vector<std::vector<void*>> workerPartials_;  // by worker, until the run ends
  std::vector<uint8_t> switching_;                  // by worker: to go on in the optimised tier
  std::atomic<uint64_t> morsels_[2] = {0, 0};       // EXPLAIN ANALYZE: taken by the cheap and the optimised tier
  std::vector<std::unique_ptr<Arena>> arenas_;      // the worker threads' statement arenas
  std::vector<std::thread> helpers_;
  std::vector<void*> partials_;
  std::atomic<uint32_t> nextChunk_{0};
  std::atomic<bool> failed_{false};
  std::atomic<bool> stopped_{false};  // the leader left a gather early
  std::mutex mutex_;
  std::exception_ptr error_;
  // Gather state.
  std::optional<TupleLayout> rowLayout_;
  std::vector<std::unique_ptr<TupleBuffer>> filling_;  // per worker
  std::deque<std::unique_ptr<TupleBuffer>> ready_;
  std::unique_ptr<TupleBuffer> reading_;  // the batch the leader reads
  size_t maxReady_ = 0;                   // 0: no limit (the workers run on the leader's thread)
  uint32_t running_ = 0;
  std::condition_variable changed_;
};

}  // namespace duet::rt

extern "C" {
// Runs `worker` in parallel for the leader's query (ParallelRun), owned by the leader's context.
duet::rt::ParallelRun* duet_q_parallel_run(duet::rt::QueryContext* leader, duet::rt::ParallelRun::Worker worker,
                                           uint32_t number, uint32_t threads);
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
// A gather (ParallelRun's streaming form), owned by the leader's context.
duet::rt::ParallelRun* duet_q_gather_start(duet::rt::QueryContext* leader, duet::rt::ParallelRun::Worker worker,
                                           uint32_t number, uint32_t threads, const duet::TupleLayout* rowLayout);
void duet_q_gather_put(duet::rt::QueryContext* worker, const uint8_t* tuple);
duet::rt::TupleBuffer* duet_q_gather_next(duet::rt::ParallelRun* run);
void duet_q_gather_end(duet::rt::ParallelRun* run);
}
