// The TPC-C initial population (specification 5.11, clause 4.3.3.1) plus CH-benCHmark's
// SUPPLIER, NATION and REGION, as COPY text rows for a CopyTarget. Shared by duet_tpcc_load
// (over libpq) and duet_tpcc_inprocess (into an in-process session).
//
// The work is cut into pieces: the items (with the CH tables), and per warehouse its stock
// (with the warehouse and district rows), its customers (with their history) and its
// orders (with order lines and new orders). Each piece draws from its own generator seeded by
// the seed and the piece, so the data is the same whoever loads which piece in which order;
// only the timestamps (the load's start, as clause 4.3.3.1 asks for "current date/time")
// differ between runs.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "bench/tpcc/copy_stream.h"

namespace tpcc {

enum class Piece : std::uint64_t { kItems, kStock, kCustomers, kOrders };

struct Task {
  Piece piece;
  int warehouse;  // 0 for kItems
};

enum Table {
  kWarehouse,
  kDistrict,
  kCustomer,
  kHistory,
  kNewOrder,
  kOrders,
  kOrderLine,
  kItem,
  kStock,
  kSupplier,
  kNation,
  kRegion,
  kTableCount
};
constexpr std::array<const char*, kTableCount> kTableNames = {"warehouse", "district", "customer",   "history",
                                                              "new_order", "orders",   "order_line", "item",
                                                              "stock",     "supplier", "nation",     "region"};

// Rows loaded so far, per table; loaders on several threads share one.
using RowCounts = std::array<std::atomic<std::int64_t>, kTableCount>;

struct Load {
  std::uint64_t seed;
  std::string timestamp;  // 'YYYY-MM-DD HH:MM:SS' (UTC) for every "current date/time"
};

// Every piece of a load of W warehouses, largest first, so that no loader thread starts a
// big one when the others are done.
std::vector<Task> loadTasks(int warehouses);

// Generates one piece's rows into target (one COPY per table) and adds them to rows. The
// caller decides the transaction around it.
void loadPiece(CopyTarget& target, const Load& load, const Task& task, RowCounts& rows);

const char* pieceName(Piece piece);

// 'YYYY-MM-DD HH:MM:SS' (UTC): the "current date/time" of a load.
std::string utcNow();

}  // namespace tpcc
