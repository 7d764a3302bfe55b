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
  if (childrenAlive) {
    // Only the ranges the server has copied most of since the fork are joined; give it
    // time to copy, and no more often than that.
    quietSince_ = UINT64_MAX;
    if (minOwnPercentWhileAlive_ == 0) return;
    if (forks != aliveFork_) {
      aliveFork_ = forks;
      aliveTicks_ = 0;
      return;
    }
    if (++aliveTicks_ < kAliveTicks) return;
    aliveTicks_ = 0;
    start(forks, minOwnPercentWhileAlive_);
    return;
  }
  aliveFork_ = UINT64_MAX;
  if (forks == collapsedAt_) {
    quietSince_ = UINT64_MAX;
    return;
  }
  if (quietSince_ != forks) {
    quietSince_ = forks;  // quiet now: start at the next tick if it stays so
    return;
  }
  start(forks, 0);
}

void HugePageCollapser::start(uint64_t forks, unsigned minOwnPercent) {
  running_.store(true);
  passes_.fetch_add(1);
  thread_ = std::thread([this, forks, minOwnPercent] { run(forks, minOwnPercent); });
}

void HugePageCollapser::run(uint64_t forksAtStart, unsigned minOwnPercent) {
  // Below the executor: the copying competes for its cores.
  ::setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), nice_);
  // Interrupted by a fork, or leaving ranges a child shared: those still want joining, at
  // a later pass.
  CollapseResult result = collapseHugeMappings(forksAtStart, minOwnPercent);
  if (!result.interrupted && result.shared == 0) collapsedAt_ = forksAtStart;
  running_.store(false);
}

}  // namespace duet::snapshot
