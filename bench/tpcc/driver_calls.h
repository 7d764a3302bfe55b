// The five calls of bench/tpcc/procedures.sql as the drivers prepare them, what a call's
// run comes to, and the check of a successful call's result. Shared by duet_tpcc_driver
// (over libpq) and duet_tpcc_inprocess (on an in-process session); no libpq here.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "bench/tpcc/driver_inputs.h"

namespace tpcc {

// Type OIDs of the parameters (pg_type): declaring them in Parse makes each statement mean
// one thing whatever the server's overload resolution would make of untyped parameters.
constexpr std::uint32_t kInt4 = 23;
constexpr std::uint32_t kInt4Array = 1007;
constexpr std::uint32_t kBool = 16;
constexpr std::uint32_t kNumeric = 1700;

struct CallStatement {
  const char* name;
  const char* sql;
  std::array<std::uint32_t, 8> types;
  int paramCount;
};

// One per TxnType, in its order. Order-Status returns a row per order line, hence SELECT *.
inline constexpr std::array<CallStatement, kTxnTypes> kStatements = {{
    {"new_order",
     "SELECT new_order($1, $2, $3, $4, $5, $6, $7)",
     {kInt4, kInt4, kInt4, kInt4, kInt4Array, kInt4Array, kInt4Array},
     7},
    {"payment",
     "SELECT payment($1, $2, $3, $4, $5, $6, $7, $8)",
     {kInt4, kInt4, kInt4, kInt4, kInt4, kBool, kInt4, kNumeric},
     8},
    {"order_status", "SELECT * FROM order_status($1, $2, $3, $4, $5)", {kInt4, kInt4, kInt4, kBool, kInt4}, 5},
    {"delivery", "SELECT delivery($1, $2)", {kInt4, kInt4}, 2},
    {"stock_level", "SELECT stock_level($1, $2, $3)", {kInt4, kInt4, kInt4}, 3},
}};

struct Outcome {
  enum Kind { kCommitted, kRolledBack, kFailed };
  Kind kind = kCommitted;
  int retries = 0;    // tries beyond the first after 40001 / 40P01
  std::string error;  // for kFailed: "SQLSTATE: message", or what was wrong with the result
};

// What the check needs of a successful call's result: its row and column counts (columns as
// the statement describes them, also when there are no rows) and whether the first row's
// first value is NULL.
struct ResultShape {
  int rows = 0;
  int columns = 0;
  bool firstIsNull = false;
};

// What is wrong with a successful call's result, or "" when it is as procedures.sql
// documents it; sets *rolledBack for New-Order's NULL.
std::string checkResult(const Call& call, const ResultShape& result, bool* rolledBack);

}  // namespace tpcc
