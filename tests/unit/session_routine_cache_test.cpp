// CREATE FUNCTION | PROCEDURE compiles the routine; the engine keeps its code by oid
// (EngineState::routines, routine_cache.cpp) while the tables and routines its
// compilation looked up stay as they were, and compiles it again at the next call when
// one changed. Rolled-back CREATEs leave no code behind.
#include <catch2/catch.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compiler/compiler.h"
#include "session/engine_state.h"
#include "session/sql_session.h"

using namespace duet;

namespace {

struct Rows : IgnoringSink {
  std::vector<std::optional<std::string>> values;  // first column of each row
  void dataRow(const Field* f, size_t) override {
    values.push_back(f[0].len < 0 ? std::nullopt : std::optional(std::string(f[0].data, f[0].len)));
  }
};

struct Fixture {
  EngineState state;
  SqlSession s{state, *state.catalog.database("postgres"), "postgres", "postgres", {}};

  Fixture() { prepareCompiler(); }
  void exec(const std::string& sql) {
    Rows sink;
    s.simpleQuery(sql, sink);
  }
  std::optional<std::string> value(const std::string& sql) {
    Rows sink;
    s.simpleQuery(sql, sink);
    REQUIRE(sink.values.size() == 1);
    return sink.values[0];
  }
  std::string errorOf(const std::string& sql) {
    try {
      exec(sql);
    } catch (const SqlError& e) {
      return e.code;
    }
    return "no error";
  }
  // The cached code of the routine with this signature, or null.
  const plpgsql::CompiledRoutine* code(const std::string& signature) {
    for (const auto& [oid, cached] : state.routines)
      if (cached.code->name == signature) return cached.code.get();
    return nullptr;
  }
};

}  // namespace

TEST_CASE("CREATE compiles the routine and the first call runs that code") {
  Fixture f;
  f.exec("CREATE TABLE t (k int PRIMARY KEY, v int)");
  f.exec("INSERT INTO t VALUES (1, 10)");
  f.exec(
      "CREATE FUNCTION get(x int) RETURNS int LANGUAGE plpgsql AS $$ DECLARE r int; BEGIN SELECT v INTO r FROM t WHERE "
      "k = x; RETURN r; END $$");
  f.exec("CREATE FUNCTION twice(x int) RETURNS int LANGUAGE sql AS $$ SELECT x * 2 $$");
  const plpgsql::CompiledRoutine* get = f.code("get(integer)");
  REQUIRE(get != nullptr);
  REQUIRE(get->entry != nullptr);
  REQUIRE(f.code("twice(integer)") != nullptr);
  CHECK(f.value("SELECT get(1)") == "10");
  CHECK(f.code("get(integer)") == get);

  SECTION("DDL on other tables keeps the code") {
    f.exec("CREATE TABLE other (a int)");
    f.exec("CREATE FUNCTION unrelated() RETURNS int LANGUAGE plpgsql AS $$ BEGIN RETURN 1; END $$");
    CHECK(f.value("SELECT get(1)") == "10");
    CHECK(f.code("get(integer)") == get);
  }
  SECTION("DDL on a table it uses compiles it again at the next call") {
    f.exec("CREATE INDEX t_v ON t (v)");
    CHECK(f.code("get(integer)") == get);  // lazily: nothing is compiled at the DDL
    CHECK(f.value("SELECT get(1)") == "10");
    CHECK(f.code("get(integer)") != get);
  }
  SECTION("a table dropped and created again with other columns") {
    f.exec("DROP TABLE t");
    CHECK(f.errorOf("SELECT get(1)") == "42P01");
    f.exec("CREATE TABLE t (v int, k int)");
    f.exec("INSERT INTO t VALUES (7, 1)");
    CHECK(f.value("SELECT get(1)") == "7");
  }
  SECTION("DROP discards the code") {
    f.exec("DROP FUNCTION get(int)");
    CHECK(f.code("get(integer)") == nullptr);
  }
}

TEST_CASE("a routine may name a table created after it") {
  Fixture f;
  f.exec(
      "CREATE FUNCTION later() RETURNS int LANGUAGE plpgsql AS $$ DECLARE n int; BEGIN SELECT count(*) INTO n FROM tl; "
      "RETURN n; END $$");
  CHECK(f.code("later()") != nullptr);
  CHECK(f.errorOf("SELECT later()") == "42P01");
  f.exec("CREATE TABLE tl (a int)");
  f.exec("INSERT INTO tl VALUES (1), (2)");
  CHECK(f.value("SELECT later()") == "2");
}

TEST_CASE("a rolled-back CREATE leaves no code, and the old body runs after a rolled-back OR REPLACE") {
  Fixture f;
  f.exec("CREATE FUNCTION v() RETURNS int LANGUAGE plpgsql AS $$ BEGIN RETURN 1; END $$");
  f.exec("BEGIN");
  f.exec("CREATE FUNCTION gone() RETURNS int LANGUAGE plpgsql AS $$ BEGIN RETURN 2; END $$");
  f.exec("CREATE OR REPLACE FUNCTION v() RETURNS int LANGUAGE plpgsql AS $$ BEGIN RETURN 3; END $$");
  CHECK(f.code("gone()") != nullptr);
  CHECK(f.value("SELECT v()") == "3");
  f.exec("ROLLBACK");
  CHECK(f.code("gone()") == nullptr);
  CHECK(f.code("v()") == nullptr);  // the replacement's code is gone with it
  CHECK(f.errorOf("SELECT gone()") == "42883");
  CHECK(f.value("SELECT v()") == "1");
  CHECK(f.code("v()") != nullptr);

  SECTION("a failed CREATE in a block") {
    f.exec("BEGIN");
    f.exec("CREATE FUNCTION half() RETURNS int LANGUAGE plpgsql AS $$ BEGIN RETURN 4; END $$");
    CHECK(f.errorOf("SELECT 1/0") == "22012");
    f.exec("ROLLBACK");
    CHECK(f.code("half()") == nullptr);
  }
}

TEST_CASE("a body that parses but does not compile creates the routine; its call raises the error") {
  Fixture f;
  // An OUT argument of type record is accepted at CREATE, as in PostgreSQL, but the
  // compiler does not build it yet.
  f.exec("CREATE FUNCTION bad(x int, OUT r record) LANGUAGE plpgsql AS $$ BEGIN END $$");
  CHECK(f.code("bad(integer)") == nullptr);
  CHECK(f.errorOf("SELECT * FROM bad(1)") == "0A000");
}
