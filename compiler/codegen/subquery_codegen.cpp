// Subqueries in expressions (plan::ExprKind::Subquery), generated inline: the subquery's
// plan becomes a loop nest at the point where the expression is evaluated, so the values it
// captures from the enclosing row are plain SSA values, and a correlated lookup such as
// `(SELECT max(x) FROM t WHERE t.k = o.k)` is an index probe per outer row with no call.
//
// EXISTS and ANY stop at the first row that decides them, ALL at the first that refutes
// it. A subquery that captures nothing (an uncorrelated EXISTS or scalar) runs at most once
// per statement execution: on first use, as PostgreSQL's initplans do, so that an error
// it raises surfaces only where its value is needed.
#include "compiler/codegen/codegen_internal.h"

namespace duet::codegen {

using plan::Expr;
using plan::NodeKind;
using plan::Sublink;

bool holdsState(const plan::Node& node) {
  switch (node.kind) {
    case NodeKind::Sort:
    case NodeKind::HashJoin:
    case NodeKind::Distinct:
    case NodeKind::Materialize:
    case NodeKind::Window:
    case NodeKind::NestedLoopJoin:
    case NodeKind::FunctionScan: return true;
    case NodeKind::Aggregate:
      if (!node.exprs.empty()) return true;
      for (const auto& a : node.aggs)
        if (a.distinct || a.kind == plan::AggKind::Collected || !a.orderBy.empty()) return true;
      if (!node.groupingSets.empty()) return true;
      break;
    default: break;
  }
  for (const auto& c : node.children)
    if (holdsState(*c)) return true;
  return false;
}

void Codegen::resetPerStatement(llvm::AllocaInst* flag) {
  if (statementStart_) {
    llvm::IRBuilder<> sb(statementStart_, statementStart_->getFirstInsertionPt());
    sb.CreateStore(b_.getFalse(), flag);
  } else {  // the function runs one statement: reset it right where it is allocated
    llvm::IRBuilder<> sb(entry_, std::next(flag->getIterator()));
    sb.CreateStore(b_.getFalse(), flag);
  }
}

SqlValue Codegen::subquery(const Expr& e, const Row& row) {
  auto& b = b_;
  Row captured;
  for (int i = 0; i < e.captures; ++i) captured.push_back(expr(*e.args[i], row));
  bool compares = e.sublink == Sublink::Any || e.sublink == Sublink::All || e.sublink == Sublink::RowCompare;
  std::vector<SqlValue> left;  // the compared values of the enclosing row
  for (size_t i = e.captures; i < e.args.size(); ++i) left.push_back(expr(*e.args[i], row));

  llvm::IRBuilder<> eb(entry_, entry_->getFirstInsertionPt());
  llvm::Type* valueType = sqlType(e.type.id);
  llvm::AllocaInst* value = eb.CreateAlloca(valueType);
  llvm::AllocaInst* isNull = eb.CreateAlloca(b.getInt1Ty());
  bool oneRow = e.sublink == Sublink::Scalar || e.sublink == Sublink::RowCompare;
  llvm::AllocaInst* seen = oneRow ? eb.CreateAlloca(b.getInt1Ty()) : nullptr;
  bool once = e.captures == 0 && !compares;
  llvm::AllocaInst* done = nullptr;
  if (once) {
    done = eb.CreateAlloca(b.getInt1Ty());
    resetPerStatement(done);
  }
  bool stateful = holdsState(*e.subplan) || e.sublink == Sublink::Array;  // ARRAY's buffer
  bool release = !once && stateful;

  auto run = [&] {
    bool initial = e.sublink == Sublink::All;  // ALL holds over no rows; the others do not
    b.CreateStore(e.sublink == Sublink::Scalar ? llvm::Constant::getNullValue(valueType) : i1(initial), value);
    b.CreateStore(i1(oneRow), isNull);  // no row: NULL
    if (seen) b.CreateStore(b.getFalse(), seen);
    llvm::Value* mark = nullptr;
    if (release) {
      mark = eb.CreateAlloca(llvm::ArrayType::get(i64Ty_, 3));
      call("duet_q_state_mark", b.getVoidTy(), {qctx_, mark});
    }
    // ARRAY(q): q's values gathered in a buffer of this run, made into the array after it.
    const TupleLayout* gathered = nullptr;
    llvm::Value* values = nullptr;
    llvm::Value* tuple = nullptr;
    if (e.sublink == Sublink::Array) {
      gathered = out_.layouts.add(TupleLayout::of(e.subplan->outputTypes));
      values = call("duet_q_buffer_new", ptrTy_, {qctx_, ptrConst(gathered)});
      tuple = tupleAlloca(*gathered);
    }
    correlation_.push_back(std::move(captured));
    releasedRuns_ += release;
    producePipeline(*e.subplan, [&](Row& r) {
      llvm::BasicBlock* end = pipelineEnd_.back();  // the subquery's own: where a deciding row leaves
      switch (e.sublink) {
        case Sublink::Exists:
          // Inside an if, so that whatever the producer emits after this row still has
          // an open block to go into.
          ifThen(b.getTrue(), [&] {
            b.CreateStore(b.getTrue(), value);
            b.CreateBr(end);
          });
          break;
        case Sublink::Scalar:
          ifThen(b.CreateLoad(b.getInt1Ty(), seen), [&] { call("duet_q_subquery_rows_error", b.getVoidTy(), {}); });
          b.CreateStore(b.getTrue(), seen);
          b.CreateStore(r[0].v, value);
          b.CreateStore(r[0].null, isNull);
          break;
        case Sublink::Array:
          storeRow(tuple, *gathered, r);
          call("duet_q_buffer_append", b.getVoidTy(), {values, tuple});
          break;
        case Sublink::RowCompare: {
          ifThen(b.CreateLoad(b.getInt1Ty(), seen), [&] { call("duet_q_subquery_rows_error", b.getVoidTy(), {}); });
          b.CreateStore(b.getTrue(), seen);
          SqlValue c = rowCompare(e.op, left, std::span<const SqlValue>(r).first(left.size()));
          b.CreateStore(c.v, value);
          b.CreateStore(c.null, isNull);
          break;
        }
        case Sublink::Any:
        case Sublink::All: {
          SqlValue c = rowCompare(e.op, left, std::span<const SqlValue>(r).first(left.size()));
          // ANY is decided by a true comparison, ALL by a false one; a NULL one makes the
          // answer NULL unless a deciding row follows.
          llvm::Value* decides = b.CreateAnd(b.CreateNot(c.null), e.sublink == Sublink::Any ? c.v : b.CreateNot(c.v));
          ifThen(decides, [&] {
            b.CreateStore(i1(e.sublink == Sublink::Any), value);
            b.CreateStore(b.getFalse(), isNull);
            b.CreateBr(end);
          });
          ifThen(c.null, [&] { b.CreateStore(b.getTrue(), isNull); });
          break;
        }
      }
    });
    correlation_.pop_back();
    releasedRuns_ -= release;
    if (values) {  // the array is made in the statement's arena, not in the buffer
      b.CreateStore(call("duet_q_agg_array_agg_final", ptrTy_, {values, b.getInt32(0), isNull}), value);
      b.CreateStore(b.getFalse(), isNull);
    }
    // A string read from runtime state is copied to the statement's arena: the state is
    // freed after this run (release), or may be while the value is kept (once: an
    // enclosing subquery run per row frees what this one created inside it).
    if (stateful && e.sublink == Sublink::Scalar && isVarlenaType(e.type.id)) {
      ifThen(b.CreateNot(b.CreateLoad(b.getInt1Ty(), isNull)),
             [&] { b.CreateStore(call("duet_q_own_string", ptrTy_, {b.CreateLoad(valueType, value)}), value); });
    }
    if (release) call("duet_q_state_release", b.getVoidTy(), {qctx_, mark});
  };
  if (once) {
    ifThen(b.CreateNot(b.CreateLoad(b.getInt1Ty(), done)), [&] {
      run();
      b.CreateStore(b.getTrue(), done);
    });
  } else {
    run();
  }
  return {b.CreateLoad(valueType, value), b.CreateLoad(b.getInt1Ty(), isNull), e.type};
}

}  // namespace duet::codegen
