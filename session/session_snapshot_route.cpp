// Snapshot routing (docs/snapshots.md): which read-only statements leave the executor for a
// fork()ed snapshot process. A statement goes there when it can only read (a SELECT whose
// user-defined routines are STABLE or IMMUTABLE) and is worth it: in auto mode it walks at
// least duet.snapshot_min_rows rows of its tables (scans and index ranges), so point
// lookups stay on the executor, where they cost less than the trip. Inside BEGIN READ ONLY
// every SELECT goes to the block's snapshot, for a repeatable view. The decision uses the
// cached plan, or a plan tree without code: a routed statement is compiled in the snapshot,
// never on the executor.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "engine/storage/table.h"
#include "session/sql_session.h"

namespace duet {

bool SqlSession::snapshotRoutingOn() const {
  return engine_.config.snapshots && settings_.snapshotRouting() != Settings::SnapshotRouting::Never;
}

bool SqlSession::readOnlyBlock() const { return txn_.inBlock() && transactionReadOnly(); }

bool SqlSession::holdsExecutor() const {
  // A read-only block reads snapshots, so other sessions need not wait for it.
  return txn_.holdsExecutor() && !(readOnlyBlock() && snapshotRoutingOn());
}

std::shared_ptr<const PreparedPlan> SqlSession::routingPlan(Statement& st) {
  // A cached plan is kept for running the statement here, if it stays here.
  if ((st.plan = engine_.plans.find(planKey(st), engine_.catalogVersion))) return st.plan;
  return std::shared_ptr<const PreparedPlan>(planTree(planRequest(st)).plan);
}

bool SqlSession::goesToSnapshot(const std::vector<std::shared_ptr<const PreparedPlan>>& plans, bool block) const {
  auto walks = [](const PreparedPlan& plan, const Table* table) {
    return std::find(plan.footprint.walked.begin(), plan.footprint.walked.end(), table) != plan.footprint.walked.end();
  };
  // The list of snapshots is the server's, now: a snapshot's copy is out of date.
  for (const auto& plan : plans)
    if (walks(*plan, snapshotsView_)) return false;
  if (block) return true;  // writes are refused there (25006)
  // Cheap tests first: a routine call's plan (each TPC-C call) walks no table.
  if (settings_.snapshotRouting() != Settings::SnapshotRouting::Always) {
    int64_t rows = 0;
    for (const auto& plan : plans)
      for (const Table* t : plan->footprint.walked) rows += static_cast<int64_t>(t->liveRowCount());
    if (rows < settings_.snapshotMinRows()) return false;
  }
  // Only what cannot write: a SELECT whose routines are STABLE or IMMUTABLE.
  for (const auto& plan : plans) {
    if (plan->command != PreparedPlan::Command::Select) return false;
    for (uint32_t oid : plan->footprint.routines) {
      const RoutineInfo* r = routineByOid(oid);
      if (r == nullptr || r->volatility == Volatility::Volatile) return false;
    }
  }
  return true;
}

bool SqlSession::routeStatement(Statement& st) {
  if (!snapshotRoutingOn() || txn_.failed() || st.parsed.stmt->kind != sql::StmtKind::Select) return false;
  bool block = readOnlyBlock();
  // The implicit transaction of a Query may have run statements before this one: only
  // ones that changed nothing (no rows, no catalog, no SET LOCAL) let it end here.
  bool fresh = txn_.mode() == TransactionState::Mode::None ||
               (txn_.mode() == TransactionState::Mode::Implicit && txn_.undo().empty() && logged_.statements.empty() &&
                !settings_.hasLocalChanges());
  if (!fresh && !block) return false;
  std::shared_ptr<const PreparedPlan> plan;
  try {
    plan = routingPlan(st);
  } catch (const SqlError&) {
    return false;  // the executor reports the error as it runs the statement
  }
  if (!goesToSnapshot({plan}, block) || !snapshotAvailable(block)) return false;
  if (txn_.mode() == TransactionState::Mode::Implicit) endTransaction(true);
  noteBlockSnapshot(block);
  snapshotQuery_ = snapshotQueryBase(block);
  const sql::Stmt& stmt = *st.parsed.stmt;
  snapshotQuery_.sql = std::string(st.sql.substr(stmt.begin, stmt.end - stmt.begin));
  return true;
}

bool SqlSession::snapshotAvailable(bool block) const {
  // Beside another session's block no snapshot may be forked (it would hold the block's
  // uncommitted changes): one fresh enough must exist already. A read-only block's own
  // snapshot is taken by its first statement, which therefore waits.
  if (!besideHolder_) return true;
  if (block && txn_.ranStatement()) return true;
  return engine_.snapshotExists && engine_.snapshotExists(snapshotQueryBase(block));
}

bool SqlSession::routeExecute(Portal& p) {
  if (!snapshotRoutingOn() || txn_.failed() || !p.plan) return false;
  bool block = readOnlyBlock();
  // The implicit transaction of this Sync cycle may already have written.
  bool fresh = txn_.mode() == TransactionState::Mode::None ||
               (txn_.mode() == TransactionState::Mode::Implicit && txn_.undo().empty());
  if (!fresh && !block) return false;
  if (p.stmt->parsed.stmt->kind != sql::StmtKind::Select) return false;
  if (!goesToSnapshot({p.plan}, block) || !snapshotAvailable(block)) return false;
  noteBlockSnapshot(block);
  snapshotQuery_ = snapshotQueryBase(block);
  snapshotQuery_.sql = p.stmt->sql;
  snapshotQuery_.extended = true;
  // The explicit parameters, as text in this session's settings, which the snapshot's
  // session shares; lifted literals are lifted again from the text there.
  TextParams params = explicitParamsAsText(*p.stmt, *p.plan, p.params->data());
  snapshotQuery_.paramTypeOids = std::move(params.typeOids);
  for (auto& value : params.values) snapshotQuery_.params.push_back(BindParam{std::move(value), 0});
  snapshotQuery_.resultFormats = p.formats;
  return true;
}

void SqlSession::noteBlockSnapshot(bool block) {
  // The block's snapshot is taken: as in PostgreSQL, it may not turn read-write any more (25001).
  if (block) txn_.noteStatement();
}

SnapshotQuery SqlSession::snapshotQueryBase(bool block) const {
  SnapshotQuery q;
  q.startupParams = {{"user", user_}, {"database", dbName_}};
  for (auto& setting : settings_.nonDefaultValues()) q.startupParams.push_back(std::move(setting));
  q.currentCommit = engine_.commitCount.load(std::memory_order_relaxed);
  q.minCommit = lastCommit_;
  q.maxAgeMs = settings_.snapshotMaxAgeMs();
  q.readOnlyBlock = block;
  q.memoryLimitKb = settings_.snapshotMemoryLimitKb();
  return q;
}

SnapshotQuery SqlSession::takeSnapshotQuery() { return std::move(snapshotQuery_); }

void SqlSession::refreshSnapshotsView() {
  // Outside the transaction's undo log: the view's rows are the state of the server now,
  // not data a rollback restores.
  UndoLog undo;
  Table& view = *snapshotsView_;
  view.truncate(undo);
  if (engine_.listSnapshots) {
    const TupleLayout& layout = view.layout();
    std::vector<__int128> storage((layout.size + 15) / 16);
    auto* tuple = reinterpret_cast<uint8_t*>(storage.data());
    auto put = [&](int column, auto value) { std::memcpy(tuple + layout.offsets[column], &value, sizeof value); };
    constexpr int64_t kPostgresEpochUnixMicros = 946'684'800'000'000;
    for (const SnapshotListing& s : engine_.listSnapshots()) {
      std::fill(storage.begin(), storage.end(), 0);
      put(0, s.pid);
      put(1, s.forkedAtUnixMicros - kPostgresEpochUnixMicros);
      put(2, s.ageSeconds);
      put(3, s.forkMillis);
      put(4, s.commits);
      put(5, s.queries);
      put(6, s.memoryBytes);
      put(7, static_cast<uint8_t>(s.ending));
      view.insert(tuple, undo);
    }
  }
  undo.commit();
}

}  // namespace duet
