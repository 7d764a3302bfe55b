// Keeps forks cheap under steady writes (docs/snapshots.md, "Huge pages"). After a fork,
// the server's first write to a shared huge page splits its mapping into 4 KiB entries, and
// the split stays once the child is gone: the next fork copies 512 page table entries for
// that 2 MiB again. This joins split pages back (engine/storage/huge_memory.h,
// collapseHugeMappings) on a thread of its own at low priority, stopping at the next fork:
// once no forked child is alive (no snapshot, no archive writer), every range; and if asked
// (minOwnPercentWhileAlive), while children live (snapshots forked back to back), half a
// second after the newest fork and every half second after, the ranges the server has by
// then copied most of (a range joined while a child shares part of it costs a copy of that
// part, held until the child ends).
#pragma once
#include <atomic>
#include <cstdint>
#include <thread>

namespace duet::snapshot {

class HugePageCollapser {
 public:
  // minOwnPercentWhileAlive: while children are alive, a split range is joined once at
  // least that share of its pages are the server's alone (copied since the fork); 0: never
  // while children are alive.
  explicit HugePageCollapser(int nice = 10, unsigned minOwnPercentWhileAlive = 0)
      : nice_(nice), minOwnPercentWhileAlive_(minOwnPercentWhileAlive) {}
  ~HugePageCollapser();  // waits for a pass still running

  // Any one thread, every kTick (the server's maintenance timer). With no child alive, a
  // pass starts when there were forks since the last whole one, and no child has been
  // alive for two ticks in a row with no fork in between (a child just forked may not be
  // counted as alive yet). With children alive, a pass starts every kAliveTicks ticks
  // once the newest fork is that old, for the ranges of mostly own pages.
  void tick(bool childrenAlive);
  static constexpr int kAliveTicks = 5;
  uint64_t passesStarted() const { return passes_.load(); }

 private:
  void start(uint64_t forks, unsigned minOwnPercent);
  void run(uint64_t forksAtStart, unsigned minOwnPercent);

  const int nice_;
  const unsigned minOwnPercentWhileAlive_;
  uint64_t quietSince_ = UINT64_MAX;  // fork count seen at the last quiet tick
  uint64_t collapsedAt_ = 0;          // fork count the last whole pass started at
  uint64_t aliveFork_ = UINT64_MAX;   // fork count seen at the last tick with children
  int aliveTicks_ = 0;                // ticks since then, or since the last pass
  std::atomic<bool> running_{false};
  std::atomic<uint64_t> passes_{0};
  std::thread thread_;
};

}  // namespace duet::snapshot
