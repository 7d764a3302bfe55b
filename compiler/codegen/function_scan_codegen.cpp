// Rows from set-returning routines and built-in functions: `FROM f(args)` and CALL
// (FunctionScan), and a function
// returning a set of scalars in a select list (ProjectSet, once per input row). A routine
// is compiled code of its own, reached through the session (duet_q_call_routine_rows), so
// its rows cannot be fused into the caller's loop nest: the call fills a buffer in the
// query context and the pipeline continues with a loop over that buffer.
#include "compiler/codegen/codegen_internal.h"

namespace duet::codegen {

using plan::Node;

// Calls a node's routine on its arguments (`exprs` over `row`) for its rows: a buffer of
// `layout`, made by the routine in the query context.
static llvm::Value* callRoutineRows(Codegen& cg, const Node& node, const Row& row, const TupleLayout* layout) {
  const TupleLayout* argLayout = cg.out_.layouts.add(TupleLayout::of(typesOf(node.exprs)));
  llvm::Value* args = cg.tupleAlloca(*argLayout);
  for (size_t i = 0; i < node.exprs.size(); ++i) cg.storeField(args, *argLayout, i, cg.expr(*node.exprs[i], row));
  return cg.call("duet_q_call_routine_rows", cg.ptrTy_,
                 {cg.qctx_, cg.b_.getInt32(node.routine), args, cg.ptrConst(layout)});
}

// The rows of a built-in set-returning function (node.function) for its arguments
// (`exprs` over `row`), passed to `consume`: none when an argument is NULL (it is strict),
// else those of the buffer its runtime function fills.
static void builtinRows(Codegen& cg, const Node& node, const Row& row, const TupleLayout* layout,
                        const Consumer& consume) {
  std::vector<llvm::Value*> args{cg.qctx_};
  llvm::Value* anyNull = cg.b_.getFalse();
  for (const auto& e : node.exprs) {
    SqlValue v = cg.expr(*e, row);
    anyNull = cg.b_.CreateOr(anyNull, v.null);
    args.push_back(v.v);
  }
  args.push_back(cg.ptrConst(layout));
  cg.ifThen(cg.b_.CreateNot(anyNull),
            [&] { cg.iterateBuffer(cg.call(node.function, cg.ptrTy_, args), layout, consume); });
}

void Codegen::produceFunctionScan(const Node& node, const Consumer& consume) {
  const TupleLayout* layout = out_.layouts.add(TupleLayout::of(node.outputTypes));
  if (!node.function.empty()) return builtinRows(*this, node, {}, layout, consume);
  iterateBuffer(callRoutineRows(*this, node, {}, layout), layout, consume);
}

void Codegen::produceProjectSet(const Node& node, const Consumer& consume) {
  // The routine's values per input row, each passed on after that row's columns.
  const TupleLayout* layout = out_.layouts.add(TupleLayout::of({node.outputTypes.back()}));
  produce(*node.children[0], [&](Row& row) {
    auto each = [&](Row& value) {
      Row out = row;
      out.push_back(value[0]);
      consume(out);
    };
    if (!node.function.empty()) return builtinRows(*this, node, row, layout, each);
    iterateBuffer(callRoutineRows(*this, node, row, layout), layout, each);
  });
}

}  // namespace duet::codegen
