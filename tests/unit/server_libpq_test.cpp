// The wire server as libpq sees it: simple and extended queries, pipelines, COPY, cancel,
// errors, and transaction blocks that hold the executor.
#include <catch2/catch.hpp>

#include <chrono>
#include <future>
#include <thread>

#include "server_test_support.h"

using namespace duet::test;
using namespace std::chrono_literals;

TEST_CASE("simple query returns rows, parameters and errors", "[server]") {
  TestServer server;
  PgConn conn = connectOk(server);
  CHECK(std::string(PQparameterStatus(conn.get(), "server_version")) == "15.0 (DuetDB fake)");
  CHECK(PQbackendPID(conn.get()) > 0);

  PgResult r(PQexec(conn.get(), "SELECT 1"));
  REQUIRE(PQresultStatus(r.get()) == PGRES_TUPLES_OK);
  CHECK(PQntuples(r.get()) == 1);
  CHECK(PQftype(r.get(), 0) == 23);
  CHECK(std::string(PQgetvalue(r.get(), 0, 0)) == "1");

  PgResult e(PQexec(conn.get(), "ERROR"));
  REQUIRE(PQresultStatus(e.get()) == PGRES_FATAL_ERROR);
  CHECK(std::string(PQresultErrorField(e.get(), PG_DIAG_SQLSTATE)) == "42601");
  CHECK(std::string(PQresultErrorField(e.get(), PG_DIAG_MESSAGE_PRIMARY)) == "fake syntax error");
  CHECK(std::string(PQresultErrorField(e.get(), PG_DIAG_MESSAGE_DETAIL)) == "fake detail");
  CHECK(std::string(PQresultErrorField(e.get(), PG_DIAG_MESSAGE_HINT)) == "fake hint");
  CHECK(std::string(PQresultErrorField(e.get(), PG_DIAG_STATEMENT_POSITION)) == "3");
  CHECK(std::string(PQresultErrorField(e.get(), PG_DIAG_SEVERITY_NONLOCALIZED)) == "ERROR");

  PgResult empty(PQexec(conn.get(), ""));
  CHECK(PQresultStatus(empty.get()) == PGRES_EMPTY_QUERY);

  PgResult big(PQexec(conn.get(), "GENERATE 50000"));
  REQUIRE(PQresultStatus(big.get()) == PGRES_TUPLES_OK);
  CHECK(PQntuples(big.get()) == 50000);
  CHECK(std::string(PQgetvalue(big.get(), 49999, 0)) == "50000");
}

TEST_CASE("a fatal startup error is reported and closes the connection", "[server]") {
  TestServer server;
  PgConn conn(PQconnectdb(server.conninfo("dbname=nosuchdb").c_str()));
  CHECK(PQstatus(conn.get()) == CONNECTION_BAD);
  CHECK(std::string(PQerrorMessage(conn.get())).find("database \"nosuchdb\" does not exist") != std::string::npos);
  CHECK(server.waitForLiveSessions(0));
}

TEST_CASE("prepared statements and parameters through the extended protocol", "[server]") {
  TestServer server;
  PgConn conn = connectOk(server);
  PgResult prep(PQprepare(conn.get(), "echo", "SELECT $1", 1, nullptr));
  REQUIRE(PQresultStatus(prep.get()) == PGRES_COMMAND_OK);

  PgResult desc(PQdescribePrepared(conn.get(), "echo"));
  REQUIRE(PQresultStatus(desc.get()) == PGRES_COMMAND_OK);
  CHECK(PQnparams(desc.get()) == 1);
  CHECK(PQparamtype(desc.get(), 0) == 25);
  CHECK(PQnfields(desc.get()) == 1);

  const char* values[] = {"hello"};
  PgResult r(PQexecPrepared(conn.get(), "echo", 1, values, nullptr, nullptr, 0));
  REQUIRE(PQresultStatus(r.get()) == PGRES_TUPLES_OK);
  CHECK(std::string(PQgetvalue(r.get(), 0, 0)) == "hello");

  const char* nulls[] = {nullptr};
  PgResult n(PQexecPrepared(conn.get(), "echo", 1, nulls, nullptr, nullptr, 0));
  REQUIRE(PQresultStatus(n.get()) == PGRES_TUPLES_OK);
  CHECK(PQgetisnull(n.get(), 0, 0));

  PgResult dup(PQprepare(conn.get(), "echo", "SELECT 1", 0, nullptr));
  CHECK(std::string(PQresultErrorField(dup.get(), PG_DIAG_SQLSTATE)) == "42P05");
  CHECK(server.engine.state.abortCurrentCalls == 1);

  PgResult after(PQexecParams(conn.get(), "SELECT $1", 1, nullptr, values, nullptr, nullptr, 0));
  REQUIRE(PQresultStatus(after.get()) == PGRES_TUPLES_OK);
  CHECK(std::string(PQgetvalue(after.get(), 0, 0)) == "hello");
}

TEST_CASE("a pipeline skips to Sync after an error and then goes on", "[server]") {
  TestServer server;
  PgConn conn = connectOk(server);
  REQUIRE(PQenterPipelineMode(conn.get()) == 1);
  REQUIRE(PQsendQueryParams(conn.get(), "SELECT 1", 0, nullptr, nullptr, nullptr, nullptr, 0));
  REQUIRE(PQsendQueryParams(conn.get(), "ERROR", 0, nullptr, nullptr, nullptr, nullptr, 0));
  REQUIRE(PQsendQueryParams(conn.get(), "SELECT 1", 0, nullptr, nullptr, nullptr, nullptr, 0));
  REQUIRE(PQpipelineSync(conn.get()));
  REQUIRE(PQsendQueryParams(conn.get(), "GENERATE 3", 0, nullptr, nullptr, nullptr, nullptr, 0));
  REQUIRE(PQpipelineSync(conn.get()));

  auto next = [&] { return PgResult(PQgetResult(conn.get())); };
  PgResult r1 = next();
  CHECK(PQresultStatus(r1.get()) == PGRES_TUPLES_OK);
  CHECK(next() == nullptr);
  PgResult r2 = next();
  CHECK(PQresultStatus(r2.get()) == PGRES_FATAL_ERROR);
  CHECK(next() == nullptr);
  PgResult r3 = next();
  CHECK(PQresultStatus(r3.get()) == PGRES_PIPELINE_ABORTED);
  CHECK(next() == nullptr);
  PgResult s1 = next();
  CHECK(PQresultStatus(s1.get()) == PGRES_PIPELINE_SYNC);
  PgResult r4 = next();
  REQUIRE(PQresultStatus(r4.get()) == PGRES_TUPLES_OK);
  CHECK(PQntuples(r4.get()) == 3);
  CHECK(next() == nullptr);
  PgResult s2 = next();
  CHECK(PQresultStatus(s2.get()) == PGRES_PIPELINE_SYNC);
  REQUIRE(PQexitPipelineMode(conn.get()) == 1);
}

TEST_CASE("COPY FROM STDIN collects the data; CopyFail reports an error", "[server]") {
  TestServer server;
  PgConn conn = connectOk(server);
  PgResult start(PQexec(conn.get(), "COPY t FROM STDIN"));
  REQUIRE(PQresultStatus(start.get()) == PGRES_COPY_IN);
  REQUIRE(PQputCopyData(conn.get(), "1\n2\n", 4) == 1);
  REQUIRE(PQputCopyData(conn.get(), "3\n", 2) == 1);
  REQUIRE(PQputCopyEnd(conn.get(), nullptr) == 1);
  PgResult done(PQgetResult(conn.get()));
  REQUIRE(PQresultStatus(done.get()) == PGRES_COMMAND_OK);
  CHECK(std::string(PQcmdTuples(done.get())) == "3");
  CHECK(PQgetResult(conn.get()) == nullptr);

  PgResult again(PQexec(conn.get(), "COPY t FROM STDIN"));
  REQUIRE(PQresultStatus(again.get()) == PGRES_COPY_IN);
  REQUIRE(PQputCopyData(conn.get(), "1\n", 2) == 1);
  REQUIRE(PQputCopyEnd(conn.get(), "client gave up") == 1);
  PgResult failed(PQgetResult(conn.get()));
  REQUIRE(PQresultStatus(failed.get()) == PGRES_FATAL_ERROR);
  CHECK(std::string(PQresultErrorField(failed.get(), PG_DIAG_SQLSTATE)) == "57014");
  CHECK(PQgetResult(conn.get()) == nullptr);

  PgResult ok(PQexec(conn.get(), "SELECT 1"));
  CHECK(PQresultStatus(ok.get()) == PGRES_TUPLES_OK);
}

TEST_CASE("COPY TO STDOUT and notices", "[server]") {
  TestServer server;
  PgConn conn = connectOk(server);
  PgResult start(PQexec(conn.get(), "COPY OUT"));
  REQUIRE(PQresultStatus(start.get()) == PGRES_COPY_OUT);
  std::string data;
  char* buffer = nullptr;
  int n;
  while ((n = PQgetCopyData(conn.get(), &buffer, 0)) > 0) {
    data.append(buffer, static_cast<size_t>(n));
    PQfreemem(buffer);
  }
  CHECK(data == "a\nb\n");
  PgResult done(PQgetResult(conn.get()));
  CHECK(PQresultStatus(done.get()) == PGRES_COMMAND_OK);
  CHECK(PQgetResult(conn.get()) == nullptr);

  std::string notice;
  PQsetNoticeProcessor(
      conn.get(), [](void* arg, const char* text) { *static_cast<std::string*>(arg) += text; }, &notice);
  PgResult r(PQexec(conn.get(), "NOTICE"));
  CHECK(PQresultStatus(r.get()) == PGRES_COMMAND_OK);
  CHECK(notice.find("fake notice") != std::string::npos);
}

TEST_CASE("PQcancel stops a running statement", "[server]") {
  TestServer server;
  PgConn conn = connectOk(server);
  auto running = std::async(std::launch::async, [&] {
    PgResult r(PQexec(conn.get(), "SLEEP"));
    const char* state = PQresultErrorField(r.get(), PG_DIAG_SQLSTATE);
    return std::string(state ? state : "");
  });
  std::this_thread::sleep_for(100ms);
  PGcancel* cancel = PQgetCancel(conn.get());
  char error[256];
  CHECK(PQcancel(cancel, error, sizeof error) == 1);
  PQfreeCancel(cancel);
  REQUIRE(running.wait_for(3s) == std::future_status::ready);
  CHECK(running.get() == "57014");
  PgResult ok(PQexec(conn.get(), "SELECT 1"));
  CHECK(PQresultStatus(ok.get()) == PGRES_TUPLES_OK);
}

TEST_CASE("an open block holds back other sessions until it ends", "[server]") {
  TestServer server;
  PgConn a = connectOk(server);
  PgConn b = connectOk(server);
  PgResult begin(PQexec(a.get(), "BEGIN"));
  REQUIRE(PQresultStatus(begin.get()) == PGRES_COMMAND_OK);
  CHECK(PQtransactionStatus(a.get()) == PQTRANS_INTRANS);

  REQUIRE(PQsendQuery(b.get(), "SELECT 1"));
  std::this_thread::sleep_for(150ms);
  REQUIRE(PQconsumeInput(b.get()));
  CHECK(PQisBusy(b.get()));
  // A new connection is let in meanwhile (its session reads no table data).
  PgConn c = connectOk(server);
  CHECK(PQstatus(c.get()) == CONNECTION_OK);

  PgResult failed(PQexec(a.get(), "ERROR"));
  CHECK(PQtransactionStatus(a.get()) == PQTRANS_INERROR);
  PgResult commit(PQexec(a.get(), "COMMIT"));
  CHECK(PQtransactionStatus(a.get()) == PQTRANS_IDLE);
  PgResult r(PQgetResult(b.get()));
  CHECK(PQresultStatus(r.get()) == PGRES_TUPLES_OK);
  CHECK(PQgetResult(b.get()) == nullptr);
}

TEST_CASE("a client that disconnects inside a block is rolled back", "[server]") {
  TestServer server;
  PgConn b = connectOk(server);
  {
    PgConn a = connectOk(server);
    PgResult begin(PQexec(a.get(), "BEGIN"));
    REQUIRE(PQresultStatus(begin.get()) == PGRES_COMMAND_OK);
  }
  PgResult r(PQexec(b.get(), "SELECT 1"));
  CHECK(PQresultStatus(r.get()) == PGRES_TUPLES_OK);
  CHECK(server.engine.state.rollbacks == 1);
  CHECK(server.waitForLiveSessions(1));
}
