// The parser records where a column DEFAULT's text lies, because the catalog keeps
// defaults as SQL text and binds them again at each INSERT.
#include <catch2/catch.hpp>

#include "compiler/parser/parser.h"

using namespace duet;

TEST_CASE("DEFAULT expressions keep their source range", "[parser]") {
  std::string q = "create table t (a int default (1 + 2) * 3 not null, b text default 'x,y', c int)";
  auto parsed = sql::parseQuery(q);
  const auto& ct = parsed.at(0).stmt->as<sql::CreateTableStmt>();
  auto text = [&](const sql::Constraint& c) { return q.substr(c.exprBegin, c.exprEnd - c.exprBegin); };
  REQUIRE(ct.columns.size() == 3);
  CHECK(text(ct.columns[0].constraints.at(0)) == "(1 + 2) * 3");
  CHECK(ct.columns[0].constraints.at(1).kind == sql::ConstraintKind::NotNull);
  CHECK(text(ct.columns[1].constraints.at(0)) == "'x,y'");
}
