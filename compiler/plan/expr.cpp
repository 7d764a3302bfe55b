#include "compiler/plan/expr.h"
#include "engine/limits/stack_depth.h"

#include <cstring>

namespace duet::plan {

ExprPtr makeColumn(int column, SqlType type) {
  auto e = std::make_unique<Expr>(ExprKind::Column, type);
  e->column = column;
  return e;
}
ExprPtr makeParam(int param, SqlType type) {
  auto e = std::make_unique<Expr>(ExprKind::Param, type);
  e->param = param;
  return e;
}
ExprPtr makeNullConst(SqlType type) {
  auto e = std::make_unique<Expr>(ExprKind::Const, type);
  e->constNull = true;
  return e;
}
ExprPtr makeCast(ExprPtr a, SqlType to, bool explicitCast) {
  auto e = std::make_unique<Expr>(ExprKind::Cast, to);
  e->explicitCast = explicitCast;
  e->args.push_back(std::move(a));
  return e;
}
ExprPtr makeLet(ExprPtr value, ExprPtr body) {
  auto e = std::make_unique<Expr>(ExprKind::Let, body->type);
  e->args.push_back(std::move(value));
  e->args.push_back(std::move(body));
  return e;
}
ExprPtr makeLetRef(SqlType type, int depth) {
  auto e = std::make_unique<Expr>(ExprKind::LetRef, type);
  e->column = depth;
  return e;
}
ExprPtr cloneExpr(const Expr& src) {
  checkStackDepth();
  auto e = std::make_unique<Expr>(src.kind, src.type);
  e->op = src.op;
  e->column = src.column;
  e->param = src.param;
  e->negated = src.negated;
  e->explicitCast = src.explicitCast;
  e->caseInsensitive = src.caseInsensitive;
  e->hasElse = src.hasElse;
  e->constNull = src.constNull;
  std::memcpy(e->constant, src.constant, sizeof e->constant);
  e->constString = src.constString;
  e->function = src.function;
  e->routine = src.routine;
  for (const auto& a : src.args) e->args.push_back(cloneExpr(*a));
  e->sublink = src.sublink;
  e->subplan = src.subplan;
  e->captures = src.captures;
  return e;
}

}  // namespace duet::plan
