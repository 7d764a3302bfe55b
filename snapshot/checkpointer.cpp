#include "snapshot/checkpointer.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>

#include "logging/archive_file.h"
#include "snapshot/forked_child.h"

namespace duet::snapshot {
namespace {

// Archives kept: the newest, and the one before it for when the newest turns out damaged.
constexpr size_t kArchivesKept = 2;

// Archives beyond the newest kArchivesKept, and the log segments only those needed.
void removeOldFiles(const CheckpointConfig& config) {
  std::vector<logging::ArchiveFile> archives = logging::listArchives(config.archiveDir);
  for (size_t i = kArchivesKept; i < archives.size(); ++i) std::filesystem::remove(archives[i].path);
  // Recovery falls back to the oldest archive kept; it needs the log after it. With one
  // archive only, the fallback is the whole log.
  if (archives.size() >= kArchivesKept) logging::removeSegmentsUpTo(config.logDir, archives[kArchivesKept - 1].lsn);
}

// The child: the executor thread's image as of the fork, nothing else running. It writes
// the archive and exits; its exit status is all the parent learns (errors go to stderr,
// which it shares with the server).
[[noreturn]] void writeArchiveChild(Engine& engine, const CheckpointConfig& config, uint64_t lsn, pid_t parent) {
  // Clients' sockets and the log's files stay the server's alone.
  becomeForkedChild(parent, "duet-archive", 3, config.nice);
  try {
    logging::ArchiveWriter writer(config.archiveDir, lsn);
    engine.writeArchive([&](std::string record) { writer.add(record); });
    writer.finish();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "duetd: the archive at LSN %llu failed: %s\n", static_cast<unsigned long long>(lsn), e.what());
    std::fflush(stderr);
    ::_exit(1);
  }
  // The archive is in place. Older files go here too, off the server's threads: unlinking
  // a large archive and syncing the log directory per segment take a while.
  try {
    removeOldFiles(config);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "duetd: could not remove old archives or log segments: %s\n", e.what());
    std::fflush(stderr);
  }
  ::_exit(0);
}

}  // namespace

Checkpointer::Checkpointer(Engine& engine, Executor& executor, logging::RedoLog& log, CheckpointConfig config,
                           uint64_t lastArchiveLsn)
    : engine_(engine),
      executor_(executor),
      log_(log),
      config_(std::move(config)),
      lastLsn_(lastArchiveLsn),
      lastTime_(std::chrono::steady_clock::now()) {}

Checkpointer::~Checkpointer() {
  std::lock_guard lock(mutex_);
  if (child_ > 0) {
    ::kill(child_, SIGKILL);
    while (::waitpid(child_, nullptr, 0) < 0 && errno == EINTR) {}
  }
}

void Checkpointer::request(std::function<void(const std::string&)> done) {
  {
    std::lock_guard lock(mutex_);
    wanted_ = true;
    if (done) queued_.push_back(std::move(done));
  }
  tick();
}

bool Checkpointer::due(std::chrono::steady_clock::time_point now) const {
  if (wanted_) return true;
  if (log_.appendedLsn() <= lastLsn_ || now - lastFailure_ < config_.retryAfterFailure) return false;
  return now - lastTime_ >= config_.interval || log_.bytesWritten() - lastLogBytes_ >= config_.logBytes;
}

void Checkpointer::tick() {
  std::vector<Waiter> done;
  bool ok = false;
  {
    std::lock_guard lock(mutex_);
    if (child_ > 0) {
      int status = 0;
      pid_t r = ::waitpid(child_, &status, WNOHANG);
      if (r == child_ || (r < 0 && errno == ECHILD)) {
        ok = r == child_ && WIFEXITED(status) && WEXITSTATUS(status) == 0;
        done = finished(ok);
      }
    }
    if (child_ < 0 && !submitted_ && due(std::chrono::steady_clock::now())) {
      // Queued behind any transaction block holding the executor: it runs between two
      // transactions.
      submitted_ = executor_.submit(nullptr, [this] { startOnExecutor(); });
    }
  }
  std::string error = ok ? "" : "could not write the archive (see the server log)";
  for (auto& waiter : done) waiter(error);
}

void Checkpointer::startOnExecutor() {
  std::vector<Waiter> done;
  uint64_t lsn = 0;
  bool upToDate = false;
  {
    std::lock_guard lock(mutex_);
    submitted_ = false;
    // An implicit extended-protocol transaction still waiting for its Sync: try again at
    // the next tick rather than archive half of it.
    if (engine_.changesPending()) return;
    lsn = log_.appendedLsn();
    wanted_ = false;
    upToDate = lsn <= lastLsn_;
    if (upToDate) {
      // Nothing committed since the newest archive: it already holds everything.
      done.swap(queued_);
      lastTime_ = std::chrono::steady_clock::now();
    }
  }
  if (!upToDate) {
    auto started = std::chrono::steady_clock::now();
    uint64_t logBytes = log_.bytesWritten();
    pid_t parent = ::getpid();
    pid_t pid = ::fork();
    if (pid == 0) writeArchiveChild(engine_, config_, lsn, parent);
    int error = errno;
    {
      std::lock_guard lock(mutex_);
      if (pid > 0) {
        child_ = pid;
        childLsn_ = lsn;
        childLogBytes_ = logBytes;
        childStarted_ = started;
        running_.swap(queued_);
        return;
      }
      lastFailure_ = started;
      done.swap(queued_);
    }
    std::fprintf(stderr, "duetd: could not fork the archive writer: %s\n", std::strerror(error));
    for (auto& waiter : done) waiter("could not fork the archive writer");
    return;
  }
  for (auto& waiter : done) waiter("");
}

std::vector<Checkpointer::Waiter> Checkpointer::finished(bool ok) {
  child_ = -1;
  if (ok) {
    lastLsn_ = childLsn_;
    lastLogBytes_ = childLogBytes_;
    lastTime_ = childStarted_;
  } else {
    lastFailure_ = std::chrono::steady_clock::now();
  }
  std::vector<Waiter> done;
  done.swap(running_);
  return done;
}

bool Checkpointer::writing() const {
  std::lock_guard lock(mutex_);
  return child_ > 0;
}

}  // namespace duet::snapshot
