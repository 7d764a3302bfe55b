#include "bench/tpcc/driver_mix.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

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
void drive(CallRunner& runner, Inputs& inputs, Random& mixRandom, const std::array<int, kTxnTypes>& mix,
           const Schedule& schedule, RunStats& stats) {
  int total = 0;
  for (int weight : mix) total += weight;
  for (;;) {
    const Call call = inputs.draw(pickType(mixRandom, mix, total));
    const Clock::time_point sent = Clock::now();
    if (sent >= schedule.end) break;
    const Outcome outcome = runner.run(call);
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
        type.latency.record(
            static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(done - sent).count()));
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

Clock::duration seconds(double s) {
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
}

}  // namespace

void addMixOptions(CLI::App& app, MixOptions& options) {
  RunInfo& info = options.info;
  app.add_option("--duration", info.seconds, "seconds measured")->check(CLI::PositiveNumber)->capture_default_str();
  app.add_option("--warmup", info.warmupSeconds, "seconds run before measuring")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option("--seed", info.seed, "seed of the terminals' inputs")->capture_default_str();
  app.add_option("--mix", options.mixText, "weights New-Order/Payment/Order-Status/Delivery/Stock-Level")
      ->capture_default_str();
  app.add_option("--progress", options.progress, "print a line every this many seconds (0: none)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option("--json", options.jsonPath, "also write the results to this file as JSON");
}

// "45/43/4/4/4": the weights of New-Order, Payment, Order-Status, Delivery, Stock-Level.
std::string parseMix(MixOptions& options) {
  std::array<int, kTxnTypes>& mix = options.info.mix;
  std::istringstream in(options.mixText);
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

RunStats runMix(const std::vector<CallRunner*>& runners, const MixOptions& options) {
  const RunInfo& info = options.info;
  std::vector<Inputs> inputs;
  std::vector<Random> mixRandoms;
  for (std::size_t t = 0; t < runners.size(); ++t) {
    inputs.emplace_back(info.seed, static_cast<int>(t), info.warehouses);
    mixRandoms.emplace_back(info.seed, kMixPiece, static_cast<std::uint64_t>(t));
  }
  Schedule schedule;
  schedule.start = Clock::now();
  schedule.measureFrom = schedule.start + seconds(info.warmupSeconds);
  schedule.end = schedule.measureFrom + seconds(info.seconds);
  std::vector<RunStats> stats(runners.size());
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < runners.size(); ++t)
    threads.emplace_back(drive, std::ref(*runners[t]), std::ref(inputs[t]), std::ref(mixRandoms[t]),
                         std::cref(info.mix), std::cref(schedule), std::ref(stats[t]));
  if (options.progress > 0) printProgress(schedule, options.progress);
  for (std::thread& thread : threads) thread.join();

  RunStats total;
  for (const RunStats& perThread : stats)
    for (std::size_t t = 0; t < total.size(); ++t) total[t].merge(perThread[t]);
  return total;
}

int reportMix(const MixOptions& options, const RunStats& stats) {
  printReport(options.info, stats);
  if (!options.jsonPath.empty() && !writeJson(options.jsonPath, options.info, stats)) return 1;
  std::uint64_t failed = 0;
  for (const TypeStats& type : stats) failed += type.failed;
  return failed == 0 ? 0 : 1;
}

}  // namespace tpcc
