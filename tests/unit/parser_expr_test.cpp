#include <catch2/catch.hpp>

#include "parser_test_util.h"

using namespace duet::sql;
using duet::sql::test::exprOf;

TEST_CASE("expressions: arithmetic precedence", "[parser][expr]") {
  CHECK(exprOf("1 + 2 * 3") == "(+ 1 (* 2 3))");
  CHECK(exprOf("1 - 2 - 3") == "(- (- 1 2) 3)");
  CHECK(exprOf("2 ^ 3 ^ 2") == "(^ (^ 2 3) 2)");
  CHECK(exprOf("-2 ^ 2") == "(^ -2 2)");  // unary minus binds tighter than ^ (and is folded)
  CHECK(exprOf("-a ^ 2") == "(^ (- a) 2)");
  CHECK(exprOf("-12::int") == "(- (cast 12 int4))");
  CHECK(exprOf("- a * b") == "(* (- a) b)");
  CHECK(exprOf("a % b / c") == "(/ (% a b) c)");
  CHECK(exprOf("a || b + c") == "(|| a (+ b c))");
  CHECK(exprOf("a + b::int") == "(+ a (cast b int4))");
  CHECK(exprOf("(a + b)::text") == "(cast (+ a b) text)");
  CHECK(exprOf("-12") == "-12");
  CHECK(exprOf("- -12") == "12");
}

TEST_CASE("expressions: boolean and comparison precedence", "[parser][expr]") {
  CHECK(exprOf("a or b and c") == "(or a (and b c))");
  CHECK(exprOf("a and b and c or d") == "(or (and a b c) d)");
  CHECK(exprOf("not a = b") == "(not (= a b))");
  CHECK(exprOf("not a and b") == "(and (not a) b)");
  CHECK(exprOf("a = b is null") == "(isnull (= a b))");
  CHECK(exprOf("a is not null and b isnull") == "(and (isnotnull a) (isnull b))");
  CHECK(exprOf("a is true") == "(istrue a)");
  CHECK(exprOf("a is not unknown") == "(isnotunknown a)");
  CHECK(exprOf("a is distinct from b + 1") == "(distinct a (+ b 1))");
  CHECK(exprOf("a is not distinct from b") == "(notdistinct a b)");
  CHECK(exprOf("a < b + 1") == "(< a (+ b 1))");
  CHECK(exprOf("a <> b") == "(<> a b)");
  CHECK(exprOf("a != b") == "(<> a b)");
  CHECK(exprOf("1 = not true") == "(= 1 (not true))");
  CHECK(exprOf("a = b like c") == "(= a (like b c))");
}

TEST_CASE("expressions: BETWEEN, IN, LIKE", "[parser][expr]") {
  CHECK(exprOf("a between 1 and 2 and b") == "(and (between a 1 2) b)");
  CHECK(exprOf("a not between symmetric 1 + 1 and 5") == "(notbetweensym a (+ 1 1) 5)");
  CHECK(exprOf("a in (1, 2, 3)") == "(in a 1 2 3)");
  CHECK(exprOf("a not in (1)") == "(notin a 1)");
  CHECK(exprOf("a in (select 1)") == "(any = a <q>)");
  CHECK(exprOf("a not in (select 1)") == "(not (any = a <q>))");
  CHECK(exprOf("a like 'x%'") == "(like a 'x%')");
  CHECK(exprOf("a not ilike 'x' escape '!'") == "(notilike a 'x' '!')");
  CHECK(exprOf("a || 'x' like b") == "(like (|| a 'x') b)");
}

TEST_CASE("expressions: primaries", "[parser][expr]") {
  CHECK(exprOf("t.a") == "t.a");
  CHECK(exprOf("s.t.a") == "s.t.a");
  CHECK(exprOf("\"Weird Col\"") == "Weird Col");
  CHECK(exprOf("$3") == "$3");
  CHECK(exprOf("null") == "null");
  CHECK(exprOf("TRUE") == "true");
  CHECK(exprOf("'abc'") == "'abc'");
  CHECK(exprOf("1.5e3") == "1.5e3");
  CHECK(exprOf("cast(a as varchar(10))") == "(cast a varchar(10))");
  CHECK(exprOf("date '2020-01-01'") == "(cast '2020-01-01' date)");
  CHECK(exprOf("timestamp '2020-01-01 10:00'") == "(cast '2020-01-01 10:00' timestamp)");
  CHECK(exprOf("int '5'") == "(cast '5' int4)");
  CHECK(exprOf("double precision '1.5'") == "(cast '1.5' float8)");
  CHECK(exprOf("pg_catalog.int8 '7'") == "(cast '7' pg_catalog.int8)");
  CHECK(exprOf("case when a then 1 when b then 2 else 3 end") == "(case (when a 1) (when b 2) (else 3))");
  CHECK(exprOf("case x when 1 then 'a' end") == "(case x (when 1 'a'))");
  CHECK(exprOf("coalesce(a, b, 0)") == "coalesce( a b 0)");
  CHECK(exprOf("nullif(a, 0)") == "nullif( a 0)");
  CHECK(exprOf("greatest(a, b)") == "greatest( a b)");
  CHECK(exprOf("least(a, b)") == "least( a b)");
  CHECK(exprOf("count(*)") == "count(*)");
  CHECK(exprOf("count(distinct a)") == "count(distinct a)");
  CHECK(exprOf("sum(all a)") == "sum( a)");
  CHECK(exprOf("now()") == "now()");
  CHECK(exprOf("pg_catalog.lower(a)") == "pg_catalog.lower( a)");
  CHECK(exprOf("left(a, 2)") == "left( a 2)");
  CHECK(exprOf("exists (select 1)") == "(exists <q>)");
  CHECK(exprOf("(select max(a) from t)") == "(scalar <q>)");
  CHECK(exprOf("a = any (select b from t)") == "(any = a <q>)");
  CHECK(exprOf("a = any (b)") == "(any = a b)");
  CHECK(exprOf("a < all (array[1, 2])") == "(all < a (array 1 2))");
  CHECK(exprOf("a = some ('{1}')") == "(any = a '{1}')");
  CHECK(exprOf("a = any ((select b from t))") == "(any = a <q>)");
  CHECK(exprOf("a not ilike any (b)") == "(any !~~* a b)");
  CHECK(exprOf("a like all (b) and c") == "(and (all ~~ a b) c)");
  CHECK(exprOf("a > all (select b from t)") == "(all > a <q>)");
  CHECK(exprOf("(a, b)") == "(row a b)");
  CHECK(exprOf("row(a, b)") == "(row a b)");
  CHECK(exprOf("current_timestamp") == "current_timestamp");
  CHECK(exprOf("current_timestamp(3)") == "current_timestamp(3)");
  CHECK(exprOf("CURRENT_DATE") == "current_date");
  CHECK(exprOf("localtimestamp") == "localtimestamp");
  CHECK(exprOf("current_user") == "current_user");
  CHECK(exprOf("session_user") == "session_user");
  CHECK(exprOf("current_schema") == "current_schema");
  CHECK(exprOf("current_schema()") == "current_schema()");
  CHECK(exprOf("current_catalog") == "current_catalog");
  CHECK(exprOf("~ a") == "(~ a)");
  CHECK(exprOf("a::text::varchar") == "(cast (cast a text) varchar)");
}

TEST_CASE("expressions: unreserved keywords work as column names", "[parser][expr]") {
  CHECK(exprOf("name") == "name");
  CHECK(exprOf("text") == "text");
  CHECK(exprOf("date") == "date");
  CHECK(exprOf("key + value") == "(+ key value)");
  CHECK(exprOf("t.time") == "t.time");
  CHECK(exprOf("time") == "time");
}

TEST_CASE("expressions: SQL-standard function syntax becomes ordinary calls", "[parser][expr]") {
  CHECK(exprOf("extract(year from d)") == "extract( 'year' d)");
  CHECK(exprOf("position('b' in s)") == "position( s 'b')");
  CHECK(exprOf("substring(s from 2 for 3)") == "pg_catalog.substring( s 2 3)");
  CHECK(exprOf("substring(s for 3 from 2)") == "pg_catalog.substring( s 2 3)");
  CHECK(exprOf("substring(s for 3)") == "pg_catalog.substring( s 1 3)");
  CHECK(exprOf("substring(s similar 'a#\"b#\"' escape '#')") == "pg_catalog.substring( s 'a#\"b#\"' '#')");
  CHECK(exprOf("substring(s, 2)") == "substring( s 2)");
  CHECK(exprOf("trim(s)") == "btrim( s)");
  CHECK(exprOf("trim(leading 'x' from s)") == "ltrim( s 'x')");
  CHECK(exprOf("trim(trailing from s)") == "rtrim( s)");
}

TEST_CASE("expressions: output column labels without AS", "[parser][expr]") {
  auto label = [](const std::string& q) {
    return duet::sql::test::parseOne(q).stmt->as<SelectStmt>().targets[0].alias;
  };
  CHECK(label("select 1 x") == "x");
  CHECK(label("select 1 left") == "left");
  CHECK(label("select 1 int") == "int");
  CHECK(label("select 1 \"Year\"") == "Year");
  CHECK(label("select 1 as from") == "from");
  CHECK_THROWS(parseQuery("select 1 year"));
  CHECK_THROWS(parseQuery("select 1 over"));
}

TEST_CASE("expressions: ARRAY constructors and subscripts", "[parser][expr]") {
  CHECK(exprOf("array[1, 2]") == "(array 1 2)");
  CHECK(exprOf("array[]::int[]") == "(cast (array) int4[])");
  CHECK(exprOf("ARRAY[[1], [2]]") == "(array (array 1) (array 2))");
  CHECK(exprOf("a[1]") == "(subscript a [1])");
  CHECK(exprOf("t.a[i + 1][2]") == "(subscript t.a [(+ i 1)] [2])");
  CHECK(exprOf("a[1:2]") == "(subscript a [1:2])");
  CHECK(exprOf("a[:2]") == "(subscript a [:2])");
  CHECK(exprOf("$1[2]") == "(subscript $1 [2])");
  CHECK(exprOf("(array[1, 2])[2]") == "(subscript (array 1 2) [2])");
  CHECK(exprOf("a[1]::text || b[2]") == "(|| (cast (subscript a [1]) text) (subscript b [2]))");
  CHECK(exprOf("'{1}'::integer array") == "(cast '{1}' int4[])");
  CHECK(exprOf("x::varchar(16)[]") == "(cast x varchar(16)[])");
  // As in PostgreSQL's grammar: constants, ARRAY[...] and function calls take no subscripts.
  CHECK_THROWS(exprOf("array[1, 2][1]"));
  CHECK_THROWS(exprOf("1[1]"));
  CHECK_THROWS(exprOf("f(x)[1]"));
}

TEST_CASE("expressions: field selection after parentheses", "[parser][expr]") {
  CHECK(exprOf("(f(x)).n") == "(field f( x) n)");
  CHECK(exprOf("(r).a[2]") == "(subscript (field r a) [2])");
  CHECK(exprOf("(a[1]).b.c") == "(field (field (subscript a [1]) b) c)");
  CHECK(exprOf("((1, 2)).f1") == "(field (row 1 2) f1)");
  // A row constructor takes a field only inside parentheses of its own, as in PostgreSQL.
  CHECK_THROWS(exprOf("(1, 2).f1"));
}

TEST_CASE("expressions: aggregate calls with ORDER BY, WITHIN GROUP and FILTER", "[parser][expr]") {
  CHECK(exprOf("string_agg(a, ',' order by b desc, c)") == "string_agg( a ',' (orderby b desc c))");
  CHECK(exprOf("percentile_cont(0.5) within group (order by x)") == "percentile_cont( 0.5 (withingroup x))");
  CHECK(exprOf("count(*) filter (where a > 1)") == "count(*) (filter (> a 1))");
  CHECK(exprOf("grouping(a, b)") == "grouping( a b)");
  CHECK_THROWS(exprOf("percentile_cont(distinct 0.5) within group (order by x)"));
  CHECK_THROWS(exprOf("array_agg(x order by x) within group (order by x)"));
}

TEST_CASE("GROUP BY grouping sets", "[parser][expr]") {
  auto p = duet::sql::test::parseOne(
      "select 1 from t group by a, rollup (a, (b, c)), cube (d), grouping sets ((), e, rollup (f)), ()");
  auto& s = p.stmt->as<SelectStmt>();
  REQUIRE(s.groupBy.size() == 5);
  CHECK(duet::sql::test::sexpr(s.groupBy[0].get()) == "a");
  CHECK(duet::sql::test::sexpr(s.groupBy[1].get()) == "(rollup a (row b c))");
  CHECK(duet::sql::test::sexpr(s.groupBy[2].get()) == "(cube d)");
  CHECK(duet::sql::test::sexpr(s.groupBy[3].get()) == "(groupingsets (()) e (rollup f))");
  CHECK(duet::sql::test::sexpr(s.groupBy[4].get()) == "(())");
}
