// duetd: the DuetDB server process. Flags, the engine, the executor, the wire server; it
// runs until SIGINT or SIGTERM and then shuts down in order.
#include <CLI/CLI.hpp>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <pthread.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "engine/exec/executor.h"
#include "engine/session/sql_engine.h"
#include "logging/redo_log.h"
#include "server/server.h"

namespace {

// Snapshots fork() the server, and fork copies a page table entry per 4 KiB page: at
// W = 10 that was 30 ms against 4 ms on transparent huge pages (docs/benchmarks.md).
// Table chunks and index arrays map huge pages themselves (engine/storage/huge_memory.h);
// the rest of the heap (strings, ordered index nodes) comes from malloc, which glibc puts
// on huge pages (glibc.malloc.hugetlb=1: madvise MADV_HUGEPAGE) only for its main heap,
// not for the per-thread heaps it makes for other threads, so one heap serves all
// (glibc.malloc.arena_max=1: the executor allocates, network threads hardly do). glibc
// reads GLIBC_TUNABLES at start only, so duetd starts itself again once with them set.
void restartWithHugePageMalloc(char** argv) {
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  std::string current = tunables ? tunables : "";
  if (current.find("glibc.malloc.hugetlb") != std::string::npos) return;
  const char* ours = "glibc.malloc.hugetlb=1:glibc.malloc.arena_max=1";
  std::string value = current.empty() ? ours : current + ":" + ours;
  ::setenv("GLIBC_TUNABLES", value.c_str(), 1);
  ::execv("/proc/self/exe", argv);
  // Not fatal: the server runs, forks are just slower.
  std::perror("duetd: could not restart with huge-page malloc");
}

// Recovery (docs/logging.md): every logged transaction runs again, in commit order, before
// anyone connects; then the log is opened for new commits after its last good record.
std::unique_ptr<duet::logging::RedoLog> recover(duet::Engine& engine, const std::string& logDir) {
  auto started = std::chrono::steady_clock::now();
  duet::logging::ReadResult read = duet::logging::readLog(logDir, 0, [&](uint64_t lsn, std::string_view record) {
    try {
      engine.replayTransaction(record);
    } catch (const std::exception& e) {
      throw std::runtime_error(fmt::format("recovery failed at log record {}: {}", lsn, e.what()));
    }
  });
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  std::printf("duetd: recovered %llu transactions from %s in %.0f ms%s%s\n",
              static_cast<unsigned long long>(read.records), logDir.c_str(), ms,
              read.stopReason.empty() ? "" : "; the log ended early: ", read.stopReason.c_str());
  auto log = std::make_unique<duet::logging::RedoLog>(duet::logging::LogConfig{logDir}, read.lastLsn + 1);
  engine.setCommitLog([log = log.get()](std::string record) { return log->append(record); });
  return log;
}

}  // namespace

int main(int argc, char** argv) {
  restartWithHugePageMalloc(argv);
  CLI::App app{"duetd: DuetDB, a main-memory PostgreSQL-compatible database server"};
  duet::ServerConfig serverConfig;
  duet::EngineConfig engineConfig;
  engineConfig.dataDir = "./duet-data";
  app.add_option("--port", serverConfig.port, "TCP port to listen on")->capture_default_str();
  app.add_option("--listen", serverConfig.listenAddress, "address to listen on")
      ->capture_default_str();
  app.add_option("--data-dir", engineConfig.dataDir, "data directory (created if missing)")
      ->capture_default_str();
  app.add_option("--io-threads", serverConfig.ioThreads, "network I/O threads")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  app.add_option("--idle-in-transaction-timeout", engineConfig.idleInTransactionTimeoutMs,
                 "ms an open transaction may stay idle before the session is ended; 0 disables")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option("--snapshots", serverConfig.snapshots,
                 "run costly read-only queries on fork()ed snapshots (docs/snapshots.md)")
      ->capture_default_str();
  app.add_option("--snapshot-nice", serverConfig.snapshot.nice,
                 "CPU priority (nice) of snapshot processes; the executor runs at 0")
      ->check(CLI::Range(0, 19))
      ->capture_default_str();
  app.add_option("--snapshot-max-processes", serverConfig.snapshot.maxProcesses,
                 "snapshots forked for concurrent queries at most (freshness may fork more)")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  bool redoLog = true;
  app.add_option("--redo-log", redoLog,
                 "log committed transactions to DATADIR/log and recover from it at start "
                 "(docs/logging.md); false keeps data in memory only")
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  engineConfig.snapshots = serverConfig.snapshots;

  // Signals go to sigtimedwait() below only: block them before any thread exists.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  try {
    std::filesystem::create_directories(engineConfig.dataDir);
    auto engine = duet::createSqlEngine(engineConfig);
    // Recovery (docs/logging.md): every logged transaction runs again, in commit order,
    // before anyone connects; then new commits are logged after the last good record.
    std::unique_ptr<duet::logging::RedoLog> log;
    if (redoLog) log = recover(*engine, (std::filesystem::path(engineConfig.dataDir) / "log").string());
    duet::Executor executor;
    executor.start();
    duet::Server server(*engine, executor, serverConfig, log.get());
    server.start();
    std::printf("duetd listening on %s:%u\n", serverConfig.listenAddress.c_str(),
                unsigned(server.port()));
    std::fflush(stdout);

    // Until a signal, or until the redo log fails: then no commit can be acknowledged any
    // more, and clients waiting for theirs would wait forever. Like PostgreSQL's PANIC on a
    // failed WAL write, duetd stops; the next start recovers what the log holds.
    std::string logError;
    for (;;) {
      timespec tick{0, 100'000'000};
      int received = sigtimedwait(&signals, nullptr, &tick);
      if (received > 0) {
        std::printf("duetd: received signal %d, shutting down\n", received);
        break;
      }
      if (log && !(logError = log->error()).empty()) {
        std::fprintf(stderr, "duetd: the redo log failed (%s): shutting down\n", logError.c_str());
        break;
      }
    }
    std::fflush(stdout);
    server.stop();
    executor.stop();
    if (log) {
      log->flush();  // a clean stop loses nothing, whatever synchronous_commit said
      engine->setCommitLog(nullptr);
    }
    if (!logError.empty()) return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "duetd: %s\n", e.what());
    return 1;
  }
  return 0;
}
