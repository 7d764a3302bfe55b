#include "bench/tpcc/pg_copy.h"

namespace tpcc {

namespace {

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
  const char* values[] = {options.host.c_str(), options.port.c_str(),
                          options.user.c_str(), options.applicationName.c_str(),
                          dbname.c_str(),       nullptr};
  conn_.reset(PQconnectdbParams(keywords, values, 1));
  if (PQstatus(conn_.get()) != CONNECTION_OK) throw std::runtime_error("cannot connect: " + lastError(conn_.get()));
}

void Connection::exec(const std::string& sql) {
  std::unique_ptr<PGresult, decltype(&PQclear)> result(PQexec(conn_.get(), sql.c_str()), &PQclear);
  const ExecStatusType status = PQresultStatus(result.get());
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK)
    throw std::runtime_error(sql + ": " + lastError(conn_.get()));
}

void PgCopyTarget::start(std::string_view table) {
  const std::string sql = "COPY " + std::string(table) + " FROM STDIN";
  std::unique_ptr<PGresult, decltype(&PQclear)> result(PQexec(connection_.get(), sql.c_str()), &PQclear);
  if (PQresultStatus(result.get()) != PGRES_COPY_IN)
    throw std::runtime_error(sql + ": " + lastError(connection_.get()));
}

void PgCopyTarget::send(std::string_view rows) {
  if (PQputCopyData(connection_.get(), rows.data(), static_cast<int>(rows.size())) != 1)
    throw std::runtime_error("COPY data: " + lastError(connection_.get()));
}

void PgCopyTarget::finish() {
  if (PQputCopyEnd(connection_.get(), nullptr) != 1)
    throw std::runtime_error("COPY end: " + lastError(connection_.get()));
  // The COPY's own result, then the null that ends the command.
  std::string error;
  while (PGresult* result = PQgetResult(connection_.get())) {
    if (PQresultStatus(result) != PGRES_COMMAND_OK && error.empty()) error = lastError(connection_.get());
    PQclear(result);
  }
  if (!error.empty()) throw std::runtime_error("COPY: " + error);
}

}  // namespace tpcc
