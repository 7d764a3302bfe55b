// Which lookups of an integer FOR loop the routine compiler prefetches ahead of the loop
// (compiler/plpgsql/loop_prefetch.h): the variables a body may write, and the key
// expressions that are safe to evaluate early.
#include <catch2/catch.hpp>

#include "compiler/plpgsql/loop_prefetch.h"
#include "compiler/plpgsql/plpgsql.h"
#include "plpgsql_test_util.h"

using namespace duet;
using namespace duet::plpgsql;

namespace {

Function parse(const std::string& body) {
  std::string query = "CREATE FUNCTION g(a int) RETURNS int LANGUAGE plpgsql AS $$" + body + "$$";
  return test::parseFunctionBody(
      query, test::intFunction(), [](const std::vector<std::string>&) -> std::optional<TableColumns> {
        return TableColumns{{"k", SqlType{TypeId::Int4, -1}}, {"v", SqlType{TypeId::Int4, -1}}};
      });
}

int variable(const Function& fn, const std::string& name) {
  for (size_t v = 0; v < fn.variables.size(); ++v)
    if (fn.variables[v].name == name) return static_cast<int>(v);
  return -1;
}

}  // namespace

TEST_CASE("loop prefetch: the variables a loop body writes, at any depth", "[plpgsql][prefetch]") {
  Function fn = parse(R"(
DECLARE x int; y int; z int; untouched int; r record;
BEGIN
  FOR i IN 1..3 LOOP
    x := i;
    IF i > 1 THEN SELECT v INTO y FROM t WHERE k = i; END IF;
    FOR r IN SELECT k FROM t LOOP NULL; END LOOP;
    BEGIN GET DIAGNOSTICS z = ROW_COUNT; END;
    UPDATE t SET v = untouched WHERE k = a;
  END LOOP;
  RETURN 0;
END)");
  const auto& loop = fn.body->body[0]->as<ForInt>();
  std::set<int> written;
  REQUIRE(collectWrittenVariables(loop.body, written));
  CHECK(written.count(variable(fn, "x")));
  CHECK(written.count(variable(fn, "y")));
  CHECK(written.count(variable(fn, "z")));
  CHECK(written.count(variable(fn, "r")));
  CHECK(!written.count(variable(fn, "untouched")));
  CHECK(!written.count(variable(fn, "a")));

  // A CALL writes its INOUT arguments back: nothing in such a loop is prefetched.
  Function withCall = parse("BEGIN FOR i IN 1..3 LOOP CALL p(a); END LOOP; RETURN 0; END");
  std::set<int> ignored;
  CHECK(!collectWrittenVariables(withCall.body->body[0]->as<ForInt>().body, ignored));
}

TEST_CASE("loop prefetch: only keys that cannot raise an error are computed early", "[plpgsql][prefetch]") {
  auto param = [](int p) { return plan::makeParam(p, SqlType{TypeId::Int4, -1}); };
  auto allowed = [](int p) { return p != 7; };
  // p_ids[i], as the binder builds a subscript: CASE WHEN has(arr, i) THEN get(arr, i) END.
  auto element = std::make_unique<plan::Expr>(plan::ExprKind::Case, SqlType{TypeId::Int4, -1});
  auto has = std::make_unique<plan::Expr>(plan::ExprKind::Call, SqlType{TypeId::Bool, -1});
  has->function = "duet_rt_array_has";
  has->args.push_back(param(0));
  has->args.push_back(param(1));
  auto get = std::make_unique<plan::Expr>(plan::ExprKind::Call, SqlType{TypeId::Int4, -1});
  get->function = "duet_rt_array_get_int4";
  get->args.push_back(param(0));
  get->args.push_back(param(1));
  element->args.push_back(std::move(has));
  element->args.push_back(std::move(get));
  CHECK(prefetchableKey(*element, allowed));
  CHECK(prefetchableKey(*plan::makeCast(plan::cloneExpr(*element), SqlType{TypeId::Int8, -1}, false), allowed));
  // A written variable, a narrowing cast (may overflow) and arithmetic (may) are not.
  CHECK(!prefetchableKey(*param(7), allowed));
  CHECK(!prefetchableKey(*plan::makeCast(param(1), SqlType{TypeId::Int2, -1}, false), allowed));
  auto quotient = std::make_unique<plan::Expr>(plan::ExprKind::Binary, SqlType{TypeId::Int4, -1});
  quotient->op = plan::Op::Div;
  quotient->args.push_back(param(0));
  quotient->args.push_back(param(1));
  CHECK(!prefetchableKey(*quotient, allowed));
}
