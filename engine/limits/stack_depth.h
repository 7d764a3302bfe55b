// A guard against stack overflow in recursive code (PostgreSQL's check_stack_depth): the
// parser, binder, planner, code generator and PL/pgSQL compiler recurse once per level of
// nesting in what a client sent, so a deep enough statement would overflow the thread's
// stack and take the whole server down. Each recursive step calls checkStackDepth(), which
// throws 54001 "stack depth limit exceeded" once the thread has used more stack than
// max_stack_depth allows, and never more than the thread's own stack minus a margin for the
// code (LLVM, runtime functions) that runs below the last check.
#pragma once
#include <cstddef>

namespace duet {

// PostgreSQL's default max_stack_depth, 2 MB (the setting is in kB).
inline constexpr size_t kDefaultMaxStackDepthKb = 2048;
// Stack left free below the deepest check, for code that does not check.
inline constexpr size_t kStackSafetyMargin = size_t{1} << 20;
// The stack size DuetDB gives the threads that compile and run statements (executor,
// snapshot workers): room for max_stack_depth plus the margin, with plenty to spare.
inline constexpr size_t kStatementThreadStackSize = size_t{16} << 20;

// Throws SqlError 54001 when the calling thread is deeper than its limit allows.
void checkStackDepth();

// Sets the calling thread's max_stack_depth (in kB), as the session's setting says.
void setMaxStackDepthKb(size_t kb);

// Makes every thread started from now on (std::thread included) get
// kStatementThreadStackSize of stack: the executor, snapshot threads and parallel workers
// compile and run statements. Only address space is reserved; pages are touched as used.
void giveNewThreadsStatementStacks();

// The most a max_stack_depth setting may be on the calling thread, in kB: its stack size
// less the margin (PostgreSQL bounds the setting by the stack rlimit the same way).
size_t maxStackDepthLimitKb();

}  // namespace duet
