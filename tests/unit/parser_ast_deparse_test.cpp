// deparseExpr (compiler/parser/ast_deparse.h): the texts PostgreSQL 15's
// pg_get_constraintdef prints for the same CHECK conditions, plain and pretty.
#include <catch2/catch.hpp>

#include <string>

#include "compiler/parser/ast_deparse.h"
#include "compiler/parser/parser.h"

using namespace duet::sql;

namespace {

std::string deparsed(const std::string& condition, bool pretty) {
  auto parsed = parseQuery("SELECT " + condition);
  const Expr& e = *parsed.at(0).stmt->as<SelectStmt>().targets.at(0).expr;
  return deparseExpr(e, pretty).value_or("<none>");
}

}  // namespace

TEST_CASE("deparseExpr prints conditions as pg_get_constraintdef", "[parser][deparse]") {
  CHECK(deparsed("a > 0", false) == "(a > 0)");
  CHECK(deparsed("a > 0", true) == "a > 0");
  CHECK(deparsed("a + b < 100", false) == "((a + b) < 100)");
  CHECK(deparsed("a + b < 100", true) == "(a + b) < 100");
  CHECK(deparsed("c <> ''", false) == "(c <> ''::text)");
  CHECK(deparsed("b > 0 AND b < 1000", false) == "((b > 0) AND (b < 1000))");
  CHECK(deparsed("b > 0 AND b < 1000", true) == "b > 0 AND b < 1000");
  CHECK(deparsed("b IN (9, 10, 11)", false) == "(b = ANY (ARRAY[9, 10, 11]))");
  CHECK(deparsed("b BETWEEN 1 AND 20", false) == "((b >= 1) AND (b <= 20))");
  CHECK(deparsed("c_d_id BETWEEN 1 AND 10 OR c_w_id IS NULL", true) ==
        "c_d_id >= 1 AND c_d_id <= 10 OR c_w_id IS NULL");
  CHECK(deparsed("a > -1", false) == "(a > '-1'::integer)");
  CHECK(deparsed("NOT (a > 1 OR b > 1)", true) == "NOT (a > 1 OR b > 1)");
  CHECK(deparsed("a * (b + c) > a - b - c", true) == "(a * (b + c)) > (a - b - c)");
  CHECK(deparsed("a * (b + c) > a - b - c", false) == "((a * (b + c)) > ((a - b) - c))");
  CHECK(deparsed("length(s) > 2", false) == "(length(s) > 2)");
  CHECK(deparsed("true", false) == "true");
  // Forms it does not print.
  CHECK(deparsed("CASE WHEN a THEN b END", false) == "<none>");
}
