// statement_timeout: one background thread that raises a session's cancel flag when a
// statement runs past its deadline. Compiled code already polls that flag (per scan chunk,
// loop iteration, ...), so a timed-out statement stops the way a cancelled one does.
#pragma once
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <thread>

namespace duet {

class StatementTimer {
 public:
  static StatementTimer& instance();
  ~StatementTimer();

  // After `ms` milliseconds sets *timedOut, then *cancel, unless disarmed first.
  uint64_t arm(int ms, std::atomic<bool>* cancel, std::atomic<bool>* timedOut);
  void disarm(uint64_t ticket);

 private:
  StatementTimer() = default;
  void run();
  void afterForkInChild();
  struct Entry {
    std::chrono::steady_clock::time_point deadline;
    std::atomic<bool>* cancel;
    std::atomic<bool>* timedOut;
  };
  std::mutex mutex_;
  std::condition_variable wake_;
  std::map<uint64_t, Entry> entries_;
  uint64_t nextTicket_ = 1;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace duet
