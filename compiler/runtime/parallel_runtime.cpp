#include "compiler/runtime/parallel_runtime.h"

#include <system_error>
#include <thread>

#include "compiler/runtime/code_tiers.h"
#include "compiler/runtime/instrumentation.h"
#include "engine/types/value.h"

namespace duet::rt {
namespace {

// A worker's context: the leader's parameters, clock readings and settings, read only.
// No output, undo log or session: a parallel pipeline writes nothing, calls no routine
// and reads no volatile function (compiler/planner/parallel.cpp checks).
std::unique_ptr<QueryContext> workerContext(const QueryContext& leader, ParallelRun* run, uint32_t index) {
  auto c = std::make_unique<QueryContext>();
  c->params = leader.params;
  c->cancel = leader.cancel;
  c->timedOut = leader.timedOut;
  c->typeContext = leader.typeContext;
  c->transactionTimestamp = leader.transactionTimestamp;
  c->statementTimestamp = leader.statementTimestamp;
  c->settings = leader.settings;
  c->sharedJoins = leader.sharedJoins;
  c->parallel = run;
  c->worker = index;
  return c;
}

// Thrown in a gather's worker once the run stops or another worker failed: not an error
// of its own.
struct Stopped {};

}  // namespace

void ParallelRun::createContexts(QueryContext& leader, Worker worker, uint32_t number, uint32_t threads) {
  tiers_ = leader.tiers;
  number_ = number;
  worker_ = worker;
  // The optimised tier from the start, when it is there already.
  Worker optimised = tiers_ ? tiers_->worker(number) : nullptr;
  if (optimised) worker_ = optimised;
  workerPartials_.resize(threads);
  switching_.assign(threads, 0);
  for (uint32_t i = 0; i < threads; ++i) {
    contexts_.push_back(workerContext(leader, this, i));
    contexts_.back()->optimisedCode = optimised != nullptr;
  }
  // EXPLAIN ANALYZE: each worker counts apart; the counts join the leader's at the end.
  if (Instrumentation* counts = leader.instrumentation) {
    leaderCounts_ = counts;
    for (auto& c : contexts_) {
      workerCounts_.push_back(std::make_unique<Instrumentation>(counts->timing, counts->nodes.size()));
      c->instrumentation = workerCounts_.back().get();
    }
  }
}

void ParallelRun::addCounts() {
  if (!leaderCounts_) return;
  for (auto& counts : workerCounts_) {
    counts->finish();
    leaderCounts_->absorb(*counts);
  }
  workerCounts_.clear();
  leaderCounts_->cheapMorsels += morsels_[0].load();
  leaderCounts_->optimisedMorsels += morsels_[1].load();
}

void ParallelRun::runWorker(uint32_t i) {
  QueryContext* c = contexts_[i].get();
  try {
    worker_(c);
    // It stopped taking morsels for the optimised tier (nextMorsel), which carries on in
    // the same context with a partial of its own.
    if (switching_[i]) {
      c->optimisedCode = true;
      tiers_->workers[number_](c);
    }
  } catch (const Stopped&) {
  } catch (...) {
    fail(std::current_exception());
  }
  if (rowLayout_) workerDone(i);
}

uint32_t ParallelRun::startHelpers(uint32_t first, uint32_t threads) {
  uint32_t started = 0;
  for (uint32_t i = first; i < threads; ++i) {
    arenas_.push_back(std::make_unique<Arena>());
    try {
      helpers_.emplace_back([this, i, arena = arenas_.back().get()] {
        setStatementArena(arena);  // strings the worker makes live until the statement ends
        runWorker(i);
      });
      ++started;
    } catch (const std::system_error&) {
      break;  // fewer threads: the morsels are shared out among those that started
    }
  }
  return started;
}

void ParallelRun::joinHelpers() {
  for (auto& t : helpers_)
    if (t.joinable()) t.join();
}

ParallelRun::ParallelRun(QueryContext& leader, Worker worker, uint32_t number, uint32_t threads) {
  threads = std::max<uint32_t>(threads, 1);
  createContexts(leader, worker, number, threads);
  startHelpers(1, threads);
  runWorker(0);  // the leader's thread, in the statement's own arena
  joinHelpers();
  if (error_) std::rethrow_exception(error_);
  addCounts();
  for (const auto& parts : workerPartials_) partials_.insert(partials_.end(), parts.begin(), parts.end());
}

ParallelRun::ParallelRun(QueryContext& leader, Worker worker, uint32_t number, uint32_t threads,
                         const TupleLayout& rowLayout)
    : rowLayout_(rowLayout) {
  threads = std::max<uint32_t>(threads, 1);
  createContexts(leader, worker, number, threads);
  filling_.resize(threads);
  maxReady_ = kMaxReadyPerThread * threads;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    running_ = threads;  // lowered below for those that did not start
  }
  uint32_t started = startHelpers(0, threads);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    running_ -= threads - started;
    if (started == 0) {
      maxReady_ = 0;  // nobody else would take the batches: keep them all
      ++running_;
    }
  }
  if (started == 0) runWorker(0);
}

ParallelRun::~ParallelRun() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopped_.store(true);
  }
  changed_.notify_all();
  joinHelpers();
}

void ParallelRun::fail(std::exception_ptr error) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!error_) error_ = error;
    failed_.store(true);
  }
  changed_.notify_all();
}

void ParallelRun::put(const QueryContext* worker, const uint8_t* tuple) {
  std::unique_ptr<TupleBuffer>& batch = filling_[worker->worker];
  if (!batch) batch = std::make_unique<TupleBuffer>(*rowLayout_);
  batch->append(tuple);
  if (batch->size() < kBatchRows) return;
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return maxReady_ == 0 || ready_.size() < maxReady_ || stopped_ || failed_; });
  if (stopped_ || failed_) throw Stopped{};
  ready_.push_back(std::move(batch));
  changed_.notify_all();
}

void ParallelRun::workerDone(uint32_t i) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (filling_[i] && filling_[i]->size() && !failed_) ready_.push_back(std::move(filling_[i]));
    --running_;
  }
  changed_.notify_all();
}

TupleBuffer* ParallelRun::nextBatch() {
  reading_.reset();
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return !ready_.empty() || running_ == 0 || failed_; });
  if (failed_ || ready_.empty()) return nullptr;
  reading_ = std::move(ready_.front());
  ready_.pop_front();
  changed_.notify_all();  // room for a waiting worker's batch
  return reading_.get();
}

void ParallelRun::finishGather() {
  joinHelpers();
  if (error_) std::rethrow_exception(error_);
  addCounts();
}

int64_t ParallelRun::nextMorsel(QueryContext* worker, uint32_t chunkCount) {
  if (failed_.load(std::memory_order_relaxed) || stopped_.load(std::memory_order_relaxed)) return -1;
  if (!worker->optimisedCode && tiers_ && tiers_->ready() && nextChunk_.load(std::memory_order_relaxed) < chunkCount) {
    switching_[worker->worker] = 1;  // its worker function ends here; runWorker goes on
    return -1;
  }
  uint32_t c = nextChunk_.fetch_add(1, std::memory_order_relaxed);
  if (c >= chunkCount) return -1;
  if (leaderCounts_) morsels_[worker->optimisedCode ? 1 : 0].fetch_add(1, std::memory_order_relaxed);
  return static_cast<int64_t>(c);
}

void ParallelRun::setPartial(const QueryContext* worker, void* partial) {
  workerPartials_[worker->worker].push_back(partial);
}

}  // namespace duet::rt

using namespace duet::rt;

extern "C" {

ParallelRun* duet_q_parallel_run(QueryContext* leader, ParallelRun::Worker worker, uint32_t number, uint32_t threads) {
  leader->parallelRuns.push_back(std::make_shared<ParallelRun>(*leader, worker, number, threads));
  return leader->parallelRuns.back().get();
}
uint32_t duet_q_parallel_partials(ParallelRun* run) { return static_cast<uint32_t>(run->partials().size()); }
void* duet_q_parallel_partial(ParallelRun* run, uint32_t i) { return run->partials()[i]; }
void duet_q_parallel_set_partial(QueryContext* worker, void* partial) { worker->parallel->setPartial(worker, partial); }
int64_t duet_q_morsel_next(QueryContext* worker, uint32_t chunkCount) {
  return worker->parallel->nextMorsel(worker, chunkCount);
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
ParallelRun* duet_q_gather_start(QueryContext* leader, ParallelRun::Worker worker, uint32_t number, uint32_t threads,
                                 const duet::TupleLayout* rowLayout) {
  leader->parallelRuns.push_back(std::make_shared<ParallelRun>(*leader, worker, number, threads, *rowLayout));
  return leader->parallelRuns.back().get();
}
void duet_q_gather_put(QueryContext* worker, const uint8_t* tuple) { worker->parallel->put(worker, tuple); }
TupleBuffer* duet_q_gather_next(ParallelRun* run) { return run->nextBatch(); }
void duet_q_gather_end(ParallelRun* run) { run->finishGather(); }
void duet_q_sorter_merge(TupleBuffer* into, ParallelRun* run) {
  std::vector<Sorter*> parts;
  for (void* part : run->partials()) parts.push_back(static_cast<Sorter*>(part));
  static_cast<Sorter*>(into)->mergeSorted(parts);
}
}
