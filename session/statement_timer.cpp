#include "session/statement_timer.h"

#include <pthread.h>

#include <new>

namespace duet {

StatementTimer& StatementTimer::instance() {
  static StatementTimer timer;
  // A snapshot process (fork() from the executor) needs a timer of its own: the parent's
  // thread did not come along, and may have held the mutex at the fork.
  static bool forkSafe = [] {
    pthread_atfork([] { timer.mutex_.lock(); }, [] { timer.mutex_.unlock(); }, [] { timer.afterForkInChild(); });
    return true;
  }();
  (void)forkSafe;
  return timer;
}

void StatementTimer::afterForkInChild() {
  // The old thread object names a thread that does not exist here: its storage is reused
  // without destroying it (which would terminate), and the next arm() starts a new one.
  new (&thread_) std::thread();
  new (&wake_) std::condition_variable();
  entries_.clear();
  mutex_.unlock();
}

StatementTimer::~StatementTimer() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

uint64_t StatementTimer::arm(int ms, std::atomic<bool>* cancel, std::atomic<bool>* timedOut) {
  std::lock_guard lock(mutex_);
  if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
  uint64_t ticket = nextTicket_++;
  entries_[ticket] = {std::chrono::steady_clock::now() + std::chrono::milliseconds(ms), cancel, timedOut};
  wake_.notify_all();
  return ticket;
}

void StatementTimer::disarm(uint64_t ticket) {
  std::lock_guard lock(mutex_);
  entries_.erase(ticket);
}

void StatementTimer::run() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    auto now = std::chrono::steady_clock::now();
    auto next = std::chrono::steady_clock::time_point::max();
    for (auto it = entries_.begin(); it != entries_.end();) {
      if (it->second.deadline <= now) {
        it->second.timedOut->store(true);
        it->second.cancel->store(true);
        it = entries_.erase(it);
      } else {
        next = std::min(next, it->second.deadline);
        ++it;
      }
    }
    if (next == std::chrono::steady_clock::time_point::max())
      wake_.wait(lock);
    else
      wake_.wait_until(lock, next);
  }
}

}  // namespace duet
