#include "bench/tpcc/driver_calls.h"

namespace tpcc {

std::string checkResult(const Call& call, const ResultShape& result, bool* rolledBack) {
  if (call.type == TxnType::kOrderStatus) return result.columns == 9 ? "" : "order_status: expected 9 columns";
  const char* name = kStatements[index(call.type)].name;
  if (result.rows != 1 || result.columns != 1) return std::string(name) + ": expected one value";
  const bool null = result.firstIsNull;
  if (call.type != TxnType::kNewOrder) return null ? std::string(name) + " returned NULL" : "";
  *rolledBack = null;
  if (null && !call.expectRollback) return "new_order returned NULL (rolled back) for an order of existing items";
  if (!null && call.expectRollback) return "new_order committed an order with the unused item number";
  return "";
}

}  // namespace tpcc
