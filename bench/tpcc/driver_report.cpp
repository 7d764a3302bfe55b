#include "bench/tpcc/driver_report.h"

#include <cstdio>

namespace tpcc {
namespace {

// The derived figures, computed once for both the table and the JSON.
struct Latencies {
  std::uint64_t p50, p90, p99, max;
};

struct Summary {
  std::uint64_t transactions = 0, failed = 0, retries = 0;
  double tps = 0, tpmC = 0, rollbackPercent = 0;
  std::array<double, kTxnTypes> typeTps{};
  std::array<Latencies, kTxnTypes> latencies{};
};

Summary summarize(const RunInfo& info, const RunStats& stats) {
  Summary s;
  const double seconds = info.seconds > 0 ? info.seconds : 1;
  for (std::size_t t = 0; t < stats.size(); ++t) {
    const TypeStats& type = stats[t];
    s.transactions += type.completed;
    s.failed += type.failed;
    s.retries += type.retries;
    s.typeTps[t] = static_cast<double>(type.completed) / seconds;
    s.latencies[t] = {type.latency.percentile(0.50), type.latency.percentile(0.90), type.latency.percentile(0.99),
                      type.latency.max()};
  }
  const TypeStats& newOrder = stats[index(TxnType::kNewOrder)];
  s.tps = static_cast<double>(s.transactions) / seconds;
  s.tpmC = s.typeTps[index(TxnType::kNewOrder)] * 60;
  if (newOrder.completed > 0)
    s.rollbackPercent = 100.0 * static_cast<double>(newOrder.rolledBack) / static_cast<double>(newOrder.completed);
  return s;
}

std::string mixText(const RunInfo& info) {
  std::string text;
  for (int weight : info.mix) {
    if (!text.empty()) text += '/';
    text += std::to_string(weight);
  }
  return text;
}

}  // namespace

void printReport(const RunInfo& info, const RunStats& stats) {
  const Summary s = summarize(info, stats);
  const TypeStats& newOrder = stats[index(TxnType::kNewOrder)];
  std::printf("\n%s, W = %d, %d connection(s), %.1f s measured after %.1f s warmup, seed %llu, mix %s\n",
              info.server.c_str(), info.warehouses, info.connections, info.seconds, info.warmupSeconds,
              static_cast<unsigned long long>(info.seed), mixText(info).c_str());
  std::printf("transactions: %llu = %.1f tps\n", static_cast<unsigned long long>(s.transactions), s.tps);
  std::printf("New-Order:    %.1f tps = %.0f tpmC; rolled back %llu of %llu (%.2f%%, expect about 1%%)\n",
              s.typeTps[index(TxnType::kNewOrder)], s.tpmC, static_cast<unsigned long long>(newOrder.rolledBack),
              static_cast<unsigned long long>(newOrder.completed), s.rollbackPercent);
  std::printf("errors:       %llu; retries after 40001/40P01: %llu (both counted over the whole run)\n\n",
              static_cast<unsigned long long>(s.failed), static_cast<unsigned long long>(s.retries));
  std::printf("%-13s %9s %9s %8s %7s %9s %9s %9s %9s\n", "type", "count", "tps", "retries", "errors", "p50 us",
              "p90 us", "p99 us", "max us");
  for (std::size_t t = 0; t < stats.size(); ++t) {
    const Latencies& l = s.latencies[t];
    std::printf("%-13s %9llu %9.1f %8llu %7llu %9llu %9llu %9llu %9llu\n", kTxnNames[t],
                static_cast<unsigned long long>(stats[t].completed), s.typeTps[t],
                static_cast<unsigned long long>(stats[t].retries), static_cast<unsigned long long>(stats[t].failed),
                static_cast<unsigned long long>(l.p50), static_cast<unsigned long long>(l.p90),
                static_cast<unsigned long long>(l.p99), static_cast<unsigned long long>(l.max));
  }
}

bool writeJson(const std::string& path, const RunInfo& info, const RunStats& stats) {
  FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) {
    std::perror(path.c_str());
    return false;
  }
  const Summary s = summarize(info, stats);
  // The server string is what the server reported; quotes and backslashes would break the
  // JSON, so they are left out.
  std::string server;
  for (char ch : info.server)
    if (ch != '"' && ch != '\\' && static_cast<unsigned char>(ch) >= 0x20) server += ch;
  std::fprintf(f, "{\n  \"server\": \"%s\",\n  \"warehouses\": %d,\n  \"connections\": %d,\n", server.c_str(),
               info.warehouses, info.connections);
  std::fprintf(f, "  \"warmup_s\": %.3f,\n  \"duration_s\": %.3f,\n  \"seed\": %llu,\n  \"mix\": \"%s\",\n",
               info.warmupSeconds, info.seconds, static_cast<unsigned long long>(info.seed), mixText(info).c_str());
  std::fprintf(f, "  \"transactions\": %llu,\n  \"tps\": %.3f,\n  \"tpmC\": %.1f,\n",
               static_cast<unsigned long long>(s.transactions), s.tps, s.tpmC);
  std::fprintf(f, "  \"new_order_rollback_percent\": %.3f,\n  \"errors\": %llu,\n  \"retries\": %llu,\n",
               s.rollbackPercent, static_cast<unsigned long long>(s.failed),
               static_cast<unsigned long long>(s.retries));
  std::fprintf(f, "  \"types\": {\n");
  for (std::size_t t = 0; t < stats.size(); ++t) {
    const Latencies& l = s.latencies[t];
    std::fprintf(f,
                 "    \"%s\": {\"count\": %llu, \"tps\": %.3f, \"rolled_back\": %llu, \"retries\": %llu, "
                 "\"errors\": %llu, \"p50_us\": %llu, \"p90_us\": %llu, \"p99_us\": %llu, \"max_us\": %llu}%s\n",
                 kTxnKeys[t], static_cast<unsigned long long>(stats[t].completed), s.typeTps[t],
                 static_cast<unsigned long long>(stats[t].rolledBack),
                 static_cast<unsigned long long>(stats[t].retries), static_cast<unsigned long long>(stats[t].failed),
                 static_cast<unsigned long long>(l.p50), static_cast<unsigned long long>(l.p90),
                 static_cast<unsigned long long>(l.p99), static_cast<unsigned long long>(l.max),
                 t + 1 < stats.size() ? "," : "");
  }
  std::fprintf(f, "  }\n}\n");
  const bool written = !std::ferror(f);
  if (std::fclose(f) != 0 || !written) {
    std::fprintf(stderr, "%s: write failed\n", path.c_str());
    return false;
  }
  return true;
}

}  // namespace tpcc
