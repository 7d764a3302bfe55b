// createSqlEngine: the Engine that owns the catalog and plan cache, registers the runtime
// functions generated code calls (once per process), and opens sessions.
#include "session/sql_engine.h"

#include <fmt/format.h>
#include <algorithm>

#include <map>
#include <mutex>

#include "compiler/compiler.h"
#include "session/archive_dump.h"
#include "session/engine_state.h"
#include "session/sql_session.h"
#include "session/transaction_record.h"

namespace duet {
namespace {

class SqlEngine final : public Engine {
 public:
  explicit SqlEngine(const EngineConfig& config) {
    prepareCompiler();  // before the first query, not during it
    state_.config = config;
    state_.startTimestamp = currentTimestamp();
  }
  // The optimiser thread's modules in work are this engine's plans' (or another's, which
  // keep their cheap tier): none outlives the engine, nor runs while the process exits.
  ~SqlEngine() override { finishCompilerThreads(); }

  std::unique_ptr<Session> openSession(const std::vector<std::pair<std::string, std::string>>& startupParams) override {
    std::string user, database;
    for (const auto& [name, value] : startupParams) {
      if (name == "user") user = value;
      if (name == "database") database = value;
    }
    if (database.empty()) database = user;
    Database* db = state_.catalog.database(database);
    if (!db) {
      SqlError e(sqlstate::kInvalidCatalogName, fmt::format("database \"{}\" does not exist", database));
      e.fatal = true;
      throw e;
    }
    return std::make_unique<SqlSession>(state_, *db, user, database, startupParams);
  }

  void setSnapshotProbe(std::function<bool(const SnapshotQuery&)> probe) override {
    state_.snapshotExists = std::move(probe);
  }
  void setSnapshotLister(std::function<std::vector<SnapshotListing>()> lister) override {
    state_.listSnapshots = std::move(lister);
  }

  void setParallelThreads(uint32_t threads) override {
    state_.parallelThreads = std::max<uint32_t>(threads, 1);
    state_.snapshotProcess = true;  // called in snapshot processes only
  }

  void replayTransaction(std::string_view record) override {
    LoggedTransaction t = decodeTransaction(record);
    // Ids up to the record's were handed out: none of them is handed out again.
    state_.nextTransactionId = std::max(state_.nextTransactionId, t.transactionId + 1);
    // The transactions of a CALL that ended some inside it follow each other in the log
    // (the call holds the executor): collected, then run as one call.
    if (!callParts_.empty() && (t.callTransaction <= callParts_.back().callTransaction)) replayCall();
    if (t.callTransaction != 0) {
      callParts_.push_back(std::move(t));
      if (callParts_.back().callEnded) replayCall();
      return;
    }
    if (t.statements.empty()) return;
    replayIn(t, [&](SqlSession& session) { session.replay(t); });
  }

  void setCommitLog(std::function<uint64_t(std::string)> append) override {
    // Recovery is over: a CALL whose end the log lacks runs up to its last transaction
    // logged. The sessions whose end the log lacks are gone, and with them their temporary
    // objects (dropped now, before anything is logged).
    if (!callParts_.empty()) replayCall();
    tempSessions_.clear();
    replaySessions_.clear();
    state_.commitLog = std::move(append);
  }

  void writeArchive(const std::function<void(std::string)>& emit) override { dumpArchive(state_, emit); }

  bool changesPending() const override { return UndoLog::withChanges() > 0; }

  uint64_t commitCount() const override { return state_.commitCount.load(std::memory_order_acquire); }

 private:
  EngineState state_;
  // Runs `replay` in the session that replays record t's transaction.
  void replayIn(const LoggedTransaction& t, const std::function<void(SqlSession&)>& replay) {
    // The sessions of an earlier server run ended with it, their temporary objects too.
    if (t.serverStart > replayServerStart_) {
      std::erase_if(tempSessions_, [&](const auto& s) { return s.first.serverStart < t.serverStart; });
      replayServerStart_ = t.serverStart;
    }
    if (t.tempSession != 0) {
      replayTempTransaction(t, replay);
      return;
    }
    // One session per user and database serves every record after it, until DDL moves the
    // catalog on (a session must not outlive a database it points at).
    if (replayCatalogVersion_ != state_.catalogVersion) replaySessions_.clear();
    std::unique_ptr<Session>& session = replaySessions_[{t.user, t.database}];
    if (!session) session = openSession({{"user", t.user}, {"database", t.database}});
    replay(static_cast<SqlSession&>(*session));
    replayCatalogVersion_ = state_.catalogVersion;
  }

  // The CALL of the records collected in callParts_, once.
  void replayCall() {
    std::vector<LoggedTransaction> parts = std::move(callParts_);
    callParts_.clear();
    const LoggedTransaction& first = parts.front();
    replayIn(first, [&](SqlSession& session) { session.replayCall(parts); });
  }

  // A session that has had temporary objects replays in a session of its own, which holds
  // its temporary schema from one of its records to the next, until a record leaves it
  // without one (DISCARD TEMP, the session's end).
  void replayTempTransaction(const LoggedTransaction& t, const std::function<void(SqlSession&)>& replay) {
    TempSessionId id{t.serverStart, t.tempSession};
    std::unique_ptr<Session>& session = tempSessions_[id];
    if (!session) {
      // Live sessions never share a schema name: one that still holds this name ended
      // without a logged end (its server crashed mid-run, in a run whose later records
      // were not reached).
      std::erase_if(tempSessions_, [&](const auto& s) {
        return s.second && static_cast<SqlSession&>(*s.second).tempSchemaName() == t.tempSchema;
      });
      std::unique_ptr<Session>& opened = tempSessions_[id];
      opened = openSession({{"user", t.user}, {"database", t.database}});
      static_cast<SqlSession&>(*opened).replayTempSession(id, t.tempSchema);
    }
    SqlSession& replaying = static_cast<SqlSession&>(*tempSessions_[id]);
    replay(replaying);
    if (replaying.tempSchemaName().empty()) tempSessions_.erase(id);
  }

  std::map<std::pair<std::string, std::string>, std::unique_ptr<Session>> replaySessions_;
  std::vector<LoggedTransaction> callParts_;  // a CALL's transactions, until its run of records ends
  uint64_t replayCatalogVersion_ = 0;
  std::map<TempSessionId, std::unique_ptr<Session>> tempSessions_;
  int64_t replayServerStart_ = 0;
};

}  // namespace

std::unique_ptr<Engine> createSqlEngine(const EngineConfig& config) { return std::make_unique<SqlEngine>(config); }

}  // namespace duet
