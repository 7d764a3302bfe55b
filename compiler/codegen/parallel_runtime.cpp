#include "compiler/codegen/parallel_runtime.h"

#include <system_error>
#include <thread>

#include "engine/types/value.h"

namespace duet::rt {
namespace {

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
  c->sharedJoins = leader.sharedJoins;
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
}

int64_t ParallelRun::nextMorsel(uint32_t chunkCount) {
  if (failed_.load(std::memory_order_relaxed)) return -1;
  uint32_t c = nextChunk_.fetch_add(1, std::memory_order_relaxed);
  return c < chunkCount ? static_cast<int64_t>(c) : -1;
}

void ParallelRun::setPartial(const QueryContext* worker, void* partial) { partials_[worker->worker] = partial; }

}  // namespace duet::rt

using namespace duet::rt;

extern "C" {

ParallelRun* duet_q_parallel_run(QueryContext* leader, ParallelRun::Worker worker, uint32_t threads) {
  leader->parallelRuns.push_back(std::make_shared<ParallelRun>(*leader, worker, threads));
  return leader->parallelRuns.back().get();
}
uint32_t duet_q_parallel_partials(ParallelRun* run) { return static_cast<uint32_t>(run->partials().size()); }
void* duet_q_parallel_partial(ParallelRun* run, uint32_t i) { return run->partials()[i]; }
void duet_q_parallel_set_partial(QueryContext* worker, void* partial) { worker->parallel->setPartial(worker, partial); }
int64_t duet_q_morsel_next(QueryContext* worker, uint32_t chunkCount) {
  return worker->parallel->nextMorsel(chunkCount);
}
void duet_q_join_share(QueryContext* leader, uint32_t slot, JoinTable* table) {
  if (leader->sharedJoins.size() <= slot) leader->sharedJoins.resize(slot + 1);
  leader->sharedJoins[slot] = table;
}
JoinTable* duet_q_join_shared(QueryContext* worker, uint32_t slot) { return worker->sharedJoins[slot]; }
void duet_q_join_merge(JoinTable* into, ParallelRun* run) {
  for (void* part : run->partials()) into->absorb(*static_cast<JoinTable*>(part));
  into->finish();
}
void duet_q_sorter_merge(TupleBuffer* into, ParallelRun* run) {
  std::vector<Sorter*> parts;
  for (void* part : run->partials()) parts.push_back(static_cast<Sorter*>(part));
  static_cast<Sorter*>(into)->mergeSorted(parts);
}
}
