// In-process server on an ephemeral port over the fake engine, plus a raw-socket client for
// the tests that send what libpq never would.
#pragma once
#include <libpq-fe.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "fake_engine.h"
#include "server/server.h"
#include "session/executor.h"

namespace duet::test {

class TestServer {
 public:
  explicit TestServer(int idleTimeoutMs = 0);
  ~TestServer();
  uint16_t port() const { return server_->port(); }
  std::string conninfo(const std::string& extra = "") const;
  // Waits (up to 5 s) until exactly `n` sessions are alive.
  bool waitForLiveSessions(int n);
  FakeEngine engine;

 private:
  Executor executor_;
  std::unique_ptr<Server> server_;
};

struct PgConnDeleter {
  void operator()(PGconn* c) const { PQfinish(c); }
};
using PgConn = std::unique_ptr<PGconn, PgConnDeleter>;
struct PgResultDeleter {
  void operator()(PGresult* r) const { PQclear(r); }
};
using PgResult = std::unique_ptr<PGresult, PgResultDeleter>;

PgConn connectOk(const TestServer& server);

struct Message {
  char type = 0;
  std::string body;
  // An ErrorResponse/NoticeResponse field, e.g. 'C' or 'M'; empty when absent.
  std::string field(char code) const;
};

class RawClient {
 public:
  explicit RawClient(uint16_t port);
  ~RawClient();
  void send(const std::string& bytes);
  // Reads one message; type 0 on EOF, error or a 5 s timeout.
  Message read();
  // Reads exactly n bytes (for the one-byte SSL answer); empty on failure.
  std::string readBytes(size_t n);
  // Sends a v3 StartupMessage and reads up to ReadyForQuery; false if that failed.
  bool startup();
  // Reads messages up to and including ReadyForQuery (or EOF).
  std::vector<Message> readUntilReady();
  void close();

 private:
  int fd_ = -1;
};

// Frontend message encoders for the raw tests.
std::string startupPacket(const std::vector<std::pair<std::string, std::string>>& params);
std::string message(char type, const std::string& body);
std::string query(const std::string& sql);
std::string int32Bytes(int32_t v);
std::string int16Bytes(int16_t v);

}  // namespace duet::test
