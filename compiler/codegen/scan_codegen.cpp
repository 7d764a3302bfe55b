// Table access: a full scan (TableScan), a unique-index point lookup (IndexLookup), an
// ordered index walk (IndexRange) and the row a cursor stands on (CurrentOf). Generated code reads the table's chunks
// directly - a row-store tuple at its stride, or a column store's value and null arrays - so a scan is a loop over
// memory with no call per row; only the index probes are runtime calls. Each row is passed on with its rowid last,
// which Update and Delete consume.
#include <cstddef>

#include "compiler/codegen/codegen_internal.h"
#include "engine/storage/storage_runtime.h"
#include "engine/storage/table.h"

namespace duet::codegen {

using plan::Node;

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
              row.push_back(cg.loadValue(vp, np, layout.types[col]));
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
Row Codegen::readRow(const Table& table, llvm::Value* rowid) {
  auto& b = b_;
  const TupleLayout& layout = table.layout();
  llvm::Type* i8 = b.getInt8Ty();
  llvm::Value* dir = ptrConst(&table.directory());
  llvm::Value* chunks = b.CreateLoad(ptrTy_, b.CreateConstInBoundsGEP1_64(i8, dir, offsetof(ChunkDirectory, chunks)));
  llvm::Value* chunk = b.CreateLoad(ptrTy_, b.CreateInBoundsGEP(ptrTy_, chunks, b.CreateLShr(rowid, kChunkShift)));
  llvm::Value* slot = b.CreateAnd(rowid, b.getInt64(kChunkRows - 1));
  Row row;
  if (table.kind() == StorageKind::Row) {
    llvm::Value* rows = b.CreateLoad(ptrTy_, b.CreateConstInBoundsGEP1_64(i8, chunk, offsetof(Chunk, rows)));
    llvm::Value* tuple = b.CreateInBoundsGEP(i8, rows, b.CreateMul(slot, b.getInt64(table.rowStride())));
    for (size_t col = 0; col < layout.types.size(); ++col) row.push_back(loadField(tuple, layout, col));
  } else {
    llvm::Value* cv = b.CreateLoad(ptrTy_, b.CreateConstInBoundsGEP1_64(i8, chunk, offsetof(Chunk, columnValues)));
    llvm::Value* cn = b.CreateLoad(ptrTy_, b.CreateConstInBoundsGEP1_64(i8, chunk, offsetof(Chunk, columnNulls)));
    for (size_t col = 0; col < layout.types.size(); ++col) {
      TypeId t = layout.types[col].id;
      llvm::Value* values = b.CreateLoad(ptrTy_, b.CreateConstInBoundsGEP1_64(ptrTy_, cv, col));
      llvm::Value* nulls = b.CreateLoad(ptrTy_, b.CreateConstInBoundsGEP1_64(ptrTy_, cn, col));
      row.push_back(loadValue(b.CreateInBoundsGEP(i8, values, b.CreateMul(slot, b.getInt64(physicalSize(t)))),
                              b.CreateInBoundsGEP(i8, nulls, slot), layout.types[col]));
    }
  }
  return row;
}

void Codegen::produceTableScan(const Node& node, const Consumer& consume) {
  scanTable(*this, *node.table, node.morsels && inWorker_, [&](Row& row, llvm::Value* rowid, llvm::BasicBlock*) {
    row.push_back(notNull(rowid, {TypeId::Int8, -1}));
    consume(row);
  });
}

// The array of a key set becomes a ValueSet (sorted, duplicates and NULLs dropped) each
// time the access runs - the array may read an enclosing query's row - reusing the last
// one's memory; its elements are then the key's values.
void Codegen::forEachIndexKey(const Node& node, const std::function<void(const Row& keys)>& probe) {
  const plan::Expr* values = node.keySet < 0 ? nullptr : node.keys[static_cast<size_t>(node.keySet)].get();
  Row keys;
  for (const auto& k : node.keys)
    keys.push_back(k.get() == values ? nullOf(values->type.elementType()) : expr(*k, {}));  // set below
  if (!values) return probe(keys);
  SqlType element = values->type.elementType();
  llvm::IRBuilder<> eb(entry_, entry_->getFirstInsertionPt());
  llvm::AllocaInst* setSlot = eb.CreateAlloca(ptrTy_);
  llvm::IRBuilder<> sb(entry_, std::next(setSlot->getIterator()));
  sb.CreateStore(llvm::ConstantPointerNull::get(llvm::cast<llvm::PointerType>(ptrTy_)), setSlot);
  SqlValue array = expr(*values, {});
  ifThen(b_.CreateNot(array.null), [&] {
    llvm::Value* set =
        call("duet_q_value_set_array", ptrTy_,
             {qctx_, b_.CreateLoad(ptrTy_, setSlot), b_.getInt32(static_cast<int32_t>(element.id)), array.v});
    b_.CreateStore(set, setSlot);
    llvm::Value* count = call("duet_q_value_set_count", i64Ty_, {set});
    loop(
        b_.getInt64(0), [&] { return count; },
        [&](llvm::Value* i, llvm::BasicBlock*) {
          checkCancel();
          llvm::Value* value = b_.CreateLoad(memType(element.id), call("duet_q_value_set_value", ptrTy_, {set, i}));
          if (element.id == TypeId::Bool) value = b_.CreateICmpNE(value, b_.getInt8(0));
          keys[static_cast<size_t>(node.keySet)] = notNull(value, element);
          probe(keys);
        });
  });
}

void Codegen::produceIndexLookup(const Node& node, const Consumer& consume) {
  auto& b = b_;
  const TupleLayout& keyLayout = node.index->keyLayout();
  llvm::Value* key = tupleAlloca(keyLayout);
  forEachIndexKey(node, [&](const Row& keys) {
    storeRow(key, keyLayout, keys);
    llvm::Value* rowid = call("duet_index_lookup", i64Ty_, {ptrConst(node.index), key});
    ifThen(b.CreateICmpNE(rowid, b.getInt64(kNoRow)), [&] {
      Row row = readRow(*node.table, rowid);
      row.push_back(notNull(rowid, {TypeId::Int8, -1}));
      consume(row);
    });
  });
}

// The cursor's name (a refcursor: a constant, or a PL/pgSQL variable's parameter) goes to
// the session, which answers with the row's id (duet_q_current_of).
void Codegen::produceCurrentOf(const Node& node, const Consumer& consume) {
  auto& b = b_;
  const plan::Expr& cursor = *node.keys[0];
  SqlValue name = expr(cursor, {});
  llvm::Value* namePtr =
      b.CreateSelect(name.null, llvm::ConstantPointerNull::get(llvm::cast<llvm::PointerType>(ptrTy_)), name.v);
  int32_t param = cursor.kind == plan::ExprKind::Param ? cursor.param + 1 : 0;
  llvm::Value* rowid = call("duet_q_current_of", i64Ty_, {qctx_, ptrConst(node.table), namePtr, b.getInt32(param)});
  ifThen(b.CreateICmpNE(rowid, b.getInt64(kNoRow)), [&] {
    Row row = readRow(*node.table, rowid);
    row.push_back(notNull(rowid, {TypeId::Int8, -1}));
    consume(row);
  });
}

// Iterates an ordered index range (NodeKind::IndexRange): the bound keys are computed once,
// then duet_index_range_next hands out rowids in key order (or reverse key order) until kNoRow.
void Codegen::produceIndexRange(const Node& node, const Consumer& consume) {
  forEachIndexKey(node, [&](const Row& keys) {
    std::optional<SqlValue> low, high;
    if (node.rangeLow) low = expr(*node.rangeLow, {});
    if (node.rangeHigh) high = expr(*node.rangeHigh, {});
    walkIndexRange(node, keys, low, high, consume);
  });
}

void Codegen::walkIndexRange(const Node& node, const Row& keys, const std::optional<SqlValue>& low,
                             const std::optional<SqlValue>& high, const Consumer& consume) {
  auto& b = b_;
  const TupleLayout& keyLayout = node.index->keyLayout();
  llvm::Value* lower = tupleAlloca(keyLayout);
  llvm::Value* upper = tupleAlloca(keyLayout);
  size_t eq = keys.size();
  llvm::IRBuilder<> eb(entry_, entry_->getFirstInsertionPt());
  llvm::AllocaInst* range = eb.CreateAlloca(llvm::ArrayType::get(b.getInt8Ty(), sizeof(DuetIndexRange)));
  range->setAlignment(llvm::Align(alignof(DuetIndexRange)));
  for (size_t k = 0; k < eq; ++k) {
    storeField(lower, keyLayout, k, keys[k]);
    storeField(upper, keyLayout, k, keys[k]);
  }
  if (low) storeField(lower, keyLayout, eq, *low);
  if (high) storeField(upper, keyLayout, eq, *high);
  // C bool parameters are passed as i8 (0 or 1).
  auto flag = [&](bool v) { return b.getInt8(v ? 1 : 0); };
  call("duet_index_range_open", b.getVoidTy(),
       {range, ptrConst(node.index), lower, b.getInt32(eq + (low ? 1 : 0)), flag(node.lowInclusive), upper,
        b.getInt32(eq + (high ? 1 : 0)), flag(node.highInclusive), flag(node.descending)});
  llvm::BasicBlock* head = block("range.next");
  llvm::BasicBlock* hit = block("range.row");
  llvm::BasicBlock* done = block("range.done");
  b.CreateBr(head);
  b.SetInsertPoint(head);
  llvm::Value* rowid = call("duet_index_range_next", i64Ty_, {range});
  b.CreateCondBr(b.CreateICmpEQ(rowid, b.getInt64(kNoRow)), done, hit);
  b.SetInsertPoint(hit);
  checkCancel();
  Row row = readRow(*node.table, rowid);
  row.push_back(notNull(rowid, {TypeId::Int8, -1}));
  consume(row);
  if (!b.GetInsertBlock()->getTerminator()) b.CreateBr(head);
  b.SetInsertPoint(done);
}

}  // namespace duet::codegen
