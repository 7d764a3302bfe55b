// duet_tpcc_driver: the TPC-C mix over the wire, calling the five functions of
// bench/tpcc/procedures.sql with prepared statements, one transaction per call (autocommit).
//
//   duet_tpcc_driver --host 127.0.0.1 --port 5432 --dbname tpcc --connections 4 --duration 30
//
// Each connection is a terminal with a fixed home warehouse (connection number mod W, plus 1)
// that draws the inputs of clauses 2.4.1-2.8.1 (driver_inputs.h) and picks the transaction by
// the --mix weights; there are no keying or think times, so the figures are throughput, not a
// compliant TPC-C result. Prints a line per --progress interval, then the counts, tps, tpmC,
// New-Order's rollback rate, errors, retries and latency percentiles per type; exits 1 if
// any call failed.
#include <CLI/CLI.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>
#include <vector>

#include "bench/tpcc/driver_report.h"
#include "bench/tpcc/driver_terminal.h"

namespace tpcc {
namespace {

using Clock = std::chrono::steady_clock;

// Transactions completed and calls failed so far, over all threads, for the progress lines.
std::atomic<std::uint64_t> g_completed{0};
std::atomic<std::uint64_t> g_failed{0};

// The first few distinct error messages go to stderr; repeats and the rest are only counted.
constexpr std::size_t kErrorsShown = 10;
std::mutex g_outputMutex;
std::set<std::string> g_errorsShown;  // guarded by g_outputMutex

void reportError(const std::string& message) {
  g_failed.fetch_add(1);
  std::lock_guard lock(g_outputMutex);
  if (g_errorsShown.size() >= kErrorsShown || !g_errorsShown.insert(message).second) return;
  std::fprintf(stderr, "error: %s\n", message.c_str());
  if (g_errorsShown.size() == kErrorsShown) std::fprintf(stderr, "(further errors are only counted)\n");
}

// The mix's generator of a terminal is seeded apart from the loader's pieces and Inputs'.
constexpr std::uint64_t kMixPiece = 1001;

struct Schedule {
  Clock::time_point start, measureFrom, end;
};

// "45/43/4/4/4": the weights of New-Order, Payment, Order-Status, Delivery, Stock-Level.
std::string parseMix(const std::string& text, std::array<int, kTxnTypes>& mix) {
  std::istringstream in(text);
  int sum = 0;
  for (int t = 0; t < kTxnTypes; ++t) {
    char slash = '/';
    if ((t > 0 && !(in >> slash)) || slash != '/' || !(in >> mix[static_cast<std::size_t>(t)]) || mix[t] < 0)
      return "expected five non-negative weights separated by '/', as 45/43/4/4/4";
    sum += mix[static_cast<std::size_t>(t)];
  }
  if (!(in >> std::ws).eof()) return "expected five weights, got more";
  return sum > 0 ? "" : "the weights must not all be 0";
}

TxnType pickType(Random& random, const std::array<int, kTxnTypes>& mix, int total) {
  std::int64_t r = random.uniform(1, total);
  for (int t = 0; t < kTxnTypes; ++t) {
    r -= mix[static_cast<std::size_t>(t)];
    if (r <= 0) return static_cast<TxnType>(t);
  }
  return TxnType::kNewOrder;
}

// One terminal's loop: calls until the run ends; what completes inside the measured interval
// is counted in stats, failures and retries over the whole run.
void drive(Terminal& terminal, Inputs& inputs, Random& mixRandom, const std::array<int, kTxnTypes>& mix,
           const Schedule& schedule, RunStats& stats) {
  int total = 0;
  for (int weight : mix) total += weight;
  for (;;) {
    const Call call = inputs.draw(pickType(mixRandom, mix, total));
    const Clock::time_point sent = Clock::now();
    if (sent >= schedule.end) break;
    const Outcome outcome = terminal.run(call);
    const Clock::time_point done = Clock::now();
    TypeStats& type = stats[index(call.type)];
    type.retries += static_cast<std::uint64_t>(outcome.retries);
    if (outcome.kind == Outcome::kFailed) {
      ++type.failed;
      reportError(outcome.error);
    } else {
      g_completed.fetch_add(1, std::memory_order_relaxed);
      if (done >= schedule.measureFrom && done < schedule.end) {
        ++type.completed;
        if (outcome.kind == Outcome::kRolledBack) ++type.rolledBack;
        type.latency.record(static_cast<std::uint64_t>(
            std::chrono::duration_cast<std::chrono::microseconds>(done - sent).count()));
      }
    }
  }
}

// Prints a line per interval until the run ends: elapsed time, tps in the interval, totals.
void printProgress(const Schedule& schedule, double interval) {
  const auto step = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(interval));
  std::uint64_t before = 0;
  for (Clock::time_point tick = schedule.start + step; tick <= schedule.end; tick += step) {
    std::this_thread::sleep_until(tick);
    const std::uint64_t completed = g_completed.load(std::memory_order_relaxed);
    std::lock_guard lock(g_outputMutex);
    std::fprintf(stderr, "%7.1f s  %9.1f tps  total %llu  errors %llu%s\n",
                 std::chrono::duration<double>(tick - schedule.start).count(),
                 static_cast<double>(completed - before) / interval, static_cast<unsigned long long>(completed),
                 static_cast<unsigned long long>(g_failed.load()), tick <= schedule.measureFrom ? "  (warmup)" : "");
    before = completed;
  }
}

// W from the database when --warehouses is not given, and the server's version.
void inspectServer(const ConnectionOptions& options, RunInfo& info) {
  Connection conn(options);
  const char* version = PQparameterStatus(conn.get(), "server_version");
  info.server = std::string("server ") + (version ? version : "?");
  if (info.warehouses > 0) return;
  std::unique_ptr<PGresult, decltype(&PQclear)> result(PQexec(conn.get(), "SELECT count(*) FROM warehouse"),
                                                       &PQclear);
  if (PQresultStatus(result.get()) != PGRES_TUPLES_OK || PQntuples(result.get()) != 1)
    throw std::runtime_error(std::string("SELECT count(*) FROM warehouse: ") + PQerrorMessage(conn.get()));
  info.warehouses = std::atoi(PQgetvalue(result.get(), 0, 0));
  if (info.warehouses < 1) throw std::runtime_error("the database has no warehouses: load it first");
}

}  // namespace
}  // namespace tpcc

int main(int argc, char** argv) {
  using namespace tpcc;
  CLI::App app{"duet_tpcc_driver: the TPC-C mix over the wire, calling bench/tpcc/procedures.sql's "
               "functions with prepared statements over --connections connections"};
  ConnectionOptions options;
  options.applicationName = "duet_tpcc_driver";
  RunInfo info;
  info.connections = 1;
  info.seconds = 10;
  info.warmupSeconds = 2;
  info.seed = 1;
  std::string mixText = "45/43/4/4/4";
  double progress = 0;
  std::string jsonPath;
  app.add_option("--host", options.host, "server host")->capture_default_str();
  app.add_option("--port", options.port, "server port")->capture_default_str();
  app.add_option("--dbname", options.dbname, "database")->capture_default_str();
  app.add_option("--user", options.user, "user name")->capture_default_str();
  app.add_option("--conninfo", options.conninfo,
                 "libpq connection string or URI, used instead of --dbname; its settings win over the options above");
  app.add_option("--warehouses", info.warehouses, "W (default: count(*) of warehouse)")->check(CLI::Range(1, 100000));
  app.add_option("--connections", info.connections, "connections (terminals), one thread each")
      ->check(CLI::Range(1, 1024))->capture_default_str();
  app.add_option("--duration", info.seconds, "seconds measured")->check(CLI::PositiveNumber)->capture_default_str();
  app.add_option("--warmup", info.warmupSeconds, "seconds run before measuring")
      ->check(CLI::NonNegativeNumber)->capture_default_str();
  app.add_option("--seed", info.seed, "seed of the terminals' inputs")->capture_default_str();
  app.add_option("--mix", mixText, "weights New-Order/Payment/Order-Status/Delivery/Stock-Level")
      ->capture_default_str();
  app.add_option("--progress", progress, "print a line every this many seconds (0: none)")
      ->check(CLI::NonNegativeNumber)->capture_default_str();
  app.add_option("--json", jsonPath, "also write the results to this file as JSON");
  CLI11_PARSE(app, argc, argv);
  if (const std::string problem = parseMix(mixText, info.mix); !problem.empty()) {
    std::fprintf(stderr, "duet_tpcc_driver: --mix %s: %s\n", mixText.c_str(), problem.c_str());
    return 2;
  }

  // One thread per connection, each waiting for its call's result, rather than one thread
  // driving several connections in libpq's pipeline mode: a terminal has one transaction
  // in flight, as a TPC-C terminal and a pgbench client do, so the figures compare with
  // run_pgbench.sh's and each call's latency is the server's time plus one round trip. The
  // threads sleep in recv while the server works, so on a small machine they take no more
  // CPU from the server than an event loop would. Pipelining several calls on one
  // connection would measure something else: a server's queueing of one session's work.
  std::vector<std::unique_ptr<Terminal>> terminals;
  std::vector<Inputs> inputs;
  std::vector<Random> mixRandoms;
  try {
    inspectServer(options, info);
    for (int t = 0; t < info.connections; ++t) {
      terminals.push_back(std::make_unique<Terminal>(options));
      inputs.emplace_back(info.seed, t, info.warehouses);
      mixRandoms.emplace_back(info.seed, kMixPiece, static_cast<std::uint64_t>(t));
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "duet_tpcc_driver: %s\n", e.what());
    return 1;
  }
  std::fprintf(stderr, "%s, W = %d, %d connection(s), %.1f s warmup + %.1f s, mix %s\n", info.server.c_str(),
               info.warehouses, info.connections, info.warmupSeconds, info.seconds, mixText.c_str());

  Schedule schedule;
  schedule.start = Clock::now();
  schedule.measureFrom = schedule.start + std::chrono::duration_cast<Clock::duration>(
                                              std::chrono::duration<double>(info.warmupSeconds));
  schedule.end = schedule.measureFrom +
                 std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(info.seconds));
  std::vector<RunStats> stats(static_cast<std::size_t>(info.connections));
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < terminals.size(); ++t)
    threads.emplace_back(drive, std::ref(*terminals[t]), std::ref(inputs[t]), std::ref(mixRandoms[t]),
                         std::cref(info.mix), std::cref(schedule), std::ref(stats[t]));
  if (progress > 0) printProgress(schedule, progress);
  for (std::thread& thread : threads) thread.join();

  RunStats total;
  for (const RunStats& perThread : stats)
    for (std::size_t t = 0; t < total.size(); ++t) total[t].merge(perThread[t]);
  printReport(info, total);
  if (!jsonPath.empty() && !writeJson(jsonPath, info, total)) return 1;
  std::uint64_t failed = 0;
  for (const TypeStats& type : total) failed += type.failed;
  return failed == 0 ? 0 : 1;
}
