// Physical plans to LLVM IR, in produce/consume style: each operator's produce() emits the
// loops that generate its rows and calls `consume` inside them, so a whole pipeline (scan,
// filter, project, join probe, output) becomes one loop nest with values in registers.
// Pipeline breakers (hash join build, aggregation, sort, materialise) hand tuples to the
// precompiled structures in query_runtime.h.
#include <algorithm>
#include <cstddef>
#include <utility>

#include "compiler/codegen/codegen_internal.h"
#include "engine/error.h"
#include "engine/limits/interrupts.h"
#include "engine/limits/stack_depth.h"
#include "engine/storage/storage_runtime.h"
#include "engine/storage/table.h"

namespace duet::codegen {

using plan::Node;
using plan::NodeKind;

// Calls `body` once per row of a chunked table (scan) with the row's values and rowid.
// With `morsels` (inside a parallel worker), the chunks come from the run one at a time.
static void scanTable(Codegen& cg, const Table& table, bool morsels,
                      const std::function<void(Row&, llvm::Value* rowid, llvm::BasicBlock* next)>& body) {
  auto& b = cg.b_;
  const TupleLayout& layout = table.layout();
  llvm::Value* dir = cg.ptrConst(&table.directory());
  llvm::Type* i8 = b.getInt8Ty();
  llvm::Type* i32 = b.getInt32Ty();
  auto field = [&](llvm::Value* base, size_t offset) { return b.CreateConstInBoundsGEP1_64(i8, base, offset); };
  auto chunkBody = [&](llvm::Value* c) {
    cg.checkCancel();
    llvm::Value* chunks = b.CreateLoad(cg.ptrTy_, field(dir, offsetof(ChunkDirectory, chunks)));
    llvm::Value* chunk = b.CreateLoad(cg.ptrTy_, b.CreateInBoundsGEP(cg.ptrTy_, chunks, c));
    llvm::Value* used = b.CreateLoad(i32, field(chunk, offsetof(Chunk, used)));
    llvm::Value* live = b.CreateLoad(cg.ptrTy_, field(chunk, offsetof(Chunk, live)));
    llvm::Value* rows = nullptr;
    std::vector<llvm::Value*> values, nulls;
    if (table.kind() == StorageKind::Row) {
      rows = b.CreateLoad(cg.ptrTy_, field(chunk, offsetof(Chunk, rows)));
    } else {
      llvm::Value* cv = b.CreateLoad(cg.ptrTy_, field(chunk, offsetof(Chunk, columnValues)));
      llvm::Value* cn = b.CreateLoad(cg.ptrTy_, field(chunk, offsetof(Chunk, columnNulls)));
      for (size_t col = 0; col < layout.types.size(); ++col) {
        values.push_back(b.CreateLoad(cg.ptrTy_, b.CreateConstInBoundsGEP1_64(cg.ptrTy_, cv, col)));
        nulls.push_back(b.CreateLoad(cg.ptrTy_, b.CreateConstInBoundsGEP1_64(cg.ptrTy_, cn, col)));
      }
    }
    llvm::Value* chunkBase = b.CreateShl(b.CreateZExt(c, cg.i64Ty_), kChunkShift);
    cg.loop(
        b.getInt32(0), [&] { return used; },
        [&](llvm::Value* i, llvm::BasicBlock* next) {
          llvm::Value* i64 = b.CreateZExt(i, cg.i64Ty_);
          llvm::BasicBlock* isLive = cg.block("live");
          b.CreateCondBr(b.CreateICmpNE(b.CreateLoad(i8, b.CreateInBoundsGEP(i8, live, i64)), b.getInt8(0)), isLive,
                         next);
          b.SetInsertPoint(isLive);
          Row row;
          if (rows) {
            llvm::Value* tuple = b.CreateInBoundsGEP(i8, rows, b.CreateMul(i64, b.getInt64(table.rowStride())));
            for (size_t col = 0; col < layout.types.size(); ++col) row.push_back(cg.loadField(tuple, layout, col));
          } else {
            for (size_t col = 0; col < layout.types.size(); ++col) {
              TypeId t = layout.types[col].id;
              llvm::Value* vp = b.CreateInBoundsGEP(i8, values[col], b.CreateMul(i64, b.getInt64(physicalSize(t))));
              llvm::Value* np = b.CreateInBoundsGEP(i8, nulls[col], i64);
              row.push_back(cg.loadValue(vp, np, t));
            }
          }
          body(row, b.CreateOr(chunkBase, i64), next);
        });
  };
  auto chunkCount = [&] { return b.CreateLoad(i32, field(dir, offsetof(ChunkDirectory, count))); };
  if (!morsels) {
    cg.loop(b.getInt32(0), chunkCount, [&](llvm::Value* c, llvm::BasicBlock*) { chunkBody(c); });
    return;
  }
  llvm::Value* count = chunkCount();
  llvm::BasicBlock* head = cg.block("morsel");
  llvm::BasicBlock* work = cg.block("morsel.work");
  llvm::BasicBlock* done = cg.block("morsel.done");
  b.CreateBr(head);
  b.SetInsertPoint(head);
  llvm::Value* next = cg.call("duet_q_morsel_next", cg.i64Ty_, {cg.qctx_, count});
  b.CreateCondBr(b.CreateICmpSGE(next, b.getInt64(0)), work, done);
  b.SetInsertPoint(work);
  chunkBody(b.CreateTrunc(next, i32));
  if (!b.GetInsertBlock()->getTerminator()) b.CreateBr(head);
  b.SetInsertPoint(done);
}

// Loads the live row `rowid` of `table` (known to exist) into SSA values.
static Row readRow(Codegen& cg, const Table& table, llvm::Value* rowid) {
  auto& b = cg.b_;
  const TupleLayout& layout = table.layout();
  llvm::Type* i8 = b.getInt8Ty();
  llvm::Value* dir = cg.ptrConst(&table.directory());
  llvm::Value* chunks =
      b.CreateLoad(cg.ptrTy_, b.CreateConstInBoundsGEP1_64(i8, dir, offsetof(ChunkDirectory, chunks)));
  llvm::Value* chunk =
      b.CreateLoad(cg.ptrTy_, b.CreateInBoundsGEP(cg.ptrTy_, chunks, b.CreateLShr(rowid, kChunkShift)));
  llvm::Value* slot = b.CreateAnd(rowid, b.getInt64(kChunkRows - 1));
  Row row;
  if (table.kind() == StorageKind::Row) {
    llvm::Value* rows = b.CreateLoad(cg.ptrTy_, b.CreateConstInBoundsGEP1_64(i8, chunk, offsetof(Chunk, rows)));
    llvm::Value* tuple = b.CreateInBoundsGEP(i8, rows, b.CreateMul(slot, b.getInt64(table.rowStride())));
    for (size_t col = 0; col < layout.types.size(); ++col) row.push_back(cg.loadField(tuple, layout, col));
  } else {
    llvm::Value* cv = b.CreateLoad(cg.ptrTy_, b.CreateConstInBoundsGEP1_64(i8, chunk, offsetof(Chunk, columnValues)));
    llvm::Value* cn = b.CreateLoad(cg.ptrTy_, b.CreateConstInBoundsGEP1_64(i8, chunk, offsetof(Chunk, columnNulls)));
    for (size_t col = 0; col < layout.types.size(); ++col) {
      TypeId t = layout.types[col].id;
      llvm::Value* values = b.CreateLoad(cg.ptrTy_, b.CreateConstInBoundsGEP1_64(cg.ptrTy_, cv, col));
      llvm::Value* nulls = b.CreateLoad(cg.ptrTy_, b.CreateConstInBoundsGEP1_64(cg.ptrTy_, cn, col));
      row.push_back(cg.loadValue(b.CreateInBoundsGEP(i8, values, b.CreateMul(slot, b.getInt64(physicalSize(t)))),
                                 b.CreateInBoundsGEP(i8, nulls, slot), t));
    }
  }
  return row;
}

// Iterates an ordered index range (NodeKind::IndexRange): the bound keys are computed once,
// then duet_index_range_next hands out rowids in key order (or reverse key order) until kNoRow.
static void produceIndexRange(Codegen& cg, const Node& node, const Consumer& consume) {
  auto& b = cg.b_;
  const TupleLayout& keyLayout = node.index->keyLayout();
  llvm::Value* lower = cg.tupleAlloca(keyLayout);
  llvm::Value* upper = cg.tupleAlloca(keyLayout);
  size_t eq = node.keys.size();
  for (size_t k = 0; k < eq; ++k) {
    Val v = cg.expr(*node.keys[k], {});
    cg.storeField(lower, keyLayout, k, v);
    cg.storeField(upper, keyLayout, k, v);
  }
  if (node.rangeLow) cg.storeField(lower, keyLayout, eq, cg.expr(*node.rangeLow, {}));
  if (node.rangeHigh) cg.storeField(upper, keyLayout, eq, cg.expr(*node.rangeHigh, {}));
  llvm::IRBuilder<> eb(cg.entry_, cg.entry_->getFirstInsertionPt());
  llvm::AllocaInst* range = eb.CreateAlloca(llvm::ArrayType::get(b.getInt8Ty(), sizeof(DuetIndexRange)));
  range->setAlignment(llvm::Align(alignof(DuetIndexRange)));
  // C bool parameters are passed as i8 (0 or 1).
  auto flag = [&](bool v) { return b.getInt8(v ? 1 : 0); };
  cg.call("duet_index_range_open", b.getVoidTy(),
          {range, cg.ptrConst(node.index), lower, b.getInt32(eq + (node.rangeLow ? 1 : 0)), flag(node.lowInclusive),
           upper, b.getInt32(eq + (node.rangeHigh ? 1 : 0)), flag(node.highInclusive), flag(node.descending)});
  llvm::BasicBlock* head = cg.block("range.next");
  llvm::BasicBlock* hit = cg.block("range.row");
  llvm::BasicBlock* done = cg.block("range.done");
  b.CreateBr(head);
  b.SetInsertPoint(head);
  llvm::Value* rowid = cg.call("duet_index_range_next", cg.i64Ty_, {range});
  b.CreateCondBr(b.CreateICmpEQ(rowid, b.getInt64(kNoRow)), done, hit);
  b.SetInsertPoint(hit);
  cg.checkCancel();
  Row row = readRow(cg, *node.table, rowid);
  row.push_back({rowid, b.getFalse()});
  consume(row);
  if (!b.GetInsertBlock()->getTerminator()) b.CreateBr(head);
  b.SetInsertPoint(done);
}

// Produces `child` as a pipeline of its own, ending where the caller continues.
void Codegen::producePipeline(const Node& child, const Consumer& consume) {
  llvm::BasicBlock* end = block("pipe.end");
  pipelineEnd_.push_back(end);
  produce(child, consume);
  if (!b_.GetInsertBlock()->getTerminator()) b_.CreateBr(end);
  b_.SetInsertPoint(end);
  pipelineEnd_.pop_back();
}

// Calls a node's routine on its arguments (`exprs` over `row`) for its rows: a buffer of
// `layout`, made by the routine in the query context.
static llvm::Value* callRoutineRows(Codegen& cg, const Node& node, const Row& row, const TupleLayout* layout) {
  const TupleLayout* argLayout = cg.out_.layouts.add(TupleLayout::of(typesOf(node.exprs)));
  llvm::Value* args = cg.tupleAlloca(*argLayout);
  for (size_t i = 0; i < node.exprs.size(); ++i) cg.storeField(args, *argLayout, i, cg.expr(*node.exprs[i], row));
  return cg.call("duet_q_call_routine_rows", cg.ptrTy_,
                 {cg.qctx_, cg.b_.getInt32(node.routine), args, cg.ptrConst(layout)});
}

// Iterates the tuples of a runtime TupleBuffer, loading each into SSA values.
void Codegen::iterateBuffer(llvm::Value* buffer, const TupleLayout* layout, const Consumer& consume) {
  llvm::Value* n = call("duet_q_buffer_size", i64Ty_, {buffer});
  loop(
      b_.getInt64(0), [&] { return n; },
      [&](llvm::Value* i, llvm::BasicBlock*) {
        llvm::Value* tuple = call("duet_q_buffer_at", ptrTy_, {buffer, i});
        Row row;
        for (size_t c = 0; c < layout->types.size(); ++c) row.push_back(loadField(tuple, *layout, c));
        consume(row);
      });
}

static llvm::Value* affectedPtr(Codegen& cg) {
  return cg.b_.CreateConstInBoundsGEP1_64(cg.b_.getInt8Ty(), cg.qctx_, offsetof(rt::QueryContext, affectedRows));
}
static llvm::Value* undoPtr(Codegen& cg) {
  return cg.b_.CreateLoad(
      cg.ptrTy_, cg.b_.CreateConstInBoundsGEP1_64(cg.b_.getInt8Ty(), cg.qctx_, offsetof(rt::QueryContext, undo)));
}
static void countAffected(Codegen& cg) {
  llvm::Value* p = affectedPtr(cg);
  cg.b_.CreateStore(cg.b_.CreateAdd(cg.b_.CreateLoad(cg.i64Ty_, p), cg.b_.getInt64(1)), p);
}
static void emitReturning(Codegen& cg, const Node& node, const Row& tableRow, const Consumer& consume) {
  if (node.returning.empty()) return;
  Row out;
  for (const auto& e : node.returning) out.push_back(cg.expr(*e, tableRow));
  consume(out);
}

llvm::Value* Codegen::limitBound(const Node& limit) {
  auto& b = b_;
  Val l = expr(*limit.limit, {});
  llvm::Value* bound = b.CreateSelect(l.null, b.getInt64(INT64_MAX), l.v);
  if (!limit.offset) return bound;
  Val o = expr(*limit.offset, {});
  return b.CreateBinaryIntrinsic(llvm::Intrinsic::sadd_sat, b.CreateSelect(o.null, b.getInt64(0), o.v), bound);
}

Codegen::JoinLayouts Codegen::joinLayouts(const Node& join) {
  return {out_.layouts.add(TupleLayout::of(typesOf(join.exprs))),
          out_.layouts.add(TupleLayout::of(join.children[0]->outputTypes))};
}

llvm::Value* Codegen::buildJoinTable(const Node& join, JoinLayouts layouts) {
  auto& b = b_;
  const Node& build = *join.children[0];
  auto [keyLayout, rowLayout] = layouts;
  auto newTable = [&] { return call("duet_q_join_new", ptrTy_, {qctx_, ptrConst(keyLayout), ptrConst(rowLayout)}); };
  auto insert = [&](llvm::Value* into, Row& row) {
    llvm::Value* key = tupleAlloca(*keyLayout);
    llvm::Value* tuple = tupleAlloca(*rowLayout);
    Row keys;
    for (const auto& k : join.exprs) keys.push_back(expr(*k, row));
    storeRow(key, *keyLayout, keys);
    storeRow(tuple, *rowLayout, row);
    call("duet_q_join_insert", b.getVoidTy(), {into, key, tuple});
  };
  llvm::Value* table = newTable();
  if (join.parallelThreads > 1 && !inWorker_) {
    // Each worker collects its morsels' rows; the leader takes them all and indexes them.
    llvm::Value* run = runParallel(build, join.parallelThreads, newTable, insert);
    call("duet_q_join_merge", b.getVoidTy(), {table, run});
  } else {
    producePipeline(build, [&](Row& row) { insert(table, row); });
    call("duet_q_join_finish", b.getVoidTy(), {table});
  }
  return table;
}

void Codegen::produce(const Node& node, const Consumer& consume) {
  checkStackDepth();
  checkForInterrupts();
  auto& b = b_;
  switch (node.kind) {
    case NodeKind::TableScan: {
      scanTable(*this, *node.table, node.morsels && inWorker_, [&](Row& row, llvm::Value* rowid, llvm::BasicBlock*) {
        row.push_back({rowid, b.getFalse()});
        consume(row);
      });
      return;
    }
    case NodeKind::IndexLookup: {
      const TupleLayout& keyLayout = node.index->keyLayout();
      llvm::Value* key = tupleAlloca(keyLayout);
      Row keys;
      for (const auto& k : node.keys) keys.push_back(expr(*k, {}));
      storeRow(key, keyLayout, keys);
      llvm::Value* rowid = call("duet_index_lookup", i64Ty_, {ptrConst(node.index), key});
      ifThen(b.CreateICmpNE(rowid, b.getInt64(kNoRow)), [&] {
        Row row = readRow(*this, *node.table, rowid);
        row.push_back({rowid, b.getFalse()});
        consume(row);
      });
      return;
    }
    case NodeKind::IndexRange: {
      produceIndexRange(*this, node, consume);
      return;
    }
    case NodeKind::Values: {
      if (produceValuesLoop(node, consume)) return;
      for (const auto& exprs : node.rows) {
        std::vector<const plan::Expr*> cells;
        for (const auto& e : exprs) cells.push_back(e.get());
        Row row = valuesRow(node, cells);
        consume(row);
      }
      return;
    }
    case NodeKind::IndexJoin: {
      const TupleLayout& keyLayout = node.index->keyLayout();
      llvm::Value* key = tupleAlloca(keyLayout);
      produce(*node.children[0], [&](Row& left) {
        Row keys;
        for (const auto& k : node.keys) keys.push_back(expr(*k, left));
        storeRow(key, keyLayout, keys);
        llvm::Value* rowid = call("duet_index_lookup", i64Ty_, {ptrConst(node.index), key});
        ifThen(b.CreateICmpNE(rowid, b.getInt64(kNoRow)), [&] {
          Row joined = left;
          Row right = readRow(*this, *node.table, rowid);
          joined.insert(joined.end(), right.begin(), right.end());
          joined.push_back({rowid, b.getFalse()});
          consume(joined);
        });
      });
      return;
    }
    case NodeKind::FunctionScan: {
      const TupleLayout* layout = out_.layouts.add(TupleLayout::of(node.outputTypes));
      iterateBuffer(callRoutineRows(*this, node, {}, layout), layout, consume);
      return;
    }
    case NodeKind::ProjectSet: {
      // The routine's values per input row, each passed on after that row's columns.
      const TupleLayout* layout = out_.layouts.add(TupleLayout::of({node.outputTypes.back()}));
      produce(*node.children[0], [&](Row& row) {
        iterateBuffer(callRoutineRows(*this, node, row, layout), layout, [&](Row& value) {
          Row out = row;
          out.push_back(value[0]);
          consume(out);
        });
      });
      return;
    }
    case NodeKind::Filter: {
      produce(*node.children[0], [&](Row& row) {
        Val v = expr(*node.predicate, row);
        ifThen(isTrue(v), [&] { consume(row); });
      });
      return;
    }
    case NodeKind::Project: {
      produce(*node.children[0], [&](Row& row) {
        Row out;
        for (const auto& e : node.exprs) out.push_back(expr(*e, row));
        consume(out);
      });
      return;
    }
    case NodeKind::Materialize:
    case NodeKind::NestedLoopJoin: {
      // Materialise child (the inner side for a join) into a buffer first.
      const Node& buffered = node.kind == NodeKind::Materialize ? *node.children[0] : *node.children[1];
      const TupleLayout* layout = out_.layouts.add(TupleLayout::of(buffered.outputTypes));
      llvm::Value* buffer = call("duet_q_buffer_new", ptrTy_, {qctx_, ptrConst(layout)});
      llvm::Value* tuple = tupleAlloca(*layout);
      producePipeline(buffered, [&](Row& row) {
        storeRow(tuple, *layout, row);
        call("duet_q_buffer_append", b.getVoidTy(), {buffer, tuple});
      });
      if (node.kind == NodeKind::Materialize) {
        iterateBuffer(buffer, layout, consume);
        return;
      }
      produce(*node.children[0], [&](Row& outer) {
        checkCancel();
        iterateBuffer(buffer, layout, [&](Row& inner) {
          Row joined = outer;
          joined.insert(joined.end(), inner.begin(), inner.end());
          if (node.predicate) {
            ifThen(isTrue(expr(*node.predicate, joined)), [&] { consume(joined); });
          } else {
            consume(joined);
          }
        });
      });
      return;
    }
    case NodeKind::HashJoin: {
      JoinLayouts layouts = joinLayouts(node);
      auto [keyLayout, rowLayout] = layouts;
      auto shared = joinSlots_.find(&node);
      llvm::Value* table = inWorker_ && shared != joinSlots_.end()
                               ? call("duet_q_join_shared", ptrTy_, {qctx_, b.getInt32(shared->second)})
                               : buildJoinTable(node, layouts);
      llvm::Value* probeKey = tupleAlloca(*keyLayout);
      llvm::IRBuilder<> eb(entry_, entry_->getFirstInsertionPt());
      llvm::Value* cursor = eb.CreateAlloca(i64Ty_);
      produce(*node.children[1], [&](Row& right) {
        checkCancel();
        Row keys;
        for (const auto& k : node.rightKeys) keys.push_back(expr(*k, right));
        storeRow(probeKey, *keyLayout, keys);
        b.CreateStore(b.getInt64(0), cursor);
        llvm::BasicBlock* head = block("probe");
        llvm::BasicBlock* match = block("probe.match");
        llvm::BasicBlock* done = block("probe.done");
        b.CreateBr(head);
        b.SetInsertPoint(head);
        llvm::Value* hit = call("duet_q_join_next", ptrTy_, {table, probeKey, cursor});
        b.CreateCondBr(b.CreateIsNull(hit), done, match);
        b.SetInsertPoint(match);
        Row joined;
        for (size_t c = 0; c < rowLayout->types.size(); ++c) joined.push_back(loadField(hit, *rowLayout, c));
        joined.insert(joined.end(), right.begin(), right.end());
        if (node.predicate) {
          ifThen(isTrue(expr(*node.predicate, joined)), [&] { consume(joined); });
        } else {
          consume(joined);
        }
        if (!b.GetInsertBlock()->getTerminator()) b.CreateBr(head);
        b.SetInsertPoint(done);
      });
      return;
    }
    case NodeKind::Aggregate: produceAggregate(node, consume); return;
    case NodeKind::Sort: {
      const TupleLayout* layout = out_.layouts.add(TupleLayout::of(node.outputTypes));
      auto spec = std::make_unique<std::vector<rt::SortSpec>>();
      for (const auto& k : node.sortKeys) spec->push_back({k.column, k.descending, k.nullsFirst});
      const Node* limit = std::exchange(sortLimit_, nullptr);
      auto newSorter = [&] {
        llvm::Value* sorter = call("duet_q_sorter_new", ptrTy_,
                                   {qctx_, ptrConst(layout), ptrConst(spec->data()), b.getInt32(spec->size())});
        if (limit) call("duet_q_sorter_bound", b.getVoidTy(), {sorter, limitBound(*limit)});
        return sorter;
      };
      llvm::Value* sorter = newSorter();
      auto add = [&](llvm::Value* into, Row& row) {
        llvm::Value* tuple = tupleAlloca(*layout);
        storeRow(tuple, *layout, row);
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
      iterateBuffer(sorter, layout, consume);
      return;
    }
    case NodeKind::Limit: {
      llvm::Value* limit = b.getInt64(INT64_MAX);
      llvm::Value* offset = b.getInt64(0);
      if (node.limit) {
        Val l = expr(*node.limit, {});
        limit = b.CreateSelect(l.null, limit, l.v);
      }
      if (node.offset) {
        Val o = expr(*node.offset, {});
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
        ifThen(b.CreateICmpSGE(n, offset), [&] { consume(row); });
        ifThen(b.CreateICmpSGE(n1, sum), [&] { b.CreateBr(pipelineEnd_.back()); });
      });
      return;
    }
    case NodeKind::Distinct: {
      const TupleLayout* layout = out_.layouts.add(TupleLayout::of(node.outputTypes));
      llvm::Value* groups = call("duet_q_groups_new", ptrTy_, {qctx_, ptrConst(layout), b.getInt32(16)});
      llvm::Value* tuple = tupleAlloca(*layout);
      llvm::IRBuilder<> eb(entry_, entry_->getFirstInsertionPt());
      llvm::Value* isNew = eb.CreateAlloca(b.getInt8Ty());
      produce(*node.children[0], [&](Row& row) {
        storeRow(tuple, *layout, row);
        call("duet_q_groups_find", ptrTy_, {groups, tuple, isNew});
        ifThen(b.CreateICmpNE(b.CreateLoad(b.getInt8Ty(), isNew), b.getInt8(0)), [&] { consume(row); });
      });
      return;
    }
    case NodeKind::Insert: {
      const TupleLayout& layout = node.table->layout();
      llvm::Value* tuple = tupleAlloca(layout);
      produce(*node.children[0], [&](Row& row) {
        storeRow(tuple, layout, row);
        call("duet_table_insert", i64Ty_, {ptrConst(node.table), tuple, undoPtr(*this)});
        countAffected(*this);
        emitReturning(*this, node, row, consume);
      });
      return;
    }
    case NodeKind::Update: {
      const TupleLayout& layout = node.table->layout();
      llvm::Value* tuple = tupleAlloca(layout);
      produce(*node.children[0], [&](Row& row) {
        Row values(row.begin() + 1, row.end());
        storeRow(tuple, layout, values);
        call("duet_table_update", b.getVoidTy(), {ptrConst(node.table), row[0].v, tuple, undoPtr(*this)});
        countAffected(*this);
        emitReturning(*this, node, values, consume);
      });
      return;
    }
    case NodeKind::Delete: {
      produce(*node.children[0], [&](Row& row) {
        call("duet_table_erase", b.getVoidTy(), {ptrConst(node.table), row[0].v, undoPtr(*this)});
        countAffected(*this);
        Row values(row.begin() + 1, row.end());
        emitReturning(*this, node, values, consume);
      });
      return;
    }
  }
}

}  // namespace duet::codegen
