// The PL/pgSQL body parser: the tree it builds, the variables it finds in embedded SQL,
// and CREATE-time errors with the messages and positions PostgreSQL 15 reports for the
// same CREATE FUNCTION statements (positions count from the start of the statement).
#include <catch2/catch.hpp>

#include "compiler/plpgsql/plpgsql.h"
#include "engine/error.h"
#include "plpgsql_test_util.h"

using namespace duet;
using namespace duet::plpgsql;

namespace {

const std::string kPrefix = "CREATE OR REPLACE FUNCTION g(a int) RETURNS int LANGUAGE plpgsql AS $$";

struct Parsed {
  std::string query;
  Function fn;
};

using test::intFunction;

TableLookup oneTable() {
  return [](const std::vector<std::string>& name) -> std::optional<TableColumns> {
    if (name.back() != "t") return std::nullopt;
    return TableColumns{{"k", SqlType{TypeId::Int4, -1}}, {"v", SqlType::numeric(10, 2)}};
  };
}

Function parseBody(const std::string& query, const RoutineShape& shape = intFunction()) {
  return test::parseFunctionBody(query, shape, oneTable());
}

void checkError(const std::string& body, const std::string& code, const std::string& message, int position) {
  std::string query = kPrefix + body + "$$";
  INFO(query);
  try {
    parseBody(query);
    FAIL("no error");
  } catch (const SqlError& e) {
    CHECK(e.code == code);
    CHECK(std::string(e.what()) == message);
    CHECK(e.position == position);
  }
}

}  // namespace

TEST_CASE("plpgsql: blocks, declarations and statements", "[plpgsql]") {
  Function fn = parseBody(kPrefix + R"(
<<main>>
DECLARE
  total numeric(12,2) := 0;
  r t%ROWTYPE;
  v t.v%TYPE;
  c CONSTANT int := 10;
  arr int[];
BEGIN
  SELECT * INTO STRICT r FROM t WHERE k = a;
  IF r.v > c THEN total := r.v; ELSIF a = 1 THEN total := 1; ELSE NULL; END IF;
  FOR i IN REVERSE 10..1 BY 2 LOOP EXIT WHEN i < main.c; END LOOP;
  RETURN total;
EXCEPTION WHEN division_by_zero OR SQLSTATE '22003' THEN RAISE;
END main $$)");
  // a, FOUND, the five declarations, SQLSTATE/SQLERRM of the handler, the FOR variable
  REQUIRE(fn.variables.size() == 10);
  CHECK(fn.variables[fn.found].name == "found");
  CHECK(fn.variables[2].type.scalar == SqlType::numeric(12, 2));
  CHECK(fn.variables[3].type.kind == VarType::Kind::Row);
  CHECK(fn.variables[4].type.scalar == SqlType::numeric(10, 2));
  CHECK(fn.variables[5].constant);
  CHECK(fn.variables[6].type.kind == VarType::Kind::Array);
  const Block& body = *fn.body;
  CHECK(body.label == "main");
  REQUIRE(body.body.size() == 4);
  const auto& select = body.body[0]->as<ExecSql>();
  CHECK(select.into);
  CHECK(select.strict);
  CHECK(select.statement.text == "SELECT *               FROM t WHERE k = a");
  REQUIRE(select.statement.variables.size() == 1);  // k names no variable; a is the parameter
  CHECK(select.statement.variables[0].variable == 0);
  CHECK(select.statement.variables[0].offset == select.statement.begin + select.statement.text.rfind('a'));
  const auto& loop = body.body[2]->as<ForInt>();
  CHECK(loop.reverse);
  CHECK(loop.step->text == "2");
  REQUIRE(body.handlers.size() == 1);
  CHECK(body.handlers[0].conditions[0].sqlstates == std::vector<std::string>{"22012"});
  CHECK(body.handlers[0].conditions[1].sqlstates == std::vector<std::string>{"22003"});
}

TEST_CASE("plpgsql: CREATE-time errors match PostgreSQL", "[plpgsql][error]") {
  checkError(" BEGIN RETURN a END ", "42601", "syntax error at end of input", 91);
  checkError(" BEGIN a := a + ; RETURN a; END ", "42601", "syntax error at end of input", 86);
  checkError(" BEGIN a := a + 1 RETURN a; END ", "42601", "syntax error at or near \"a\"", 96);
  checkError(" BEGIN IF a > THEN RETURN a; END IF; END ", "42601", "syntax error at end of input", 84);
  checkError(" BEGIN IF a > 1 RETURN a; END IF; END ", "42601", "missing \"THEN\" at end of SQL expression", 95);
  checkError(" BEGIN IF a > 1 THEN RETURN a; END; END ", "42601", "syntax error at or near \";\"", 105);
  checkError(" DECLARE x foo; BEGIN RETURN 1; END ", "42704", "type \"foo\" does not exist", 82);
  checkError(" DECLARE x int BEGIN RETURN 1; END ", "42601", "syntax error at or near \"BEGIN\"", 86);
  checkError(" DECLARE x int := ; BEGIN RETURN 1; END ", "42601", "missing expression at or near \";\"", 89);
  checkError(" DECLARE x t.c%TYPE; BEGIN RETURN 1; END ", "42601", "syntax error at or near \"%\"", 85);
  checkError(" BEGIN y := 1; RETURN 1; END ", "42601", "\"y\" is not a known variable", 78);
  checkError(" BEGIN SELECT 1 2 INTO a; END ", "42601", "syntax error at or near \"2\"", 87);
  checkError(" BEGIN SELECT 1 INTO zz; END ", "42601", "\"zz\" is not a known variable", 92);
  checkError(" BEGIN PERFORM 1 2; END ", "42601", "syntax error at or near \"2\"", 88);
  checkError(" BEGIN FOR i IN 1.. LOOP END LOOP; RETURN 1; END ", "42601", "missing expression at or near \"LOOP\"",
             91);
  checkError(" BEGIN LOOP EXIT WHEN ; END LOOP; RETURN 1; END ", "42601", "missing expression at or near \";\"", 93);
  checkError(" BEGIN RAISE NOTICE 'x % %', a; RETURN 1; END ", "42601", "too few parameters specified for RAISE", 0);
  checkError(" BEGIN RAISE EXCEPTION 'x' USING FOO = 1; RETURN 1; END ", "42601",
             "unrecognized RAISE statement option at or near \"FOO\"", 104);
  checkError(" BEGIN RETURN 1; EXCEPTION WHEN nonsense THEN RETURN 2; END ", "42704",
             "unrecognized exception condition \"nonsense\"", 0);
  checkError(" BEGIN RETURN 1; EXCEPTION WHEN SQLSTATE '2200' THEN RETURN 2; END ", "42601",
             "invalid SQLSTATE code at or near \"'2200'\"", 112);
  checkError(" <<outer>> BEGIN RETURN 1; END inner ", "42601",
             "end label \"inner\" differs from block's label \"outer\"", 102);
  checkError(" BEGIN EXIT; END ", "42601", "EXIT cannot be used outside a loop, unless it has a label", 78);
  checkError(" BEGIN foo bar; END ", "42601", "syntax error at or near \"foo\"", 78);
  checkError(" BEGIN RETURN 1; END; junk ", "42601", "syntax error at or near \"junk\"", 93);
  checkError(" DECLARE c CONSTANT int := 1; BEGIN c := 2; RETURN 1; END ", "22005",
             "variable \"c\" is declared CONSTANT", 107);
  checkError(" BEGIN RETURN NEXT 1; END ", "42804", "cannot use RETURN NEXT in a non-SETOF function", 78);
}

TEST_CASE("plpgsql: FOREACH", "[plpgsql]") {
  Function fn = parseBody(kPrefix + R"(
DECLARE x int; y int; s int[];
BEGIN
  <<l>> FOREACH x, y IN ARRAY ARRAY[a] LOOP EXIT l; END LOOP l;
  FOREACH s SLICE 1 IN ARRAY ARRAY[1, 2] LOOP END LOOP;
  RETURN 1;
END $$)");
  const StmtList& body = fn.body->body;
  REQUIRE(body.size() == 3);
  const auto& list = body[0]->as<ForEach>();
  CHECK(list.label == "l");
  REQUIRE(list.targets.size() == 2);
  CHECK(fn.variables[list.targets[1].variable].name == "y");
  CHECK(list.slice == 0);
  CHECK(list.array.text == "ARRAY[a]");
  REQUIRE(list.array.variables.size() == 1);
  CHECK(list.body.size() == 1);
  const auto& slice = body[1]->as<ForEach>();
  CHECK(slice.slice == 1);
  CHECK(fn.variables[slice.targets[0].variable].name == "s");

  checkError(" BEGIN FOREACH zz IN ARRAY ARRAY[1] LOOP END LOOP; RETURN 1; END ", "42601",
             "loop variable of FOREACH must be a known variable or list of variables", 86);
  checkError(" DECLARE x int; BEGIN FOREACH x, zz IN ARRAY ARRAY[1] LOOP END LOOP; RETURN 1; END ", "42601",
             "\"zz\" is not a known variable", 104);
  checkError(" DECLARE x int; BEGIN FOREACH x SLICE 1.5 IN ARRAY ARRAY[1] LOOP END LOOP; RETURN 1; END ", "42601",
             "syntax error at or near \"1.5\"", 109);
}

TEST_CASE("plpgsql: ASSERT", "[plpgsql]") {
  Function fn = parseBody(kPrefix + " BEGIN ASSERT a > 0; ASSERT a < 9, 'big ' || a; RETURN a; END $$");
  const StmtList& body = fn.body->body;
  REQUIRE(body.size() == 3);
  const auto& plain = body[0]->as<Assert>();
  CHECK(plain.condition.text == "a > 0");
  CHECK(!plain.message);
  const auto& withMessage = body[1]->as<Assert>();
  REQUIRE(withMessage.message);
  CHECK(withMessage.message->text == "'big ' || a");
  CHECK(withMessage.message->variables.size() == 1);

  checkError(" BEGIN ASSERT; RETURN 1; END ", "42601", "missing expression at or near \";\"", 84);
}

TEST_CASE("plpgsql: cursor arguments", "[plpgsql]") {
  Function fn = parseBody(kPrefix + R"(
DECLARE lo int := 5; c CURSOR (lo int, hi int) FOR SELECT k FROM t WHERE k BETWEEN lo AND c.hi;
BEGIN OPEN c(hi := a + 1, lo := lo); RETURN 1; END $$)");
  REQUIRE(fn.cursors.size() == 1);
  const Cursor& c = fn.cursors[0];
  REQUIRE(c.arguments.size() == 2);
  CHECK(fn.variables[c.arguments[0]].name == "lo");
  // The query's lo and c.hi are the arguments, not the block's lo.
  REQUIRE(c.query.variables.size() == 2);
  CHECK(c.query.variables[0].variable == c.arguments[0]);
  CHECK(c.query.variables[1].variable == c.arguments[1]);
  const auto& open = fn.body->body[0]->as<CursorStmt>();
  REQUIRE(open.arguments.size() == 2);
  CHECK(open.arguments[0].text == "lo");  // in the cursor's order: the block's lo
  CHECK(open.arguments[0].variables[0].variable != c.arguments[0]);
  CHECK(open.arguments[1].text == "a + 1");

  checkError(" DECLARE c CURSOR FOR SELECT 1; BEGIN OPEN c(1); RETURN 1; END ", "42601",
             "cursor \"c\" has no arguments", 115);
  checkError(" DECLARE c CURSOR (a int, b int) FOR SELECT a; BEGIN OPEN c(1, a := 2); RETURN 1; END ", "42601",
             "value for parameter \"a\" of cursor \"c\" specified more than once", 134);
}

TEST_CASE("plpgsql: FOR over a cursor", "[plpgsql]") {
  Function fn = parseBody(kPrefix + R"(
DECLARE r int; c CURSOR (m int) FOR SELECT k FROM t WHERE k > m;
BEGIN <<l>> FOR r IN c(a) LOOP EXIT l WHEN r.k > 1; END LOOP; RETURN r; END $$)");
  const auto& loop = fn.body->body[0]->as<ForCursor>();
  CHECK(loop.label == "l");
  CHECK(loop.cursor == 0);
  REQUIRE(loop.arguments.size() == 1);
  CHECK(loop.arguments[0].text == "a");
  // The loop declares a record r of its own; RETURN r after it is the block's integer.
  CHECK(fn.variables[loop.variable].type.kind == VarType::Kind::Record);
  const auto& exit = loop.body[0]->as<Exit>();
  CHECK(exit.when->variables[0].variable == loop.variable);
  const auto& ret = fn.body->body[1]->as<Return>();
  CHECK(fn.variables[ret.value->variables[0].variable].type.kind == VarType::Kind::Scalar);

  checkError(" DECLARE c CURSOR FOR SELECT 1; x int; y int; BEGIN FOR x, y IN c LOOP END LOOP; RETURN 1; END ", "42601",
             "cursor FOR loop must have only one target variable", 127);
}

TEST_CASE("plpgsql: FETCH and MOVE directions", "[plpgsql]") {
  Function fn = parseBody(kPrefix + R"(
DECLARE c NO SCROLL CURSOR FOR SELECT k FROM t; x int;
BEGIN
  FETCH c INTO x; FETCH PRIOR FROM c INTO x; FETCH LAST IN c INTO x; FETCH RELATIVE -a FROM c INTO x;
  MOVE BACKWARD ALL FROM c; MOVE FORWARD a + 1 IN c; MOVE (a) FROM c; MOVE c;
  RETURN 1;
END $$)");
  CHECK(!fn.cursors[0].scrollable);
  auto direction = [&](size_t i) { return fn.body->body[i]->as<CursorStmt>().direction; };
  CHECK(direction(0).kind == FetchDirection::Kind::Forward);
  CHECK(direction(0).count == 1);
  CHECK(direction(1).kind == FetchDirection::Kind::Backward);
  CHECK(direction(2).kind == FetchDirection::Kind::Absolute);
  CHECK(direction(2).count == -1);
  CHECK(direction(3).kind == FetchDirection::Kind::Relative);
  CHECK(direction(3).expression->text == "-a");
  CHECK(fn.body->body[4]->kind == StmtKind::CursorMove);
  CHECK(direction(4).kind == FetchDirection::Kind::Backward);
  CHECK(direction(4).count == FetchDirection::kAll);
  CHECK(direction(5).expression->text == "a + 1");
  CHECK(direction(6).expression->text == "(a)");
  CHECK(direction(6).multipleRows);
  CHECK(!direction(7).expression);

  checkError(" DECLARE c CURSOR FOR SELECT 1; x int; BEGIN OPEN c; FETCH FORWARD 2 FROM c INTO x; RETURN 1; END ",
             "0A000", "FETCH statement cannot return multiple rows", 124);
  checkError(" DECLARE c CURSOR FOR SELECT 1; x int; BEGIN OPEN c; FETCH NEXT c INTO x; RETURN 1; END ", "42601",
             "expected FROM or IN at or near \"c\"", 135);
}

TEST_CASE("plpgsql: WHERE CURRENT OF names its cursor variable", "[plpgsql]") {
  // The cursor's name is a variable reference, as any column reference: a refcursor
  // variable of that name gives the portal's name when the statement runs.
  Function fn = parseBody(kPrefix +
                          " DECLARE c CURSOR FOR SELECT k FROM t; BEGIN DELETE FROM t WHERE CURRENT OF c; "
                          "UPDATE t SET v = 0 WHERE CURRENT OF other; RETURN 1; END $$");
  const auto& del = fn.body->body[0]->as<ExecSql>();
  CHECK(del.statement.text == "DELETE FROM t WHERE CURRENT OF c");
  REQUIRE(del.statement.variables.size() == 1);
  CHECK(fn.variables[del.statement.variables[0].variable].name == "c");
  CHECK(del.statement.variables[0].offset == del.statement.begin + del.statement.text.rfind('c'));
  CHECK(fn.body->body[1]->as<ExecSql>().statement.variables.empty());  // no variable: the portal's own name
  // WHERE CURRENT OF takes no other condition (PostgreSQL's grammar).
  checkError(" DECLARE c CURSOR FOR SELECT k FROM t; BEGIN DELETE FROM t WHERE CURRENT OF c AND k = 1; RETURN 1; END ",
             "42601", "syntax error at or near \"AND\"", 149);
}
