#include "engine/exec/executor.h"

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

bool Executor::submit(Session* owner, std::function<void()> task, bool dataFree) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return false;
    queue_.push_back(Task{owner, std::move(task), false, dataFree});
  }
  wake_.notify_one();
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
  }
  wake_.notify_one();
  return true;
}

std::deque<Executor::Task>::iterator Executor::findRunnable() {
  if (holder_ == nullptr) return queue_.begin();
  for (auto it = queue_.begin(); it != queue_.end(); ++it) {
    if (it->owner == holder_ || it->cleanup || it->dataFree) return it;
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
    int timeoutMs = holder_ != nullptr ? holder_->idleInTransactionTimeoutMs() : 0;
    if (timeoutMs <= 0) {
      wake_.wait(lock);
      continue;
    }
    auto deadline = holderIdleSince_ + std::chrono::milliseconds(timeoutMs);
    if (std::chrono::steady_clock::now() >= deadline) {
      releaseIdleHolder(lock);
    } else {
      wake_.wait_until(lock, deadline);
    }
  }
}

}  // namespace duet
