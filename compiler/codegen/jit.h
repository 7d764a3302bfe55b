// The process-wide LLVM ORC JIT: owns the LLJIT instance, registers the runtime functions
// generated code may call, and turns finished modules into callable entry points.
#pragma once
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "compiler/codegen/machine_code.h"

namespace duet {

class Jit {
 public:
  static Jit& instance();

  // Compiles the module (optimising it at the given level first, for at most about
  // optimiseBudgetMs, 0: no limit) and returns the address of each requested function.
  // Level 0 is the cheap tier: no optimisation pass, and LLVM's fast machine code
  // generation (FastISel and the fast register allocator), a few milliseconds for a
  // TPC-H query whose optimised code takes 20 to 80.
  // The module's code lives until the MachineCode's owner is released. Throws
  // 57014 when the thread's statement is cancelled (engine/limits/interrupts.h), in any
  // phase: LLVM's machine code generation, which cannot stop inside a function, runs on a
  // thread of its own, and a cancelled statement leaves it to finish (and its code to be
  // freed) there.
  MachineCode compile(std::unique_ptr<llvm::LLVMContext> context, std::unique_ptr<llvm::Module> module,
                      const std::vector<std::string>& functionNames, int optLevel, int optimiseBudgetMs);

  // Whether the module is small enough to be optimised: past kMaxOptimisedBlocks or
  // kMaxOptimisedInstructions, compile() gives it the cheap tier's code at any level.
  static bool optimisable(const llvm::Module& module);

  // The optimised tier of adaptive compilation (docs/codegen.md, "Compile tiers"): compiles
  // a module, given as bitcode, at optLevel on the optimiser thread, one module at a time in
  // the order asked, while the statement runs its cheap tier's code; `done` gets the code
  // there. A module that cannot be compiled (or a process without a thread to spare) is
  // dropped: `done` is not called. A fork() waits for the module being compiled, not for
  // those queued; a forked child drops the queue it inherits.
  using BackgroundDone = std::function<void(MachineCode)>;
  void compileInBackground(std::string bitcode, std::vector<std::string> functionNames, int optLevel,
                           int optimiseBudgetMs, BackgroundDone done);

  // Drops the queue and waits for the optimiser and backend threads to finish
  // (finishCompilerThreads).
  void finishThreads();

  // Name that generated code uses to call a runtime function at the given address.
  void registerSymbol(const std::string& name, void* address);

  // Registers every runtime function generated code may call (types, storage, query
  // runtime). Idempotent; the first compile does it.
  void registerRuntime();

  const llvm::DataLayout& dataLayout() const { return jit_->getDataLayout(); }
  const llvm::Triple& targetTriple() const { return jit_->getTargetTriple(); }

 private:
  Jit();
  ~Jit();  // waits for machine code still being generated for a cancelled statement
  struct Backend;
  // Generates the machine code of `job`'s module (on a backend thread).
  void generate(Backend& job);
  struct BackgroundJob {
    std::string bitcode;
    std::vector<std::string> functionNames;
    int optLevel = 0;
    int optimiseBudgetMs = 0;
    BackgroundDone done;
  };
  void startOptimiser();  // under backendsMutex_: a thread for the queue, unless one runs
  void runOptimiser();    // the optimiser thread: the queue's jobs until it is empty or paused
  void compileJob(BackgroundJob& job);
  std::unique_ptr<llvm::orc::LLJIT> jit_;
  std::mutex mutex_;  // runtime symbol registration
  int backends_ = 0;  // backend threads running (under backendsMutex_)
  // Backend threads not joined yet. fork() joins them all: a thread still on its way out
  // may hold the allocator's locks (AddressSanitizer's have no fork handler).
  std::vector<std::thread> threads_;
  std::condition_variable backendsDone_;
  std::mutex backendsMutex_;
  // The optimiser thread and its queue (under backendsMutex_). The thread exits when the
  // queue is empty or a fork pauses it, so none is ever running at a fork.
  std::deque<BackgroundJob> pending_;
  std::thread optimiser_;
  bool optimiserRunning_ = false;
  bool optimiserPaused_ = false;
  bool runtimeRegistered_ = false;
};

}  // namespace duet
