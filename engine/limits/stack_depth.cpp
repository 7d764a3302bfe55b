#include "engine/limits/stack_depth.h"

#include <pthread.h>

#include <fmt/format.h>
#include <algorithm>
#include <cstdint>

#include "engine/error.h"

namespace duet {

namespace {

// The calling thread's stack: its highest address (stacks grow down on every platform we
// build for) and its size, found once per thread.
struct ThreadStack {
  uintptr_t top = 0;
  size_t size = 0;
  size_t limitKb = kDefaultMaxStackDepthKb;
};

ThreadStack& threadStack() {
  thread_local ThreadStack stack = [] {
    ThreadStack s;
    pthread_attr_t attr;
    void* low = nullptr;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
      pthread_attr_getstack(&attr, &low, &size);
      pthread_attr_destroy(&attr);
    }
    s.top = reinterpret_cast<uintptr_t>(low) + size;
    s.size = size;
    return s;
  }();
  return stack;
}

size_t usableBytes(const ThreadStack& s) {
  size_t own = s.size > kStackSafetyMargin ? s.size - kStackSafetyMargin : 0;
  return std::min(s.limitKb * 1024, own);
}

}  // namespace

void checkStackDepth() {
  ThreadStack& s = threadStack();
  // The frame address, not a local's: under ASan a local may live on a heap "fake stack".
  uintptr_t sp = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  if (s.top == 0 || sp > s.top) return;  // unknown stack: nothing to compare with
  if (s.top - sp > usableBytes(s))
    throw SqlError(sqlstate::kStatementTooComplex, "stack depth limit exceeded", {},
                   fmt::format("Increase the configuration parameter \"max_stack_depth\" (currently {}kB), "
                               "after ensuring the platform's stack depth limit is adequate.",
                               s.limitKb));
}

void setMaxStackDepthKb(size_t kb) { threadStack().limitKb = kb; }

void giveNewThreadsStatementStacks() {
  pthread_attr_t attr;
  if (pthread_getattr_default_np(&attr) != 0) return;
  pthread_attr_setstacksize(&attr, kStatementThreadStackSize);
  pthread_setattr_default_np(&attr);
  pthread_attr_destroy(&attr);
}

size_t maxStackDepthLimitKb() {
  const ThreadStack& s = threadStack();
  return s.size > kStackSafetyMargin ? (s.size - kStackSafetyMargin) / 1024 : 0;
}

}  // namespace duet
