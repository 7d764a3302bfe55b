// The memory limit of a statement (53200 "out of memory"): what a statement holds while it
// runs - the runtime's row buffers, sort runs, group and join hash tables, string arenas -
// and the answer that waits in the connection's buffer for the client. On the executor
// every session shares one process, so a statement that would hold more than its session's
// duet.executor_memory_limit fails instead of taking memory from everyone (a snapshot
// process bounds its whole address space instead, duet.snapshot_memory_limit). The counts
// are the calling thread's: the allocators below charge as they grow and release as they
// free, so a loop that frees what it allocated never reaches the limit.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace duet {

// While alive, the calling thread runs a statement limited to `limitBytes` (0: no limit).
// Scopes nest: the outermost one starts the statement's count at zero; inner ones (running
// a statement the outer one planned) keep counting. The limit in force is the innermost's.
class StatementMemoryScope {
 public:
  explicit StatementMemoryScope(int64_t limitBytes);
  ~StatementMemoryScope();
  StatementMemoryScope(const StatementMemoryScope&) = delete;
  StatementMemoryScope& operator=(const StatementMemoryScope&) = delete;

 private:
  int64_t savedLimit_;
};

// Working memory: throws SqlError 53200 when the statement would hold more than its limit
// (then nothing was charged); release never takes the count below zero.
void chargeStatementMemory(size_t bytes);
void releaseStatementMemory(size_t bytes);

// The answer: bytes written for the client by the message being processed, counted with
// the working memory against the limit until the next message starts (the connection
// sends them only after the executor is done with the message).
void chargeAnswerMemory(size_t bytes);
void startMessageAnswer();

// An allocator that charges what it allocates, for the runtime's growing arrays.
template <class T>
struct StatementAllocator {
  using value_type = T;
  StatementAllocator() = default;
  template <class U>
  StatementAllocator(const StatementAllocator<U>&) {}
  T* allocate(size_t n) {
    chargeStatementMemory(n * sizeof(T));
    try {
      return std::allocator<T>().allocate(n);
    } catch (...) {
      releaseStatementMemory(n * sizeof(T));
      throw;
    }
  }
  void deallocate(T* p, size_t n) {
    std::allocator<T>().deallocate(p, n);
    releaseStatementMemory(n * sizeof(T));
  }
  template <class U>
  bool operator==(const StatementAllocator<U>&) const {
    return true;
  }
};

template <class T>
using StatementVector = std::vector<T, StatementAllocator<T>>;

}  // namespace duet
