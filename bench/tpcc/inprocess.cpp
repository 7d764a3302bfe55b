// duet_tpcc_inprocess: TPC-C against DuetDB with no network, as the HyPer paper measured it:
// the engine and one session live in this process, and the transactions go straight to the
// session's C++ API (session/session_api.h), the calls the server makes for a client.
//
//   duet_tpcc_inprocess --warehouses 1 --duration 10 --warmup 2 --progress 5
//
// Creates the schema (schema.sql), loads W warehouses (population.h, through the session's
// COPY FROM STDIN), creates the functions (procedures.sql), checks consistency conditions
// 1-4, runs the mix on one terminal (driver_mix.h: the wire driver's inputs, checks and
// report) with the calls prepared once and then bound and executed per call, and checks the
// conditions again. Exits 1 if a call failed or a condition is broken.
#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "bench/tpcc/inprocess_check.h"
#include "bench/tpcc/inprocess_session.h"
#include "bench/tpcc/population.h"

#ifndef DUET_TPCC_DIR
#define DUET_TPCC_DIR "bench/tpcc"
#endif

namespace tpcc {
namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Runs a file of statements as one simple Query, as psql -f would run them one by one.
void runFile(InProcessDb& db, const std::string& path) {
  try {
    db.query(readFile(path));
  } catch (const std::exception& e) {
    throw std::runtime_error(path + ": " + e.what());
  }
}

// Every piece of the population, each in its own transaction as duet_tpcc_load does, on
// this thread. Returns the seconds it took.
double load(InProcessDb& db, int warehouses, std::uint64_t seed) {
  const Load spec{seed, utcNow()};
  RowCounts rows{};
  SessionCopyTarget target(db);
  const Clock::time_point start = Clock::now();
  for (const Task& task : loadTasks(warehouses)) {
    db.query("BEGIN");
    loadPiece(target, spec, task, rows);
    db.query("COMMIT");
  }
  const double seconds = secondsSince(start);
  std::int64_t total = 0;
  for (const auto& count : rows) total += count.load();
  std::printf("loaded %d warehouse(s), %lld rows, seed %llu, in %.2f s:", warehouses, static_cast<long long>(total),
              static_cast<unsigned long long>(seed), seconds);
  for (int t = 0; t < kTableCount; ++t)
    std::printf("%s %s %lld", t == 0 ? "" : ",", kTableNames[t], static_cast<long long>(rows[t].load()));
  std::printf("\n");
  return seconds;
}

}  // namespace
}  // namespace tpcc

int main(int argc, char** argv) {
  using namespace tpcc;
  CLI::App app{
      "duet_tpcc_inprocess: TPC-C on an in-process DuetDB engine and session, no network: "
      "schema, load, functions, consistency checks, then the mix on one thread"};
  MixOptions mix;
  RunInfo& info = mix.info;
  info.server = "DuetDB in-process";
  info.warehouses = 1;
  info.connections = 1;
  info.seconds = 10;
  info.warmupSeconds = 2;
  info.seed = 1;
  std::string sqlDir = DUET_TPCC_DIR;
  app.add_option("--warehouses", info.warehouses, "W, loaded before the run")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app.add_option("--sql-dir", sqlDir, "where schema.sql and procedures.sql are")->capture_default_str();
  addMixOptions(app, mix);
  CLI11_PARSE(app, argc, argv);
  if (const std::string problem = parseMix(mix); !problem.empty()) {
    std::fprintf(stderr, "duet_tpcc_inprocess: --mix %s: %s\n", mix.mixText.c_str(), problem.c_str());
    return 2;
  }

  try {
    InProcessDb db;
    runFile(db, sqlDir + "/schema.sql");
    load(db, info.warehouses, info.seed);
    const Clock::time_point created = Clock::now();
    runFile(db, sqlDir + "/procedures.sql");
    std::printf("procedures.sql: %.2f s\n", secondsSince(created));
    if (!checkConsistency(db)) {
      std::fprintf(stderr, "duet_tpcc_inprocess: the fresh load breaks a consistency condition\n");
      return 1;
    }

    SessionTerminal terminal(db);
    std::fflush(stdout);  // the figures so far before the progress lines on stderr
    std::fprintf(stderr, "%s, W = %d, 1 terminal, %.1f s warmup + %.1f s, mix %s\n", info.server.c_str(),
                 info.warehouses, info.warmupSeconds, info.seconds, mix.mixText.c_str());
    // runMix calls on a thread of its own and prints progress on this one; the session is
    // used by one thread at a time: this one before and after, that one during the run.
    const RunStats stats = runMix({&terminal}, mix);
    int status = reportMix(mix, stats);
    std::printf("\nafter the run:\n");
    if (!checkConsistency(db)) status = 1;
    return status;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "duet_tpcc_inprocess: %s\n", e.what());
    return 1;
  }
}
