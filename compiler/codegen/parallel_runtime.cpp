#include "compiler/codegen/parallel_runtime.h"

#include <system_error>
#include <thread>

#include "engine/types/value.h"

namespace duet::rt {
namespace {

// Thrown in a worker that waits for a join table whose builder failed: the builder's
// error is the one reported.
struct OtherWorkerFailed {};

// A worker's context: the leader's parameters, clock readings and settings, read only.
// No output, undo log or session: a parallel pipeline writes nothing, calls no routine
// and reads no volatile function (compiler/plan/parallel.cpp checks).
std::unique_ptr<QueryContext> workerContext(const QueryContext& leader, ParallelRun* run, uint32_t index) {
  auto c = std::make_unique<QueryContext>();
  c->params = leader.params;
  c->cancel = leader.cancel;
  c->timedOut = leader.timedOut;
  c->typeContext = leader.typeContext;
  c->transactionTimestamp = leader.transactionTimestamp;
  c->statementTimestamp = leader.statementTimestamp;
  c->currentSetting = leader.currentSetting;
  c->parallel = run;
  c->worker = index;
  return c;
}

}  // namespace

ParallelRun::ParallelRun(QueryContext& leader, Worker worker, uint32_t threads) {
  threads = std::max<uint32_t>(threads, 1);
  partials_.assign(threads, nullptr);
  for (uint32_t i = 0; i < threads; ++i) contexts_.push_back(workerContext(leader, this, i));
  auto run = [this, worker](uint32_t i) {
    try {
      worker(contexts_[i].get());
    } catch (const OtherWorkerFailed&) {
      // The failure that stopped it is already recorded.
    } catch (...) {
      fail(std::current_exception());
    }
  };
  std::vector<std::thread> helpers;
  for (uint32_t i = 1; i < threads; ++i) {
    arenas_.push_back(std::make_unique<Arena>());
    try {
      helpers.emplace_back([this, run, i, arena = arenas_.back().get()] {
        setStatementArena(arena);  // strings the worker makes live until the statement ends
        run(i);
      });
    } catch (const std::system_error&) {
      break;  // fewer threads: the morsels are shared out among those that started
    }
  }
  run(0);  // the leader's thread, in the statement's own arena
  for (auto& t : helpers) t.join();
  if (error_) std::rethrow_exception(error_);
  std::erase(partials_, nullptr);  // workers that never started
}

void ParallelRun::fail(std::exception_ptr error) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!error_) error_ = error;
  failed_.store(true);
  joinReady_.notify_all();
}

int64_t ParallelRun::nextMorsel(uint32_t chunkCount) {
  if (failed_.load(std::memory_order_relaxed)) return -1;
  uint32_t c = nextChunk_.fetch_add(1, std::memory_order_relaxed);
  return c < chunkCount ? static_cast<int64_t>(c) : -1;
}

void ParallelRun::setPartial(const QueryContext* worker, GroupTable* partial) {
  partials_[worker->worker] = partial;
}

JoinTable* ParallelRun::sharedJoin(uint32_t slot, const TupleLayout* keyLayout, const TupleLayout* rowLayout,
                                   bool* mustBuild) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (joins_.size() <= slot) joins_.resize(slot + 1);
  SharedJoin& j = joins_[slot];
  if (!j.table) {
    j.table = std::make_unique<JoinTable>(*keyLayout, *rowLayout);
    *mustBuild = true;
    return j.table.get();
  }
  *mustBuild = false;
  joinReady_.wait(lock, [&] { return j.built || failed_.load(); });
  if (!j.built) throw OtherWorkerFailed{};
  return j.table.get();
}

void ParallelRun::joinBuilt(uint32_t slot) {
  std::lock_guard<std::mutex> lock(mutex_);
  joins_[slot].built = true;
  joinReady_.notify_all();
}

}  // namespace duet::rt

using namespace duet::rt;

extern "C" {

ParallelRun* duet_q_parallel_run(QueryContext* leader, ParallelRun::Worker worker, uint32_t threads) {
  leader->parallelRuns.push_back(std::make_shared<ParallelRun>(*leader, worker, threads));
  return leader->parallelRuns.back().get();
}
uint32_t duet_q_parallel_partials(ParallelRun* run) { return static_cast<uint32_t>(run->partials().size()); }
GroupTable* duet_q_parallel_partial(ParallelRun* run, uint32_t i) { return run->partials()[i]; }
void duet_q_parallel_set_partial(QueryContext* worker, GroupTable* partial) {
  worker->parallel->setPartial(worker, partial);
}
int64_t duet_q_morsel_next(QueryContext* worker, uint32_t chunkCount) {
  return worker->parallel->nextMorsel(chunkCount);
}
JoinTable* duet_q_join_shared(QueryContext* worker, uint32_t slot, const duet::TupleLayout* keyLayout,
                              const duet::TupleLayout* rowLayout, bool* mustBuild) {
  return worker->parallel->sharedJoin(slot, keyLayout, rowLayout, mustBuild);
}
void duet_q_join_shared_built(QueryContext* worker, uint32_t slot) { worker->parallel->joinBuilt(slot); }
}
