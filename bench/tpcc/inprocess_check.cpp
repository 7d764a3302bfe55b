#include "bench/tpcc/inprocess_check.h"

#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace tpcc {
namespace {

using Key = std::pair<long long, long long>;  // (warehouse, district)

long long integer(const std::optional<std::string>& text) {
  if (!text) throw std::runtime_error("consistency check: unexpected NULL");
  return std::stoll(*text);
}

// A numeric's text without the trailing zeros of its fraction, so that equal values compare
// equal as strings whatever their scale: "30000.00" and "30000.0" both become "30000".
std::string decimal(const std::optional<std::string>& text) {
  if (!text) return "NULL";
  std::string s = *text;
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  return s == "-0" ? "0" : s;
}

// A query whose first two columns are (warehouse, district): the remaining columns by key.
std::map<Key, TextRow> grouped(InProcessDb& db, const char* sql) {
  std::map<Key, TextRow> result;
  for (TextRow& row : db.query(sql)) result[{integer(row[0]), integer(row[1])}] = TextRow(row.begin() + 2, row.end());
  return result;
}

std::string place(const Key& key) {
  return "warehouse " + std::to_string(key.first) + " district " + std::to_string(key.second);
}

// W_YTD = sum(D_YTD) for each warehouse.
std::vector<std::string> condition1(InProcessDb& db) {
  std::map<long long, std::string> districtYtd;
  for (const TextRow& row : db.query("SELECT d_w_id, sum(d_ytd) FROM district GROUP BY d_w_id"))
    districtYtd[integer(row[0])] = decimal(row[1]);
  std::vector<std::string> broken;
  for (const TextRow& row : db.query("SELECT w_id, w_ytd FROM warehouse")) {
    const long long w = integer(row[0]);
    const auto found = districtYtd.find(w);
    const std::string sum = found == districtYtd.end() ? "NULL" : found->second;
    if (decimal(row[1]) != sum)
      broken.push_back("warehouse " + std::to_string(w) + ": w_ytd " + *row[1] + " <> sum(d_ytd) " + sum);
  }
  return broken;
}

// D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID) for each district. A district whose NEW-ORDER
// rows have all been delivered has no max(NO_O_ID); only the first equality applies to it.
std::vector<std::string> condition2(const std::map<Key, TextRow>& districts, const std::map<Key, TextRow>& orders,
                                    const std::map<Key, TextRow>& newOrders) {
  std::vector<std::string> broken;
  for (const auto& [key, row] : districts) {
    const long long next = integer(row[0]);
    const auto order = orders.find(key);
    const long long maxOrder = order == orders.end() ? -1 : integer(order->second[0]);
    const auto newOrder = newOrders.find(key);
    const long long maxNewOrder = newOrder == newOrders.end() ? maxOrder : integer(newOrder->second[0]);
    if (next - 1 != maxOrder || maxOrder != maxNewOrder)
      broken.push_back(place(key) + ": d_next_o_id - 1 = " + std::to_string(next - 1) +
                       ", max(o_id) = " + std::to_string(maxOrder) + ", max(no_o_id) = " + std::to_string(maxNewOrder));
  }
  return broken;
}

// max(NO_O_ID) - min(NO_O_ID) + 1 = the number of NEW-ORDER rows, for each district.
std::vector<std::string> condition3(const std::map<Key, TextRow>& newOrders) {
  std::vector<std::string> broken;
  for (const auto& [key, row] : newOrders) {
    const long long span = integer(row[0]) - integer(row[1]) + 1, count = integer(row[2]);
    if (span != count)
      broken.push_back(place(key) + ": max(no_o_id) - min(no_o_id) + 1 = " + std::to_string(span) +
                       ", rows = " + std::to_string(count));
  }
  return broken;
}

// sum(O_OL_CNT) = the number of ORDER-LINE rows, for each district.
std::vector<std::string> condition4(const std::map<Key, TextRow>& orders, const std::map<Key, TextRow>& orderLines) {
  std::map<Key, std::pair<long long, long long>> both;  // (sum(o_ol_cnt), order lines)
  for (const auto& [key, row] : orders) both[key].first = integer(row[1]);
  for (const auto& [key, row] : orderLines) both[key].second = integer(row[0]);
  std::vector<std::string> broken;
  for (const auto& [key, counts] : both)
    if (counts.first != counts.second)
      broken.push_back(place(key) + ": sum(o_ol_cnt) = " + std::to_string(counts.first) +
                       ", order lines = " + std::to_string(counts.second));
  return broken;
}

}  // namespace

bool checkConsistency(InProcessDb& db) {
  // One session and no concurrent transactions: the queries see one state without a block.
  const auto districts = grouped(db, "SELECT d_w_id, d_id, d_next_o_id FROM district");
  const auto orders =
      grouped(db, "SELECT o_w_id, o_d_id, max(o_id), sum(o_ol_cnt) FROM orders GROUP BY o_w_id, o_d_id");
  const auto newOrders = grouped(db,
                                 "SELECT no_w_id, no_d_id, max(no_o_id), min(no_o_id), count(*) "
                                 "FROM new_order GROUP BY no_w_id, no_d_id");
  const auto orderLines = grouped(db, "SELECT ol_w_id, ol_d_id, count(*) FROM order_line GROUP BY ol_w_id, ol_d_id");
  const std::vector<std::vector<std::string>> results = {condition1(db), condition2(districts, orders, newOrders),
                                                         condition3(newOrders), condition4(orders, orderLines)};
  bool ok = true;
  for (std::size_t n = 0; n < results.size(); ++n) {
    const std::vector<std::string>& broken = results[n];
    if (broken.empty()) {
      std::printf("consistency condition %zu: ok\n", n + 1);
      continue;
    }
    ok = false;
    std::printf("consistency condition %zu: BROKEN in %zu place(s)\n", n + 1, broken.size());
    for (std::size_t i = 0; i < broken.size() && i < 10; ++i) std::printf("  %s\n", broken[i].c_str());
  }
  return ok;
}

}  // namespace tpcc
