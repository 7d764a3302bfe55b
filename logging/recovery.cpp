#include "logging/recovery.h"

#include <chrono>
#include <filesystem>
#include <stdexcept>

#include <fmt/format.h>

#include "engine/elapsed.h"
#include "logging/archive_file.h"
#include "logging/log_format.h"
#include "logging/redo_log.h"

namespace duet::logging {
namespace {

constexpr auto kProgressEvery = std::chrono::seconds(5);

// Calls progress with what `line` says, at most once per kProgressEvery; checks the clock
// once per 1024 records.
class ProgressReporter {
 public:
  explicit ProgressReporter(const RecoveryProgress& progress) : progress_(progress) {}
  template <typename Line>
  void record(const Line& line) {
    if (!progress_ || (++records_ & 1023) != 0) return;
    auto now = std::chrono::steady_clock::now();
    if (now - last_ < kProgressEvery) return;
    last_ = now;
    progress_(line());
  }

 private:
  const RecoveryProgress& progress_;
  uint64_t records_ = 0;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

}  // namespace

RecoveryReport recover(std::unique_ptr<Engine>& engine, const std::function<std::unique_ptr<Engine>()>& freshEngine,
                       const std::string& archiveDir, const std::string& logDir, const RecoveryProgress& progress) {
  RecoveryReport report;
  ProgressReporter reporter(progress);
  removeUnfinishedArchives(archiveDir);
  std::vector<std::string> setAside;  // renamed *.damaged once recovery succeeded
  for (const ArchiveFile& archive : listArchives(archiveDir)) {
    auto started = std::chrono::steady_clock::now();
    uint64_t loaded = 0;
    ArchiveLoad load;
    try {
      load = loadArchive(archive.path, [&](std::string_view record) {
        reporter.record([&] { return fmt::format("loading {}: {} records so far", archive.path, loaded); });
        ++loaded;
        engine->replayTransaction(record);
      });
    } catch (const std::exception& e) {
      // Whole, but a record failed to load (a value its writer could not read back, a
      // bug): as with a damaged one, the archive before it and the log after that hold
      // the same commits. The engine holds part of this archive: start afresh.
      load.damage = fmt::format("record {} failed to load: {}", loaded, e.what());
      engine = freshEngine();
    }
    if (load.damage.empty()) {
      report.archivePath = archive.path;
      report.archiveLsn = archive.lsn;
      report.archiveRecords = load.records;
      report.archiveBytes = load.bytes;
      report.archiveMillis = msSince(started);
      break;
    }
    report.damagedArchives.push_back(archive.path + ": " + load.damage);
    setAside.push_back(archive.path);
  }

  auto started = std::chrono::steady_clock::now();
  uint64_t expected = report.archiveLsn + 1;
  ReadResult read = readLog(logDir, report.archiveLsn, [&](uint64_t lsn, std::string_view record) {
    if (lsn != expected) {
      throw std::runtime_error(fmt::format(
          "recovery failed: the redo log goes on at LSN {}, but {} needs it from LSN {}", lsn,
          report.archivePath.empty() ? std::string("a start without an archive") : report.archivePath, expected));
    }
    ++expected;
    reporter.record([&] { return fmt::format("replaying the log: at LSN {}", lsn); });
    try {
      engine->replayTransaction(record);
    } catch (const std::exception& e) {
      throw std::runtime_error(fmt::format("recovery failed at log record {}: {}", lsn, e.what()));
    }
  });
  // Set aside only now, so that a recovery that fails anyway leaves every file as it was.
  // Renamed so that no later start, and no checkpoint counting the archives it keeps, takes
  // one for a good archive.
  for (const std::string& path : setAside) std::filesystem::rename(path, path + ".damaged");
  if (!setAside.empty()) syncDirectory(archiveDir);
  report.replayed = read.records;
  report.replayMillis = msSince(started);
  report.logStop = read.stopReason;
  report.lastLsn = std::max(read.lastLsn, report.archiveLsn);
  if (read.lastLsn < report.archiveLsn) {
    // The archive holds commits whose log records never became durable (a crash right after
    // it was written). Every record the log has is in the archive too; the segments go, so
    // that the log goes on after the archive's LSN without a gap, which a later recovery
    // would take for damage.
    std::vector<SegmentFile> segments = listSegments(logDir);
    for (const SegmentFile& segment : segments) std::filesystem::remove(segment.path);
    if (!segments.empty()) syncDirectory(logDir);
  }
  return report;
}

}  // namespace duet::logging
