// Recovery at startup (docs/logging.md, "Recovery"): the newest archive that checks out
// whole and loads is loaded (a damaged one is renamed *.damaged and the one before it is tried), then
// the log after its LSN is replayed, stopping cleanly at a torn or damaged tail.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "session/session_api.h"

namespace duet::logging {

struct RecoveryReport {
  std::string archivePath;  // empty: none loaded (the whole log was replayed)
  uint64_t archiveLsn = 0;
  uint64_t archiveRecords = 0;
  uint64_t archiveBytes = 0;
  double archiveMillis = 0;
  std::vector<std::string> damagedArchives;  // "path: what was wrong"
  uint64_t replayed = 0;                     // log records replayed after the archive
  double replayMillis = 0;
  std::string logStop;   // why the log ended early (its tail was cut there); empty at a clean end
  uint64_t lastLsn = 0;  // the newest LSN recovered: the log goes on after it
};

// Called every few seconds while recovery works, with a line saying how far it is.
using RecoveryProgress = std::function<void(const std::string& line)>;

// Loads DATADIR/archive and replays DATADIR/log into the (fresh) engine. An archive that is
// damaged, or whose records fail to load, is skipped for the one before it (replacing a
// partly loaded engine with freshEngine()), and renamed *.damaged once recovery succeeded.
// Throws std::runtime_error, leaving the archives as they were, when what the files hold
// cannot be brought back: a log record that fails to replay, log records missing between
// the archive and the log, or a log damaged where no crash leaves it (readLog).
RecoveryReport recover(std::unique_ptr<Engine>& engine, const std::function<std::unique_ptr<Engine>()>& freshEngine,
                       const std::string& archiveDir, const std::string& logDir, const RecoveryProgress& progress = {});

}  // namespace duet::logging
