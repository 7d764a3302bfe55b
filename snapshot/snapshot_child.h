// The child side of a snapshot process: set up after fork(), then answer queries from the
// control socket until it closes (docs/snapshots.md).
#pragma once
#include <sys/types.h>

#include "session/session_api.h"
#include "snapshot/snapshot_process.h"

namespace duet::snapshot {

// Never returns: the process ends with _exit, so the parent's static objects (threads that
// do not exist here) are never destroyed.
[[noreturn]] void runSnapshotChild(Engine& engine, int controlFd, pid_t parent, const SnapshotConfig& config);

}  // namespace duet::snapshot
