#include "session/live_system_rows.h"

#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "engine/catalog/system_rows.h"
#include "session/transaction_state.h"

namespace duet {
namespace {

using Row = SystemRow;
const SystemValue kNull{};
constexpr int64_t kPostgresEpochUnixMicros = 946'684'800'000'000;

SystemValue text(const std::string& s) { return s; }
SystemValue timestampOrNull(int64_t t) { return t ? SystemValue(t) : kNull; }

std::vector<Row> snapshots(const SessionState& reader) {
  std::vector<Row> rows;
  if (!reader.engine.listSnapshots) return rows;
  for (const SnapshotListing& s : reader.engine.listSnapshots())
    rows.push_back({int64_t{s.pid}, s.forkedAtUnixMicros - kPostgresEpochUnixMicros, s.ageSeconds, s.forkMillis,
                    s.commits, int64_t{s.queries}, s.memoryBytes, s.ending});
  return rows;
}

// pg_stat_activity: one row per client session. The executor runs one statement at a time,
// so the reader is the one active session; the others are between statements.
std::vector<Row> activity(const SessionState& reader) {
  std::vector<Row> rows;
  for (const SessionState* s : reader.engine.sessions) {
    if (s->backendPid == 0) continue;  // not a client's (a snapshot's or recovery's)
    const Role* role = s->engine.catalog.role(s->user);
    bool inBlock = s->txn.mode() != TransactionState::Mode::None;
    std::string state = s == &reader      ? "active"
                        : !inBlock        ? "idle"
                        : s->txn.failed() ? "idle in transaction (aborted)"
                                          : "idle in transaction";
    rows.push_back({int64_t{s->db->oid},
                    s->dbName,
                    int64_t{s->backendPid},
                    kNull,
                    role ? SystemValue(int64_t{role->oid}) : kNull,
                    s->user,
                    text(s->settings.get("application_name")),
                    s->clientAddress.empty() ? kNull : text(s->clientAddress),
                    kNull,
                    s->clientPort < 0 ? kNull : SystemValue(int64_t{s->clientPort}),
                    timestampOrNull(s->backendStart),
                    inBlock || s == &reader ? timestampOrNull(s->txn.startTimestamp()) : kNull,
                    timestampOrNull(s->queryStart),
                    timestampOrNull(s->queryStart),
                    kNull,
                    kNull,
                    state,
                    kNull,
                    kNull,
                    kNull,
                    s->query,
                    std::string("client backend")});
  }
  return rows;
}

// pg_stat_database: a row for the shared objects (datid 0), then one per database.
std::vector<Row> databaseStats(const SessionState& reader) {
  auto row = [](SystemValue oid, SystemValue name, int64_t backends, const DatabaseStats& s) {
    Row r(28, SystemValue(int64_t{0}));  // blks_read .. deadlocks and the rest: 0 but as below
    r[0] = std::move(oid);
    r[1] = std::move(name);
    r[2] = SystemValue(backends);
    r[3] = SystemValue(s.commits);
    r[4] = SystemValue(s.rollbacks);
    r[16] = kNull;                                          // checksum_failures: no checksums
    r[17] = kNull;                                          // checksum_last_failure
    for (int i = 18; i < 23; ++i) r[i] = SystemValue(0.0);  // blk_read_time .. idle_in_transaction_time
    r[23] = SystemValue(s.sessions);
    r[27] = kNull;  // stats_reset
    return r;
  };
  std::vector<Row> rows;
  rows.push_back(row(int64_t{0}, kNull, 0, DatabaseStats{}));
  for (const auto& [name, db] : reader.engine.catalog.databases()) {
    int64_t backends = 0;
    for (const SessionState* s : reader.engine.sessions) backends += s->backendPid != 0 && s->db == db.get();
    auto it = reader.engine.databaseStats.find(db->oid);
    rows.push_back(
        row(int64_t{db->oid}, name, backends, it == reader.engine.databaseStats.end() ? DatabaseStats{} : it->second));
  }
  return rows;
}

// pg_locks: the advisory locks, one row per lock, holder and mode (the serial executor
// takes no other locks). Keys as PostgreSQL shows them: a bigint's high and low halves in
// classid and objid with objsubid 1, two int4 keys with objsubid 2. Nothing ever waits.
std::vector<Row> locks(const SessionState& reader) {
  std::vector<Row> rows;
  for (const AdvisoryLockTable::Held& h : reader.engine.advisoryLocks.held()) {
    auto ordinal = std::find(reader.engine.sessions.begin(), reader.engine.sessions.end(), h.holder) -
                   reader.engine.sessions.begin() + 1;
    rows.push_back({std::string("advisory"), int64_t{h.tag.database}, kNull, kNull, kNull, kNull, kNull,
                    static_cast<int64_t>(h.tag.key >> 32), static_cast<int64_t>(h.tag.key & 0xffffffffu),
                    int64_t{h.tag.pair ? 2 : 1}, fmt::format("{}/{}", ordinal, h.holder->txn.assignedTransactionId()),
                    int64_t{h.holder->backendPid}, std::string(h.shared ? "ShareLock" : "ExclusiveLock"), true, false,
                    kNull});
  }
  return rows;
}

// pg_settings: the session's settings as SHOW ALL lists them.
std::vector<Row> settings(const SessionState& reader) {
  std::vector<Row> rows;
  for (const std::vector<std::string>& s : reader.settings.showAll()) {
    const std::string& value = s[1];
    bool isBool = value == "on" || value == "off";
    bool isInteger = !value.empty() && value.find_first_not_of("-0123456789") == std::string::npos;
    std::string type = isBool ? "bool" : isInteger ? "integer" : "string";
    Row r{s[0],
          value,
          kNull,
          kNull,
          s.size() > 2 ? text(s[2]) : kNull,
          kNull,
          std::string("user"),
          type,
          std::string("default"),
          kNull,
          kNull,
          kNull,
          value,
          value,
          kNull,
          kNull,
          false};
    rows.push_back(std::move(r));
  }
  return rows;
}

}  // namespace

std::vector<SystemRow> liveSystemRows(const SystemRelation& relation, const SessionState& reader) {
  if (relation.name == "duet_snapshots") return snapshots(reader);
  if (relation.name == "pg_stat_activity") return activity(reader);
  if (relation.name == "pg_stat_database") return databaseStats(reader);
  if (relation.name == "pg_settings") return settings(reader);
  if (relation.name == "pg_sequences") return fillSequencesView(reader.engine.catalog, *reader.db);
  if (relation.name == "pg_stat_user_tables") return fillUserTableStats(reader.engine.catalog, *reader.db);
  if (relation.name == "pg_stats") return fillStatistics(reader.engine.catalog, *reader.db);
  if (relation.name == "pg_locks") return locks(reader);
  return {};
}

void fillSystemTables(SessionState& state, const PreparedPlan& plan) {
  for (const Table* walked : plan.footprint.walked) {
    auto it = state.systemTables.find(walked);
    if (it == state.systemTables.end()) continue;
    SessionState::SystemTable& system = it->second;
    if (!system.relation->fill) {  // live: the server's state now
      writeSystemRows(*system.table, liveSystemRows(*system.relation, state));
      continue;
    }
    // A static relation: its rows change only with the catalog (DDL, or a rollback of it)
    // and with statistics (pg_class.reltuples).
    uint64_t analyses = state.engine.catalog.analysisQueue().version;
    if (system.filledAt == state.engine.catalogVersion && system.filledAtAnalyses == analyses) continue;
    writeSystemRows(*system.table, system.relation->fill(state.engine.catalog, *state.db));
    system.filledAt = state.engine.catalogVersion;
    system.filledAtAnalyses = analyses;
  }
}

}  // namespace duet
