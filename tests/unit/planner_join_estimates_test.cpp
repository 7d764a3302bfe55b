// Selectivities the join order starts from (compiler/planner/join_estimates.cpp), for the
// conjunct forms whose rules are not a constant: LIKE by its pattern.
#include <catch2/catch.hpp>

#include "compiler/planner/statement_planner.h"

namespace {

using duet::SqlType;
using duet::TypeId;
using duet::plan::Expr;
using duet::plan::ExprKind;
using duet::plan::ExprPtr;

ExprPtr like(ExprPtr pattern, bool negated = false) {
  auto e = std::make_unique<Expr>(ExprKind::Like, SqlType{TypeId::Bool, -1});
  e->negated = negated;
  e->args.push_back(duet::plan::makeColumn(0, {TypeId::Text, -1}));
  e->args.push_back(std::move(pattern));
  return e;
}

ExprPtr text(const char* s) {
  auto e = std::make_unique<Expr>(ExprKind::Const, SqlType{TypeId::Text, -1});
  e->constString = s;
  return e;
}

}  // namespace

TEST_CASE("planner: LIKE selectivity by its pattern, as PostgreSQL's like_selectivity", "[planner]") {
  using duet::planner::conjunctSelectivity;
  // '%green%': five literal characters (0.2 each), a trailing % (x5), the leading one free.
  CHECK(conjunctSelectivity(*like(text("%green%"))) == Approx(0.2 * 0.2 * 0.2 * 0.2 * 0.2 * 5));
  CHECK(conjunctSelectivity(*like(text("%green%"), true)) == Approx(1 - 0.2 * 0.2 * 0.2 * 0.2 * 0.2 * 5));
  CHECK(conjunctSelectivity(*like(text("a_c"))) == Approx(0.2 * 0.9 * 0.2));
  CHECK(conjunctSelectivity(*like(text("50\\%"))) == Approx(0.2 * 0.2 * 0.2));  // an escaped % is literal
  CHECK(conjunctSelectivity(*like(text("%%%"))) == Approx(1.0));                // clamped
  // A pattern not known while planning (a parameter): DEFAULT_MATCH_SEL.
  CHECK(conjunctSelectivity(*like(duet::plan::makeParam(0, {TypeId::Text, -1}))) == Approx(0.005));
}
