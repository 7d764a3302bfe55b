// The redo log's engine side (docs/logging.md): committed write transactions become
// records of their statements and inputs, and replaying the records on a fresh engine
// gives the same tables - across the simple and extended protocols, blocks, multi-statement
// Queries, COPY FROM STDIN, DDL, functions, settings, and random()/now()/clock_timestamp();
// and the startup packet's options, which set synchronous_commit and the like per connection.
#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <vector>

#include "engine/error.h"
#include "engine/types/type_id.h"
#include "logging_test_util.h"
#include "session/sql_engine.h"
#include "session/transaction_record.h"

using namespace duet;

using test::openSession;
using test::queryRows;
using test::RowsSink;

namespace {

// An engine whose commit log appends each committed transaction's record to `records`.
std::unique_ptr<Engine> loggingEngine(std::vector<std::string>& records) {
  auto engine = createSqlEngine(EngineConfig{"/tmp/duet_replay_test", 0});
  engine->setCommitLog([&records](std::string record) {
    records.push_back(std::move(record));
    return static_cast<uint64_t>(records.size());
  });
  return engine;
}

}  // namespace

TEST_CASE("transaction records encode and decode", "[logging]") {
  LoggedTransaction t{"db", "me", 12345, {}, 777, 3, "pg_temp_2", 4242, 5, true};
  LoggedStatement s;
  s.sql = "insert into t values ($1)";
  s.paramTypeOids = {23};
  s.params = {std::string("7"), std::nullopt};
  s.settings = {{"TimeZone", "Asia/Tokyo"}};
  s.statementTimestamp = 999;
  s.randomState = 0xdeadbeef;
  s.clockOffsets = {1, 5};
  s.lockOutcomes = {true, false, false};
  s.copyData = std::string("1\t2\n");
  t.statements = {s, LoggedStatement{}};
  LoggedTransaction back = decodeTransaction(encodeTransaction(t));
  CHECK(back.database == "db");
  CHECK(back.startTimestamp == 12345);
  CHECK(back.serverStart == 777);
  CHECK(back.tempSession == 3);
  CHECK(back.tempSchema == "pg_temp_2");
  CHECK(back.transactionId == 4242);
  CHECK(back.callTransaction == 5);
  CHECK(back.callEnded);
  REQUIRE(back.statements.size() == 2);
  CHECK(back.statements[0].params == s.params);
  CHECK(back.statements[0].settings == s.settings);
  CHECK(back.statements[0].clockOffsets == s.clockOffsets);
  CHECK(back.statements[0].lockOutcomes == s.lockOutcomes);
  CHECK(back.statements[1].lockOutcomes.empty());
  CHECK(back.statements[0].copyData == s.copyData);
  CHECK_FALSE(back.statements[1].copyData);
  std::string bytes = encodeTransaction(t);
  CHECK_THROWS(decodeTransaction(bytes.substr(0, bytes.size() - 3)));
}

TEST_CASE("replaying the log on a fresh engine gives the same tables", "[logging]") {
  std::vector<std::string> records;
  auto live = loggingEngine(records);
  {
    auto s = openSession(*live);
    RowsSink sink;
    s->simpleQuery("create table t (k int primary key, v text, r float8, ts timestamptz, c timestamptz)", sink);
    s->simpleQuery("insert into t values (1, 'one', random(), now(), clock_timestamp())", sink);
    // A multi-statement Query, one transaction; the read in it writes nothing but draws random().
    s->simpleQuery(
        "select random(); insert into t values (2, 'two', random(), now(), clock_timestamp());"
        "update t set v = v || '!' where k = 1",
        sink);
    // A block with a setting that changes how text is read.
    s->simpleQuery("begin", sink);
    s->simpleQuery("set timezone = 'Asia/Tokyo'", sink);
    s->simpleQuery("insert into t values (3, 'three', random(), '2024-05-01 12:00', clock_timestamp())", sink);
    s->simpleQuery("select clock_timestamp()", sink);  // a clock reading the log need not keep
    s->simpleQuery("insert into t values (4, 'four', random(), now(), clock_timestamp())", sink);
    s->simpleQuery("commit", sink);
    s->simpleQuery("reset timezone", sink);
    // Extended protocol with parameters, including NULL.
    s->parse("", "insert into t (k, v, r) values ($1, $2, $3)", {});
    s->bind("", "", {BindParam{std::string("5"), 0}, BindParam{std::nullopt, 0}, BindParam{std::string("0.25"), 0}},
            {});
    s->execute("", 0, sink);
    s->sync();
    // COPY FROM STDIN.
    REQUIRE(s->simpleQuery("copy t (k, v) from stdin", sink) == QueryState::CopyIn);
    s->copyInData("6\tsix\n7\tseven\n", sink);
    // A function that writes, called by SELECT.
    s->simpleQuery(
        "create function bump(n int) returns int language plpgsql as $$ "
        "begin update t set k = k + 100 where k = n; return n; end $$",
        sink);
    s->simpleQuery("select bump(7)", sink);
    // Rolled back and failed transactions leave nothing in the log.
    s->simpleQuery("begin", sink);
    s->simpleQuery("delete from t", sink);
    s->simpleQuery("rollback", sink);
    CHECK_THROWS_AS(s->simpleQuery("insert into t values (1, 'dup', 0, now(), now())", sink), SqlError);
    // Read-only statements are not logged.
    size_t before = records.size();
    s->simpleQuery("select count(*) from t", sink);
    CHECK(records.size() == before);
    s->simpleQuery("create database other", sink);
  }
  queryRows(*live, "create table o (x int)", "other");  // another database, another session
  const std::string all = "select k, v, r, ts, c from t order by k";
  std::vector<std::string> expected = queryRows(*live, all);
  REQUIRE(expected.size() == 7);

  auto recovered = createSqlEngine(EngineConfig{"/tmp/duet_replay_test", 0});
  for (const std::string& r : records) recovered->replayTransaction(r);
  CHECK(queryRows(*recovered, all) == expected);
  CHECK(queryRows(*recovered, "select count(*) from o", "other") == std::vector<std::string>{"0"});
  // The function came back too and runs.
  CHECK(queryRows(*recovered, "select bump(1), count(*) from t where k = 101") == std::vector<std::string>{"1|0"});
}

TEST_CASE("a replay hands out the same sequence values, moves of rolled-back work included", "[logging]") {
  std::vector<std::string> records;
  auto live = loggingEngine(records);
  {
    auto s = openSession(*live);
    RowsSink sink;
    s->simpleQuery("create table t (id serial primary key, v text)", sink);
    s->simpleQuery("create sequence free_seq increment 5", sink);
    s->simpleQuery("insert into t (v) values ('a')", sink);
    s->simpleQuery("select nextval('free_seq')", sink);  // moves a sequence, changes no row
    s->simpleQuery("begin", sink);
    s->simpleQuery("insert into t (v) values ('rolled back')", sink);
    s->simpleQuery("select nextval('free_seq')", sink);
    s->simpleQuery("rollback", sink);
    // A failed implicit transaction that drew a value first.
    CHECK_THROWS_AS(s->simpleQuery("insert into t values (nextval('t_id_seq'), 'x'), (1, 'duplicate')", sink),
                    SqlError);
    s->simpleQuery("begin", sink);
    s->simpleQuery("savepoint p", sink);
    s->simpleQuery("insert into t (v) values ('undone')", sink);
    s->simpleQuery("rollback to savepoint p", sink);
    s->simpleQuery("insert into t (v) values ('b')", sink);
    s->simpleQuery("commit", sink);
  }
  const std::string all = "select id, v from t order by id";
  const std::string positions =
      "select (select last_value from t_id_seq), (select last_value from free_seq), nextval('t_id_seq')";
  CHECK(queryRows(*live, all) == std::vector<std::string>{"1|a", "5|b"});
  CHECK(queryRows(*live, positions) == std::vector<std::string>{"5|6|6"});

  auto recovered = createSqlEngine(EngineConfig{"/tmp/duet_replay_test", 0});
  // The live engine's last nextval is in the log too: stop before it.
  for (size_t i = 0; i + 1 < records.size(); ++i) recovered->replayTransaction(records[i]);
  CHECK(queryRows(*recovered, all) == std::vector<std::string>{"1|a", "5|b"});
  CHECK(queryRows(*recovered, positions) == std::vector<std::string>{"5|6|6"});
}

TEST_CASE("startup options set settings: -c name=value, --name=value, escaped spaces", "[session]") {
  auto engine = createSqlEngine(EngineConfig{"/tmp/duet_options_test", 0});
  auto s = engine->openSession({{"user", "postgres"},
                                {"database", "postgres"},
                                {"options",
                                 "-c synchronous_commit=off --statement-timeout=5s -cTimeZone=UTC "
                                 "-c application_name=a\\ b"}});
  RowsSink sink;
  s->simpleQuery("show synchronous_commit; show statement_timeout; show timezone; show application_name", sink);
  CHECK(sink.rows == std::vector<std::string>{"off", "5s", "UTC", "a b"});
  CHECK_FALSE(s->synchronousCommit());
  auto code = [&](const std::string& options) {
    try {
      engine->openSession({{"user", "postgres"}, {"database", "postgres"}, {"options", options}});
    } catch (const SqlError& e) {
      return std::string(e.code);
    }
    return std::string("none");
  };
  CHECK(code("bogus") == "42601");
  CHECK(code("-c nosuch=1") == "42704");
  CHECK(code("-c synchronous_commit") == "42601");
}

TEST_CASE("a record the log refuses rolls its transaction back", "[logging]") {
  auto engine = createSqlEngine(EngineConfig{"/tmp/duet_replay_test", 0});
  // As RedoLog::append refuses a payload over its limit (54000); here: any record naming 666.
  int appended = 0;
  engine->setCommitLog([&](std::string record) -> uint64_t {
    if (record.find("666") != std::string::npos)
      throw SqlError(sqlstate::kProgramLimitExceeded, "redo log record too large");
    return static_cast<uint64_t>(++appended);
  });
  auto s = openSession(*engine);
  RowsSink sink;
  s->simpleQuery("create table t (k int primary key)", sink);
  // An implicit transaction, a block's COMMIT, and an extended-protocol Sync.
  CHECK_THROWS_AS(s->simpleQuery("insert into t values (666)", sink), SqlError);
  s->simpleQuery("begin; insert into t values (1); insert into t values (2)", sink);
  CHECK_THROWS_AS(s->simpleQuery("insert into t values (666); commit", sink), SqlError);
  CHECK(s->txnStatus() == TxnStatus::Idle);
  s->parse("", "insert into t values ($1)", {});
  s->bind("", "", {BindParam{std::string("666"), 0}}, {});
  s->execute("", 0, sink);
  CHECK_THROWS_AS(s->sync(), SqlError);
  CHECK(s->txnStatus() == TxnStatus::Idle);
  CHECK_FALSE(engine->changesPending());
  // Nothing of them stayed, and the session goes on.
  s->simpleQuery("insert into t values (3)", sink);
  CHECK(queryRows(*engine, "select k from t order by k") == std::vector<std::string>{"3"});
  CHECK(appended == 2);  // CREATE TABLE and the last INSERT
}

TEST_CASE("a replay makes the same gen_random_uuid() values and reads bytea and uuid parameters back", "[logging]") {
  std::vector<std::string> records;
  auto live = loggingEngine(records);
  {
    auto s = openSession(*live);
    RowsSink sink;
    s->simpleQuery("create table t (id uuid primary key default gen_random_uuid(), b bytea, k int)", sink);
    s->simpleQuery("insert into t (b, k) values ('\\x00ff', 1), (null, 2)", sink);
    s->simpleQuery("insert into t values (gen_random_uuid(), 'abc', 3)", sink);
    // Binary parameters, logged as text in the session's bytea_output (escape here).
    s->simpleQuery("set bytea_output = escape", sink);
    s->parse("", "insert into t values ($1, $2, 4)", {oid::kUuid, oid::kBytea});
    s->bind("", "",
            {BindParam{std::string("\x01\x23\x45\x67\x89\xab\xcd\xef\x01\x23\x45\x67\x89\xab\xcd\xef", 16), 1},
             BindParam{std::string("\0\\\n\xff", 4), 1}},
            {});
    s->execute("", 0, sink);
    s->sync();
  }
  const std::string all = "select id, encode(b, 'hex'), k from t order by k";
  std::vector<std::string> expected = queryRows(*live, all);
  REQUIRE(expected.size() == 4);
  CHECK(expected[3] == "01234567-89ab-cdef-0123-456789abcdef|005c0aff|4");

  auto recovered = createSqlEngine(EngineConfig{"/tmp/duet_replay_test", 0});
  for (const std::string& r : records) recovered->replayTransaction(r);
  CHECK(queryRows(*recovered, all) == expected);
}
