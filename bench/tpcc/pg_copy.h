// A libpq connection (shared by the loader and the driver) and the CopyTarget that sends the
// TPC-C loader's COPY ... FROM STDIN (text format) rows over it.
//
// libpq's COPY API is used directly rather than libpqxx 6.4's stream_to: stream_to turns every
// field into its own std::string and escapes it, and hands libpq one row at a time; here rows
// are formatted straight into one buffer (copy_stream.h) that goes out in large CopyData
// messages, which keeps the client's share of a load small (it runs on the same two cores as
// the server).
#pragma once

#include <libpq-fe.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include "bench/tpcc/copy_stream.h"

namespace tpcc {

struct ConnectionOptions {
  std::string host = "127.0.0.1";
  std::string port = "5432";
  std::string dbname = "postgres";
  std::string user = "postgres";
  // A libpq connection string ("host=... port=..." or a postgresql:// URI), used instead of
  // dbname: its settings win over host, port and user.
  std::string conninfo;
  std::string applicationName = "duet_tpcc_load";
};

class Connection {
 public:
  explicit Connection(const ConnectionOptions& options);

  // Runs one statement that returns no rows; throws std::runtime_error with the server's
  // message if it fails.
  void exec(const std::string& sql);

  PGconn* get() const { return conn_.get(); }

 private:
  std::unique_ptr<PGconn, decltype(&PQfinish)> conn_;
};

// COPY ... FROM STDIN over libpq: start() sends the COPY statement, send() a CopyData
// message, finish() CopyDone and waits for the server's verdict.
class PgCopyTarget final : public CopyTarget {
 public:
  explicit PgCopyTarget(Connection& connection) : connection_(connection) {}
  void start(std::string_view table) override;
  void send(std::string_view rows) override;
  void finish() override;

 private:
  Connection& connection_;
};

}  // namespace tpcc
