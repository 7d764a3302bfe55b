#include "bench/tpcc/driver_terminal.h"

#include <libpq-fe.h>

#include <array>
#include <memory>
#include <stdexcept>
#include <string_view>

namespace tpcc {
namespace {

constexpr int kMaxTries = 10;  // as run_pgbench.sh's --max-tries

using Result = std::unique_ptr<PGresult, decltype(&PQclear)>;

std::string trimmed(std::string message) {
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
  return message;
}

// "SQLSTATE: message" of a failed result, or libpq's message when there is no result.
std::string errorOf(PGconn* conn, const PGresult* result) {
  if (result == nullptr) return trimmed(PQerrorMessage(conn));
  const char* state = PQresultErrorField(result, PG_DIAG_SQLSTATE);
  const char* primary = PQresultErrorField(result, PG_DIAG_MESSAGE_PRIMARY);
  if (state == nullptr || primary == nullptr) return trimmed(PQresultErrorMessage(result));
  return std::string(state) + ": " + primary;
}

// Serialization failure and deadlock: PostgreSQL asks the client to run the transaction again.
bool retryable(const PGresult* result) {
  const char* state = result ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : nullptr;
  return state != nullptr && (std::string_view(state) == "40001" || std::string_view(state) == "40P01");
}

// The shape checkResult() looks at, of a PGRES_TUPLES_OK result.
ResultShape shapeOf(const PGresult* result) {
  ResultShape shape;
  shape.rows = PQntuples(result);
  shape.columns = PQnfields(result);
  shape.firstIsNull = shape.rows > 0 && shape.columns > 0 && PQgetisnull(result, 0, 0);
  return shape;
}

}  // namespace

Terminal::Terminal(const ConnectionOptions& options) : connection_(options) { prepare(); }

void Terminal::prepare() {
  for (const CallStatement& s : kStatements) {
    Result result(PQprepare(connection_.get(), s.name, s.sql, s.paramCount, s.types.data()), &PQclear);
    if (PQresultStatus(result.get()) != PGRES_COMMAND_OK)
      throw std::runtime_error(std::string("prepare ") + s.name + ": " + errorOf(connection_.get(), result.get()));
  }
}

Outcome Terminal::run(const Call& call) {
  const CallStatement& statement = kStatements[index(call.type)];
  std::array<const char*, 8> values{};
  for (int i = 0; i < call.paramCount; ++i)
    values[static_cast<std::size_t>(i)] = call.params[static_cast<std::size_t>(i)].c_str();
  Outcome outcome;
  for (int tries = 1;; ++tries) {
    Result result(
        PQexecPrepared(connection_.get(), statement.name, call.paramCount, values.data(), nullptr, nullptr, 0),
        &PQclear);
    if (PQresultStatus(result.get()) == PGRES_TUPLES_OK) {
      bool rolledBack = false;
      outcome.error = checkResult(call, shapeOf(result.get()), &rolledBack);
      outcome.kind = !outcome.error.empty() ? Outcome::kFailed
                     : rolledBack           ? Outcome::kRolledBack
                                            : Outcome::kCommitted;
      return outcome;
    }
    if (retryable(result.get()) && tries < kMaxTries) {
      ++outcome.retries;
      continue;
    }
    outcome.kind = Outcome::kFailed;
    outcome.error = std::string(statement.name) + ": " + errorOf(connection_.get(), result.get());
    if (tries == kMaxTries) outcome.error += " (" + std::to_string(kMaxTries) + " tries)";
    break;
  }
  // A broken connection (the server restarted, say) is opened again, so that one failure
  // does not end the terminal; the next call shows whether that worked.
  if (PQstatus(connection_.get()) == CONNECTION_BAD) {
    PQreset(connection_.get());
    if (PQstatus(connection_.get()) == CONNECTION_OK) {
      try {
        prepare();
      } catch (const std::exception& e) {
        outcome.error += std::string("; after reconnecting: ") + e.what();
      }
    }
  }
  return outcome;
}

}  // namespace tpcc
