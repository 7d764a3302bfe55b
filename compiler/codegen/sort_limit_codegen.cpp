// ORDER BY, LIMIT/OFFSET, DISTINCT and materialisation: the operators that act on their
// input's rows as a whole rather than one by one - sorting them, counting them off,
// dropping repeats, or holding them all before passing any on. Sort and Limit share a
// file because they cooperate: a Limit over a Sort hands its bound down (sortLimit_) so
// the sort keeps only the rows that can get through (a top-N sort).
#include <algorithm>
#include <cstdint>
#include <memory>
#include <utility>

#include "compiler/codegen/codegen_internal.h"

namespace duet::codegen {

using plan::Node;
using plan::NodeKind;

llvm::Value* Codegen::limitBound(const Node& limit) {
  auto& b = b_;
  SqlValue l = expr(*limit.limit, {});
  llvm::Value* bound = b.CreateSelect(l.null, b.getInt64(INT64_MAX), l.v);
  if (!limit.offset) return bound;
  SqlValue o = expr(*limit.offset, {});
  return b.CreateBinaryIntrinsic(llvm::Intrinsic::sadd_sat, b.CreateSelect(o.null, b.getInt64(0), o.v), bound);
}

void Codegen::produceSort(const Node& node, const Consumer& consume) {
  auto& b = b_;
  // The rows keep the columns read above and the keys; the sort compares fields of that
  // layout.
  StoredRow shape = storedRowsOf(*node.children[0]);
  const TupleLayout* layout = shape.layout;
  auto spec = std::make_unique<std::vector<rt::SortSpec>>();
  for (const auto& k : node.sortKeys) {
    auto field = std::find(shape.kept.begin(), shape.kept.end(), static_cast<size_t>(k.column));
    spec->push_back({static_cast<int>(field - shape.kept.begin()), k.descending, k.nullsFirst});
  }
  const Node* limit = std::exchange(sortLimit_, nullptr);
  auto newSorter = [&] {
    llvm::Value* sorter =
        call("duet_q_sorter_new", ptrTy_, {qctx_, ptrConst(layout), ptrConst(spec->data()), b.getInt32(spec->size())});
    if (limit) call("duet_q_sorter_bound", b.getVoidTy(), {sorter, limitBound(*limit)});
    return sorter;
  };
  llvm::Value* sorter = newSorter();
  auto add = [&](llvm::Value* into, Row& row) {
    llvm::Value* tuple = tupleAlloca(*layout);
    storeKept(tuple, shape, row);
    call("duet_q_sorter_add", b.getVoidTy(), {into, tuple});
  };
  if (node.parallelThreads > 1 && !inWorker_) {
    // Each worker sorts its morsels' rows; the leader merges those sorted runs.
    llvm::Value* run = runParallel(*node.children[0], node.parallelThreads, newSorter, add,
                                   [&](llvm::Value* part) { call("duet_q_sorter_sort", b.getVoidTy(), {part}); });
    call("duet_q_sorter_merge", b.getVoidTy(), {sorter, run});
  } else {
    producePipeline(*node.children[0], [&](Row& row) { add(sorter, row); });
    call("duet_q_sorter_sort", b.getVoidTy(), {sorter});
  }
  out_.sortSpecs.push_back(std::move(spec));
  iterateTuples(sorter, [&](llvm::Value* tuple) {
    Row row = loadKept(tuple, shape);
    consume(row);
  });
}

void Codegen::produceLimit(const Node& node, const Consumer& consume) {
  auto& b = b_;
  llvm::Value* limit = b.getInt64(INT64_MAX);
  llvm::Value* offset = b.getInt64(0);
  if (node.limit) {
    SqlValue l = expr(*node.limit, {});
    limit = b.CreateSelect(l.null, limit, l.v);
  }
  if (node.offset) {
    SqlValue o = expr(*node.offset, {});
    offset = b.CreateSelect(o.null, offset, o.v);
  }
  call("duet_q_check_limit", b.getVoidTy(), {limit, offset});
  llvm::IRBuilder<> eb(entry_, entry_->getFirstInsertionPt());
  llvm::Value* seen = eb.CreateAlloca(i64Ty_);
  b.CreateStore(b.getInt64(0), seen);
  // Stop the pipeline once offset + limit rows went by (saturating).
  llvm::Value* sum = b.CreateBinaryIntrinsic(llvm::Intrinsic::sadd_sat, offset, limit);
  ifThen(b.CreateICmpEQ(limit, b.getInt64(0)), [&] { b.CreateBr(pipelineEnd_.back()); });
  // ORDER BY ... LIMIT: the sort keeps only the rows that can get through (a top-N
  // sort), computing the bound where it runs, so only when that is a constant or a
  // parameter (valid in a parallel worker too).
  auto fixed = [](const plan::ExprPtr& e) {
    const plan::Expr* x = e.get();
    while (x && x->kind == plan::ExprKind::Cast) x = x->args[0].get();
    return !x || x->kind == plan::ExprKind::Const || x->kind == plan::ExprKind::Param;
  };
  if (node.children[0]->kind == NodeKind::Sort && node.limit && fixed(node.limit) && fixed(node.offset))
    sortLimit_ = &node;
  produce(*node.children[0], [&](Row& row) {
    llvm::Value* n = b.CreateLoad(i64Ty_, seen);
    llvm::Value* n1 = b.CreateAdd(n, b.getInt64(1));
    b.CreateStore(n1, seen);
    // Below the limit too: the pipeline that stops may be one of an Append's children,
    // and the next child's rows come through here all the same.
    ifThen(b.CreateAnd(b.CreateICmpSGE(n, offset), b.CreateICmpSLT(n, sum)), [&] { consume(row); });
    ifThen(b.CreateICmpSGE(n1, sum), [&] { b.CreateBr(pipelineEnd_.back()); });
  });
}

void Codegen::produceDistinct(const Node& node, const Consumer& consume) {
  auto& b = b_;
  // The key: the whole row, or DISTINCT ON's expressions.
  const TupleLayout* layout =
      out_.layouts.add(TupleLayout::of(node.exprs.empty() ? node.outputTypes : typesOf(node.exprs)));
  llvm::Value* groups = call("duet_q_groups_new", ptrTy_, {qctx_, ptrConst(layout), b.getInt32(16)});
  llvm::Value* tuple = tupleAlloca(*layout);
  llvm::IRBuilder<> eb(entry_, entry_->getFirstInsertionPt());
  llvm::Value* isNew = eb.CreateAlloca(b.getInt8Ty());
  produce(*node.children[0], [&](Row& row) {
    Row key;
    for (const auto& e : node.exprs) key.push_back(expr(*e, row));
    storeRow(tuple, *layout, node.exprs.empty() ? row : key);
    call("duet_q_groups_find", ptrTy_, {groups, tuple, keyHash(tuple, *layout), isNew});
    ifThen(b.CreateICmpNE(b.CreateLoad(b.getInt8Ty(), isNew), b.getInt8(0)), [&] { consume(row); });
  });
}

void Codegen::produceMaterialize(const Node& node, const Consumer& consume) {
  const Node& buffered = *node.children[0];
  StoredRow shape = storedRowsOf(buffered);
  iterateTuples(bufferRows(buffered, shape), [&](llvm::Value* tuple) {
    Row row = loadKept(tuple, shape);
    consume(row);
  });
}

}  // namespace duet::codegen
