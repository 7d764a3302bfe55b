// INSERT ... ON CONFLICT: each proposed row is looked up in the arbiter indexes first (a
// hash probe per arbiter, Table::findConflict). No row there: it is inserted as by a
// plain INSERT. A row there: DO NOTHING skips the proposed row; DO UPDATE reads the
// existing row, evaluates WHERE and SET over it and the proposed row (EXCLUDED), and
// updates it in place as UPDATE does (duet_table_update: NOT NULL, unique indexes, undo
// log). Rows this execution inserted or updated are remembered (ChangedRows) so that a
// later proposed row with the same key raises 21000 instead of updating one again.
#include "compiler/codegen/codegen_internal.h"
#include "engine/storage/table.h"

namespace duet::codegen {

using plan::Node;

void Codegen::produceInsertOnConflict(const Node& node, const Consumer& consume) {
  auto& b = b_;
  const TupleLayout& layout = node.table->layout();
  bool update = node.onConflict == plan::OnConflict::Update;
  llvm::Value* tuple = tupleAlloca(layout);
  llvm::Value* updated = update ? tupleAlloca(layout) : nullptr;
  llvm::Value* found = nullptr;  // with several arbiters: the conflict found so far
  if (node.arbiters.size() > 1) found = llvm::IRBuilder<>(entry_, entry_->getFirstInsertionPt()).CreateAlloca(i64Ty_);
  // One set for the statement, made before its rows: the child may hand rows over from
  // several places in the code (a VALUES list's rows, one by one).
  llvm::Value* changed = nullptr;
  if (update)
    changed = valueSetOnce(
        [&](llvm::Value* previous) { return call("duet_q_changed_rows_fresh", ptrTy_, {qctx_, previous}); });
  produce(*node.children[0], [&](Row& row) {
    storeRow(tuple, layout, row);
    // CHECK constraints before the arbiters, as PostgreSQL's ExecInsert checks them.
    emitChecks(*this, node, row, tuple);
    // The conflicting row of the first arbiter that holds the proposed key, or kNoRow.
    llvm::Value* conflict = b.getInt64(kNoRow);
    auto probe = [&](const Index* arbiter) {
      return call("duet_table_find_conflict", i64Ty_, {ptrConst(node.table), ptrConst(arbiter), tuple});
    };
    if (node.arbiters.size() == 1) {
      conflict = probe(node.arbiters[0]);
    } else if (node.arbiters.size() > 1) {
      b.CreateStore(b.getInt64(kNoRow), found);
      for (const Index* arbiter : node.arbiters)
        ifThen(b.CreateICmpEQ(b.CreateLoad(i64Ty_, found), b.getInt64(kNoRow)),
               [&] { b.CreateStore(probe(arbiter), found); });
      conflict = b.CreateLoad(i64Ty_, found);
    }
    ifThen(b.CreateICmpEQ(conflict, b.getInt64(kNoRow)), [&] {
      llvm::Value* rowid = call("duet_table_insert", i64Ty_, {ptrConst(node.table), tuple, undoPtr(*this)});
      if (update) call("duet_q_changed_rows_add", b.getVoidTy(), {changed, rowid});
      countAffected(*this);
      emitReturning(*this, node, row, consume);
    });
    if (!update) return;
    ifThen(b.CreateICmpNE(conflict, b.getInt64(kNoRow)), [&] {
      call("duet_q_changed_rows_check", b.getVoidTy(), {changed, conflict});
      // The existing row and its rowid, then EXCLUDED (the proposed row) and its rowid slot.
      Row both = readRow(*node.table, conflict);
      both.push_back(notNull(conflict, {TypeId::Int8, -1}));
      both.insert(both.end(), row.begin(), row.end());
      both.push_back(nullOf({TypeId::Int8, -1}));
      auto apply = [&] {
        Row values;
        for (const auto& e : node.exprs) values.push_back(expr(*e, both));
        storeRow(updated, layout, values);
        emitChecks(*this, node, values, updated);
        call("duet_table_update", b.getVoidTy(), {ptrConst(node.table), conflict, updated, undoPtr(*this)});
        call("duet_q_changed_rows_add", b.getVoidTy(), {changed, conflict});
        countAffected(*this);
        emitReturning(*this, node, values, consume);
      };
      if (node.predicate)
        ifThen(isTrue(expr(*node.predicate, both)), apply);
      else
        apply();
    });
  });
  settleForeignKeys(*this, node);
}

}  // namespace duet::codegen
