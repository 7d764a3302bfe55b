// compileQuery: a statement's plan as one native function that emits its rows.
#include <atomic>
#include <chrono>

#include "compiler/codegen/codegen_internal.h"
#include "compiler/codegen/jit.h"

namespace duet {

std::unique_ptr<CompiledQuery> compileQuery(const plan::Node& root, const std::vector<SqlType>& paramTypes,
                                            int optLevel, int optimiseBudgetMs, const Instrument& instrument) {
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

  out->code = Jit::instance().compile(std::move(context), std::move(module), {name}, optLevel, optimiseBudgetMs);
  out->entry = reinterpret_cast<CompiledQuery::Entry>(out->code.functions[0]);
  out->compileMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  return out;
}

}  // namespace duet
