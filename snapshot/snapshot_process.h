// One snapshot process as the server sees it: a child fork()ed from the executor thread
// between two transactions, whose copy-on-write image of the database stays as it was at
// the fork. It answers read-only queries, one after another, until its control socket
// closes (docs/snapshots.md).
#pragma once
#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>

#include "session/session_api.h"

namespace duet::snapshot {

struct SnapshotConfig {
  int nice = 10;         // CPU priority of snapshot processes (the executor runs at 0)
  int maxProcesses = 4;  // more forks only for freshness, never for parallelism
};

class SnapshotProcess {
 public:
  // Forks a snapshot of the calling (executor) thread's process. Only call between two
  // transactions, with nothing locked that a query might need. Throws SqlError when the
  // kernel refuses (53200 out of memory, 53000 too many processes).
  static std::shared_ptr<SnapshotProcess> fork(Engine& engine, const SnapshotConfig& config, uint64_t commitCount);
  ~SnapshotProcess();

  pid_t pid() const { return pid_; }
  // Transactions committed before the fork (Engine::commitCount then).
  uint64_t commitCount() const { return commitCount_; }
  std::chrono::steady_clock::time_point forkedAt() const { return forkedAt_; }
  int64_t forkedAtUnixMicros() const { return forkedAtUnixMicros_; }
  double forkMillis() const { return forkMillis_; }

  // Any thread: queues a query whose answer goes to answerFd (the process receives its
  // own copy); false when the process is gone.
  bool send(const SnapshotQuery& query, int answerFd);
  // Queries sent and not yet fully answered (the server counts them down).
  std::atomic<int> running{0};
  // Lets the process finish what it was sent, then exit.
  void retire();
  // Reaps the process if it has exited; true once it has.
  bool reap();
  // An answer stream of it ended early: it died. Its exit may not be waitable yet (the
  // kernel closes a dying process's sockets before it becomes a zombie), so reap() could
  // still call it alive and hand the next query to it.
  std::atomic<bool> died{false};
  // Stops it now (server shutdown) and waits for it.
  void kill();

 private:
  SnapshotProcess() = default;
  pid_t pid_ = -1;
  int controlFd_ = -1;
  bool reaped_ = false;
  uint64_t commitCount_ = 0;
  std::chrono::steady_clock::time_point forkedAt_;
  int64_t forkedAtUnixMicros_ = 0;
  double forkMillis_ = 0;
  std::mutex mutex_;  // controlFd_ between senders and retire()
};

}  // namespace duet::snapshot
