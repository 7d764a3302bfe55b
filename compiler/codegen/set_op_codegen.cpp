// UNION, INTERSECT and EXCEPT, as the planner builds them from Append (UNION ALL: each
// child's rows in turn, every child's pipeline feeding the one consumer, whose code is
// generated once per child) and Repeat (the ALL forms of INTERSECT and EXCEPT: a row
// emitted as often as its count says). Duplicates are removed by Distinct or Aggregate.
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

}  // namespace duet::codegen
