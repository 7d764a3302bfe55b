// What all sessions of one SQL engine share: the catalog, the compiled-plan cache, and the
// catalog version that invalidates cached plans after DDL. Only the executor thread uses it.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "compiler/compiler.h"
#include "engine/catalog/catalog.h"
#include "session/advisory_locks.h"
#include "session/notifications.h"
#include "session/sql_engine.h"

namespace duet {

// Compiled plans by statement shape. A plan whose catalogVersion is older than the
// engine's is stale: it may point at a dropped or changed table, so it is never run.
class PlanCache {
 public:
  std::shared_ptr<PreparedPlan> find(const std::string& key, uint64_t catalogVersion);
  void put(const std::string& key, std::shared_ptr<PreparedPlan> plan);
  size_t size() const { return plans_.size(); }
  // Every cached plan with its key (statistics, tests).
  const std::map<std::string, std::shared_ptr<PreparedPlan>>& entries() const { return plans_; }

 private:
  std::map<std::string, std::shared_ptr<PreparedPlan>> plans_;
};

// A routine's machine code with what its compilation read of the catalog
// (routine_cache.cpp): the routine's own definition, and per table or routine
// name it looked up ('t' or 'r', the name as written) a fingerprint of what it found.
struct CachedRoutine {
  std::shared_ptr<plpgsql::CompiledRoutine> code;
  uint64_t catalogVersion = 0;  // the catalog version it was last found to fit
  bool returnsRecord = false;   // compiled for one row type (the key's second half)
  std::string definition;
  std::map<std::pair<char, std::vector<std::string>>, std::string> dependencies;
  // Its SET clauses (RoutineInfo::config), applied around each call (RoutineSettingsScope).
  std::vector<std::pair<std::string, std::string>> config;
};

struct SessionState;

// pg_stat_database's counters for one database.
struct DatabaseStats {
  int64_t commits = 0, rollbacks = 0, sessions = 0;
};

struct EngineState {
  EngineConfig config;
  Catalog catalog;
  PlanCache plans;
  // Compiled functions and procedures by oid, the search path their names were found
  // along (SearchPath::key: a PL/pgSQL statement is planned along its caller's path, as
  // PostgreSQL's plan cache replans for a new search_path) and, for a function returning
  // record, the row its caller's column definition list asks for (its types spelled out;
  // empty otherwise): such a function is compiled once per row type; a polymorphic
  // routine once per list of actual argument types, spelled out ahead of the row. Checked
  // again once catalogVersion moves on.
  std::map<std::tuple<uint32_t, std::string, std::string>, CachedRoutine, std::less<>> routines;
  // Moves on with every DDL statement and every rollback that undid DDL.
  uint64_t catalogVersion = 1;
  // Transactions that changed something and committed (written by the executor only; read
  // by the snapshot manager, which compares it with a snapshot's count at fork).
  std::atomic<uint64_t> commitCount{0};
  // The rows of pg_catalog.duet_snapshots; unset: none.
  std::function<std::vector<SnapshotListing>()> listSnapshots;
  std::function<bool(const SnapshotQuery&)> snapshotExists;  // Engine::setSnapshotProbe
  // Threads a statement may run on (Engine::setParallelThreads): 1 but in snapshots.
  uint32_t parallelThreads = 1;
  // This engine serves a snapshot process (Engine::setParallelThreads is called there
  // only): EXPLAIN says so.
  bool snapshotProcess = false;
  // The sessions open now, in the order they opened (pg_stat_activity): each SessionState
  // adds itself and removes itself, on the executor thread.
  std::vector<SessionState*> sessions;
  std::map<uint32_t, DatabaseStats> databaseStats;  // by database oid
  // When the engine started, microseconds since 2000-01-01 UTC (pg_postmaster_start_time).
  int64_t startTimestamp = 0;
  // Sessions that made a temporary schema so far: the next one's TempSessionId number.
  uint64_t tempSessions = 0;
  // Engine::setCommitLog: where committed write transactions' records go; unset: nowhere.
  std::function<uint64_t(std::string)> commitLog;
  // LISTEN / NOTIFY between the sessions.
  NotificationHub notifications;
  // pg_advisory_lock and friends: the locks every session holds.
  AdvisoryLockTable advisoryLocks;
  // txid_current(): the id the next transaction that asks gets, PostgreSQL's first normal
  // transaction id to begin with. Never handed out twice: a transaction that took one is
  // logged with it, and recovery continues after the largest id its records and archive
  // name (docs/logging.md).
  uint64_t nextTransactionId = 3;
};

}  // namespace duet
