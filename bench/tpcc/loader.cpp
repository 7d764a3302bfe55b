// duet_tpcc_load: the TPC-C initial population (specification 5.11, clause 4.3.3.1) plus
// CH-benCHmark's SUPPLIER, NATION and REGION, streamed with COPY FROM STDIN over several
// connections at once. The tables must exist and be empty (bench/tpcc/schema.sql).
//
//   duet_tpcc_load --host 127.0.0.1 --port 5432 --dbname tpcc --warehouses 1 --threads 2
//
// The rows come from population.h, cut into pieces: each thread has one connection and takes
// the next piece, loading it in one transaction; at W = 1 that still gives four pieces to
// share. The data is the same for any --threads.
#include <CLI/CLI.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

#include "bench/tpcc/pg_copy.h"
#include "bench/tpcc/population.h"

namespace tpcc {
namespace {

// Rows loaded so far, per table, over all threads.
RowCounts g_rows{};

// One piece in one transaction on the thread's connection.
void runTask(Connection& conn, const Load& load, const Task& task) {
  PgCopyTarget target(conn);
  conn.exec("BEGIN");
  loadPiece(target, load, task, g_rows);
  conn.exec("COMMIT");
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace
}  // namespace tpcc

int main(int argc, char** argv) {
  using namespace tpcc;
  CLI::App app{
      "duet_tpcc_load: TPC-C initial population (plus CH-benCHmark's supplier, nation, "
      "region) via COPY; the schema must exist (bench/tpcc/schema.sql) and be empty"};
  ConnectionOptions options;
  int warehouses = 0;
  int threads = 2;
  std::uint64_t seed = 1;
  app.add_option("--host", options.host, "server host")->capture_default_str();
  app.add_option("--port", options.port, "server port")->capture_default_str();
  app.add_option("--dbname", options.dbname, "database")->capture_default_str();
  app.add_option("--user", options.user, "user name")->capture_default_str();
  app.add_option("--warehouses", warehouses, "number of warehouses W")->required()->check(CLI::Range(1, 100000));
  app.add_option("--threads", threads, "connections loading in parallel")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  app.add_option("--seed", seed, "seed of every random value")->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  const Load load{seed, utcNow()};
  const std::vector<Task> tasks = loadTasks(warehouses);

  const auto start = std::chrono::steady_clock::now();
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex outputMutex;
  auto worker = [&] {
    try {
      Connection conn(options);
      for (std::size_t i = next++; i < tasks.size() && !failed; i = next++) {
        runTask(conn, load, tasks[i]);
        std::lock_guard lock(outputMutex);
        std::fprintf(stderr, "%7.1f s  %s", secondsSince(start), pieceName(tasks[i].piece));
        if (tasks[i].warehouse > 0) std::fprintf(stderr, " of warehouse %d", tasks[i].warehouse);
        std::fprintf(stderr, " loaded\n");
      }
    } catch (const std::exception& e) {
      failed = true;
      std::lock_guard lock(outputMutex);
      std::fprintf(stderr, "duet_tpcc_load: %s\n", e.what());
    }
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) pool.emplace_back(worker);
  for (std::thread& thread : pool) thread.join();
  if (failed) return 1;
  const double loadSeconds = secondsSince(start);

  // Fresh statistics, so that PostgreSQL plans the transactions' statements for the real data.
  try {
    Connection(options).exec("ANALYZE");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "duet_tpcc_load: %s\n", e.what());
    return 1;
  }
  std::printf("loaded %d warehouse(s) with %d thread(s), seed %llu, in %.1f s (ANALYZE %.1f s):\n", warehouses, threads,
              static_cast<unsigned long long>(seed), loadSeconds, secondsSince(start) - loadSeconds);
  for (int t = 0; t < kTableCount; ++t)
    std::printf("  %-10s %10lld rows\n", kTableNames[t], static_cast<long long>(g_rows[t].load()));
  return 0;
}
