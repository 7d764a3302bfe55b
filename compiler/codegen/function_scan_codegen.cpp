// Rows from set-returning routines and built-in functions: `FROM f(args)` and CALL
// (FunctionScan), and a function
// returning a set of scalars in a select list (ProjectSet, once per input row). A routine
// is compiled code of its own, reached through the session (duet_q_call_routine_rows), so
// its rows cannot be fused into the caller's loop nest: the call fills a buffer in the
// query context and the pipeline continues with a loop over that buffer.
#include "compiler/codegen/codegen_internal.h"

namespace duet::codegen {

using plan::Node;

// Calls routine `routine` on `args` (over `row`) for its rows: a buffer of `layout`, made
// by the routine in the query context.
static llvm::Value* callRoutineRows(Codegen& cg, uint32_t routine, const std::vector<plan::ExprPtr>& args,
                                    const Row& row, const TupleLayout* layout) {
  const TupleLayout* argLayout = cg.out_.layouts.add(TupleLayout::of(typesOf(args)));
  llvm::Value* tuple = cg.tupleAlloca(*argLayout);
  for (size_t i = 0; i < args.size(); ++i) cg.storeField(tuple, *argLayout, i, cg.expr(*args[i], row));
  return cg.call("duet_q_call_routine_rows", cg.ptrTy_,
                 {cg.qctx_, cg.b_.getInt32(routine), tuple, cg.ptrConst(argLayout), cg.ptrConst(layout)});
}

// The rows of the built-in set-returning function `function` for `args` (over `row`),
// passed to `rows` as the buffer its runtime function fills: not called when an argument
// is NULL (the function is strict: no rows).
static void builtinRows(Codegen& cg, const std::string& function, const std::vector<plan::ExprPtr>& args,
                        const Row& row, const TupleLayout* layout, const std::function<void(llvm::Value*)>& rows) {
  std::vector<llvm::Value*> values{cg.qctx_};
  llvm::Value* anyNull = cg.b_.getFalse();
  for (const auto& e : args) {
    SqlValue v = cg.expr(*e, row);
    anyNull = cg.b_.CreateOr(anyNull, v.null);
    values.push_back(v.v);
  }
  values.push_back(cg.ptrConst(layout));
  cg.ifThen(cg.b_.CreateNot(anyNull), [&] { rows(cg.call(function, cg.ptrTy_, values)); });
}

void Codegen::produceFunctionScan(const Node& node, const Consumer& consume) {
  std::vector<SqlType> types = node.outputTypes;
  if (node.ordinality) types.pop_back();  // numbered here, not by the function
  const TupleLayout* layout = out_.layouts.add(TupleLayout::of(types));
  Consumer next = consume;
  if (node.ordinality) {
    llvm::Value* number = llvm::IRBuilder<>(entry_, entry_->getFirstInsertionPt()).CreateAlloca(i64Ty_);
    b_.CreateStore(b_.getInt64(0), number);
    next = [&, number](Row& row) {
      llvm::Value* n = b_.CreateAdd(b_.CreateLoad(i64Ty_, number), b_.getInt64(1));
      b_.CreateStore(n, number);
      row.push_back(notNull(n, {TypeId::Int8, -1}));
      consume(row);
    };
  }
  if (!node.function.empty())
    return builtinRows(*this, node.function, node.exprs, {}, layout,
                       [&](llvm::Value* rows) { iterateBuffer(rows, layout, next); });
  iterateBuffer(callRoutineRows(*this, node.routine, node.exprs, {}, layout), layout, next);
}

// The rows of set-returning call `call` (a RoutineCall, or a Call of a built-in set
// function) over `row`: its buffer, or null for no rows (a NULL argument of a built-in).
static llvm::Value* callRows(Codegen& cg, const plan::Expr& call, const Row& row, const TupleLayout* layout) {
  if (call.kind == plan::ExprKind::RoutineCall) return callRoutineRows(cg, call.routine, call.args, row, layout);
  llvm::Value* slot = llvm::IRBuilder<>(cg.entry_, cg.entry_->getFirstInsertionPt()).CreateAlloca(cg.ptrTy_);
  cg.b_.CreateStore(llvm::ConstantPointerNull::get(llvm::cast<llvm::PointerType>(cg.ptrTy_)), slot);
  builtinRows(cg, call.function, call.args, row, layout, [&](llvm::Value* rows) { cg.b_.CreateStore(rows, slot); });
  return cg.b_.CreateLoad(cg.ptrTy_, slot);
}

void Codegen::produceProjectSet(const Node& node, const Consumer& consume) {
  // The calls' values per input row, each row passed on after that row's columns. The
  // calls run in lockstep: as many rows as the longest gives, the others NULL once theirs
  // run out (PostgreSQL 10's rule).
  std::vector<const TupleLayout*> layouts;
  for (const auto& call : node.exprs) layouts.push_back(out_.layouts.add(TupleLayout::of({call->type})));
  produce(*node.children[0], [&](Row& row) {
    std::vector<llvm::Value*> buffers, ended;
    llvm::Value* longest = b_.getInt64(0);
    for (size_t i = 0; i < node.exprs.size(); ++i) {
      buffers.push_back(callRows(*this, *node.exprs[i], row, layouts[i]));
      llvm::Value* size = call("duet_q_buffer_size_or_zero", i64Ty_, {buffers.back()});
      longest = b_.CreateSelect(b_.CreateICmpUGT(size, longest), size, longest);
      // What a call gives after its last row: a tuple of NULL.
      ended.push_back(tupleAlloca(*layouts[i]));
      storeField(ended.back(), *layouts[i], 0, nullOf(node.exprs[i]->type));
    }
    loop(
        b_.getInt64(0), [&] { return longest; },
        [&](llvm::Value* k, llvm::BasicBlock*) {
          Row out = row;
          for (size_t i = 0; i < buffers.size(); ++i) {
            llvm::Value* tuple = call("duet_q_buffer_at_or", ptrTy_, {buffers[i], k, ended[i]});
            out.push_back(loadField(tuple, *layouts[i], 0));
          }
          consume(out);
        });
  });
}

}  // namespace duet::codegen
