#include "compiler/codegen/jit.h"

#include <llvm/ExecutionEngine/Orc/Core.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>

#include "compiler/codegen/query_runtime.h"
#include "engine/error.h"
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

void optimise(llvm::Module& module, int level) {
  if (level <= 0) return;
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb;
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  auto opt = level >= 3 ? llvm::OptimizationLevel::O3
             : level == 2 ? llvm::OptimizationLevel::O2
                          : llvm::OptimizationLevel::O1;
  pb.buildPerModuleDefaultPipeline(opt).run(module, mam);
}
}  // namespace

Jit& Jit::instance() {
  static Jit jit;
  return jit;
}

Jit::Jit() {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  auto builder = llvm::orc::LLJITBuilder();
  auto created = builder.create();
  if (!created) throw SqlError(sqlstate::kInternalError, "cannot start the JIT: " + errorText(created.takeError()));
  jit_ = std::move(*created);
}

void Jit::registerSymbol(const std::string& name, void* address) {
  std::lock_guard lock(mutex_);
  auto& dylib = jit_->getMainJITDylib();
  llvm::orc::SymbolMap symbols;
  symbols[jit_->mangleAndIntern(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                                          llvm::JITSymbolFlags::Exported};
  if (auto err = dylib.define(llvm::orc::absoluteSymbols(std::move(symbols))))
    llvm::consumeError(std::move(err));  // already registered: keep the first definition
}

void Jit::registerRuntime() {
  {
    std::lock_guard lock(mutex_);
    if (runtimeRegistered_) return;
    runtimeRegistered_ = true;
  }
  for (const auto& s : runtimeSymbols()) registerSymbol(s.name, s.address);
  for (const auto& s : storageRuntimeSymbols()) registerSymbol(s.name, s.address);
  size_t n = 0;
  const DuetQuerySymbol* q = duet_q_symbols(&n);
  for (size_t i = 0; i < n; ++i) registerSymbol(q[i].name, q[i].address);
}

Jit::Compiled Jit::compile(std::unique_ptr<llvm::LLVMContext> context,
                           std::unique_ptr<llvm::Module> module,
                           const std::vector<std::string>& functionNames, int optLevel) {
  registerRuntime();
  module->setDataLayout(jit_->getDataLayout());
  module->setTargetTriple(jit_->getTargetTriple().str());
  optimise(*module, optLevel);
  std::lock_guard lock(mutex_);
  auto& dylib = jit_->getMainJITDylib();
  Compiled out;
  out.tracker = dylib.createResourceTracker();
  if (auto err = jit_->addIRModule(out.tracker, llvm::orc::ThreadSafeModule(std::move(module), std::move(context))))
    throw SqlError(sqlstate::kInternalError, "JIT: " + errorText(std::move(err)));
  for (const auto& name : functionNames) {
    auto sym = jit_->lookup(dylib, name);
    if (!sym) throw SqlError(sqlstate::kInternalError, "JIT lookup: " + errorText(sym.takeError()));
    out.functions.push_back(sym->toPtr<void*>());
  }
  return out;
}

}  // namespace duet
