#include "snapshot/huge_page_collapser.h"

#include <sys/resource.h>
#include <unistd.h>

#include "engine/storage/huge_memory.h"

namespace duet::snapshot {

HugePageCollapser::~HugePageCollapser() {
  if (thread_.joinable()) thread_.join();
}

void HugePageCollapser::tick(bool childrenAlive) {
  if (running_.load()) return;
  if (thread_.joinable()) thread_.join();
  uint64_t forks = forksSoFar();
  if (childrenAlive || forks == collapsedAt_) {
    quietSince_ = UINT64_MAX;
    return;
  }
  if (quietSince_ != forks) {
    quietSince_ = forks;  // quiet now: start at the next tick if it stays so
    return;
  }
  running_.store(true);
  thread_ = std::thread([this, forks] { run(forks); });
}

void HugePageCollapser::run(uint64_t forksAtStart) {
  // Below the executor: the copying competes for its cores.
  ::setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), nice_);
  // Interrupted by a fork: the pages split since still want joining, at a later pass.
  if (!collapseHugeMappings(forksAtStart).interrupted) collapsedAt_ = forksAtStart;
  running_.store(false);
}

}  // namespace duet::snapshot
