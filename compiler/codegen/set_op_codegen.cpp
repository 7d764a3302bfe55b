// UNION, INTERSECT and EXCEPT, as the planner builds them from Append (UNION ALL: each
// child's rows in turn, every child's pipeline feeding the one consumer, whose code is
// generated once per child) and Repeat (the ALL forms of INTERSECT and EXCEPT: a row
// emitted as often as its count says). Duplicates are removed by Distinct or Aggregate.
// And the buffers of WITH queries: a recursive one's work table, a shared one's rows.
#include "compiler/codegen/codegen_internal.h"

namespace duet::codegen {

using plan::Node;

// Each child is a pipeline of its own, so that a LIMIT inside one ends that child only (a
// LIMIT above the Append lets no row through once it is reached).
void Codegen::produceAppend(const Node& node, const Consumer& consume) {
  for (const auto& child : node.children) producePipeline(*child, consume);
}

void Codegen::produceRepeat(const Node& node, const Consumer& consume) {
  auto& b = b_;
  produce(*node.children[0], [&](Row& row) {
    SqlValue times = expr(*node.exprs[0], row);
    llvm::Value* positive = b.CreateAnd(b.CreateNot(times.null), b.CreateICmpSGT(times.v, b.getInt64(0)));
    llvm::Value* n = b.CreateSelect(positive, times.v, b.getInt64(0));
    loop(b.getInt64(0), [&] { return n; }, [&](llvm::Value*, llvm::BasicBlock*) { consume(row); });
  });
}

// WITH RECURSIVE: child 0's rows, then child 1 again and again over the rows of the run
// before (the work table) until a run produces none. Each row is kept for the next run
// and goes on at once; UNION drops the rows seen before (NULLs equal, as Distinct).
void Codegen::produceRecursiveUnion(const Node& node, const Consumer& consume) {
  auto& b = b_;
  const TupleLayout* layout = out_.layouts.add(TupleLayout::of(node.outputTypes));
  llvm::IRBuilder<> eb(entry_, entry_->getFirstInsertionPt());
  llvm::Value* work = eb.CreateAlloca(ptrTy_);
  llvm::Value* next = eb.CreateAlloca(ptrTy_);
  llvm::Value* isNew = eb.CreateAlloca(b.getInt8Ty());
  llvm::Value* tuple = tupleAlloca(*layout);
  llvm::Value* seen =
      node.distinct ? call("duet_q_groups_new", ptrTy_, {qctx_, ptrConst(layout), b.getInt32(16)}) : nullptr;
  b.CreateStore(call("duet_q_buffer_new", ptrTy_, {qctx_, ptrConst(layout)}), next);
  workTables_[node.workTable] = work;
  auto keep = [&](Row& row) {
    storeRow(tuple, *layout, row);
    auto pass = [&] {
      call("duet_q_buffer_append", b.getVoidTy(), {b.CreateLoad(ptrTy_, next), tuple});
      consume(row);
    };
    if (!seen) return pass();
    call("duet_q_groups_find", ptrTy_, {seen, tuple, keyHash(tuple, *layout), isNew});
    ifThen(b.CreateICmpNE(b.CreateLoad(b.getInt8Ty(), isNew), b.getInt8(0)), pass);
  };
  producePipeline(*node.children[0], keep);
  llvm::BasicBlock* head = block("recursion.head");
  llvm::BasicBlock* body = block("recursion.run");
  llvm::BasicBlock* done = block("recursion.done");
  b.CreateBr(head);
  b.SetInsertPoint(head);
  checkCancel();
  llvm::Value* produced = b.CreateLoad(ptrTy_, next);
  b.CreateCondBr(b.CreateICmpEQ(call("duet_q_buffer_size", i64Ty_, {produced}), b.getInt64(0)), done, body);
  b.SetInsertPoint(body);
  b.CreateStore(produced, work);
  b.CreateStore(call("duet_q_buffer_new", ptrTy_, {qctx_, ptrConst(layout)}), next);
  // In the pipeline of the whole, so that a LIMIT above ends the recursion too (the
  // planner allows no LIMIT inside the recursive term).
  produce(*node.children[1], keep);
  if (!b.GetInsertBlock()->getTerminator()) b.CreateBr(head);
  b.SetInsertPoint(done);
}

void Codegen::produceWorkTableScan(const Node& node, const Consumer& consume) {
  const TupleLayout* layout = out_.layouts.add(TupleLayout::of(node.outputTypes));
  iterateBuffer(b_.CreateLoad(ptrTy_, workTables_.at(node.workTable)), layout, consume);
}

// Each read carries the WITH query's code: whichever read runs first in an execution fills
// the buffer, and every read then walks it. A read inside a subquery run whose state is
// freed after each run computes the query itself, as an inline subquery.
void Codegen::produceCteScan(const Node& node, const Consumer& consume) {
  if (releasedRuns_ > 0) return produce(*node.children[0], consume);
  auto& b = b_;
  const TupleLayout* layout = out_.layouts.add(TupleLayout::of(node.outputTypes));
  auto [at, added] = withBuffers_.try_emplace(node.workTable);
  auto& [buffer, filled] = at->second;
  if (added) {
    llvm::IRBuilder<> eb(entry_, entry_->getFirstInsertionPt());
    buffer = eb.CreateAlloca(ptrTy_);
    filled = eb.CreateAlloca(b.getInt1Ty());
    resetPerStatement(filled);
  }
  ifThen(b.CreateNot(b.CreateLoad(b.getInt1Ty(), filled)), [&] {
    llvm::Value* rows = call("duet_q_buffer_new", ptrTy_, {qctx_, ptrConst(layout)});
    b.CreateStore(rows, buffer);
    llvm::Value* tuple = tupleAlloca(*layout);
    producePipeline(*node.children[0], [&](Row& row) {
      storeRow(tuple, *layout, row);
      call("duet_q_buffer_append", b.getVoidTy(), {rows, tuple});
    });
    b.CreateStore(b.getTrue(), filled);
  });
  iterateBuffer(b.CreateLoad(ptrTy_, buffer), layout, consume);
}

}  // namespace duet::codegen
