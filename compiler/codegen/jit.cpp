#include "compiler/codegen/jit.h"
#include "compiler/codegen/jit_symbols.h"

#include <pthread.h>

#include <chrono>
#include <optional>
#include <system_error>
#include <thread>

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/ExecutionEngine/Orc/CompileUtils.h>
#include <llvm/ExecutionEngine/Orc/Core.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/PassInstrumentation.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>

#include "compiler/functions/builtin_aggregates.h"
#include "compiler/functions/builtin_functions.h"
#include "compiler/runtime/query_runtime.h"
#include "engine/elapsed.h"
#include "engine/error.h"
#include "engine/limits/interrupts.h"
#include "engine/storage/storage_runtime.h"
#include "engine/types/runtime.h"

namespace duet {

namespace {
std::string errorText(llvm::Error e) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << e;
  return s;
}

// Optimisation is the part of compiling whose time grows faster than the code: passes
// such as InstCombine and GVN are superlinear in a function's branches (a chain of 900
// blocks took 5 s, a 1,000-term OR chain or a 10,000-row VALUES minutes). A module bigger
// than this is compiled as generated, by LLVM's fast code generation (TieredCompiler);
// for the others, optimisation stops early, the code as far as it got, once the
// statement is cancelled or the budget is spent. TPC-C's largest routine, new_order, has
// about 400 blocks.
constexpr size_t kMaxOptimisedBlocks = 500;
constexpr unsigned kMaxOptimisedInstructions = 20000;
// The greedy register allocator is superlinear in values live at once: a 1,664-column
// select list (about 13,000 instructions) spent 20 s in it. Past this size the fast
// allocator serves; new_order has about 5,400 instructions.
constexpr unsigned kMaxFullCodegenInstructions = 6000;

size_t blockCount(const llvm::Module& module) {
  size_t blocks = 0;
  for (const llvm::Function& f : module) blocks += f.size();
  return blocks;
}

// Names the modules of the cheap tier, and those too big to optimise (Jit::compile sets it).
constexpr const char* kCheapCodegenFlag = "duet.cheap_codegen";

// Machine code for a module: the target's default code generation, or for the cheap tier
// and a module too big to optimise LLVM's fast path (CodeGenOptLevel::None: FastISel and
// the fast register allocator), since the greedy allocator's time, too, grows faster than
// the code (a 10,000-row INSERT ... VALUES spent minutes in it). Modules are compiled on several
// threads at once (Jit::compile), so each compile has a target machine of its own.
class TieredCompiler : public llvm::orc::IRCompileLayer::IRCompiler {
 public:
  explicit TieredCompiler(llvm::orc::JITTargetMachineBuilder machine)
      : IRCompiler(llvm::orc::irManglingOptionsFromTargetOptions(machine.getOptions())), machine_(std::move(machine)) {}

  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> operator()(llvm::Module& module) override {
    llvm::orc::JITTargetMachineBuilder builder = machine_;
    if (module.getModuleFlag(kCheapCodegenFlag)) builder.setCodeGenOptLevel(llvm::CodeGenOptLevel::None);
    auto target = builder.createTargetMachine();
    if (!target) return target.takeError();
    llvm::orc::SimpleCompiler compile(**target);
    return compile(module);
  }

 private:
  const llvm::orc::JITTargetMachineBuilder machine_;
};

// Backend threads at once: the statement's, and a few that finish machine code for
// statements cancelled meanwhile. A statement that finds them all busy waits (and can be
// cancelled), so retrying a huge statement cannot start compiles without end.
constexpr int kMaxBackendThreads = 4;

void optimise(llvm::Module& module, int level, int budgetMs) {
  if (level <= 0) return;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(budgetMs);
  llvm::PassInstrumentationCallbacks callbacks;
  callbacks.registerShouldRunOptionalPassCallback([&](llvm::StringRef, llvm::Any) {
    return !interruptPending() && (budgetMs <= 0 || std::chrono::steady_clock::now() < deadline);
  });
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(nullptr, llvm::PipelineTuningOptions(), std::nullopt, &callbacks);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  auto opt = level >= 3   ? llvm::OptimizationLevel::O3
             : level == 2 ? llvm::OptimizationLevel::O2
                          : llvm::OptimizationLevel::O1;
  pb.buildPerModuleDefaultPipeline(opt).run(module, mam);
}
}  // namespace

// A module's machine code, generated on a thread of its own while the statement that
// asked for it waits, watching its interrupt flags. A statement that stops waiting marks
// the job abandoned; the thread then frees the code it made.
struct Jit::Backend {
  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::Module> module;
  std::vector<std::string> functionNames;
  std::mutex mutex;
  std::condition_variable finished;
  bool done = false;
  bool abandoned = false;
  MachineCode result;
  std::optional<SqlError> error;
};

Jit& Jit::instance() {
  static Jit jit;
  return jit;
}

Jit::~Jit() { finishThreads(); }

void Jit::finishThreads() {
  std::unique_lock lock(backendsMutex_);
  optimiserPaused_ = true;  // it exits after its module
  pending_.clear();
  backendsDone_.wait(lock, [this] { return backends_ == 0 && !optimiserRunning_; });
  for (std::thread& t : threads_) t.join();
  threads_.clear();
  if (optimiser_.joinable()) optimiser_.join();
  optimiserPaused_ = false;
}

Jit::Jit() {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  auto builder = llvm::orc::LLJITBuilder();
  builder.setCompileFunctionCreator([](llvm::orc::JITTargetMachineBuilder machine)
                                        -> llvm::Expected<std::unique_ptr<llvm::orc::IRCompileLayer::IRCompiler>> {
    return std::make_unique<TieredCompiler>(std::move(machine));
  });
  auto created = builder.create();
  if (!created) throw SqlError(sqlstate::kInternalError, "cannot start the JIT: " + errorText(created.takeError()));
  jit_ = std::move(*created);
  // fork() (snapshots, archives: from the executor, the one thread that starts backend
  // threads) waits for the backend threads to finish, so that no child holds LLVM's JIT
  // state changed halfway; the child has none. The optimiser thread is paused (it
  // finishes the module it compiles and exits); the parent restarts it for its queue, the
  // child drops its copy of the queue.
  pthread_atfork(
      [] {
        Jit& jit = instance();
        std::unique_lock lock(jit.backendsMutex_);
        jit.optimiserPaused_ = true;
        jit.backendsDone_.wait(lock, [&] { return jit.backends_ == 0 && !jit.optimiserRunning_; });
        for (std::thread& t : jit.threads_) t.join();
        jit.threads_.clear();
        if (jit.optimiser_.joinable()) jit.optimiser_.join();
        lock.release();  // held until the fork is done
      },
      [] {
        Jit& jit = instance();
        jit.optimiserPaused_ = false;
        jit.startOptimiser();
        jit.backendsMutex_.unlock();
      },
      [] {
        Jit& jit = instance();
        jit.optimiserPaused_ = false;
        jit.pending_.clear();
        jit.backendsMutex_.unlock();
      });
}

void Jit::registerSymbol(const std::string& name, void* address) {
  std::lock_guard lock(mutex_);
  auto& dylib = jit_->getMainJITDylib();
  llvm::orc::SymbolMap symbols;
  symbols[jit_->mangleAndIntern(name)] = {llvm::orc::ExecutorAddr::fromPtr(address), llvm::JITSymbolFlags::Exported};
  if (auto err = dylib.define(llvm::orc::absoluteSymbols(std::move(symbols))))
    llvm::consumeError(std::move(err));  // already registered: keep the first definition
}

void Jit::registerRuntime() {
  {
    std::lock_guard lock(mutex_);
    if (runtimeRegistered_) return;
    runtimeRegistered_ = true;
  }
  for (const BuiltinFunction& f : builtinFunctions()) registerSymbol(f.symbol, f.address);
  for (const BuiltinAggregate& a : builtinAggregates())
    for (const AggregateFunction& f : {a.step, a.final, a.combine})
      if (f.symbol) registerSymbol(f.symbol, f.address);
  for (const auto& s : runtimeSymbols()) registerSymbol(s.name, s.address);
  for (const auto& s : storageRuntimeSymbols()) registerSymbol(s.name, s.address);
  size_t n = 0;
  const DuetQuerySymbol* q = duet_q_symbols(&n);
  for (size_t i = 0; i < n; ++i) registerSymbol(q[i].name, q[i].address);
}

bool Jit::optimisable(const llvm::Module& module) {
  return blockCount(module) <= kMaxOptimisedBlocks && module.getInstructionCount() <= kMaxOptimisedInstructions;
}

MachineCode Jit::compile(std::unique_ptr<llvm::LLVMContext> context, std::unique_ptr<llvm::Module> module,
                         const std::vector<std::string>& functionNames, int optLevel, int optimiseBudgetMs) {
  registerRuntime();
  module->setDataLayout(jit_->getDataLayout());
  module->setTargetTriple(jit_->getTargetTriple().str());
  auto started = std::chrono::steady_clock::now();
  bool fits = optimisable(*module);
  if (fits) optimise(*module, optLevel, optimiseBudgetMs);
  double optimiseMs = msSince(started);
  bool cheap = optLevel <= 0 || !fits || module->getInstructionCount() > kMaxFullCodegenInstructions;
  if (interruptPending()) {  // the passes stopped early for it
    module.reset();          // before its context: parameters may be destroyed in any order
    context.reset();
    checkForInterrupts();
  }
  if (cheap) module->addModuleFlag(llvm::Module::Warning, kCheapCodegenFlag, 1);
  auto job = std::make_shared<Backend>();
  job->context = std::move(context);
  job->module = std::move(module);
  job->functionNames = functionNames;
  {
    std::unique_lock lock(backendsMutex_);
    while (!backendsDone_.wait_for(lock, std::chrono::milliseconds(10),
                                   [this] { return backends_ < kMaxBackendThreads; })) {
      if (interruptPending()) {
        lock.unlock();
        checkForInterrupts();
      }
    }
    // Threads that finished are joined here, when none is running; else at the next fork.
    if (backends_ == 0) {
      for (std::thread& t : threads_) t.join();
      threads_.clear();
    }
    ++backends_;
  }
  auto finished = [this] {
    {
      std::lock_guard lock(backendsMutex_);
      --backends_;
    }
    backendsDone_.notify_all();
  };
  try {
    std::thread thread([this, job, finished] {
      generate(*job);
      finished();
    });
    std::lock_guard lock(backendsMutex_);
    threads_.push_back(std::move(thread));
  } catch (const std::system_error&) {
    // No thread to be had (a snapshot process near its memory limit cannot map another
    // stack): the code is generated here, as it comes, without waiting for cancels.
    finished();
    generate(*job);
  }
  std::unique_lock lock(job->mutex);
  while (!job->finished.wait_for(lock, std::chrono::milliseconds(10), [&] { return job->done; })) {
    if (interruptPending()) {
      job->abandoned = true;
      lock.unlock();
      checkForInterrupts();
    }
  }
  if (job->error) throw *job->error;
  job->result.optimiseMs = optimiseMs;
  job->result.optimised = fits && optLevel > 0;
  job->result.emitMs = msSince(started) - optimiseMs;
  return std::move(job->result);
}

void Jit::compileInBackground(std::string bitcode, std::vector<std::string> functionNames, int optLevel,
                              int optimiseBudgetMs, BackgroundDone done) {
  std::lock_guard lock(backendsMutex_);
  pending_.push_back({std::move(bitcode), std::move(functionNames), optLevel, optimiseBudgetMs, std::move(done)});
  startOptimiser();
}

void Jit::startOptimiser() {
  if (optimiserRunning_ || optimiserPaused_ || pending_.empty()) return;
  if (optimiser_.joinable()) optimiser_.join();  // it exited (or is exiting) with the queue empty
  try {
    optimiser_ = std::thread([this] { runOptimiser(); });
    optimiserRunning_ = true;
  } catch (const std::system_error&) {
    pending_.clear();  // no thread to be had: the statements keep their cheap tier's code
  }
}

void Jit::runOptimiser() {
  for (;;) {
    BackgroundJob job;
    {
      std::lock_guard lock(backendsMutex_);
      if (optimiserPaused_ || pending_.empty()) {
        optimiserRunning_ = false;
        backendsDone_.notify_all();
        return;
      }
      job = std::move(pending_.front());
      pending_.pop_front();
    }
    compileJob(job);
  }
}

void Jit::compileJob(BackgroundJob& job) {
  // Runs with no statement's interrupt flags: a cancel stops the statement, not the code
  // later runs of its plan would use. Errors (a snapshot's memory limit) drop the module.
  try {
    auto context = std::make_unique<llvm::LLVMContext>();
    auto buffer = llvm::MemoryBuffer::getMemBuffer(job.bitcode, "tier", false);
    auto module = llvm::parseBitcodeFile(*buffer, *context);
    if (!module) {
      llvm::consumeError(module.takeError());
      return;
    }
    job.done(compile(std::move(context), std::move(*module), job.functionNames, job.optLevel, job.optimiseBudgetMs));
  } catch (...) {}
}

void Jit::generate(Backend& job) {
  // ORC's session takes its own locks: modules are added and compiled concurrently.
  MachineCode out;
  std::optional<SqlError> error;
  auto& dylib = jit_->getMainJITDylib();
  llvm::orc::ResourceTrackerSP tracker = dylib.createResourceTracker();
  if (auto err =
          jit_->addIRModule(tracker, llvm::orc::ThreadSafeModule(std::move(job.module), std::move(job.context)))) {
    error = SqlError(sqlstate::kInternalError, "JIT: " + errorText(std::move(err)));
  }
  for (size_t i = 0; !error && i < job.functionNames.size(); ++i) {
    auto sym = jit_->lookup(dylib, job.functionNames[i]);
    if (!sym)
      error = SqlError(sqlstate::kInternalError, "JIT lookup: " + errorText(sym.takeError()));
    else
      out.functions.push_back(sym->toPtr<void*>());
  }
  std::lock_guard lock(job.mutex);
  if (job.abandoned || error) {
    if (auto err = tracker->remove()) llvm::consumeError(std::move(err));
  } else {
    // The tracker rides in the owner's deleter; removing it frees the code.
    out.owner = std::shared_ptr<void>(nullptr, [tracker](void*) {
      if (auto err = tracker->remove()) llvm::consumeError(std::move(err));
    });
  }
  job.result = std::move(out);
  job.error = std::move(error);
  job.done = true;
  job.finished.notify_all();
}

void registerJitRuntime() { Jit::instance().registerRuntime(); }
void registerJitSymbol(const std::string& name, void* address) { Jit::instance().registerSymbol(name, address); }
void finishJitThreads() { Jit::instance().finishThreads(); }

}  // namespace duet
