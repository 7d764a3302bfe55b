// The wire server against hand-made byte streams: encryption requests, portal suspension,
// malformed input, clients that vanish mid-COPY or mid-result, and the idle timeout. After
// each abuse a fresh libpq connection must still work.
#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

#include "server_test_support.h"

using namespace duet::test;
using namespace std::chrono_literals;

namespace {

void checkServerStillServes(TestServer& server) {
  PgConn conn = connectOk(server);
  PgResult r(PQexec(conn.get(), "SELECT 1"));
  CHECK(PQresultStatus(r.get()) == PGRES_TUPLES_OK);
}

// Reads until a FATAL ErrorResponse and then EOF; returns its SQLSTATE and message.
std::pair<std::string, std::string> expectFatalAndClose(RawClient& client) {
  for (;;) {
    Message m = client.read();
    REQUIRE(m.type != 0);
    if (m.type == 'E' && m.field('S') == "FATAL") {
      CHECK(client.read().type == 0);
      return {m.field('C'), m.field('M')};
    }
  }
}

}  // namespace

TEST_CASE("SSLRequest and GSSENCRequest are refused with N, then startup works", "[server]") {
  TestServer server;
  RawClient client(server.port());
  client.send(int32Bytes(8) + int32Bytes(80877103));
  CHECK(client.readBytes(1) == "N");
  client.send(int32Bytes(8) + int32Bytes(80877104));
  CHECK(client.readBytes(1) == "N");
  REQUIRE(client.startup());
}

TEST_CASE("Execute with a row limit suspends the portal", "[server]") {
  TestServer server;
  RawClient client(server.port());
  REQUIRE(client.startup());
  std::string batch = message('P', std::string("s1\0GENERATE 5\0", 14) + int16Bytes(0)) +
                      message('B', std::string("p1\0s1\0", 6) + int16Bytes(0) + int16Bytes(0) + int16Bytes(0)) +
                      message('D', std::string("P") + "p1" + '\0') +
                      message('E', std::string("p1\0", 3) + int32Bytes(2)) +
                      message('E', std::string("p1\0", 3) + int32Bytes(0)) +
                      message('C', std::string("P") + "p1" + '\0') + message('S', "");
  client.send(batch);
  std::string types;
  for (const Message& m : client.readUntilReady()) types += m.type;
  CHECK(types == "12TDDsDDDC3Z");
}

TEST_CASE("FunctionCall is refused with 0A000", "[server]") {
  TestServer server;
  RawClient client(server.port());
  REQUIRE(client.startup());
  client.send(message('F', int32Bytes(1234) + int16Bytes(0) + int16Bytes(0) + int16Bytes(0)));
  auto messages = client.readUntilReady();
  REQUIRE(messages.size() == 2);
  CHECK(messages[0].field('C') == "0A000");
  CHECK(messages[1].type == 'Z');
}

TEST_CASE("malformed input ends only the offending connection", "[server]") {
  TestServer server;
  PgConn bystander = connectOk(server);

  SECTION("garbage instead of a startup packet") {
    RawClient client(server.port());
    client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    auto [code, text] = expectFatalAndClose(client);
    CHECK(code == "08P01");
    CHECK(text == "invalid length of startup packet");
  }
  SECTION("an oversized startup packet") {
    RawClient client(server.port());
    client.send(int32Bytes(10001) + int32Bytes(196608));
    CHECK(expectFatalAndClose(client).first == "08P01");
  }
  SECTION("an unsupported protocol version") {
    RawClient client(server.port());
    client.send(int32Bytes(8) + int32Bytes(2 << 16));
    CHECK(expectFatalAndClose(client).first == "0A000");
  }
  SECTION("an unknown message type") {
    RawClient client(server.port());
    REQUIRE(client.startup());
    client.send(message('z', "abc"));
    auto [code, text] = expectFatalAndClose(client);
    CHECK(code == "08P01");
    CHECK(text == "invalid frontend message type 122");
  }
  SECTION("a message length over 1 GiB") {
    RawClient client(server.port());
    REQUIRE(client.startup());
    client.send(std::string("Q") + int32Bytes(0x7fffffff) + "SELECT 1");
    CHECK(expectFatalAndClose(client).first == "08P01");
  }
  SECTION("a message length below 4") {
    RawClient client(server.port());
    REQUIRE(client.startup());
    client.send(std::string("Q") + int32Bytes(2));
    CHECK(expectFatalAndClose(client).first == "08P01");
  }
  SECTION("a truncated message body") {
    RawClient client(server.port());
    REQUIRE(client.startup());
    client.send(message('Q', "SELECT 1"));  // no terminating NUL
    auto [code, text] = expectFatalAndClose(client);
    CHECK(code == "08P01");
    CHECK(text == "invalid string in message");
  }
  SECTION("a Bind that runs out of data") {
    RawClient client(server.port());
    REQUIRE(client.startup());
    client.send(message('B', std::string("\0\0", 2) + int16Bytes(0) + int16Bytes(3)) + message('S', ""));
    CHECK(expectFatalAndClose(client).first == "08P01");
  }
  SECTION("a valid query before the garbage is still answered") {
    RawClient client(server.port());
    REQUIRE(client.startup());
    client.send(query("SELECT 1") + "\xff\xff");
    Message first = client.read();
    CHECK(first.type == 'T');
    CHECK(expectFatalAndClose(client).first == "08P01");
  }
  PgResult r(PQexec(bystander.get(), "SELECT 1"));
  CHECK(PQresultStatus(r.get()) == PGRES_TUPLES_OK);
  checkServerStillServes(server);
  CHECK(server.waitForLiveSessions(1));
}

TEST_CASE("a cancel request with a wrong key is ignored", "[server]") {
  TestServer server;
  RawClient client(server.port());
  client.send(int32Bytes(16) + int32Bytes(80877102) + int32Bytes(10000) + int32Bytes(42));
  CHECK(client.read().type == 0);
  checkServerStillServes(server);
}

TEST_CASE("clients that vanish are cleaned up", "[server]") {
  TestServer server;
  SECTION("mid-COPY") {
    RawClient client(server.port());
    REQUIRE(client.startup());
    client.send(query("COPY t FROM STDIN"));
    CHECK(client.read().type == 'G');
    client.send(message('d', "1\n2\n"));
    client.close();
  }
  SECTION("mid-result") {
    RawClient client(server.port());
    REQUIRE(client.startup());
    client.send(query("GENERATE 200000"));
    client.close();
  }
  SECTION("mid-pipeline inside a block") {
    RawClient client(server.port());
    REQUIRE(client.startup());
    client.send(query("BEGIN") + query("SLEEP"));
    std::this_thread::sleep_for(50ms);
    client.close();
  }
  SECTION("during startup") {
    RawClient client(server.port());
    client.send(startupPacket({{"user", "tester"}}));
    client.close();
  }
  CHECK(server.waitForLiveSessions(0));
  checkServerStillServes(server);
  CHECK(server.waitForLiveSessions(0));
}

TEST_CASE("an idle block is ended with FATAL 25P03 and others proceed", "[server]") {
  TestServer server(150);
  RawClient idle(server.port());
  REQUIRE(idle.startup());
  idle.send(query("BEGIN"));
  auto messages = idle.readUntilReady();
  REQUIRE(!messages.empty());
  CHECK(messages.back().body == "T");

  PgConn other = connectOk(server);
  PgResult r(PQexec(other.get(), "SELECT 1"));
  CHECK(PQresultStatus(r.get()) == PGRES_TUPLES_OK);

  auto [code, text] = expectFatalAndClose(idle);
  CHECK(code == "25P03");
  CHECK(text == "terminating connection due to idle-in-transaction timeout");
  CHECK(server.engine.state.rollbacks == 1);
  CHECK(server.waitForLiveSessions(1));
}
