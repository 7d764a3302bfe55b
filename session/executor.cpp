#include "session/executor.h"

#include <cstdio>
#include <exception>
#include <vector>

namespace duet {

Executor::~Executor() { stop(); }

void Executor::start() {
  std::lock_guard lock(mutex_);
  if (thread_.joinable()) return;
  stopping_ = false;
  thread_ = std::thread([this] { run(); });
}

void Executor::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  // Destroy the discarded closures outside the lock: they may own connections.
  std::deque<Task> discarded;
  {
    std::lock_guard lock(mutex_);
    discarded.swap(queue_);
    holder_ = nullptr;
  }
}

void Executor::setIdleTimeoutHandler(IdleTimeoutHandler handler) {
  std::lock_guard lock(mutex_);
  onIdleTimeout_ = std::move(handler);
}

namespace {
thread_local bool besideHolderNow = false;
}  // namespace

bool Executor::runningBesideHolder() { return besideHolderNow; }

bool Executor::submit(Session* owner, std::function<void()> task, bool dataFree, bool besideHolder) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return false;
    queue_.push_back(Task{owner, std::move(task), false, dataFree, besideHolder});
    submitted_.fetch_add(1, std::memory_order_release);
  }
  // A spinning executor sees the count; only a sleeping one needs the (costly) wake. It
  // sets sleeping_ under the mutex before waiting, so after our unlock we see it.
  if (sleeping_.load(std::memory_order_acquire)) wake_.notify_one();
  return true;
}

bool Executor::submitCleanup(Session* owner, std::function<void()> task) {
  std::vector<std::function<void()>> dropped;
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return false;
    if (owner != nullptr) {
      for (auto it = queue_.begin(); it != queue_.end();) {
        if (it->owner == owner && !it->cleanup) {
          dropped.push_back(std::move(it->fn));
          it = queue_.erase(it);
        } else {
          ++it;
        }
      }
    }
    queue_.push_back(Task{owner, std::move(task), true});
    submitted_.fetch_add(1, std::memory_order_release);
  }
  if (sleeping_.load(std::memory_order_acquire)) wake_.notify_one();
  return true;
}

std::deque<Executor::Task>::iterator Executor::findRunnable() {
  if (holder_ == nullptr) return queue_.begin();
  for (auto it = queue_.begin(); it != queue_.end(); ++it) {
    if (it->owner == holder_ || it->cleanup || it->dataFree || it->besideHolder) return it;
  }
  return queue_.end();
}

void Executor::releaseIdleHolder(std::unique_lock<std::mutex>& lock) {
  Session* idle = holder_;
  holder_ = nullptr;
  IdleTimeoutHandler handler = onIdleTimeout_;
  lock.unlock();
  idle->rollbackOpenBlock();
  if (handler) handler(idle);
  lock.lock();
}

void Executor::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    auto it = findRunnable();
    if (it != queue_.end()) {
      Task task = std::move(*it);
      queue_.erase(it);
      besideHolderNow = holder_ != nullptr && holder_ != task.owner;
      lock.unlock();
      try {
        task.fn();
      } catch (const std::exception& e) {
        // Tasks report their own errors to their clients; one escaping is a bug, but it
        // must not take the whole server down.
        std::fprintf(stderr, "duet executor: task threw: %s\n", e.what());
      }
      // The session may only be asked on this thread, and a cleanup task destroyed it.
      bool holds = !task.cleanup && task.owner != nullptr && task.owner->holdsExecutor();
      task.fn = nullptr;
      besideHolderNow = false;
      lock.lock();
      if (task.cleanup) {
        if (holder_ == task.owner) holder_ = nullptr;
      } else if (holds) {
        holder_ = task.owner;
        holderIdleSince_ = std::chrono::steady_clock::now();
      } else if (holder_ == task.owner) {
        holder_ = nullptr;
      }
      continue;
    }
    if (stopping_) return;
    uint64_t seen = submitted_.load(std::memory_order_acquire);
    lock.unlock();
    bool more = spinForWork(seen);
    lock.lock();
    // Anything that happened while the lock was let go is looked at first (stop() too).
    if (more || stopping_ || submitted_.load(std::memory_order_acquire) != seen) continue;
    int timeoutMs = holder_ != nullptr ? holder_->idleInTransactionTimeoutMs() : 0;
    sleeping_.store(true, std::memory_order_release);
    if (timeoutMs <= 0) {
      wake_.wait(lock);
    } else {
      auto deadline = holderIdleSince_ + std::chrono::milliseconds(timeoutMs);
      if (std::chrono::steady_clock::now() >= deadline) {
        sleeping_.store(false, std::memory_order_relaxed);
        releaseIdleHolder(lock);
      } else {
        wake_.wait_until(lock, deadline);
      }
    }
    sleeping_.store(false, std::memory_order_relaxed);
  }
}

bool Executor::spinForWork(uint64_t seen) {
  // About the time a client on this machine takes to answer; longer only burns a core.
  constexpr auto kSpin = std::chrono::microseconds(50);
  auto until = std::chrono::steady_clock::now() + kSpin;
  do {
    for (int i = 0; i < 64; ++i) {
      if (submitted_.load(std::memory_order_acquire) != seen) return true;
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    }
  } while (std::chrono::steady_clock::now() < until);
  return false;
}

}  // namespace duet
