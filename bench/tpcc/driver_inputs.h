// The terminal inputs of the five TPC-C transactions (clauses 2.4.1, 2.5.1, 2.6.1, 2.7.1,
// 2.8.1), drawn as duet_tpcc_driver's terminals draw them, and written as the text parameters
// of the calls of bench/tpcc/procedures.sql's functions.
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>

#include "bench/tpcc/tpcc_random.h"

namespace tpcc {

enum class TxnType { kNewOrder, kPayment, kOrderStatus, kDelivery, kStockLevel };
constexpr int kTxnTypes = 5;
// As the report prints them, and as JSON keys (the functions' names).
constexpr std::array<const char*, kTxnTypes> kTxnNames = {"New-Order", "Payment", "Order-Status", "Delivery",
                                                          "Stock-Level"};
constexpr std::array<const char*, kTxnTypes> kTxnKeys = {"new_order", "payment", "order_status", "delivery",
                                                         "stock_level"};
inline std::size_t index(TxnType type) { return static_cast<std::size_t>(type); }

// One call: the function's parameters in text form, in order.
struct Call {
  TxnType type;
  std::array<std::string, 8> params;
  int paramCount = 0;
  // New-Order with the unused item number last: the function must return NULL.
  bool expectRollback = false;
};

// One terminal's input generator: its home warehouse and Stock-Level district are fixed
// (clauses 2.4.1.1 and 2.8.1.1), everything else is drawn per call from its own generator.
class Inputs {
 public:
  // Terminal t (from 0) of a run: home warehouse t mod W + 1, so that the terminals spread
  // over the warehouses; its Stock-Level district runs through 1..10 for the terminals that
  // share a warehouse. The generator is seeded by the run's seed and t.
  Inputs(std::uint64_t seed, int terminal, int warehouses)
      : random_(seed, kPiece, static_cast<std::uint64_t>(terminal)),
        warehouses_(warehouses),
        home_(terminal % warehouses + 1),
        stockLevelDistrict_(terminal / warehouses % kDistricts + 1) {}

  int home() const { return home_; }

  Call draw(TxnType type) {
    Call call{type, {}, 0, false};
    switch (type) {
      case TxnType::kNewOrder: newOrder(call); break;
      case TxnType::kPayment: payment(call); break;
      case TxnType::kOrderStatus: orderStatus(call); break;
      case TxnType::kDelivery: delivery(call); break;
      case TxnType::kStockLevel: stockLevel(call); break;
    }
    return call;
  }

 private:
  static constexpr std::uint64_t kPiece = 1000;  // apart from the loader's pieces (0..3)
  static constexpr int kDistricts = 10;
  static constexpr int kUnusedItem = 100001;  // clause 2.4.1.5: "an unused value"

  // Clause 2.4.1.5 and others: a warehouse other than the home one, uniform; only for W > 1.
  int otherWarehouse() {
    const int w = static_cast<int>(random_.uniform(1, warehouses_ - 1));
    return w >= home_ ? w + 1 : w;
  }
  int district() { return static_cast<int>(random_.uniform(1, kDistricts)); }
  int customerId() { return random_.nurand(1023, 1, 3000, kCIdRun); }
  // Clause 2.5.1.2 / 2.6.1.2: the number behind C_LAST, which procedures.sql spells.
  int lastNameNumber() { return random_.nurand(255, 0, 999, kCLastRun); }

  static std::string boolText(bool b) { return b ? "true" : "false"; }

  void add(Call& call, std::string value) {
    call.params[static_cast<std::size_t>(call.paramCount++)] = std::move(value);
  }
  void add(Call& call, std::int64_t value) { add(call, std::to_string(value)); }

  // Clause 2.4.1: district uniform, customer NURand(1023, 1, 3000), 5..15 lines of item
  // NURand(8191, 1, 100000), quantity 1..10, supplied by a remote warehouse in 1% of the lines
  // (when W > 1); 1% of the orders have the unused item number last and roll back.
  void newOrder(Call& call) {
    const int d = district();
    const int c = customerId();
    const int lines = static_cast<int>(random_.uniform(5, 15));
    call.expectRollback = random_.percent(1);
    std::string items = "{", supply = "{", quantities = "{";
    for (int n = 1; n <= lines; ++n) {
      const bool last = n == lines;
      const int item = call.expectRollback && last ? kUnusedItem : random_.nurand(8191, 1, 100000, kOlIIdRun);
      const int w = warehouses_ > 1 && random_.percent(1) ? otherWarehouse() : home_;
      const char* separator = last ? "}" : ",";
      items += std::to_string(item) + separator;
      supply += std::to_string(w) + separator;
      quantities += std::to_string(random_.uniform(1, 10)) + separator;
    }
    add(call, home_);
    add(call, d);
    add(call, c);
    add(call, lines);
    add(call, std::move(items));
    add(call, std::move(supply));
    add(call, std::move(quantities));
  }

  // Clause 2.5.1: district uniform; 85% of the customers from the home warehouse and
  // district, 15% from a remote warehouse (when W > 1) and a uniform district; 60% chosen by
  // last name; H_AMOUNT uniform in [1.00, 5000.00].
  void payment(Call& call) {
    const int d = district();
    const bool remote = warehouses_ > 1 && random_.uniform(1, 100) > 85;
    const int cw = remote ? otherWarehouse() : home_;
    const int cd = remote ? district() : d;
    const bool byName = random_.percent(60);
    const int lastName = byName ? lastNameNumber() : 0;
    const int c = byName ? 0 : customerId();
    const std::int64_t cents = random_.uniform(100, 500000);
    char amount[24];
    std::snprintf(amount, sizeof amount, "%lld.%02lld", static_cast<long long>(cents / 100),
                  static_cast<long long>(cents % 100));
    add(call, home_);
    add(call, d);
    add(call, cw);
    add(call, cd);
    add(call, c);
    add(call, boolText(byName));
    add(call, lastName);
    add(call, amount);
  }

  // Clause 2.6.1: district uniform, the customer by last name in 60% of the calls.
  void orderStatus(Call& call) {
    const int d = district();
    const bool byName = random_.percent(60);
    const int lastName = byName ? lastNameNumber() : 0;
    const int c = byName ? 0 : customerId();
    add(call, home_);
    add(call, d);
    add(call, c);
    add(call, boolText(byName));
    add(call, lastName);
  }

  // Clause 2.7.1: O_CARRIER_ID uniform in 1..10.
  void delivery(Call& call) {
    add(call, home_);
    add(call, random_.uniform(1, 10));
  }

  // Clause 2.8.1: the terminal's own district, threshold uniform in 10..20.
  void stockLevel(Call& call) {
    add(call, home_);
    add(call, stockLevelDistrict_);
    add(call, random_.uniform(10, 20));
  }

  Random random_;
  int warehouses_;
  int home_;
  int stockLevelDistrict_;
};

}  // namespace tpcc
