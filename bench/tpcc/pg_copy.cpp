#include "bench/tpcc/pg_copy.h"

#include <charconv>

namespace tpcc {

namespace {

// CopyData messages of about this size: large enough that per-message costs vanish, small
// enough that the server can start on the rows early.
constexpr std::size_t kFlushBytes = 1 << 18;

std::string lastError(PGconn* conn) {
  std::string message = PQerrorMessage(conn);
  while (!message.empty() && message.back() == '\n') message.pop_back();
  return message;
}

}  // namespace

Connection::Connection(const ConnectionOptions& options) : conn_(nullptr, &PQfinish) {
  // With expand_dbname, libpq reads the first "dbname" as a connection string when it holds
  // one (an '=' or a URI), and its settings override the keywords before it.
  const std::string& dbname = options.conninfo.empty() ? options.dbname : options.conninfo;
  const char* keywords[] = {"host", "port", "user", "application_name", "dbname", nullptr};
  const char* values[] = {options.host.c_str(), options.port.c_str(), options.user.c_str(),
                          options.applicationName.c_str(), dbname.c_str(), nullptr};
  conn_.reset(PQconnectdbParams(keywords, values, 1));
  if (PQstatus(conn_.get()) != CONNECTION_OK)
    throw std::runtime_error("cannot connect: " + lastError(conn_.get()));
}

void Connection::exec(const std::string& sql) {
  std::unique_ptr<PGresult, decltype(&PQclear)> result(PQexec(conn_.get(), sql.c_str()), &PQclear);
  const ExecStatusType status = PQresultStatus(result.get());
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK)
    throw std::runtime_error(sql + ": " + lastError(conn_.get()));
}

CopyStream::CopyStream(Connection& connection, std::string_view table) : connection_(connection) {
  const std::string sql = "COPY " + std::string(table) + " FROM STDIN";
  std::unique_ptr<PGresult, decltype(&PQclear)> result(PQexec(connection_.get(), sql.c_str()), &PQclear);
  if (PQresultStatus(result.get()) != PGRES_COPY_IN)
    throw std::runtime_error(sql + ": " + lastError(connection_.get()));
  buffer_.reserve(kFlushBytes + 4096);
}

void CopyStream::separate() {
  if (rowStarted_) buffer_ += '\t';
  rowStarted_ = true;
}

CopyStream& CopyStream::add(std::int64_t value) {
  separate();
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
  buffer_.append(digits, end);
  return *this;
}

CopyStream& CopyStream::add(std::string_view value) {
  separate();
  buffer_ += value;
  return *this;
}

CopyStream& CopyStream::addNull() {
  separate();
  buffer_ += "\\N";
  return *this;
}

CopyStream& CopyStream::addDecimal(std::int64_t units, int scale) {
  separate();
  if (units < 0) {
    buffer_ += '-';
    units = -units;
  }
  std::int64_t divisor = 1;
  for (int i = 0; i < scale; ++i) divisor *= 10;
  char digits[24];
  buffer_.append(digits, std::to_chars(digits, digits + sizeof digits, units / divisor).ptr);
  buffer_ += '.';
  // The fraction with its leading zeros: add the divisor, print, drop the leading '1'.
  const auto end = std::to_chars(digits, digits + sizeof digits, divisor + units % divisor).ptr;
  buffer_.append(digits + 1, end);
  return *this;
}

void CopyStream::endRow() {
  buffer_ += '\n';
  rowStarted_ = false;
  ++rows_;
  if (buffer_.size() >= kFlushBytes) flush();
}

void CopyStream::flush() {
  if (buffer_.empty()) return;
  if (PQputCopyData(connection_.get(), buffer_.data(), static_cast<int>(buffer_.size())) != 1)
    throw std::runtime_error("COPY data: " + lastError(connection_.get()));
  buffer_.clear();
}

std::int64_t CopyStream::finish() {
  flush();
  if (PQputCopyEnd(connection_.get(), nullptr) != 1)
    throw std::runtime_error("COPY end: " + lastError(connection_.get()));
  // The COPY's own result, then the null that ends the command.
  std::string error;
  while (PGresult* result = PQgetResult(connection_.get())) {
    if (PQresultStatus(result) != PGRES_COMMAND_OK && error.empty())
      error = lastError(connection_.get());
    PQclear(result);
  }
  if (!error.empty()) throw std::runtime_error("COPY: " + error);
  return rows_;
}

}  // namespace tpcc
