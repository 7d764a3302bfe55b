// The extended query protocol and COPY FROM STDIN driven through Session directly.
#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <vector>

#include "compiler/compiler.h"
#include "engine/error.h"
#include "session/engine_state.h"
#include "session/sql_engine.h"
#include "session/sql_session.h"

using namespace duet;

namespace {

struct RecordingSink : ResultSink {
  std::vector<std::vector<std::optional<std::string>>> rows;
  std::vector<std::string> tags;
  int descriptions = 0, empties = 0, copyIns = 0;
  std::vector<std::string> reported;
  std::string copyOut;
  void rowDescription(const std::vector<ColumnDesc>&) override { ++descriptions; }
  void dataRow(const Field* f, size_t n) override {
    auto& r = rows.emplace_back();
    for (size_t i = 0; i < n; ++i) {
      if (f[i].len < 0)
        r.emplace_back(std::nullopt);
      else
        r.emplace_back(std::string(f[i].data, f[i].len));
    }
  }
  void commandComplete(std::string_view tag) override { tags.emplace_back(tag); }
  void emptyQuery() override { ++empties; }
  void notice(const Notice&) override {}
  void parameterStatus(std::string_view name, std::string_view) override { reported.emplace_back(name); }
  void copyOutBegin(int, bool) override {}
  void copyData(std::string_view b) override { copyOut.append(b); }
  void copyOutDone() override {}
  void copyInBegin(int, bool) override { ++copyIns; }
};

std::unique_ptr<Session> open(Engine& engine) {
  return engine.openSession({{"user", "postgres"}, {"database", "postgres"}});
}

std::vector<BindParam> textParams(std::vector<std::optional<std::string>> values) {
  std::vector<BindParam> out;
  for (auto& v : values) out.push_back(BindParam{v, 0});
  return out;
}

// Parse, Bind, Execute and Sync of one parameterless statement on the unnamed objects.
void syncCycle(Session& s, const std::string& sql, ResultSink& sink) {
  s.parse("", sql, {});
  s.bind("", "", {}, {});
  s.execute("", 0, sink);
  s.sync();
}

}  // namespace

TEST_CASE("extended protocol: parse, bind, describe, execute with parameters") {
  auto engine = createSqlEngine(EngineConfig{"/tmp/duet_ext_test", 0});
  auto s = open(*engine);
  RecordingSink sink;
  s->simpleQuery("create table t (a int primary key, b text)", sink);

  s->parse("ins", "insert into t values ($1, $2)", {});
  StatementDescription d = s->describeStatement("ins");
  REQUIRE(d.paramTypeOids.size() == 2);
  CHECK(d.paramTypeOids[0] == 23);
  CHECK(d.paramTypeOids[1] == 25);
  CHECK_FALSE(d.returnsRows);
  for (int i = 1; i <= 5; ++i) {
    s->bind("", "ins", textParams({std::to_string(i), "v" + std::to_string(i)}), {});
    CHECK(s->execute("", 0, sink) == ExecuteState::Complete);
    s->sync();
  }
  CHECK(sink.tags.back() == "INSERT 0 1");

  CHECK_THROWS_AS(s->parse("ins", "select 1", {}), SqlError);
  try {
    s->bind("", "ins", textParams({"1"}), {});
    FAIL("no error");
  } catch (const SqlError& e) {
    CHECK(e.code == "08P01");
    CHECK(std::string(e.what()) == "bind message supplies 1 parameters, but prepared statement \"ins\" requires 2");
  }
  s->abortCurrent();
  s->sync();

  s->parse("", "select a, b from t where a >= $1 order by a", {23});
  d = s->describeStatement("");
  CHECK(d.returnsRows);
  CHECK(d.columns.size() == 2);
  s->bind("p", "", textParams({"2"}), {});
  RecordingSink out;
  CHECK(s->execute("p", 2, out) == ExecuteState::Suspended);
  CHECK(out.rows.size() == 2);
  CHECK(out.descriptions == 0);
  CHECK(s->execute("p", 2, out) == ExecuteState::Complete);
  CHECK(out.rows.size() == 4);
  CHECK(out.tags == std::vector<std::string>{"SELECT 4"});
  CHECK(*out.rows[3][1] == "v5");
  s->sync();

  // Utility statements and a block across Syncs.
  syncCycle(*s, "begin", sink);
  CHECK(s->txnStatus() == TxnStatus::InBlock);
  s->bind("", "ins", textParams({"6", std::nullopt}), {});
  s->execute("", 0, sink);
  s->sync();
  syncCycle(*s, "rollback", sink);
  CHECK(s->txnStatus() == TxnStatus::Idle);
  RecordingSink count;
  s->simpleQuery("select count(*) from t", count);
  CHECK(*count.rows[0][0] == "5");

  // An error rolls back the implicit transaction of the Sync cycle.
  s->bind("", "ins", textParams({"7", "x"}), {});
  s->execute("", 0, sink);
  s->bind("", "ins", textParams({"1", "dup"}), {});
  CHECK_THROWS_AS(s->execute("", 0, sink), SqlError);
  s->abortCurrent();
  s->sync();
  // A failed block accepts only COMMIT / ROLLBACK, through Parse too.
  s->simpleQuery("begin", sink);
  CHECK_THROWS_AS(s->simpleQuery("select nosuchcolumn from t", sink), SqlError);
  CHECK(s->txnStatus() == TxnStatus::Failed);
  CHECK_THROWS_AS(s->parse("", "select 1", {}), SqlError);
  s->abortCurrent();
  s->sync();
  syncCycle(*s, "rollback", sink);
  CHECK(s->txnStatus() == TxnStatus::Idle);

  RecordingSink count2;
  s->simpleQuery("select count(*) from t", count2);
  CHECK(*count2.rows[0][0] == "5");
}

TEST_CASE("COPY FROM STDIN and TO STDOUT") {
  auto engine = createSqlEngine(EngineConfig{"/tmp/duet_ext_test2", 0});
  auto s = open(*engine);
  RecordingSink sink;
  s->simpleQuery("create table c (a int, b text, n numeric)", sink);
  CHECK(s->simpleQuery("copy c from stdin; select 42", sink) == QueryState::CopyIn);
  CHECK(sink.copyIns == 1);
  CHECK(s->copyInData("1\tx\t1.5\n2\t\\N\t2\n", sink) == QueryState::Done);
  CHECK(sink.tags[sink.tags.size() - 2] == "COPY 2");
  CHECK(*sink.rows.back()[0] == "42");

  CHECK(s->simpleQuery("copy c (b, a) from stdin with (format csv)", sink) == QueryState::CopyIn);
  s->copyInData("\"q,r\",3\n", sink);
  CHECK(sink.tags.back() == "COPY 1");

  CHECK(s->simpleQuery("copy c from stdin", sink) == QueryState::CopyIn);
  try {
    s->copyInData("4\ty\tzz\n", sink);
    FAIL("no error");
  } catch (const SqlError& e) {
    CHECK(e.code == "22P02");
  }
  CHECK(s->simpleQuery("copy c from stdin", sink) == QueryState::CopyIn);
  CHECK_THROWS_AS(s->copyInFail("bye", sink), SqlError);

  RecordingSink out;
  s->simpleQuery("copy c to stdout", out);
  CHECK(out.copyOut == "1\tx\t1.5\n2\t\\N\t2\n3\tq,r\t\\N\n");
  CHECK(out.tags.back() == "COPY 3");
  RecordingSink out2;
  s->simpleQuery("copy (select a from c where a > 1 order by a) to stdout with csv", out2);
  CHECK(out2.copyOut == "2\n3\n");
}

TEST_CASE("a block takes the executor at its first statement, not at BEGIN") {
  auto engine = createSqlEngine(EngineConfig{"/tmp/duet_ext_test", 0});
  auto s = open(*engine);
  RecordingSink sink;
  s->simpleQuery("begin", sink);
  CHECK(s->txnStatus() == TxnStatus::InBlock);
  CHECK_FALSE(s->holdsExecutor());
  s->simpleQuery("select 1", sink);
  CHECK(s->holdsExecutor());
  s->simpleQuery("commit", sink);
  CHECK_FALSE(s->holdsExecutor());

  // A failed statement still counts: its block keeps what ran before it until ROLLBACK.
  s->simpleQuery("begin", sink);
  CHECK_THROWS_AS(s->simpleQuery("select 1/0", sink), SqlError);
  CHECK(s->txnStatus() == TxnStatus::Failed);
  CHECK(s->holdsExecutor());
  s->simpleQuery("rollback", sink);
  CHECK_FALSE(s->holdsExecutor());

  // SET and SHOW read no table (PostgreSQL takes no snapshot for them): not yet either.
  s->simpleQuery("begin", sink);
  s->simpleQuery("set statement_timeout = 0", sink);
  s->simpleQuery("show transaction_read_only", sink);
  CHECK_FALSE(s->holdsExecutor());
  s->simpleQuery("select 1", sink);
  CHECK(s->holdsExecutor());
  s->simpleQuery("rollback", sink);
}

TEST_CASE("read-only transactions: the mode a session reports, writes refused over Execute") {
  auto engine = createSqlEngine(EngineConfig{"/tmp/duet_ext_test", 0});
  auto s = open(*engine);
  auto& session = dynamic_cast<SqlSession&>(*s);
  RecordingSink sink;
  s->simpleQuery("create table ro (a int)", sink);
  CHECK_FALSE(session.transactionReadOnly());
  s->simpleQuery("set default_transaction_read_only = on", sink);
  CHECK(session.transactionReadOnly());  // the next transaction's mode
  auto insertRefused = [&] {
    try {
      syncCycle(*s, "insert into ro values (1)", sink);
      FAIL("no error");
    } catch (const SqlError& e) {
      CHECK(e.code == "25006");
      CHECK(std::string(e.what()) == "cannot execute INSERT in a read-only transaction");
    }
    s->abortCurrent();
    s->sync();
  };
  insertRefused();
  s->simpleQuery("begin read write", sink);
  CHECK_FALSE(session.transactionReadOnly());
  syncCycle(*s, "insert into ro values (1)", sink);
  s->simpleQuery("commit", sink);
  s->simpleQuery("set default_transaction_read_only = off", sink);
  CHECK_FALSE(session.transactionReadOnly());
  s->simpleQuery("begin read only", sink);
  CHECK(session.transactionReadOnly());
  insertRefused();
  CHECK(s->txnStatus() == TxnStatus::Failed);
  s->simpleQuery("rollback", sink);
  CHECK_FALSE(session.transactionReadOnly());
  sink.rows.clear();
  s->simpleQuery("select count(*) from ro", sink);
  REQUIRE(sink.rows.size() == 1);
  CHECK(sink.rows[0][0] == "1");
}

TEST_CASE("extended protocol: a finished portal runs again as PostgreSQL's does") {
  auto engine = createSqlEngine(EngineConfig{"/tmp/duet_ext_test", 0});
  auto s = open(*engine);
  RecordingSink sink;
  s->simpleQuery("create table t (a int)", sink);
  auto runTwice = [&](const std::string& sql, int64_t maxRows) {
    RecordingSink out;
    s->parse("", sql, {});
    s->bind("p", "", {}, {});
    CHECK(s->execute("p", maxRows, out) == ExecuteState::Complete);
    CHECK(s->execute("p", maxRows, out) == ExecuteState::Complete);
    return out;
  };
  RecordingSink ins = runTwice("insert into t values (1), (2) returning a", 0);
  CHECK(ins.rows.size() == 2);
  CHECK(ins.tags == std::vector<std::string>{"INSERT 0 2", "INSERT 0 0"});
  RecordingSink sel = runTwice("select a from t", 10);
  CHECK(sel.rows.size() == 2);
  CHECK(sel.tags == std::vector<std::string>{"SELECT 2", "SELECT 0"});
  RecordingSink show = runTwice("show TimeZone", 0);
  CHECK(show.rows.size() == 1);
  CHECK(show.tags == std::vector<std::string>{"SHOW", "SHOW"});

  s->parse("", "insert into t values (3)", {});
  s->bind("p", "", {}, {});
  s->execute("p", 0, sink);
  try {
    s->execute("p", 0, sink);
    FAIL("a finished INSERT portal ran again");
  } catch (const SqlError& e) {
    CHECK(e.code == "55000");
    CHECK(std::string(e.what()) == "portal \"p\" cannot be run");
  }
}

TEST_CASE("extended protocol: Describe of SHOW names the column after the setting") {
  auto engine = createSqlEngine(EngineConfig{"/tmp/duet_ext_test", 0});
  auto s = open(*engine);
  s->parse("sh", "show timezone", {});
  StatementDescription d = s->describeStatement("sh");
  REQUIRE(d.columns.size() == 1);
  CHECK(d.columns[0].name == "TimeZone");
  s->parse("all", "show all", {});
  CHECK(s->describeStatement("all").columns.size() == 3);
}

TEST_CASE("ParameterStatus: sent at startup, then only for what changes") {
  auto engine = createSqlEngine(EngineConfig{"/tmp/duet_ext_test", 0});
  auto s = open(*engine);
  CHECK(s->reportedParameters().size() > 5);
  RecordingSink sink;
  s->simpleQuery("select 1", sink);
  CHECK(sink.reported.empty());
  s->simpleQuery("set application_name = 'x'", sink);
  CHECK(sink.reported == std::vector<std::string>{"application_name"});
  s->simpleQuery("set application_name = 'x'", sink);  // same value: nothing new
  CHECK(sink.reported.size() == 1);
}

TEST_CASE("compiled plans record compile time, executions and execution time") {
  prepareCompiler();
  EngineState state;
  SqlSession s(state, *state.catalog.database("postgres"), "postgres", "postgres", {});
  RecordingSink sink;
  s.simpleQuery("create table t (a int)", sink);
  for (int i = 0; i < 3; ++i) s.simpleQuery(("insert into t values (" + std::to_string(i) + ")").c_str(), sink);
  const PreparedPlan* insert = nullptr;
  for (const auto& [key, plan] : state.plans.entries())
    if (plan->command == PreparedPlan::Command::Insert) insert = plan.get();
  REQUIRE(insert != nullptr);  // one plan serves all three: the literal was lifted
  CHECK(insert->executions == 3);
  CHECK(insert->executionNs > 0);
  CHECK(insert->compiled->compileMs > 0);
}

// sync() keeps the unnamed portal's memory for the next bind(): statements of other
// parameter layouts and result formats must still get exactly their own values.
TEST_CASE("extended protocol: the unnamed portal's reused memory carries nothing over") {
  auto engine = createSqlEngine(EngineConfig{"/tmp/duet_ext_test", 0});
  auto s = open(*engine);
  s->parse("one", "select $1::int + 1", {});
  s->parse("three", "select $1::text || '/' || coalesce($2::text, 'null') || '/' || ($3::numeric * 2)", {});
  s->parse("none", "select 42", {});
  auto call = [&](const std::string& stmt, std::vector<std::optional<std::string>> values,
                  std::vector<int16_t> formats = {}) {
    RecordingSink out;
    s->bind("", stmt, textParams(std::move(values)), formats);
    s->execute("", 0, out);
    s->sync();
    REQUIRE(out.rows.size() == 1);
    return out.rows[0][0];
  };
  CHECK(*call("one", {"1"}) == "2");
  CHECK(*call("three", {"a", "b", "1.5"}) == "a/b/3.0");  // a larger tuple than the last
  CHECK(*call("one", {"7"}) == "8");                      // a smaller one: reused
  CHECK(*call("three", {"x", std::nullopt, "2"}) == "x/null/4");
  CHECK(call("one", {std::nullopt}) == std::nullopt);
  CHECK(*call("none", {}) == "42");
  std::optional<std::string> binary = call("one", {"255"}, {1});
  CHECK(*binary == std::string("\0\0\1\0", 4));  // int4 256, network order
  CHECK(*call("one", {"9"}) == "10");            // text again
}
