// x op ANY|SOME|ALL (array), PostgreSQL's make_scalar_array_op: the operator is resolved
// between x and the array's element type as the plain binary operator would be (an
// untyped literal on the right, '{1,2}', is an array of whatever type that resolution
// gives it), then x and the array are cast to the operator's input types.
#include <fmt/format.h>

#include "compiler/binder/binder.h"
#include "engine/error.h"

namespace duet::binder {

using plan::Expr;
using plan::ExprKind;
using plan::ExprPtr;
using plan::Op;

ExprPtr Binder::bindArrayOp(const sql::ArrayOp& q, const Scope& scope, AggContext* agg) {
  ExprPtr left = bind(*q.left, scope, agg);
  ExprPtr array = bind(*q.array, scope, agg);
  SqlType element{TypeId::Unknown, -1};
  if (array->type.isArray())
    element = array->type.elementType();
  else if (array->type.id != TypeId::Unknown)
    fail(sqlstate::kWrongObjectType, "op ANY/ALL (array) requires array on right side", q.location);
  // The operator over x and a stand-in element: its resolution casts both as needed.
  ExprPtr op = bindBinary(q.op, std::move(left), plan::makeNullConst(element), q.location);
  auto e = std::make_unique<Expr>(ExprKind::ArrayCompare, SqlType{TypeId::Bool, -1});
  e->sublink = q.all ? plan::Sublink::All : plan::Sublink::Any;
  if (op->kind == ExprKind::Unary && op->op == Op::Not) {  // !~~ and the other negated patterns
    e->negated = true;
    op = std::move(op->args[0]);
  }
  if (op->type.id != TypeId::Bool || (op->kind != ExprKind::Compare && op->kind != ExprKind::Call))
    fail(sqlstate::kWrongObjectType, "op ANY/ALL (array) requires operator to yield boolean", q.location);
  e->op = op->kind == ExprKind::Compare ? op->op : Op::None;
  e->function = op->function;
  SqlType arrayType = SqlType::arrayOf(op->args[1]->type).withoutTypmod();
  e->args.push_back(std::move(op->args[0]));
  e->args.push_back(coerce(std::move(array), arrayType, CastContext::Implicit, q.location));
  return e;
}

}  // namespace duet::binder
