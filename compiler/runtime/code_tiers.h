// A statement's optimised tier as the runtime sees it (adaptive compilation, docs/codegen.md
// "Compile tiers"). A statement first runs the code of its cheap tier while the optimiser
// thread compiles the same IR optimised; when that is done its addresses are published here
// once. The statement's next run calls the optimised entry; a parallel run (ParallelRun)
// that starts after the publication runs the optimised workers, and one running then
// switches each of its workers at the worker's next morsel.
#pragma once
#include <atomic>
#include <cstdint>
#include <vector>

namespace duet::rt {

struct QueryContext;

struct CodeTiers {
  using Function = void (*)(QueryContext*);
  Function entry = nullptr;
  std::vector<Function> workers;  // by worker number (the order the code generator made them)

  // Sets the addresses, then marks them ready (once; release).
  void publish(Function optimisedEntry, std::vector<Function> optimisedWorkers) {
    entry = optimisedEntry;
    workers = std::move(optimisedWorkers);
    ready_.store(true, std::memory_order_release);
  }
  bool ready() const { return ready_.load(std::memory_order_acquire); }
  // The optimised tier's worker `number`, or null while it is not ready.
  Function worker(uint32_t number) const { return ready() && number < workers.size() ? workers[number] : nullptr; }

 private:
  std::atomic<bool> ready_{false};
};

}  // namespace duet::rt
