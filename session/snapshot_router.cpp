// Snapshot routing (docs/snapshots.md): which read-only statements leave the executor for a
// fork()ed snapshot process. A statement goes there when it can only read (a SELECT whose
// user-defined routines and built-in functions are STABLE or IMMUTABLE) and is worth it: in auto mode it walks at
// least duet.snapshot_min_rows rows of its tables (scans and index ranges), so point
// lookups stay on the executor, where they cost less than the trip. Inside BEGIN READ ONLY
// every SELECT goes to the block's snapshot, for a repeatable view. The decision uses the
// cached plan, or a plan tree without code: a routed statement is compiled in the snapshot,
// never on the executor.
#include "session/snapshot_router.h"

#include <algorithm>

#include "engine/storage/table.h"
#include "session/table_analysis.h"

namespace duet {

bool SnapshotRouter::routingOn() const {
  // A session with temporary tables reads on the executor: a snapshot's session has no
  // temporary schema of its own to find them in.
  return state_.engine.config.snapshots && state_.settings.snapshotRouting() != Settings::SnapshotRouting::Never &&
         !state_.tempSchema();
}

bool SnapshotRouter::readOnlyBlock() const { return state_.txn.inBlock() && transaction_.transactionReadOnly(); }

bool SnapshotRouter::holdsExecutor() const {
  // A read-only block reads snapshots, so other sessions need not wait for it.
  return state_.txn.holdsExecutor() && !(readOnlyBlock() && routingOn());
}

namespace {

// The SELECT a statement would run on a snapshot: itself, or the one an EXPLAIN explains
// (the EXPLAIN goes where that SELECT would, so that it shows the plan, parallel pipelines
// included, and with ANALYZE the run, of that place); null for any other statement.
const sql::Stmt* routedQuery(const sql::Stmt& stmt) {
  const sql::Stmt* query = &stmt;
  if (stmt.kind == sql::StmtKind::Explain) query = stmt.as<sql::ExplainStmt>().stmt.get();
  return query->kind == sql::StmtKind::Select ? query : nullptr;
}

}  // namespace

std::shared_ptr<const PreparedPlan> SnapshotRouter::routingPlan(Statement& st) {
  TableAnalysis::analyzeDue(state_.engine);  // before the snapshot is forked, so it has them
  if (st.parsed.stmt->kind == sql::StmtKind::Explain) {
    PlanRequest request = planner_.planRequest(st);
    request.stmt = routedQuery(*st.parsed.stmt);
    return std::shared_ptr<const PreparedPlan>(planTree(request).plan);
  }
  // A cached plan is kept for running the statement here, if it stays here.
  if ((st.plan = state_.engine.plans.find(planner_.planKey(st), state_.engine.catalogVersion))) return st.plan;
  return std::shared_ptr<const PreparedPlan>(planTree(planner_.planRequest(st)).plan);
}

bool SnapshotRouter::goesToSnapshot(const std::vector<std::shared_ptr<const PreparedPlan>>& plans, bool block) const {
  // The server's state (pg_stat_activity, duet_snapshots) is the server's, now: a
  // snapshot's copy is out of date.
  for (const auto& plan : plans)
    if (state_.readsLiveSystemTable(*plan)) return false;
  // set_config(), pg_notify(), txid_current() and the advisory lock functions change the
  // session or the engine, which a snapshot's copy would not.
  for (const auto& plan : plans)
    for (const std::string& f : plan->footprint.functions)
      if (f == "duet_q_set_config" || f == "duet_q_pg_notify" || f == "duet_q_txid_current" ||
          f.find("advisory_") != std::string::npos)
        return false;
  if (block) return true;  // writes are refused there (25006)
  // Cheap tests first: a routine call's plan (each TPC-C call) walks no table.
  if (state_.settings.snapshotRouting() != Settings::SnapshotRouting::Always) {
    int64_t rows = 0;
    for (const auto& plan : plans)
      for (const Table* t : plan->footprint.walked) rows += static_cast<int64_t>(t->liveRowCount());
    if (rows < state_.settings.snapshotMinRows()) return false;
  }
  // Only what cannot write: a SELECT whose routines are STABLE or IMMUTABLE.
  for (const auto& plan : plans) {
    if (plan->command != PreparedPlan::Command::Select || plan->footprint.writes) return false;
    for (uint32_t oid : plan->footprint.routines) {
      const RoutineInfo* r = routines_.routineByOid(oid);
      if (r == nullptr || r->volatility == Volatility::Volatile) return false;
    }
    for (const std::string& f : plan->footprint.functions)
      if (builtinFunctionVolatile(f)) return false;
  }
  return true;
}

bool SnapshotRouter::routeStatement(Statement& st) {
  if (!routingOn() || state_.txn.failed() || !routedQuery(*st.parsed.stmt)) return false;
  bool block = readOnlyBlock();
  // The implicit transaction of a Query may have run statements before this one: only
  // ones that changed nothing (no rows, no catalog, no SET LOCAL) let it end here.
  bool fresh = state_.txn.mode() == TransactionState::Mode::None ||
               (state_.txn.mode() == TransactionState::Mode::Implicit && state_.txn.undo().empty() && redo_.empty() &&
                !state_.settings.hasLocalChanges());
  if (!fresh && !block) return false;
  std::shared_ptr<const PreparedPlan> plan;
  try {
    plan = routingPlan(st);
  } catch (const SqlError&) {
    return false;  // the executor reports the error as it runs the statement
  }
  if (!goesToSnapshot({plan}, block) || !snapshotAvailable(block)) return false;
  if (state_.txn.mode() == TransactionState::Mode::Implicit) transaction_.endTransaction(true);
  noteBlockSnapshot(block);
  snapshotQuery_ = snapshotQueryBase(block);
  const sql::Stmt& stmt = *st.parsed.stmt;
  snapshotQuery_.sql = std::string(st.sql.substr(stmt.begin, stmt.end - stmt.begin));
  return true;
}

bool SnapshotRouter::snapshotAvailable(bool block) const {
  // Beside another session's block no snapshot may be forked (it would hold the block's
  // uncommitted changes): one fresh enough must exist already. A read-only block's own
  // snapshot is taken by its first statement, which therefore waits.
  if (!state_.besideHolder) return true;
  if (block && state_.txn.ranStatement()) return true;
  return state_.engine.snapshotExists && state_.engine.snapshotExists(snapshotQueryBase(block));
}

bool SnapshotRouter::routeExecute(Portal& p) {
  // An EXPLAIN portal has no plan of its own (one is made below); with $n it stays here.
  const sql::Stmt& stmt = *p.stmt->parsed.stmt;
  bool explain = stmt.kind == sql::StmtKind::Explain;
  if (!routingOn() || state_.txn.failed() || !routedQuery(stmt)) return false;
  if (explain ? p.stmt->parsed.explicitParams > 0 : !p.plan) return false;
  bool block = readOnlyBlock();
  // The implicit transaction of this Sync cycle may already have written.
  bool fresh = state_.txn.mode() == TransactionState::Mode::None ||
               (state_.txn.mode() == TransactionState::Mode::Implicit && state_.txn.undo().empty());
  if (!fresh && !block) return false;
  std::shared_ptr<const PreparedPlan> plan = p.plan;
  if (explain) {
    try {
      plan = routingPlan(*p.stmt);
    } catch (const SqlError&) {
      return false;  // the executor reports the error as it runs the statement
    }
  }
  if (!goesToSnapshot({plan}, block) || !snapshotAvailable(block)) return false;
  noteBlockSnapshot(block);
  snapshotQuery_ = snapshotQueryBase(block);
  snapshotQuery_.sql = p.stmt->sql;
  snapshotQuery_.extended = true;
  // The explicit parameters, as text in this session's settings, which the snapshot's
  // session shares; lifted literals are lifted again from the text there.
  if (p.plan) {
    TextParams params = explicitParamsAsText(*p.stmt, *p.plan, p.params->data(), state_.settings.typeContext());
    snapshotQuery_.paramTypeOids = std::move(params.typeOids);
    for (auto& value : params.values) snapshotQuery_.params.push_back(BindParam{std::move(value), 0});
  }
  snapshotQuery_.resultFormats = p.formats;
  return true;
}

void SnapshotRouter::noteBlockSnapshot(bool block) {
  // The block's snapshot is taken: as in PostgreSQL, it may not turn read-write any more (25001).
  if (block) state_.txn.noteStatement();
}

SnapshotQuery SnapshotRouter::snapshotQueryBase(bool block) const {
  SnapshotQuery q;
  q.startupParams = {{"user", state_.user}, {"database", state_.dbName}};
  for (auto& setting : state_.settings.nonDefaultValues()) q.startupParams.push_back(std::move(setting));
  q.currentCommit = state_.engine.commitCount.load(std::memory_order_relaxed);
  q.minCommit = state_.lastCommit;
  q.maxAgeMs = state_.settings.snapshotMaxAgeMs();
  q.readOnlyBlock = block;
  q.memoryLimitKb = state_.settings.snapshotMemoryLimitKb();
  q.backendPid = state_.backendPid;
  return q;
}

SnapshotQuery SnapshotRouter::takeSnapshotQuery() { return std::move(snapshotQuery_); }

}  // namespace duet
