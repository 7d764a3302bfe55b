// The integer bit operators of pg_operator: & (and), | (or), # (xor) between two integers
// of one type (the wider of the two), << and >> shifting an integer by an integer count,
// and prefix ~ (not). Untyped literals become integer, as for the arithmetic operators.
#include <fmt/format.h>

#include "compiler/binder/binder.h"
#include "engine/error.h"

namespace duet::binder {

using plan::Expr;
using plan::ExprKind;
using plan::ExprPtr;
using plan::Op;

namespace {

Op bitwiseOp(const std::string& op) {
  if (op == "&") return Op::BitAnd;
  if (op == "|") return Op::BitOr;
  if (op == "#") return Op::BitXor;
  if (op == "<<") return Op::ShiftLeft;
  if (op == ">>") return Op::ShiftRight;
  return Op::None;
}

}  // namespace

ExprPtr Binder::bindBitwise(const std::string& op, ExprPtr& a, ExprPtr& b, uint32_t location) {
  Op o = bitwiseOp(op);
  if (o == Op::None) return nullptr;
  SqlType leftType = a->type, rightType = b->type;
  auto noOperator = [&] {
    fail(sqlstate::kUndefinedFunction,
         fmt::format("operator does not exist: {} {} {}", typeName(leftType), op, typeName(rightType)), location);
  };
  const SqlType int4{TypeId::Int4, -1};
  if (a->type.id == TypeId::Unknown) a = coerce(std::move(a), int4, CastContext::Implicit, location);
  if (o == Op::ShiftLeft || o == Op::ShiftRight) {
    if (!isIntegerType(a->type.id) || a->type.alias != TypeAlias::None) noOperator();
    if (b->type.id == TypeId::Unknown || b->type.id == TypeId::Int2)
      b = coerce(std::move(b), int4, CastContext::Implicit, location);
    if (b->type.id != TypeId::Int4) noOperator();
  } else {
    if (b->type.id == TypeId::Unknown) b = coerce(std::move(b), int4, CastContext::Implicit, location);
    if (!isIntegerType(a->type.id) || !isIntegerType(b->type.id) || a->type.alias != TypeAlias::None ||
        b->type.alias != TypeAlias::None)
      noOperator();
    unify(a, b, op, location);
  }
  auto e = std::make_unique<Expr>(ExprKind::Binary, SqlType{a->type.id, -1});
  e->op = o;
  e->args.push_back(std::move(a));
  e->args.push_back(std::move(b));
  return e;
}

ExprPtr Binder::bindBitNot(ExprPtr a, uint32_t location) {
  if (a->type.id == TypeId::Unknown) a = coerce(std::move(a), {TypeId::Int4, -1}, CastContext::Implicit, location);
  if (!isIntegerType(a->type.id) || a->type.alias != TypeAlias::None)
    fail(sqlstate::kUndefinedFunction, fmt::format("operator does not exist: ~ {}", typeName(a->type)), location);
  auto e = std::make_unique<Expr>(ExprKind::Unary, SqlType{a->type.id, -1});
  e->op = Op::BitNot;
  e->args.push_back(std::move(a));
  return e;
}

}  // namespace duet::binder
