// A libpq connection (shared by the loader and the driver) and a COPY ... FROM STDIN (text
// format) writer for the TPC-C loader.
//
// libpq's COPY API is used directly rather than libpqxx 6.4's stream_to: stream_to turns every
// field into its own std::string and escapes it, and hands libpq one row at a time; here rows
// are formatted straight into one buffer that goes out in large CopyData messages, which keeps
// the client's share of a load small (it runs on the same two cores as the server).
#pragma once

#include <libpq-fe.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

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

// Streams rows into one table: the constructor sends COPY table FROM STDIN, fields are added
// left to right, endRow() closes a row, finish() ends the COPY and waits for the server's
// verdict. Field values must not contain tab, newline or backslash, the characters COPY's text
// format escapes; the loader writes only letters, digits, spaces and "-.:#", so nothing is.
class CopyStream {
 public:
  CopyStream(Connection& connection, std::string_view table);

  CopyStream& add(std::int64_t value);
  CopyStream& add(std::string_view value);
  CopyStream& addNull();
  // A decimal given in units of 10^-scale: addDecimal(-1000, 2) writes "-10.00".
  CopyStream& addDecimal(std::int64_t units, int scale);
  void endRow();

  // Ends the COPY; returns the number of rows sent.
  std::int64_t finish();

 private:
  void separate();
  void flush();

  Connection& connection_;
  std::string buffer_;
  bool rowStarted_ = false;
  std::int64_t rows_ = 0;
};

}  // namespace tpcc
