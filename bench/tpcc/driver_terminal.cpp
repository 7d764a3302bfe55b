#include "bench/tpcc/driver_terminal.h"

#include <libpq-fe.h>

#include <array>
#include <memory>
#include <stdexcept>
#include <string_view>

namespace tpcc {
namespace {

// Type OIDs of the parameters (pg_type): declaring them in Parse makes each statement mean
// one thing whatever the server's overload resolution would make of untyped parameters.
constexpr Oid kInt4 = 23;
constexpr Oid kInt4Array = 1007;
constexpr Oid kBool = 16;
constexpr Oid kNumeric = 1700;

struct Statement {
  const char* name;
  const char* sql;
  std::array<Oid, 8> types;
  int paramCount;
};

// One per TxnType, in its order. Order-Status returns a row per order line, hence SELECT *.
const std::array<Statement, kTxnTypes> kStatements = {{
    {"new_order", "SELECT new_order($1, $2, $3, $4, $5, $6, $7)",
     {kInt4, kInt4, kInt4, kInt4, kInt4Array, kInt4Array, kInt4Array}, 7},
    {"payment", "SELECT payment($1, $2, $3, $4, $5, $6, $7, $8)",
     {kInt4, kInt4, kInt4, kInt4, kInt4, kBool, kInt4, kNumeric}, 8},
    {"order_status", "SELECT * FROM order_status($1, $2, $3, $4, $5)", {kInt4, kInt4, kInt4, kBool, kInt4}, 5},
    {"delivery", "SELECT delivery($1, $2)", {kInt4, kInt4}, 2},
    {"stock_level", "SELECT stock_level($1, $2, $3)", {kInt4, kInt4, kInt4}, 3},
}};

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

// What is wrong with a successful call's result, or "" when it is as procedures.sql
// documents it; sets *rolledBack for New-Order's NULL.
std::string checkResult(const Call& call, const PGresult* result, bool* rolledBack) {
  if (call.type == TxnType::kOrderStatus) return PQnfields(result) == 9 ? "" : "order_status: expected 9 columns";
  const char* name = kStatements[index(call.type)].name;
  if (PQntuples(result) != 1 || PQnfields(result) != 1) return std::string(name) + ": expected one value";
  const bool null = PQgetisnull(result, 0, 0);
  if (call.type != TxnType::kNewOrder) return null ? std::string(name) + " returned NULL" : "";
  *rolledBack = null;
  if (null && !call.expectRollback) return "new_order returned NULL (rolled back) for an order of existing items";
  if (!null && call.expectRollback) return "new_order committed an order with the unused item number";
  return "";
}

}  // namespace

Terminal::Terminal(const ConnectionOptions& options) : connection_(options) { prepare(); }

void Terminal::prepare() {
  for (const Statement& s : kStatements) {
    Result result(PQprepare(connection_.get(), s.name, s.sql, s.paramCount, s.types.data()), &PQclear);
    if (PQresultStatus(result.get()) != PGRES_COMMAND_OK)
      throw std::runtime_error(std::string("prepare ") + s.name + ": " + errorOf(connection_.get(), result.get()));
  }
}

Outcome Terminal::run(const Call& call) {
  const Statement& statement = kStatements[index(call.type)];
  std::array<const char*, 8> values{};
  for (int i = 0; i < call.paramCount; ++i) values[static_cast<std::size_t>(i)] = call.params[static_cast<std::size_t>(i)].c_str();
  Outcome outcome;
  for (int tries = 1;; ++tries) {
    Result result(PQexecPrepared(connection_.get(), statement.name, call.paramCount, values.data(), nullptr,
                                 nullptr, 0),
                  &PQclear);
    if (PQresultStatus(result.get()) == PGRES_TUPLES_OK) {
      bool rolledBack = false;
      outcome.error = checkResult(call, result.get(), &rolledBack);
      outcome.kind = !outcome.error.empty() ? Outcome::kFailed : rolledBack ? Outcome::kRolledBack : Outcome::kCommitted;
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
