// INSERT, UPDATE and DELETE: the rows their child produces (new rows, or a rowid with new
// values, or a rowid alone) are applied one by one where they are produced, through the
// storage runtime (duet_table_insert/update/erase), which maintains the indexes and records
// each change in the undo log (QueryContext::undo) a rollback replays. Each applied
// row counts towards the command tag (QueryContext::affectedRows) and, with RETURNING,
// passes its RETURNING list on as an output row.
#include <cstddef>

#include "compiler/codegen/codegen_internal.h"
#include "engine/storage/table.h"

namespace duet::codegen {

using plan::Node;

static llvm::Value* affectedPtr(Codegen& cg) {
  return cg.b_.CreateConstInBoundsGEP1_64(cg.b_.getInt8Ty(), cg.qctx_, offsetof(rt::QueryContext, affectedRows));
}
llvm::Value* undoPtr(Codegen& cg) {
  return cg.b_.CreateLoad(
      cg.ptrTy_, cg.b_.CreateConstInBoundsGEP1_64(cg.b_.getInt8Ty(), cg.qctx_, offsetof(rt::QueryContext, undo)));
}
void countAffected(Codegen& cg) {
  llvm::Value* p = affectedPtr(cg);
  cg.b_.CreateStore(cg.b_.CreateAdd(cg.b_.CreateLoad(cg.i64Ty_, p), cg.b_.getInt64(1)), p);
}
void emitReturning(Codegen& cg, const Node& node, const Row& tableRow, const Consumer& consume) {
  if (node.returning.empty()) return;
  Row out;
  for (const auto& e : node.returning) out.push_back(cg.expr(*e, tableRow));
  consume(out);
}

// CHECK constraints: each one false (not NULL) over the new row stops the statement with
// 23514, which names the first that fails and shows the row (stored in `tuple` already).
void emitChecks(Codegen& cg, const Node& node, const Row& newRow, llvm::Value* tuple) {
  auto& b = cg.b_;
  for (size_t i = 0; i < node.checks.size(); ++i) {
    SqlValue v = cg.expr(*node.checks[i], newRow);
    llvm::Value* failed = b.CreateAnd(b.CreateNot(v.null), b.CreateNot(v.v));
    cg.ifThen(failed, [&] {
      cg.call("duet_table_check_failed", b.getVoidTy(),
              {cg.ptrConst(node.table), cg.stringConstant(node.checkNames[i]), tuple});
    });
  }
}

// After the last row: a table in a foreign key leaves checks for the statement's end
// (engine/storage/foreign_key.h); a table in none, nothing to emit.
void settleForeignKeys(Codegen& cg, const Node& node) {
  if (node.table->references().empty() && node.table->referencedBy().empty()) return;
  cg.call("duet_undo_run_deferred", cg.b_.getVoidTy(), {undoPtr(cg)});
}

void Codegen::produceInsert(const Node& node, const Consumer& consume) {
  if (node.onConflict != plan::OnConflict::None) return produceInsertOnConflict(node, consume);
  const TupleLayout& layout = node.table->layout();
  llvm::Value* tuple = tupleAlloca(layout);
  produce(*node.children[0], [&](Row& row) {
    storeRow(tuple, layout, row);
    emitChecks(*this, node, row, tuple);
    call("duet_table_insert", i64Ty_, {ptrConst(node.table), tuple, undoPtr(*this)});
    countAffected(*this);
    emitReturning(*this, node, row, consume);
  });
  settleForeignKeys(*this, node);
}

void Codegen::produceUpdate(const Node& node, const Consumer& consume) {
  auto& b = b_;
  const TupleLayout& layout = node.table->layout();
  llvm::Value* tuple = tupleAlloca(layout);
  produce(*node.children[0], [&](Row& row) {
    Row values(row.begin() + 1, row.end());
    storeRow(tuple, layout, values);
    emitChecks(*this, node, values, tuple);
    call("duet_table_update", b.getVoidTy(), {ptrConst(node.table), row[0].v, tuple, undoPtr(*this)});
    countAffected(*this);
    emitReturning(*this, node, values, consume);
  });
  settleForeignKeys(*this, node);
}

void Codegen::produceDelete(const Node& node, const Consumer& consume) {
  auto& b = b_;
  produce(*node.children[0], [&](Row& row) {
    call("duet_table_erase", b.getVoidTy(), {ptrConst(node.table), row[0].v, undoPtr(*this)});
    countAffected(*this);
    Row values(row.begin() + 1, row.end());
    emitReturning(*this, node, values, consume);
  });
  settleForeignKeys(*this, node);
}

}  // namespace duet::codegen
