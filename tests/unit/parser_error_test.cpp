// Error messages, SQLSTATEs and positions, as PostgreSQL 15 reports them for the same input.
#include <catch2/catch.hpp>

#include "compiler/parser/parser.h"
#include "engine/error.h"

using namespace duet;
using namespace duet::sql;

namespace {

struct Failure {
  std::string code, message;
  int position = -1;
};

Failure failureOf(std::string_view q) {
  try {
    parseQuery(q);
  } catch (const SqlError& e) {
    return {e.code, e.what(), e.position};
  }
  return {"", "no error", -1};
}

void checkError(std::string_view q, const std::string& code, const std::string& message, int position) {
  INFO(q);
  Failure f = failureOf(q);
  CHECK(f.code == code);
  CHECK(f.message == message);
  CHECK(f.position == position);
}

}  // namespace

TEST_CASE("errors: syntax errors match PostgreSQL", "[parser][error]") {
  checkError("select 1 +", "42601", "syntax error at end of input", 11);
  checkError("SELECT * FORM t", "42601", "syntax error at or near \"FORM\"", 10);
  checkError("select 1 2", "42601", "syntax error at or near \"2\"", 10);
  checkError("select a from t where", "42601", "syntax error at end of input", 22);
  checkError("create table t (select int)", "42601", "syntax error at or near \"select\"", 17);
  checkError("select 1 < 2 < 3", "42601", "syntax error at or near \"<\"", 14);
  checkError("select 'é' + , 1", "42601", "syntax error at or near \",\"", 14);
  checkError("selec 1", "42601", "syntax error at or near \"selec\"", 1);
  checkError("select * from t order by", "42601", "syntax error at end of input", 25);
  checkError("insert into t values (1", "42601", "syntax error at end of input", 24);
  checkError("select left from t", "42601", "syntax error at or near \"from\"", 13);
  checkError("select 1 between 2", "42601", "syntax error at end of input", 19);
  checkError("select 1; selec 2", "42601", "syntax error at or near \"selec\"", 11);
  checkError("select 1, 'x' 'y'", "42601", "syntax error at or near \"'y'\"", 15);
  checkError("select 1 like 'a' like 'b'", "42601", "syntax error at or near \"like\"", 19);
  checkError("select x from t limit 1, 2", "42601", "LIMIT #,# syntax is not supported", 17);
  checkError("select 1 limit 1 limit 2", "42601", "syntax error at or near \"limit\"", 18);
  checkError("(select 1 limit 1) limit 2", "42601", "multiple LIMIT clauses not allowed", 26);
  checkError("select nullif(1)", "42601", "syntax error at or near \")\"", 16);
  checkError("select 1 from kw order 1", "42601", "syntax error at or near \"1\"", 24);
  checkError("select * from (select 1)", "42601", "subquery in FROM must have an alias", 15);
  checkError("(a)", "42601", "syntax error at or near \"a\"", 2);
  checkError("select 1 year", "42601", "syntax error at or near \"year\"", 10);
}

TEST_CASE("errors: lexical errors", "[parser][error]") {
  checkError("select 'abc", "42601", "unterminated quoted string at or near \"'abc\"", 8);
  checkError("select 0x10", "42601", "trailing junk after numeric literal at or near \"0x10\"", 8);
  checkError("select $$abc", "42601", "unterminated dollar-quoted string at or near \"$$abc\"", 8);
  // A syntax error before a lexical error is reported first, as PostgreSQL does.
  checkError("selec 'abc", "42601", "syntax error at or near \"selec\"", 1);
}

TEST_CASE("errors: type modifiers", "[parser][error]") {
  checkError("select 1::varchar(0)", "22023", "length for type varchar must be at least 1", 11);
  checkError("select 1::numeric(2000)", "22023", "NUMERIC precision 2000 must be between 1 and 1000", 11);
  checkError("select 1::float(54)", "22023", "precision for type float must be less than 54 bits", 17);
  checkError("select 1::int4(3)", "42601", "type modifier is not allowed for type \"int4\"", 11);
}

TEST_CASE("errors: CREATE FUNCTION | PROCEDURE syntax", "[parser][error]") {
  checkError("CREATE PROCEDURE p2(a int) RETURNS int LANGUAGE sql AS 'select 1'", "42601",
             "syntax error at or near \"int\"", 36);
  checkError("CREATE OR REPLACE TABLE t (a int)", "42601", "syntax error at or near \"TABLE\"", 19);
  checkError("CREATE FUNCTION f(a int DEFAULT) RETURNS int LANGUAGE sql AS 'select 1'", "42601",
             "syntax error at or near \")\"", 32);
  checkError("DROP FUNCTION f(int", "42601", "syntax error at end of input", 20);
  checkError("CALL p", "42601", "syntax error at end of input", 7);
}
