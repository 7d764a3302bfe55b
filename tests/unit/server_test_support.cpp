#include "server_test_support.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>
#include <thread>

namespace duet::test {

TestServer::TestServer(int idleTimeoutMs) {
  engine.state.idleTimeoutMs = idleTimeoutMs;
  executor_.start();
  ServerConfig config;
  config.port = 0;
  config.ioThreads = 2;
  server_ = std::make_unique<Server>(engine, executor_, config);
  server_->start();
}

TestServer::~TestServer() {
  server_->stop();
  server_.reset();
  executor_.stop();
}

std::string TestServer::conninfo(const std::string& extra) const {
  return "host=127.0.0.1 port=" + std::to_string(port()) +
         " user=tester dbname=testdb connect_timeout=5 gssencmode=disable " + extra;
}

bool TestServer::waitForLiveSessions(int n) {
  auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (engine.state.liveSessions != n) {
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

PgConn connectOk(const TestServer& server) {
  PgConn conn(PQconnectdb(server.conninfo().c_str()));
  if (PQstatus(conn.get()) != CONNECTION_OK)
    throw std::runtime_error(std::string("connect failed: ") + PQerrorMessage(conn.get()));
  return conn;
}

std::string Message::field(char code) const {
  size_t at = 0;
  while (at < body.size() && body[at] != '\0') {
    size_t end = body.find('\0', at + 1);
    if (end == std::string::npos) break;
    if (body[at] == code) return body.substr(at + 1, end - at - 1);
    at = end + 1;
  }
  return {};
}

RawClient::RawClient(uint16_t port) {
  fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0)
    throw std::runtime_error("raw connect failed");
  timeval timeout{5, 0};
  ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
}

RawClient::~RawClient() { close(); }

void RawClient::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

void RawClient::send(const std::string& bytes) {
  size_t sent = 0;
  while (sent < bytes.size()) {
    ssize_t n = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) return;  // the server may already have closed; reads will tell
    sent += static_cast<size_t>(n);
  }
}

std::string RawClient::readBytes(size_t n) {
  std::string out(n, '\0');
  size_t got = 0;
  while (got < n) {
    ssize_t r = ::recv(fd_, out.data() + got, n - got, 0);
    if (r <= 0) return {};
    got += static_cast<size_t>(r);
  }
  return out;
}

Message RawClient::read() {
  std::string header = readBytes(5);
  if (header.empty()) return {};
  uint32_t len = (uint32_t(uint8_t(header[1])) << 24) | (uint32_t(uint8_t(header[2])) << 16) |
                 (uint32_t(uint8_t(header[3])) << 8) | uint32_t(uint8_t(header[4]));
  Message m;
  m.type = header[0];
  if (len > 4) {
    m.body = readBytes(len - 4);
    if (m.body.empty()) return {};
  }
  return m;
}

std::vector<Message> RawClient::readUntilReady() {
  std::vector<Message> messages;
  for (;;) {
    Message m = read();
    if (m.type == 0) return messages;
    messages.push_back(m);
    if (m.type == 'Z') return messages;
  }
}

bool RawClient::startup() {
  send(startupPacket({{"user", "tester"}, {"database", "testdb"}}));
  auto messages = readUntilReady();
  return !messages.empty() && messages.back().type == 'Z';
}

std::string int32Bytes(int32_t v) {
  uint32_t u = static_cast<uint32_t>(v);
  return {char(u >> 24), char(u >> 16), char(u >> 8), char(u)};
}

std::string int16Bytes(int16_t v) {
  uint16_t u = static_cast<uint16_t>(v);
  return {char(u >> 8), char(u)};
}

std::string startupPacket(const std::vector<std::pair<std::string, std::string>>& params) {
  std::string body = int32Bytes(196608);
  for (const auto& [name, value] : params) {
    body += name + '\0' + value + '\0';
  }
  body += '\0';
  return int32Bytes(static_cast<int32_t>(body.size() + 4)) + body;
}

std::string message(char type, const std::string& body) {
  return type + int32Bytes(static_cast<int32_t>(body.size() + 4)) + body;
}

std::string query(const std::string& sql) { return message('Q', sql + '\0'); }

}  // namespace duet::test
