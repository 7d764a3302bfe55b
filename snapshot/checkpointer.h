// Checkpoints (docs/logging.md, "Archives"): a child fork()ed from the executor between two
// transactions writes the whole database to an archive file tagged with the last LSN the
// log had then, while the parent goes on committing. Once the archive is in place, the child
// removes older archives but the one before it, and the log segments only those needed.
//
// Started by CHECKPOINT (request), and by tick() when checkpoint_timeout has passed with
// commits since the last archive, or max_wal_size of log has been written since.
#pragma once
#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "logging/redo_log.h"
#include "session/executor.h"
#include "session/session_api.h"

namespace duet::snapshot {

struct CheckpointConfig {
  std::string archiveDir;                       // DATADIR/archive
  std::string logDir;                           // DATADIR/log: segments an archive made unneeded go
  std::chrono::milliseconds interval{300'000};  // checkpoint_timeout (PostgreSQL: 5 min)
  uint64_t logBytes = uint64_t{1} << 30;        // max_wal_size (PostgreSQL: 1 GB)
  int nice = 10;                                // the child's CPU priority
  // After a failed archive, timed and volume checkpoints wait this long before trying again.
  std::chrono::milliseconds retryAfterFailure{10'000};
};

class Checkpointer {
 public:
  // lastArchiveLsn: the archive recovery loaded (0: none). The executor must outlive the
  // checkpointer's use of it: destroy the checkpointer after Executor::stop().
  Checkpointer(Engine& engine, Executor& executor, logging::RedoLog& log, CheckpointConfig config,
               uint64_t lastArchiveLsn);
  // Kills an archive still being written (its temporary file is removed at the next start).
  ~Checkpointer();
  Checkpointer(const Checkpointer&) = delete;
  Checkpointer& operator=(const Checkpointer&) = delete;

  // Any thread: an archive holding every commit so far; done (may be empty) gets "" once it
  // is in place, else what failed. Runs on the thread that calls tick(), or on the executor.
  void request(std::function<void(const std::string& error)> done);
  // Any thread, often (the server's maintenance timer): reaps a finished child, starts one
  // when requested or due.
  void tick();
  // Any thread: an archive writer is running (forked, not yet reaped).
  bool writing() const;

 private:
  using Waiter = std::function<void(const std::string&)>;
  void startOnExecutor();
  bool due(std::chrono::steady_clock::time_point now) const;  // mutex_ held
  // After the child ended: the newest archive's LSN, time and log position; returns the
  // waiters.
  std::vector<Waiter> finished(bool ok);  // mutex_ held

  Engine& engine_;
  Executor& executor_;
  logging::RedoLog& log_;
  const CheckpointConfig config_;

  mutable std::mutex mutex_;
  std::vector<Waiter> queued_;   // for the next archive
  std::vector<Waiter> running_;  // for the one being written
  bool wanted_ = false;          // requested, not yet forked
  bool submitted_ = false;       // startOnExecutor is queued on the executor
  pid_t child_ = -1;
  uint64_t childLsn_ = 0;
  uint64_t childLogBytes_ = 0;
  std::chrono::steady_clock::time_point childStarted_;
  uint64_t lastLsn_ = 0;
  uint64_t lastLogBytes_ = 0;  // log bytesWritten() when the newest archive was forked
  std::chrono::steady_clock::time_point lastTime_;
  std::chrono::steady_clock::time_point lastFailure_{};
};

}  // namespace duet::snapshot
