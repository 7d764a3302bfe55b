// compileQuery: a statement's plan as one native function that emits its rows.
// Adaptive compilation (docs/codegen.md, "Compile tiers"): the IR is generated once; its
// bitcode goes to the optimiser thread, and the module itself, renamed, is compiled as the
// cheap tier the statement runs at once.
#include <atomic>
#include <chrono>

#include <llvm/Bitcode/BitcodeWriter.h>

#include "compiler/codegen/codegen_internal.h"
#include "compiler/codegen/jit.h"
#include "engine/elapsed.h"
#include "engine/limits/interrupts.h"

namespace duet {

void OptimisedTier::publish(MachineCode made) {
  code = std::move(made);
  std::vector<rt::CodeTiers::Function> workers;
  for (size_t i = 1; i < code.functions.size(); ++i)
    workers.push_back(reinterpret_cast<rt::CodeTiers::Function>(code.functions[i]));
  addresses.publish(reinterpret_cast<rt::CodeTiers::Function>(code.functions[0]), std::move(workers));
}

void OptimisedTier::finish() {
  {
    std::lock_guard lock(mutex_);
    done_ = true;
  }
  finished_.notify_all();
}

void OptimisedTier::wait() {
  std::unique_lock lock(mutex_);
  while (!finished_.wait_for(lock, std::chrono::milliseconds(10), [&] { return done_; })) {
    lock.unlock();
    checkForInterrupts();
    lock.lock();
  }
}

void CompiledQuery::run(rt::QueryContext* ctx) const {
  if (!optimised) return entry(ctx);
  ctx->tiers = &optimised->addresses;
  (optimised->addresses.ready() ? optimised->addresses.entry : entry)(ctx);
}

std::unique_ptr<CompiledQuery> compileQuery(const plan::Node& root, const std::vector<SqlType>& paramTypes,
                                            CompileTiers tiers, int optLevel, int optimiseBudgetMs,
                                            const Instrument& instrument) {
  auto started = std::chrono::steady_clock::now();
  auto out = std::make_unique<CompiledQuery>();
  out->paramLayout = TupleLayout::of(paramTypes);

  auto context = std::make_unique<llvm::LLVMContext>();
  auto module = std::make_unique<llvm::Module>("query", *context);
  codegen::Codegen cg(*context, *module, *out);
  cg.instrument_ = instrument;
  cg.used_ = plan::UsedColumns(root);

  auto* fnType = llvm::FunctionType::get(cg.b_.getVoidTy(), {cg.ptrTy_}, false);
  // Every module lands in one JIT dylib: each entry point needs a name of its own.
  static std::atomic<uint64_t> counter{0};
  std::string name = "query" + std::to_string(counter.fetch_add(1));
  llvm::Function* fn = llvm::Function::Create(fnType, llvm::Function::ExternalLinkage, name, *module);
  fn->setUWTableKind(llvm::UWTableKind::Async);  // runtime errors unwind through it
  cg.enterFunction(fn, llvm::BasicBlock::Create(*context, "entry", fn), fn->getArg(0));
  cg.params_ = cg.b_.CreateLoad(cg.ptrTy_, cg.qctx_);  // QueryContext::params is first
  cg.paramsInTuple_ = true;

  bool dml =
      root.kind == plan::NodeKind::Insert || root.kind == plan::NodeKind::Update || root.kind == plan::NodeKind::Delete;
  std::vector<SqlType> outTypes;
  if (dml) {
    for (const auto& e : root.returning) outTypes.push_back(e->type);
  } else {
    outTypes = root.outputTypes;
  }
  out->producesRows = !dml || !root.returning.empty();
  out->outputLayout = TupleLayout::of(outTypes);

  llvm::Value* outTuple = cg.tupleAlloca(out->outputLayout);
  llvm::BasicBlock* done = llvm::BasicBlock::Create(*context, "finish", cg.fn_);
  cg.pipelineEnd_.push_back(done);
  auto emit = [&](codegen::Row& row) {
    if (!out->producesRows) return;
    cg.storeRow(outTuple, out->outputLayout, row);
    cg.call("duet_q_emit", cg.b_.getVoidTy(), {cg.qctx_, outTuple});
  };
  if (root.gatherThreads > 1) {
    cg.produceGathered(root, emit);
  } else {
    cg.produce(root, emit);
  }
  if (!cg.b_.GetInsertBlock()->getTerminator()) cg.b_.CreateBr(done);
  cg.b_.SetInsertPoint(done);
  cg.b_.CreateRetVoid();

  std::vector<std::string> names{name};
  for (uint32_t k = 0; k < cg.workers_; ++k) names.push_back(codegen::workerName(name, k));
  out->functions = names.size();

  // A module too big to optimise gets the cheap tier's code whatever was asked (Jit).
  bool adaptive = tiers == CompileTiers::Adaptive && Jit::optimisable(*module);
  std::string bitcode;
  if (adaptive) {
    llvm::raw_string_ostream os(bitcode);
    llvm::WriteBitcodeToFile(*module, os);
    // Both tiers' functions live in the one JIT dylib: the cheap tier's are renamed.
    for (const std::string& n : names) module->getFunction(n)->setName(n + ".cheap");
  }
  out->generateMs = msSince(started);  // the IR, and its bitcode for the optimiser thread
  int firstLevel = tiers == CompileTiers::Optimised ? optLevel : 0;
  out->code = Jit::instance().compile(std::move(context), std::move(module), {adaptive ? name + ".cheap" : name},
                                      firstLevel, optimiseBudgetMs);
  out->entry = reinterpret_cast<CompiledQuery::Entry>(out->code.functions[0]);
  out->compileMs = msSince(started);
  if (adaptive) {
    out->optimised = std::make_shared<OptimisedTier>();
    // The job's callback finishes the tier when it goes, whether it ran or was dropped.
    auto finisher = std::shared_ptr<OptimisedTier>(out->optimised.get(),
                                                   [tier = out->optimised](OptimisedTier*) { tier->finish(); });
    Jit::instance().compileInBackground(std::move(bitcode), std::move(names), optLevel, optimiseBudgetMs,
                                        [finisher](MachineCode made) { finisher->publish(std::move(made)); });
  }
  return out;
}

}  // namespace duet
