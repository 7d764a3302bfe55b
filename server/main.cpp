// duetd: the DuetDB server process. Flags, the engine, the executor, the wire server; it
// runs until SIGINT or SIGTERM and then shuts down in order.
#include <pthread.h>
#include <unistd.h>
#include <CLI/CLI.hpp>
#include <csignal>
#include <cstdio>
#include <filesystem>

#include <chrono>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "engine/limits/stack_depth.h"
#include "logging/recovery.h"
#include "logging/redo_log.h"
#include "server/server.h"
#include "session/executor.h"
#include "session/sql_engine.h"
#include "snapshot/checkpointer.h"

namespace {

// Snapshots fork() the server, and fork copies a page table entry per 4 KiB page: at
// W = 10 that was 30 ms against 4 ms on transparent huge pages (docs/benchmarks-history.md).
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

// Recovery (docs/logging.md): the newest archive, then the log after it, before anyone
// connects; then the log opens for new commits after the newest LSN recovered.
std::unique_ptr<duet::logging::RedoLog> recover(std::unique_ptr<duet::Engine>& engine,
                                                const duet::EngineConfig& engineConfig, uint64_t walSegmentMb,
                                                uint64_t& archiveLsn, uint64_t& replayed) {
  const std::string& dataDir = engineConfig.dataDir;
  std::string archiveDir = (std::filesystem::path(dataDir) / "archive").string();
  std::string logDir = (std::filesystem::path(dataDir) / "log").string();
  duet::logging::RecoveryReport r = duet::logging::recover(
      engine, [&] { return duet::createSqlEngine(engineConfig); }, archiveDir, logDir,
      [](const std::string& line) {
        std::printf("duetd: recovery: %s\n", line.c_str());
        std::fflush(stdout);
      });
  for (const auto& damaged : r.damagedArchives)
    std::printf(
        "duetd: archive %s; it was renamed *.damaged and recovery fell back to the archive "
        "before it, or the whole log\n",
        damaged.c_str());
  if (!r.archivePath.empty()) {
    std::printf("duetd: loaded archive %s (LSN %llu, %llu records, %.1f MB) in %.0f ms\n", r.archivePath.c_str(),
                static_cast<unsigned long long>(r.archiveLsn), static_cast<unsigned long long>(r.archiveRecords),
                static_cast<double>(r.archiveBytes) / 1e6, r.archiveMillis);
  }
  std::printf("duetd: replayed %llu transactions from %s in %.0f ms%s%s\n", static_cast<unsigned long long>(r.replayed),
              logDir.c_str(), r.replayMillis, r.logStop.empty() ? "" : "; the log ended early: ", r.logStop.c_str());
  archiveLsn = r.archiveLsn;
  replayed = r.replayed;
  duet::logging::LogConfig logConfig{logDir};
  logConfig.segmentBytes = walSegmentMb << 20;
  auto log = std::make_unique<duet::logging::RedoLog>(logConfig, r.lastLsn + 1);
  engine->setCommitLog([log = log.get()](std::string record) { return log->append(record); });
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
  app.add_option("--listen", serverConfig.listenAddress, "address to listen on")->capture_default_str();
  app.add_option("--data-dir", engineConfig.dataDir, "data directory (created if missing)")->capture_default_str();
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
  app.add_option("--collapse-huge-pages", serverConfig.collapseHugePages,
                 "join the huge pages that forks split (keeps forks cheap under steady writes)")
      ->capture_default_str();
  app.add_option("--collapse-while-alive", serverConfig.collapseWhileAlivePercent,
                 "while snapshots are alive, join a split 2 MiB range once this percent of its "
                 "pages were copied since the fork (lower: cheaper forks, more memory and copying; "
                 "0: join only once no snapshot is alive; docs/snapshots.md)")
      ->check(CLI::Range(0, 100))
      ->capture_default_str();
  bool redoLog = true;
  app.add_option("--redo-log", redoLog,
                 "log committed transactions to DATADIR/log and recover from it at start "
                 "(docs/logging.md); false keeps data in memory only")
      ->capture_default_str();
  duet::snapshot::CheckpointConfig checkpoint;
  int checkpointTimeoutSeconds = 300;
  uint64_t maxWalSizeMb = 1024;
  app.add_option("--checkpoint-timeout", checkpointTimeoutSeconds,
                 "seconds between archives while transactions commit (PostgreSQL's checkpoint_timeout)")
      ->check(CLI::Range(1, 86400))
      ->capture_default_str();
  app.add_option("--max-wal-size", maxWalSizeMb,
                 "MB of redo log after which an archive is written (PostgreSQL's max_wal_size)")
      ->check(CLI::Range(1, 1 << 30))
      ->capture_default_str();
  uint64_t walSegmentMb = 64;
  app.add_option("--wal-segment-size", walSegmentMb,
                 "MB of redo log per segment file (PostgreSQL's wal_segment_size; archived segments are reused)")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  engineConfig.snapshots = serverConfig.snapshots;

  // The executor, snapshot and parallel threads compile and run statements: stacks with
  // room for max_stack_depth (engine/limits/stack_depth.h), set before any thread exists.
  duet::giveNewThreadsStatementStacks();
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
    uint64_t archiveLsn = 0;
    uint64_t replayed = 0;
    if (redoLog) log = recover(engine, engineConfig, walSegmentMb, archiveLsn, replayed);
    duet::Executor executor;
    executor.start();
    // Archives (checkpoints): forked from the executor, so created after it and destroyed
    // after it stops (declared after it).
    std::unique_ptr<duet::snapshot::Checkpointer> checkpointer;
    if (log) {
      checkpoint.archiveDir = (std::filesystem::path(engineConfig.dataDir) / "archive").string();
      checkpoint.logDir = (std::filesystem::path(engineConfig.dataDir) / "log").string();
      checkpoint.interval = std::chrono::seconds(checkpointTimeoutSeconds);
      checkpoint.logBytes = maxWalSizeMb << 20;
      checkpoint.nice = serverConfig.snapshot.nice;
      checkpointer = std::make_unique<duet::snapshot::Checkpointer>(*engine, executor, *log, checkpoint, archiveLsn);
      // As PostgreSQL ends recovery with a checkpoint: the next start need not replay again.
      if (replayed > 0) checkpointer->request(nullptr);
    }
    // Should anything below throw (the port is taken), the executor must stop before the
    // checkpointer is destroyed: a checkpoint task queued above may be running on it. Declared
    // after the checkpointer, so it runs first when this block unwinds. stop() is idempotent.
    struct StopExecutor {
      duet::Executor& executor;
      ~StopExecutor() { executor.stop(); }
    } stopExecutorFirst{executor};
    duet::Server server(*engine, executor, serverConfig, log.get(), checkpointer.get());
    server.start();
    std::printf("duetd listening on %s:%u\n", serverConfig.listenAddress.c_str(), unsigned(server.port()));
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
    // An archive still being written is abandoned (its .tmp goes at the next start). The
    // CHECKPOINTs waiting for it hold their connections, which must go while the server's
    // I/O context still exists.
    checkpointer.reset();
    if (log) {
      log->flush();  // a clean stop loses nothing, whatever synchronous_commit said
      engine->setCommitLog(nullptr);
    }
    if (!logError.empty()) return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "duetd: FATAL: %s\n", e.what());
    return 1;
  }
  return 0;
}
