// The serial executor: the one thread that runs every statement and owns all table data.
//
// Network threads hand it closures with submit(); it runs them one after another. The
// scheduling rule is FIFO with one exception: while a session holds an open transaction
// block (Session::holdsExecutor() after one of its tasks), only that session's tasks run and
// everyone else's wait queued, so a block sees no interleaved writers. A holder that stays
// idle longer than its Session::idleInTransactionTimeoutMs() is rolled back and released, and
// the idle-timeout handler tells its owner (the network side closes the connection).
//
// Cleanup tasks (submitCleanup) always run, even while another session holds the executor:
// a client that vanished must get its session rolled back and destroyed in any case.
#pragma once
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

#include "session/session_api.h"

namespace duet {

class Executor {
 public:
  // Called on the executor thread after an idle holder was rolled back and released.
  using IdleTimeoutHandler = std::function<void(Session*)>;

  Executor() = default;
  ~Executor();
  Executor(const Executor&) = delete;
  Executor& operator=(const Executor&) = delete;

  void start();
  // Finishes the running task, runs every task still runnable (cleanup tasks included),
  // then discards tasks that wait behind a holder and joins the thread.
  void stop();

  void setIdleTimeoutHandler(IdleTimeoutHandler handler);

  // Thread-safe. owner is the session the task works for (nullptr before one exists).
  // Returns false, discarding the task, once stop() was called.
  // dataFree: the task reads and writes no table data (only Parse/Describe/Close/Sync
  // messages), so it may run while another session holds the executor. Without this a
  // single-threaded client driving several connections (pgbench -M prepared issues a
  // synchronous Parse) would deadlock against its own open block on another connection.
  // besideHolder: the task may also run while another session holds the executor, as long
  // as all it does there is read snapshots (a batch of read-only statements): it runs with
  // runningBesideHolder() true, and whatever it cannot do so it must leave for a later
  // task, submitted without this flag.
  bool submit(Session* owner, std::function<void()> task, bool dataFree = false, bool besideHolder = false);
  // On the executor thread, in a task: whether another session holds the executor (open
  // transaction block) while this task runs beside it.
  static bool runningBesideHolder();
  // Thread-safe. Drops owner's tasks still queued (their client is gone) and queues `task`,
  // which runs regardless of any holder. The task is expected to destroy owner: the executor
  // forgets owner afterwards and never calls it again.
  bool submitCleanup(Session* owner, std::function<void()> task);

 private:
  struct Task {
    Session* owner;
    std::function<void()> fn;
    bool cleanup;
    bool dataFree = false;
    bool besideHolder = false;
  };

  void run();
  // Before sleeping, the executor watches for new tasks a short while: a client waiting on
  // its reply usually sends the next request within microseconds, and a sleeping executor
  // costs a futex wake and two context switches per request. True when a task came.
  bool spinForWork(uint64_t seen);
  std::deque<Task>::iterator findRunnable();
  void releaseIdleHolder(std::unique_lock<std::mutex>& lock);

  std::mutex mutex_;
  std::condition_variable wake_;
  std::atomic<uint64_t> submitted_{0};  // tasks queued so far (changes under mutex_)
  std::atomic<bool> sleeping_{false};   // the executor waits on wake_: submitters notify
  std::deque<Task> queue_;
  Session* holder_ = nullptr;
  std::chrono::steady_clock::time_point holderIdleSince_;
  IdleTimeoutHandler onIdleTimeout_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace duet
