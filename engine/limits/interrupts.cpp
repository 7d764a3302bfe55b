#include "engine/limits/interrupts.h"

#include "engine/error.h"

namespace duet {

namespace {
thread_local const std::atomic<bool>* currentCancel = nullptr;
thread_local const std::atomic<bool>* currentTimedOut = nullptr;
}  // namespace

InterruptScope::InterruptScope(const std::atomic<bool>* cancel, const std::atomic<bool>* timedOut)
    : savedCancel_(currentCancel), savedTimedOut_(currentTimedOut) {
  currentCancel = cancel;
  currentTimedOut = timedOut;
}

InterruptScope::~InterruptScope() {
  currentCancel = savedCancel_;
  currentTimedOut = savedTimedOut_;
}

bool interruptPending() { return currentCancel && currentCancel->load(std::memory_order_relaxed); }

void checkForInterrupts() {
  if (interruptPending()) raiseQueryCanceled(currentTimedOut);
}

void raiseQueryCanceled(const std::atomic<bool>* timedOut) {
  if (timedOut && timedOut->load())
    throw SqlError(sqlstate::kQueryCanceled, "canceling statement due to statement timeout");
  throw SqlError(sqlstate::kQueryCanceled, "canceling statement due to user request");
}

}  // namespace duet
