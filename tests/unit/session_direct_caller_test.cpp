// Statements that are one routine call on their parameters run the routine directly
// (PreparedPlan::directCall): which statements qualify, and that execution takes that path
// (directCalls counts, the plan's own executions do not) with the plan's results.
#include <catch2/catch.hpp>

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "compiler/compiler.h"
#include "session/engine_state.h"
#include "session/sql_session.h"

using namespace duet;

namespace {

struct Rows : IgnoringSink {
  std::vector<std::vector<std::optional<std::string>>> rows;
  std::vector<std::string> tags;
  std::vector<std::string> notices;
  void dataRow(const Field* f, size_t n) override {
    auto& r = rows.emplace_back();
    for (size_t i = 0; i < n; ++i)
      r.push_back(f[i].len < 0 ? std::nullopt : std::optional(std::string(f[i].data, f[i].len)));
  }
  void commandComplete(std::string_view tag) override { tags.emplace_back(tag); }
  void notice(const Notice& n) override { notices.push_back(n.message); }
};

struct Fixture {
  EngineState state;
  SqlSession s{state, *state.catalog.database("postgres"), "postgres", "postgres", {}};
  Rows sink;

  Fixture() {
    prepareCompiler();
    for (const char* sql :
         {"create function add2(a int, b int) returns int language plpgsql as "
          "$$ begin raise notice 'add2'; return a + b; end $$",
          "create function sub2(a int, b int) returns int language plpgsql as $$ begin return a - b; end $$",
          "create function with_default(a int, b int default 10) returns int language plpgsql as "
          "$$ begin return a + b; end $$",
          "create function pairs(n int) returns table (i int, t text) language plpgsql as "
          "$$ begin for k in 1..n loop i := k; t := 'x' || k; return next; end loop; end $$",
          "create procedure split(a int, inout lo int, inout hi int) language plpgsql as "
          "$$ begin lo := a % 10; hi := a / 10; end $$"}) {
      s.simpleQuery(sql, sink);
    }
    sink = Rows{};
  }
  // Parse, Bind (text parameters), Execute and Sync on the unnamed objects.
  void run(const std::string& sql, const std::vector<std::optional<std::string>>& values,
           const std::vector<uint32_t>& types = {}) {
    s.parse("", sql, types);
    std::vector<BindParam> params;
    for (const auto& v : values) params.push_back(BindParam{v, 0});
    s.bind("", "", params, {});
    s.execute("", 0, sink);
    s.sync();
  }
  // Parses `sql` (a shape not seen before) and returns its new plan.
  const PreparedPlan* parseNew(const std::string& sql) {
    std::set<std::string> before;
    for (const auto& [key, plan] : state.plans.entries()) before.insert(key);
    s.parse("", sql, {});
    for (const auto& [key, plan] : state.plans.entries())
      if (!before.count(key)) return plan.get();
    return nullptr;
  }
  const PreparedPlan* planWhose(std::string_view keyPart) {
    for (const auto& [key, plan] : state.plans.entries())
      if (key.find(keyPart) != std::string::npos) return plan.get();
    return nullptr;
  }
};

}  // namespace

TEST_CASE("a call on parameters runs the routine directly, with the plan's results") {
  Fixture f;
  f.run("SELECT add2($1, $2)", {"1", "2"});
  f.run("SELECT add2($1, $2)", {"40", std::nullopt});
  const PreparedPlan* plan = f.planWhose("add2");
  REQUIRE(plan != nullptr);
  REQUIRE(plan->directCall);
  CHECK(plan->directCall->form == DirectCall::Form::Value);
  CHECK(plan->directCalls == 2);
  CHECK(plan->executions == 0);
  REQUIRE(f.sink.rows.size() == 2);
  CHECK(f.sink.rows[0][0] == "3");
  CHECK(f.sink.rows[1][0] == std::nullopt);
  CHECK(f.sink.tags == std::vector<std::string>{"SELECT 1", "SELECT 1"});
  CHECK(f.sink.notices == std::vector<std::string>{"add2", "add2"});

  f.s.simpleQuery("SET duet.direct_calls = off", f.sink);
  f.run("SELECT add2($1, $2)", {"5", "6"});
  CHECK(f.sink.rows.back()[0] == "11");
  CHECK(plan->directCalls == 2);
  CHECK(plan->executions == 1);
}

TEST_CASE("direct calls: parameters out of order, lifted literals, casts, rows and CALL") {
  Fixture f;
  f.run("SELECT sub2($2, $1)", {"1", "10"});       // copied into argument order
  f.run("SELECT sub2($1::int, 5)", {"7"});         // 5 is lifted to $2
  f.s.simpleQuery("SELECT sub2(100, 1)", f.sink);  // the simple protocol too
  f.run("SELECT * FROM pairs($1)", {"2"});
  f.run("CALL split($1, NULL, NULL)", {"42"});  // NULLs for the OUT arguments
  f.run("SELECT add2(NULL, $1)", {"1"});
  f.run("SELECT add2($1, $2)", {"-7", "32767"}, {21, 21});  // smallints widened to integer
  CHECK(f.sink.rows == std::vector<std::vector<std::optional<std::string>>>{
                           {"9"}, {"2"}, {"99"}, {"1", "x1"}, {"2", "x2"}, {"2", "4"}, {std::nullopt}, {"32760"}});
  CHECK(f.sink.tags ==
        std::vector<std::string>{"SELECT 1", "SELECT 1", "SELECT 1", "SELECT 2", "CALL", "SELECT 1", "SELECT 1"});
  for (const auto& [key, plan] : f.state.plans.entries()) {
    INFO(key);
    REQUIRE(plan != nullptr);
    CHECK(plan->directCall);
    CHECK(plan->executions == 0);
  }
  CHECK(f.planWhose("split")->directCall->form == DirectCall::Form::Rows);
}

TEST_CASE("direct calls: a call with anything around it or computed arguments runs its plan") {
  Fixture f;
  for (const char* sql : {"SELECT add2($1, $2) + 0", "SELECT add2($1::int + 0, $2)", "SELECT add2($1, $2) LIMIT 1",
                          "SELECT add2($1, $2), 1", "SELECT * FROM pairs($1) WHERE i > 0", "SELECT t FROM pairs($1)",
                          "SELECT with_default($1)"}) {
    INFO(sql);
    const PreparedPlan* plan = f.parseNew(sql);
    REQUIRE(plan != nullptr);
    CHECK_FALSE(plan->directCall);
  }
  const PreparedPlan* computed = f.parseNew("SELECT add2($2::int + $1, 0)");
  f.run("SELECT add2($2::int + $1, 0)", {"1", "2"});
  CHECK(f.sink.rows.back()[0] == "3");
  CHECK(computed->executions == 1);
}
