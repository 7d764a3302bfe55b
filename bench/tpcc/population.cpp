#include "bench/tpcc/population.h"

#include <cstdio>
#include <ctime>

#include "bench/tpcc/tpcc_random.h"

namespace tpcc {
namespace {

constexpr int kItems = 100000;
constexpr int kDistricts = 10;
constexpr int kCustomersPerDistrict = 3000;
constexpr int kOrdersPerDistrict = 3000;
constexpr int kFirstUndeliveredOrder = 2101;  // orders 2101..3000 are in NEW-ORDER
constexpr int kSuppliers = 10000;             // CH: su_suppkey = mod(s_w_id * s_i_id, 10000)

struct Nation {
  char key;  // n_nationkey is this character's code (CH: ascii(substr(c_state, 1, 1)))
  const char* name;
  int region;
};

constexpr std::array<const char*, 5> kRegions = {"Africa", "America", "Asia", "Europe", "Middle East"};

// 62 nations, one per character a C_STATE can start with. CH-benCHmark's queries name
// Germany, Cambodia and the region Europe.
constexpr std::array<Nation, 62> kNations = {{
    {'0', "Algeria", 0},       {'1', "Argentina", 1},  {'2', "Australia", 2},    {'3', "Austria", 3},
    {'4', "Bangladesh", 2},    {'5', "Belgium", 3},    {'6', "Brazil", 1},       {'7', "Bulgaria", 3},
    {'8', "Cambodia", 2},      {'9', "Canada", 1},     {'A', "Chile", 1},        {'B', "China", 2},
    {'C', "Colombia", 1},      {'D', "Croatia", 3},    {'E', "Czechia", 3},      {'F', "Denmark", 3},
    {'G', "Egypt", 4},         {'H', "Ethiopia", 0},   {'I', "Finland", 3},      {'J', "France", 3},
    {'K', "Germany", 3},       {'L', "Ghana", 0},      {'M', "Greece", 3},       {'N', "Hungary", 3},
    {'O', "India", 2},         {'P', "Indonesia", 2},  {'Q', "Iran", 4},         {'R', "Iraq", 4},
    {'S', "Ireland", 3},       {'T', "Israel", 4},     {'U', "Italy", 3},        {'V', "Japan", 2},
    {'W', "Jordan", 4},        {'X', "Kenya", 0},      {'Y', "Malaysia", 2},     {'Z', "Mexico", 1},
    {'a', "Morocco", 0},       {'b', "Mozambique", 0}, {'c', "Netherlands", 3},  {'d', "Nigeria", 0},
    {'e', "Norway", 3},        {'f', "Pakistan", 2},   {'g', "Peru", 1},         {'h', "Philippines", 2},
    {'i', "Poland", 3},        {'j', "Portugal", 3},   {'k', "Romania", 3},      {'l', "Russia", 3},
    {'m', "Saudi Arabia", 4},  {'n', "Senegal", 0},    {'o', "South Africa", 0}, {'p', "South Korea", 2},
    {'q', "Spain", 3},         {'r', "Sweden", 3},     {'s', "Switzerland", 3},  {'t', "Syria", 4},
    {'u', "Tanzania", 0},      {'v', "Thailand", 2},   {'w', "Turkey", 4},       {'x', "United Kingdom", 3},
    {'y', "United States", 1}, {'z', "Vietnam", 2},
}};

// In every generator below, a row is one chain of add() calls: C++17 evaluates a chain's
// arguments left to right, so the random draws happen in column order and the rows are
// reproducible.

// Clause 4.3.3.1's address: street 1, street 2, city a-string [10 .. 20], state a-string of
// 2 (its first character picks the CH nation), zip.
void addAddress(CopyStream& out, Random& random) {
  out.add(random.aString(10, 20)).add(random.aString(10, 20)).add(random.aString(10, 20));
  out.add(random.aString(2, 2)).add(random.zip());
}

void loadItems(CopyTarget& target, const Load& load, RowCounts& rows) {
  Random random(load.seed, static_cast<std::uint64_t>(Piece::kItems), 0);
  CopyStream item(target, "item");
  for (int id = 1; id <= kItems; ++id) {
    item.add(id).add(random.uniform(1, 10000)).add(random.aString(14, 24));
    item.addDecimal(random.uniform(100, 10000), 2).add(random.dataWithOriginal()).endRow();
  }
  rows[kItem] += item.finish();

  CopyStream region(target, "region");
  for (std::size_t key = 0; key < kRegions.size(); ++key)
    region.add(static_cast<std::int64_t>(key)).add(kRegions[key]).add(random.aString(31, 115)).endRow();
  rows[kRegion] += region.finish();

  CopyStream nation(target, "nation");
  for (const Nation& n : kNations) nation.add(n.key).add(n.name).add(n.region).add(random.aString(31, 114)).endRow();
  rows[kNation] += nation.finish();

  CopyStream supplier(target, "supplier");
  for (int key = 0; key < kSuppliers; ++key) {
    char name[32];
    std::snprintf(name, sizeof name, "Supplier#%09d", key);
    const Nation& n = kNations[static_cast<std::size_t>(random.uniform(0, kNations.size() - 1))];
    // A phone number as TPC-H writes one: country code, then 3-3-4 digits.
    const std::string phone = std::to_string(10 + (&n - kNations.data())) + "-" + random.nString(3, 3) + "-" +
                              random.nString(3, 3) + "-" + random.nString(4, 4);
    supplier.add(key).add(name).add(random.aString(10, 40)).add(n.key).add(phone);
    supplier.addDecimal(random.uniform(-99999, 999999), 2).add(random.aString(25, 100)).endRow();
  }
  rows[kSupplier] += supplier.finish();
}

void loadStock(CopyTarget& target, const Load& load, int w, RowCounts& rows) {
  Random random(load.seed, static_cast<std::uint64_t>(Piece::kStock), static_cast<std::uint64_t>(w));
  CopyStream warehouse(target, "warehouse");
  warehouse.add(w).add(random.aString(6, 10));
  addAddress(warehouse, random);
  warehouse.addDecimal(random.uniform(0, 2000), 4).addDecimal(30000000, 2).endRow();  // W_YTD 300,000.00
  rows[kWarehouse] += warehouse.finish();

  CopyStream district(target, "district");
  for (int d = 1; d <= kDistricts; ++d) {
    district.add(d).add(w).add(random.aString(6, 10));
    addAddress(district, random);
    district.addDecimal(random.uniform(0, 2000), 4).addDecimal(3000000, 2);  // D_YTD 30,000.00
    district.add(kOrdersPerDistrict + 1).endRow();                           // D_NEXT_O_ID
  }
  rows[kDistrict] += district.finish();

  CopyStream stock(target, "stock");
  for (int i = 1; i <= kItems; ++i) {
    stock.add(i).add(w).add(random.uniform(10, 100));
    for (int d = 1; d <= kDistricts; ++d) stock.add(random.aString(24, 24));  // S_DIST_01..10
    stock.add(0).add(0).add(0).add(random.dataWithOriginal()).endRow();       // S_YTD, S_ORDER_CNT, S_REMOTE_CNT
  }
  rows[kStock] += stock.finish();
}

void loadCustomers(CopyTarget& target, const Load& load, int w, RowCounts& rows) {
  Random random(load.seed, static_cast<std::uint64_t>(Piece::kCustomers), static_cast<std::uint64_t>(w));
  CopyStream customer(target, "customer");
  for (int d = 1; d <= kDistricts; ++d) {
    for (int c = 1; c <= kCustomersPerDistrict; ++c) {
      // Clause 4.3.2.3: the first 1000 customers take the names 0..999 in turn, so every name
      // exists in every district; the rest are NURand(255, 0, 999).
      const int name = c <= 1000 ? c - 1 : random.nurand(255, 0, 999, kCLastLoad);
      customer.add(c).add(d).add(w).add(random.aString(8, 16)).add("OE").add(lastName(name));
      addAddress(customer, random);
      customer.add(random.nString(16, 16)).add(load.timestamp).add(random.percent(10) ? "BC" : "GC");
      customer.addDecimal(5000000, 2).addDecimal(random.uniform(0, 5000), 4);  // C_CREDIT_LIM, C_DISCOUNT
      customer.addDecimal(-1000, 2).addDecimal(1000, 2).add(1).add(0);         // balance, ytd, counts
      customer.add(random.aString(300, 500)).endRow();
    }
  }
  rows[kCustomer] += customer.finish();

  CopyStream history(target, "history");
  for (int d = 1; d <= kDistricts; ++d)
    for (int c = 1; c <= kCustomersPerDistrict; ++c)
      history.add(c)
          .add(d)
          .add(w)
          .add(d)
          .add(w)
          .add(load.timestamp)
          .addDecimal(1000, 2)
          .add(random.aString(12, 24))
          .endRow();
  rows[kHistory] += history.finish();
}

void loadOrders(CopyTarget& target, const Load& load, int w, RowCounts& rows) {
  Random random(load.seed, static_cast<std::uint64_t>(Piece::kOrders), static_cast<std::uint64_t>(w));
  // O_OL_CNT of each order, needed again for its order lines (a second COPY).
  std::vector<int> lineCounts(kDistricts * kOrdersPerDistrict);
  CopyStream orders(target, "orders");
  for (int d = 1; d <= kDistricts; ++d) {
    // O_C_ID runs through a random permutation of the customers (Fisher-Yates).
    std::vector<int> customers(kCustomersPerDistrict);
    for (int c = 0; c < kCustomersPerDistrict; ++c) customers[c] = c + 1;
    for (int i = kCustomersPerDistrict - 1; i > 0; --i) std::swap(customers[i], customers[random.uniform(0, i)]);
    for (int o = 1; o <= kOrdersPerDistrict; ++o) {
      const int lines = static_cast<int>(random.uniform(5, 15));
      lineCounts[(d - 1) * kOrdersPerDistrict + (o - 1)] = lines;
      orders.add(o).add(d).add(w).add(customers[o - 1]).add(load.timestamp);
      if (o < kFirstUndeliveredOrder)
        orders.add(random.uniform(1, 10));  // O_CARRIER_ID of a delivered order
      else
        orders.addNull();
      orders.add(lines).add(1).endRow();  // O_OL_CNT, O_ALL_LOCAL
    }
  }
  rows[kOrders] += orders.finish();

  CopyStream orderLine(target, "order_line");
  for (int d = 1; d <= kDistricts; ++d) {
    for (int o = 1; o <= kOrdersPerDistrict; ++o) {
      const bool delivered = o < kFirstUndeliveredOrder;
      for (int n = 1; n <= lineCounts[(d - 1) * kOrdersPerDistrict + (o - 1)]; ++n) {
        orderLine.add(o).add(d).add(w).add(n).add(random.uniform(1, kItems)).add(w);
        if (delivered)
          orderLine.add(load.timestamp);
        else
          orderLine.addNull();
        orderLine.add(5).addDecimal(delivered ? 0 : random.uniform(1, 999999), 2);  // OL_QUANTITY, OL_AMOUNT
        orderLine.add(random.aString(24, 24)).endRow();
      }
    }
  }
  rows[kOrderLine] += orderLine.finish();

  CopyStream newOrder(target, "new_order");
  for (int d = 1; d <= kDistricts; ++d)
    for (int o = kFirstUndeliveredOrder; o <= kOrdersPerDistrict; ++o) newOrder.add(o).add(d).add(w).endRow();
  rows[kNewOrder] += newOrder.finish();
}

}  // namespace

std::vector<Task> loadTasks(int warehouses) {
  std::vector<Task> tasks;
  for (int w = 1; w <= warehouses; ++w) tasks.push_back({Piece::kOrders, w});
  for (int w = 1; w <= warehouses; ++w) tasks.push_back({Piece::kStock, w});
  for (int w = 1; w <= warehouses; ++w) tasks.push_back({Piece::kCustomers, w});
  tasks.push_back({Piece::kItems, 0});
  return tasks;
}

void loadPiece(CopyTarget& target, const Load& load, const Task& task, RowCounts& rows) {
  switch (task.piece) {
    case Piece::kItems: loadItems(target, load, rows); break;
    case Piece::kStock: loadStock(target, load, task.warehouse, rows); break;
    case Piece::kCustomers: loadCustomers(target, load, task.warehouse, rows); break;
    case Piece::kOrders: loadOrders(target, load, task.warehouse, rows); break;
  }
}

const char* pieceName(Piece piece) {
  switch (piece) {
    case Piece::kItems: return "items and CH tables";
    case Piece::kStock: return "stock";
    case Piece::kCustomers: return "customers";
    case Piece::kOrders: return "orders";
  }
  return "?";
}

std::string utcNow() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S", &tm);
  return text;
}

}  // namespace tpcc
