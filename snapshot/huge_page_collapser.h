// Keeps forks cheap under steady writes (docs/snapshots.md, "Memory"). After a fork, the
// server's first write to a shared huge page splits its mapping into 4 KiB entries, and the
// split stays once the child is gone: the next fork copies 512 page table entries for that
// 2 MiB again. While no forked child is alive (no snapshot, no archive writer), this joins
// split pages back (engine/storage/huge_memory.h, collapseHugeMappings) on a thread of its
// own at low priority, and stops at the next fork.
#pragma once
#include <atomic>
#include <cstdint>
#include <thread>

namespace duet::snapshot {

class HugePageCollapser {
 public:
  explicit HugePageCollapser(int nice = 10) : nice_(nice) {}
  ~HugePageCollapser();  // waits for a pass still running

  // Any one thread, often (the server's maintenance timer). A pass starts when there were
  // forks since the last one, and no child has been alive for two ticks in a row with no
  // fork in between (a child just forked may not be counted as alive yet).
  void tick(bool childrenAlive);

 private:
  void run(uint64_t forksAtStart);

  const int nice_;
  uint64_t quietSince_ = UINT64_MAX;  // fork count seen at the last quiet tick
  uint64_t collapsedAt_ = 0;          // fork count the last whole pass started at
  std::atomic<bool> running_{false};
  std::thread thread_;
};

}  // namespace duet::snapshot
