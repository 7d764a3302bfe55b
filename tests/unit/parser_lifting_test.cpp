#include <catch2/catch.hpp>

#include "parser_test_util.h"

using namespace duet;
using namespace duet::sql;
using duet::sql::test::parseOne;
using duet::sql::test::sexpr;

TEST_CASE("lifting: literals become parameters after the explicit ones", "[parser][lifting]") {
  auto p = parseOne("select a + 5, 'x', 2.50, 3000000000, 99999999999999999999, $2 from t where b = $1", true);
  REQUIRE(p.lifted);
  CHECK(p.explicitParams == 2);
  REQUIRE(p.literals.size() == 5);
  CHECK(p.literals[0].paramNumber == 3);
  CHECK(p.literals[0].kind == TypeId::Int4);
  CHECK(p.literals[0].text == "5");
  CHECK(p.literals[1].kind == TypeId::Unknown);
  CHECK(p.literals[1].text == "x");
  CHECK(p.literals[2].kind == TypeId::Numeric);
  CHECK(p.literals[2].text == "2.50");
  CHECK(p.literals[3].kind == TypeId::Int8);
  CHECK(p.literals[4].kind == TypeId::Numeric);
  CHECK(p.literals[4].paramNumber == 7);
  auto& s = p.stmt->as<SelectStmt>();
  CHECK(sexpr(s.targets[0].expr.get()) == "(+ a $3)");
  CHECK(s.targets[0].expr->as<BinaryOp>().right->as<Param>().liftedIndex == 0);
  CHECK(sexpr(s.targets[5].expr.get()) == "$2");
}

TEST_CASE("lifting: what is not lifted", "[parser][lifting]") {
  auto p = parseOne("select null, true, false, a::varchar(3) from t group by 1 order by 2, 3 + 1", true);
  auto& s = p.stmt->as<SelectStmt>();
  CHECK(sexpr(s.targets[0].expr.get()) == "null");
  CHECK(sexpr(s.targets[1].expr.get()) == "true");
  CHECK(sexpr(s.targets[3].expr.get()) == "(cast a varchar(3))");
  CHECK(sexpr(s.groupBy[0].get()) == "1");               // positional
  CHECK(sexpr(s.orderBy[0].expr.get()) == "2");          // positional
  CHECK(sexpr(s.orderBy[1].expr.get()) == "(+ $1 $2)");  // an expression: lifted
  REQUIRE(p.literals.size() == 2);
  CHECK(p.literals[0].text == "3");

  auto neg = parseOne("select a from t order by -1, 3000000000", true);
  CHECK(sexpr(neg.stmt->as<SelectStmt>().orderBy[0].expr.get()) == "-1");          // positional, as without lifting
  CHECK(sexpr(neg.stmt->as<SelectStmt>().orderBy[1].expr.get()) == "3000000000");  // bare: the binder rejects it
  CHECK(sexpr(parseOne("select a from t order by -1").stmt->as<SelectStmt>().orderBy[0].expr.get()) == "-1");

  auto ddl = parseOne("create table t (a int default 5)", true);
  CHECK_FALSE(ddl.lifted);
  CHECK(sexpr(ddl.stmt->as<CreateTableStmt>().columns[0].constraints[0].expr.get()) == "5");
  CHECK_FALSE(parseOne("set x = 5", true).lifted);
  CHECK_FALSE(parseOne("select 1").lifted);  // option off
}

TEST_CASE("lifting: a minus on a literal is folded into it", "[parser][lifting]") {
  auto p = parseOne("select a + -12, -2147483648, - -3, -1.5, -'x'", true);
  auto& s = p.stmt->as<SelectStmt>();
  CHECK(sexpr(s.targets[0].expr.get()) == "(+ a $1)");
  REQUIRE(p.literals.size() == 5);
  CHECK(p.literals[0].text == "-12");
  CHECK(p.literals[0].location == 11);
  CHECK(p.literals[1].text == "-2147483648");
  CHECK(p.literals[1].kind == TypeId::Int4);
  CHECK(p.literals[2].text == "3");
  CHECK(p.literals[3].text == "-1.5");
  CHECK(p.literals[3].kind == TypeId::Numeric);
  CHECK(sexpr(s.targets[4].expr.get()) == "(- $5)");  // strings are not negated
}

TEST_CASE("lifting: typed literals become casts of parameters", "[parser][lifting]") {
  auto p = parseOne("select * from t where d > date '2020-01-01'", true);
  CHECK(sexpr(p.stmt->as<SelectStmt>().where.get()) == "(> d (cast $1 date))");
  REQUIRE(p.literals.size() == 1);
  CHECK(p.literals[0].kind == TypeId::Unknown);
  CHECK(p.literals[0].text == "2020-01-01");
}

TEST_CASE("lifting: shape keys", "[parser][lifting]") {
  auto key = [](const std::string& q) { return parseOne(q, true).shapeKey; };
  CHECK(key("update t set a = a + 5 where k = 7") == key("UPDATE t SET a=a + -12 WHERE k=99999"));
  CHECK(key("select -5") == key("select 7"));
  CHECK(key("select -5::int") != key("select 7::int"));  // minus of a cast is not folded
  CHECK(key("update t set a = a - 5 where k = 7") == key("UPDATE t\n SET a=a-12 /* c */ WHERE k=99999 -- x"));
  CHECK(key("select 1") != key("select 1.5"));
  CHECK(key("select 1") != key("select 3000000000"));
  CHECK(key("select 'a'") == key("select $$b$$"));
  CHECK(key("select * from t order by 1") != key("select * from t order by 2"));
  CHECK(key("select a from T") == key("SELECT A FROM t"));
  CHECK(key("select a from \"T\"") != key("select a from t"));
  CHECK(key("insert into t values (1, 'x')") == key("insert into t values (2, 'yy')"));
  CHECK(key("insert into t values (1, 'x')") != key("insert into t values (1, 'x'), (2, 'y')"));
  CHECK(key("select * from t where a = $1 and b = 3") == key("select * from t where a = $1 and b = 4"));
  CHECK(key("delete from t where d = date '2020-01-01'") == key("delete from t where d = date '1999-12-31'"));
}

TEST_CASE("lifting: equal numeric constants share one parameter", "[parser][lifting]") {
  auto p = parseOne("select k % 2, count(*) from t where b = 'x' or c = 'x' group by k % 2 order by k % -2", true);
  auto& s = p.stmt->as<SelectStmt>();
  CHECK(sexpr(s.targets[0].expr.get()) == "(% k $1)");
  CHECK(sexpr(s.groupBy[0].get()) == "(% k $1)");           // same parameter: the binder matches them
  CHECK(sexpr(s.where.get()) == "(or (= b $2) (= c $3))");  // strings never share
  CHECK(sexpr(s.orderBy[0].expr.get()) == "(% k $4)");      // -2 is another constant
  REQUIRE(p.literals.size() == 4);                          // one per parameter
  CHECK(p.literals[0].text == "2");
  CHECK(p.literals[3].text == "-2");
  CHECK(p.literals[3].paramNumber == 4);
  CHECK(s.groupBy[0]->as<BinaryOp>().right->as<Param>().liftedIndex == 0);

  // Same text but a different kind is a different constant.
  auto q = parseOne("select 1, 1.0, 1 from t where a = $1", true);
  REQUIRE(q.literals.size() == 2);
  CHECK(sexpr(q.stmt->as<SelectStmt>().targets[2].expr.get()) == "$2");
}

TEST_CASE("lifting: shape keys tell shared constants apart", "[parser][lifting]") {
  auto key = [](const std::string& q) { return parseOne(q, true).shapeKey; };
  CHECK(key("select k % 2 from t group by k % 2") == key("select k % 5 from t group by k % 5"));
  CHECK(key("select k % 2 from t group by k % 2") != key("select k % 2 from t group by k % 3"));
  CHECK(key("select 1, 2") == key("select 3, 4"));
  CHECK(key("select 1, 2") != key("select 1, 1"));
}

TEST_CASE("lifting: equal string literals stay separate parameters but are marked equal", "[parser][lifting]") {
  auto p = parseOne("select g || 'x', count(*) from t group by g || 'x', g || 'y'", true);
  REQUIRE(p.literals.size() == 3);
  CHECK(p.literals[0].sameTextAs == 0);
  CHECK(p.literals[1].sameTextAs == 0);  // the second 'x'
  CHECK(p.literals[2].sameTextAs == 2);
  CHECK(p.literals[0].paramNumber != p.literals[1].paramNumber);
  auto key = [](const std::string& q) { return parseOne(q, true).shapeKey; };
  CHECK(key("select g || 'x' from t group by g || 'x'") == key("select g || 'a' from t group by g || 'a'"));
  CHECK(key("select g || 'x' from t group by g || 'x'") != key("select g || 'x' from t group by g || 'y'"));
}

TEST_CASE("lifting: a VALUES cell that is a constant alone has a parameter of its own", "[parser][lifting]") {
  auto p = parseOne("insert into t values (1, 'x', true, null), (1, 'x', false, 2.5), (-3, null, null, 7)", true);
  auto& rows = p.stmt->as<InsertStmt>().source->values;
  CHECK(sexpr(rows[0][0].get()) == "$1");
  CHECK(sexpr(rows[1][0].get()) == "$5");  // no sharing with the first row's 1
  REQUIRE(p.literals.size() == 12);
  CHECK(p.literals[1].sameTextAs == -1);  // nor marked equal to the second row's 'x'
  CHECK(p.literals[2].kind == TypeId::Bool);
  CHECK(p.literals[2].text == "true");
  CHECK(p.literals[3].null);
  CHECK_FALSE(p.literals[3].value());
  CHECK(p.literals[8].text == "-3");
  // Each column's numbers and NULLs take its widest kind; a NULL among booleans is one.
  CHECK(p.literals[0].kind == TypeId::Int4);
  CHECK(p.literals[3].kind == TypeId::Numeric);
  CHECK(p.literals[7].kind == TypeId::Numeric);
  CHECK(p.literals[11].kind == TypeId::Numeric);
  CHECK(p.literals[10].kind == TypeId::Bool);
  CHECK(p.literals[9].kind == TypeId::Unknown);  // a NULL among strings

  // Constants inside expressions share as anywhere else; a column with an expression or
  // DEFAULT is left as it is.
  auto e = parseOne("insert into t values (1 + 1, 1), (null, default), (2, null)", true);
  REQUIRE(e.literals.size() == 5);
  CHECK(e.literals[0].uses == 2);  // 1 + 1
  CHECK(e.literals[1].uses == 1);  // the cell 1
  CHECK(e.literals[2].kind == TypeId::Unknown);
  CHECK(e.literals[4].kind == TypeId::Unknown);

  // A VALUES list inside a cell has columns of its own.
  auto n =
      parseOne("insert into t values ((select a from (values (1), (2.5)) v(a) limit 1), 'x'), (3000000000, 'y')", true);
  REQUIRE(n.literals.size() == 6);
  CHECK(n.literals[0].kind == TypeId::Numeric);  // the inner 1
  CHECK(n.literals[2].kind == TypeId::Int4);     // LIMIT 1
  CHECK(n.literals[4].kind == TypeId::Int8);     // the outer column has a subquery: left as it is
}

TEST_CASE("lifting: bulk INSERTs whose rows differ in values, NULLs and kinds share a shape", "[parser][lifting]") {
  auto key = [](const std::string& q) { return parseOne(q, true).shapeKey; };
  CHECK(key("insert into t values (1, true), (1, false)") == key("insert into t values (7, null), (8, true)"));
  CHECK(key("insert into t values (1, 'a'), (null, 'a')") == key("insert into t values (2, null), (3, 'b')"));
  CHECK(key("insert into t values (1, 'a'), (null, 'a')") != key("insert into t values (2, null), (3000000000, 'b')"));
  CHECK(key("insert into t values (1), (2.5)") == key("insert into t values (1.5), (null)"));
  CHECK(key("insert into t values (1), (2)") != key("insert into t values (1), ('2')"));
  // A run of rows of the same kinds is written once with its length.
  CHECK(key("insert into t values (1), (2), (3)") == key("insert into t values (4), (5), (null)"));
  CHECK(key("insert into t values (1), (2), (3)") != key("insert into t values (1), (2), (3), (4)"));
  CHECK(key("insert into t values (1, 'a'), (2, 'b'), ('c', 3)") !=
        key("insert into t values (1, 'a'), ('c', 3), (2, 'b')"));
  CHECK(key("insert into t values (1), (2), (1 + 1)") != key("insert into t values (1), (2), (1), (1 + 1)"));
  CHECK(key("select * from (values (1, 2)) v where v.column1 = 5") ==
        key("select * from (values (3, 3)) v where v.column1 = 3"));
}
