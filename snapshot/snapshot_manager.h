// The live snapshot processes: which one serves a read-only query, when to fork a new one,
// and when an old one ends (docs/snapshots.md).
//
// A snapshot is fresh enough for a query when it holds every commit so far, or when it holds
// the session's own last commit (read-your-writes) and is younger than the session's
// duet.snapshot_max_age. A query goes to the freshest such snapshot; a busy one gets a
// sibling (a new fork) while fewer than maxProcesses live. A snapshot ends once nobody uses
// it and it is not the newest, or is stale (commits came since, and it is past the
// server's max age); until it has been reaped it is listed as ending.
#pragma once
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "session/session_api.h"
#include "snapshot/snapshot_process.h"

namespace duet::snapshot {

class SnapshotManager {
 public:
  SnapshotManager(Engine& engine, SnapshotConfig config, int defaultMaxAgeMs = 1000);
  ~SnapshotManager();

  // Executor thread only, between two transactions: the snapshot for `query`, forked now
  // if none is fresh enough. The caller holds it while the query runs (and counts it in
  // running). Throws SqlError when a fork fails. With mayFork false (beside another
  // session's open block, whose uncommitted changes a fork would copy), one that exists,
  // busy or not, or null.
  std::shared_ptr<SnapshotProcess> acquire(const SnapshotQuery& query, bool mayFork = true);
  // Executor thread: whether acquire(query, false) would find one.
  bool exists(const SnapshotQuery& query);
  // Any thread: ends snapshots nobody needs, reaps ended ones.
  void maintain();
  // pg_catalog.duet_snapshots: live snapshots, then ending ones.
  std::vector<SnapshotListing> list();
  // Any thread: a snapshot process may be running (live, or ending and not yet reaped).
  bool anyProcess();
  // Kills every snapshot process and waits for them.
  void shutdown();

 private:
  // The freshest snapshot fresh enough for `query`, the least busy of those; null if none.
  std::shared_ptr<SnapshotProcess> freshest(const SnapshotQuery& query);  // under mutex_
  Engine& engine_;
  SnapshotConfig config_;
  int defaultMaxAgeMs_;
  std::mutex mutex_;
  std::vector<std::shared_ptr<SnapshotProcess>> live_;    // oldest first
  std::vector<std::shared_ptr<SnapshotProcess>> ending_;  // retired, not yet reaped
};

}  // namespace duet::snapshot
