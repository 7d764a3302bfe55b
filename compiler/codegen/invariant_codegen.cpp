// Expressions whose value cannot change during one execution of a statement - built only
// of constants, parameters and non-volatile operations, such as TPC-H's
// `date '1994-01-01' + interval '1' year` or a PL/pgSQL variable's `$1::numeric * 1.1` -
// are computed once per execution instead of once per row: on first use, then read from
// the function's frame. First use, not the statement's start, so that a value a CASE
// branch or an AND's later operand guards is computed only where it is needed, and an
// error it raises surfaces exactly where it would per row (PostgreSQL folds such
// constants while planning; its custom plans fold parameters too).
#include <utility>

#include "compiler/codegen/codegen_internal.h"
#include "compiler/functions/builtin_functions.h"
#include "engine/limits/stack_depth.h"

namespace duet::codegen {

using plan::Expr;
using plan::ExprKind;

namespace {

// Built of constants, parameters and operations that give the same value for the same
// inputs within a statement (immutable and stable ones).
bool invariant(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Const:
    case ExprKind::Param: return true;
    case ExprKind::Cast:
    case ExprKind::Unary:
    case ExprKind::Binary:
    case ExprKind::Compare:
    case ExprKind::And:
    case ExprKind::Or:
    case ExprKind::IsNull:
    case ExprKind::IsTrue:
    case ExprKind::Like:
    case ExprKind::Case:
    case ExprKind::Coalesce:
    case ExprKind::ArrayBuild:
    case ExprKind::Greatest:
    case ExprKind::InList:
    case ExprKind::ArrayCompare:
    case ExprKind::RowCompare:
    case ExprKind::RecordBuild:
    case ExprKind::FieldSelect: break;
    case ExprKind::Call: {
      // A runtime function the binder calls itself is a duet_rt_* one (a pure function of
      // its arguments) or reads the query's context (duet_q_*), which is left alone.
      const BuiltinFunction* f = builtinFunctionBySymbol(e.function);
      if (f ? f->volatility == Volatility::Volatile || f->returnsSet : !e.function.starts_with("duet_rt_"))
        return false;
      break;
    }
    default: return false;  // columns, aggregates, subqueries, routines, outer references
  }
  for (const auto& a : e.args)
    if (!invariant(*a)) return false;
  return true;
}

// Types whose conversions among each other cost a few instructions.
bool cheapType(TypeId t) {
  return t == TypeId::Int2 || t == TypeId::Int4 || t == TypeId::Int8 || t == TypeId::Float4 || t == TypeId::Float8 ||
         t == TypeId::Bool;
}

// Cheaper to compute where it is used than to keep: a constant, a parameter, or a cheap
// conversion of one.
bool trivial(const Expr& e) {
  if (e.kind == ExprKind::Const || e.kind == ExprKind::Param) return true;
  if (e.kind != ExprKind::Cast) return false;
  const Expr& operand = *e.args[0];
  return (operand.kind == ExprKind::Const || operand.kind == ExprKind::Param) && cheapType(operand.type.id) &&
         cheapType(e.type.id);
}

}  // namespace

bool Codegen::computedOncePerExecution(const Expr& e) const {
  // A VALUES loop's template cells read their parameters and constants per row.
  return !inInvariant_ && !valuesParams_ && !trivial(e) && invariant(e);
}

SqlValue Codegen::invariantValue(const Expr& e, const Row& row, const std::function<SqlValue(SqlValue)>& finish) {
  llvm::IRBuilder<> eb(entry_, entry_->getFirstInsertionPt());
  llvm::Type* valueType = sqlType(e.type.id);
  llvm::AllocaInst* value = eb.CreateAlloca(valueType);
  llvm::AllocaInst* isNull = eb.CreateAlloca(b_.getInt1Ty());
  llvm::AllocaInst* done = eb.CreateAlloca(b_.getInt1Ty());
  resetPerStatement(done);
  ifThen(b_.CreateNot(b_.CreateLoad(b_.getInt1Ty(), done)), [&] {
    // Its parts are computed here once already; the flag is restored on a compile error too.
    struct Restore {
      bool& flag;
      bool value;
      ~Restore() { flag = value; }
    } restore{inInvariant_, std::exchange(inInvariant_, true)};
    SqlValue v = exprValue(e, row);
    if (finish) v = finish(v);
    b_.CreateStore(v.v, value);
    b_.CreateStore(v.null, isNull);
    b_.CreateStore(b_.getTrue(), done);
  });
  return {b_.CreateLoad(valueType, value), b_.CreateLoad(b_.getInt1Ty(), isNull), e.type};
}

// One operand of a comparison, or of numeric + or -. An operand computed once per execution
// that meets a numeric(p, s) value is written with s decimals then (`l_quantity < 24` reads
// 24.00, `1 - l_discount` 1.00), so that each row compares, adds or subtracts packed
// integers instead of calling the runtime. The value is the same, and so is the result's
// scale (a sum's and a difference's is the larger operand scale); ValueBuilder checks the
// scales per row.
SqlValue Codegen::scaledOperand(const Expr& side, const Expr& other, const Row& row) {
  int scale = other.type.id == TypeId::Numeric ? other.type.numericScale() : -1;
  if (scale <= 0 || side.type.id != TypeId::Numeric || !computedOncePerExecution(side)) return expr(side, row);
  checkStackDepth();
  SqlValue v = invariantValue(side, row, [&](SqlValue v) {
    v.v = call("duet_rt_numeric_rescale_up", v.v->getType(), {v.v, b_.getInt32(scale)});
    return v;
  });
  v.type = side.type;
  return v;
}

}  // namespace duet::codegen
