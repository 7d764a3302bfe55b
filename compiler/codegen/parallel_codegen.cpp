// Parallel pipelines in a snapshot process (docs/snapshots.md, "Parallel queries"). A
// pipeline breaker marked by compiler/planner/parallel.h (an aggregation, a sort, a hash
// join's build) runs its input pipeline as a worker function of its own on the threads of
// a ParallelRun (parallel_runtime.h): each worker takes the driving scan's chunks one at a
// time (morsels) and fills a partial result of its own, which the leader then merges. The
// hash joins the pipeline probes are built by the leader before the run (each perhaps by a
// parallel run of its own) and shared read-only, so a worker never waits for another.
#include <string>

#include "compiler/codegen/codegen_internal.h"

namespace duet::codegen {

using plan::Node;
using plan::NodeKind;

std::string workerName(const std::string& entry, uint32_t number) { return entry + ".worker" + std::to_string(number); }

llvm::Function* Codegen::workerFunction(const std::function<void()>& body) {
  auto* type = llvm::FunctionType::get(b_.getVoidTy(), {ptrTy_}, false);
  // External, so that the optimised tier's copy can be found by name (compile_query.cpp).
  auto* worker = llvm::Function::Create(type, llvm::Function::ExternalLinkage,
                                        workerName(fn_->getName().str(), workers_++), module_);
  worker->setUWTableKind(llvm::UWTableKind::Async);  // errors unwind through it to the run
  llvm::Function* savedFn = fn_;
  llvm::BasicBlock* savedEntry = entry_;
  llvm::BasicBlock* savedBlock = b_.GetInsertBlock();
  llvm::Value* savedQctx = qctx_;
  llvm::Value* savedParams = params_;
  std::vector<llvm::BasicBlock*> savedEnds = std::move(pipelineEnd_);
  llvm::BasicBlock* savedStart = statementStart_;

  fn_ = worker;
  entry_ = llvm::BasicBlock::Create(ctx_, "entry", worker);
  b_.SetInsertPoint(entry_);
  qctx_ = worker->getArg(0);
  params_ = b_.CreateLoad(ptrTy_, qctx_);  // QueryContext::params is first
  pipelineEnd_.clear();
  statementStart_ = nullptr;
  inWorker_ = true;

  body();
  b_.CreateRetVoid();

  inWorker_ = false;
  fn_ = savedFn;
  entry_ = savedEntry;
  b_.SetInsertPoint(savedBlock);
  qctx_ = savedQctx;
  params_ = savedParams;
  pipelineEnd_ = std::move(savedEnds);
  statementStart_ = savedStart;
  return worker;
}

llvm::Value* Codegen::runParallel(const Node& input, uint32_t threads, const std::function<llvm::Value*()>& begin,
                                  const std::function<void(llvm::Value* part, Row& row)>& consume,
                                  const std::function<void(llvm::Value* part)>& end) {
  shareJoinTables(input);
  uint32_t number = workers_;
  llvm::Function* worker = workerFunction([&] {
    llvm::Value* part = begin();
    call("duet_q_parallel_set_partial", b_.getVoidTy(), {qctx_, part});
    producePipeline(input, [&](Row& row) { consume(part, row); });
    if (end) end(part);
  });
  return call("duet_q_parallel_run", ptrTy_, {qctx_, worker, b_.getInt32(number), b_.getInt32(threads)});
}

void Codegen::produceGathered(const Node& root, const Consumer& consume) {
  auto& b = b_;
  const TupleLayout* layout = out_.layouts.add(TupleLayout::of(root.outputTypes));
  shareJoinTables(root);
  uint32_t number = workers_;
  llvm::Function* worker = workerFunction([&] {
    llvm::Value* tuple = tupleAlloca(*layout);
    producePipeline(root, [&](Row& row) {
      storeRow(tuple, *layout, row);
      call("duet_q_gather_put", b.getVoidTy(), {qctx_, tuple});
    });
  });
  llvm::Value* run = call("duet_q_gather_start", ptrTy_,
                          {qctx_, worker, b.getInt32(number), b.getInt32(root.gatherThreads), ptrConst(layout)});
  llvm::BasicBlock* head = block("gather");
  llvm::BasicBlock* rows = block("gather.rows");
  llvm::BasicBlock* done = block("gather.done");
  b.CreateBr(head);
  b.SetInsertPoint(head);
  llvm::Value* batch = call("duet_q_gather_next", ptrTy_, {run});
  b.CreateCondBr(b.CreateIsNull(batch), done, rows);
  b.SetInsertPoint(rows);
  iterateBuffer(batch, layout, consume);
  b.CreateBr(head);
  b.SetInsertPoint(done);
  call("duet_q_gather_end", b.getVoidTy(), {run});
}

void Codegen::shareJoinTables(const Node& n) {
  switch (n.kind) {
    case NodeKind::Filter:
    case NodeKind::Project:
    case NodeKind::IndexJoin: shareJoinTables(*n.children[0]); return;
    case NodeKind::HashJoin: {
      joinSlots_[&n] = shareJoinTable(buildJoinTable(n, joinLayouts(n)));
      shareJoinTables(*n.children[1]);
      return;
    }
    default: return;  // the driving scan
  }
}

}  // namespace duet::codegen
