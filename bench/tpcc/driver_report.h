// The figures duet_tpcc_driver reports: per transaction type counts and latencies, gathered
// per thread and merged, printed as a table and optionally written as JSON.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "bench/tpcc/driver_histogram.h"
#include "bench/tpcc/driver_inputs.h"

namespace tpcc {

struct TypeStats {
  // Calls that completed inside the measured interval (rolled-back New-Orders are complete
  // transactions: they count, as in the spec's tpmC) and their latencies.
  std::uint64_t completed = 0;
  std::uint64_t rolledBack = 0;  // New-Order only: the function returned NULL
  LatencyHistogram latency;
  // Over the whole run, warmup included: any of these is worth knowing about.
  std::uint64_t failed = 0;
  std::uint64_t retries = 0;

  void merge(const TypeStats& other) {
    completed += other.completed;
    rolledBack += other.rolledBack;
    latency.merge(other.latency);
    failed += other.failed;
    retries += other.retries;
  }
};

using RunStats = std::array<TypeStats, kTxnTypes>;

struct RunInfo {
  std::string server;  // "PostgreSQL 15.18" or what the server reports
  int warehouses = 0;
  int connections = 0;
  double warmupSeconds = 0;
  double seconds = 0;  // the measured interval
  std::uint64_t seed = 0;
  std::array<int, kTxnTypes> mix{};
};

void printReport(const RunInfo& info, const RunStats& stats);
// Writes the same figures as JSON; returns false (and says why on stderr) if it cannot.
bool writeJson(const std::string& path, const RunInfo& info, const RunStats& stats);

}  // namespace tpcc
