// Cancellation of the running statement in every phase (PostgreSQL's CHECK_FOR_INTERRUPTS):
// the session marks the thread's current statement with its cancel flags (raised by a
// CancelRequest or by statement_timeout), and long-running steps - parsing many
// statements, planning, code generation, LLVM's passes, execution - look at them between
// units of work, so that a statement stops within moments whatever it is doing.
#pragma once
#include <atomic>

namespace duet {

// While alive, the calling thread's statement is cancelled through these flags: `cancel`
// is raised to stop it, `timedOut` with it when statement_timeout did so.
class InterruptScope {
 public:
  InterruptScope(const std::atomic<bool>* cancel, const std::atomic<bool>* timedOut);
  ~InterruptScope();
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;

 private:
  const std::atomic<bool>* savedCancel_;
  const std::atomic<bool>* savedTimedOut_;
};

// True once the calling thread's statement was asked to stop.
bool interruptPending();
// Throws 57014 (user request or statement timeout) if the statement was asked to stop.
void checkForInterrupts();
// The 57014 error for a cancel through these flags.
[[noreturn]] void raiseQueryCanceled(const std::atomic<bool>* timedOut);

}  // namespace duet
