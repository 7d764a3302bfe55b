// The SQL engine: the Engine implementation that compiles and runs statements.
#pragma once
#include <memory>
#include <string>

#include "session/session_api.h"

namespace duet {

struct EngineConfig {
  std::string dataDir;                      // created if missing
  int idleInTransactionTimeoutMs = 60'000;  // 0 disables; 25P03 when exceeded
  // Read-only statements may go to fork()ed snapshot processes (duetd has them; in-process
  // drivers and tests do not).
  bool snapshots = false;
};

std::unique_ptr<Engine> createSqlEngine(const EngineConfig& config);

}  // namespace duet
