// PL/pgSQL's EXECUTE as the session runs it (session/dynamic_statements.h): a command text is
// planned and compiled once, then run from the plan cache, with the plan a client's
// statement of that text and those parameter types gets; DDL that an EXCEPTION block undoes
// leaves no plan behind that still sees it; what EXECUTE cannot run yet is refused.
#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <vector>

#include "compiler/compiler.h"
#include "session/engine_state.h"
#include "session/sql_session.h"

using namespace duet;

namespace {

struct Rows : IgnoringSink {
  std::vector<std::vector<std::optional<std::string>>> rows;
  void dataRow(const Field* f, size_t n) override {
    auto& r = rows.emplace_back();
    for (size_t i = 0; i < n; ++i)
      r.push_back(f[i].len < 0 ? std::nullopt : std::optional(std::string(f[i].data, f[i].len)));
  }
};

struct Fixture {
  EngineState state;
  SqlSession s{state, *state.catalog.database("postgres"), "postgres", "postgres", {}};
  Rows sink;

  Fixture() { prepareCompiler(); }
  // The first column of the first row `sql` returns.
  std::optional<std::string> value(const std::string& sql) {
    sink = Rows{};
    s.simpleQuery(sql, sink);
    return sink.rows.at(0).at(0);
  }
  void run(const std::string& sql) { s.simpleQuery(sql, sink); }
  // The SQLSTATE `sql` fails with ("" if it succeeds).
  std::string errorOf(const std::string& sql) {
    try {
      run(sql);
    } catch (const SqlError& e) {
      return e.code;
    }
    return "";
  }
  // The cached plans whose key names `part`.
  std::vector<const PreparedPlan*> plansWith(std::string_view part) {
    std::vector<const PreparedPlan*> found;
    for (const auto& [key, plan] : state.plans.entries())
      if (key.find(part) != std::string::npos) found.push_back(plan.get());
    return found;
  }
};

}  // namespace

TEST_CASE("EXECUTE plans a text once and runs it from the plan cache", "[session][dynamic]") {
  Fixture f;
  f.run("create table dyn_t (k int primary key, v text)");
  f.run(
      "create function dyn_fill(n int) returns int language plpgsql as $$ begin "
      "for i in 1 .. n loop execute 'insert into dyn_t values ($1, $2)' using i, 'v' || i; end loop; "
      "return n; end $$");
  CHECK(f.value("select dyn_fill(50)") == "50");
  std::vector<const PreparedPlan*> plans = f.plansWith("dyn_t");
  REQUIRE(plans.size() == 1);
  const PreparedPlan* insert = plans[0];
  CHECK(insert->executions == 50);
  CHECK(f.value("select dyn_fill(0)") == "0");
  CHECK(f.value("select count(*) from dyn_t") == "50");

  // A client's Parse of the same text with the same parameter types finds that plan.
  size_t before = f.state.plans.size();
  f.s.parse("", "insert into dyn_t values ($1, $2)", {typeOid(TypeId::Int4), typeOid(TypeId::Text)});
  f.s.bind("", "", {BindParam{std::string("51"), 0}, BindParam{std::string("v51"), 0}}, {});
  f.s.execute("", 0, f.sink);
  f.s.sync();
  CHECK(f.state.plans.size() == before);
  CHECK(insert->executions == 51);
}

TEST_CASE("EXECUTE of texts differing in constants shares one plan", "[session][dynamic]") {
  Fixture f;
  f.run(
      "create function dyn_sum(n int) returns bigint language plpgsql as $$ declare t bigint := 0; v int; begin "
      "for i in 1 .. n loop execute 'select ' || i || ' + 1000 as dyn_lifted' into v; t := t + v; end loop; "
      "return t; end $$");
  CHECK(f.value("select dyn_sum(40)") == "40820");
  std::vector<const PreparedPlan*> plans = f.plansWith("dyn_lifted");
  REQUIRE(plans.size() == 1);
  CHECK(plans[0]->executions == 40);
}

TEST_CASE("DDL that an EXCEPTION block undoes leaves no plan that sees it", "[session][dynamic]") {
  Fixture f;
  // The second INSERT has the first one's shape: without a new catalog version after the
  // block's rollback, it would find the plan made for the table the rollback dropped.
  f.run(
      "create function dyn_undo() returns int language plpgsql as $$ begin "
      "begin execute 'create table dyn_gone (x int)'; execute 'insert into dyn_gone values (1)'; "
      "raise exception 'undo'; exception when others then null; end; "
      "execute 'insert into dyn_gone values (2)'; return 1; end $$");
  CHECK(f.errorOf("select dyn_undo()") == "42P01");
  CHECK(f.errorOf("select * from dyn_gone") == "42P01");
}

TEST_CASE("EXECUTE refuses what it cannot run yet", "[session][dynamic]") {
  Fixture f;
  // A utility statement runs on its text alone: its $n would have no value.
  f.run(
      "create function dyn_ctas() returns int language plpgsql as $$ begin "
      "execute 'create table dyn_made as select $1 as x' using 5; return 1; end $$");
  CHECK(f.errorOf("select dyn_ctas()") == "0A000");
  // A RECORD's fields are frame slots fixed at compile time: a computed command cannot give them.
  f.run(
      "create function dyn_record(t text) returns text language plpgsql as $$ declare r record; begin "
      "execute 'select 1 as a from ' || t into r; return r.a; end $$");
  CHECK(f.errorOf("select dyn_record('pg_class')") == "0A000");
}
