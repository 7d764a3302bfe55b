// The SQL session: one client connection (docs/session.md). A facade that implements the
// Session interface the server drives and the SessionServices compiled code calls back,
// over parts with one job each, which it owns and wires together (each holds the
// SessionState and the few parts it calls; none calls the facade, only compiled code does):
//
//   SimpleQuery, ExtendedProtocol   the two protocols: a Query's statements, Parse/Bind/Execute
//   StatementRunner (+DirectCaller) one statement's frame; compiled plans, direct calls
//   UtilityStatements               transaction control, SET/SHOW/RESET, DDL on the catalog
//   RoutineStatements               CREATE/DROP FUNCTION and PROCEDURE
//   ViewStatements                  CREATE/DROP VIEW, and the views a DROP takes along
//   SequenceStatements              CREATE/ALTER/DROP SEQUENCE, SERIAL and identity columns
//   CopyRunner                      COPY FROM STDIN / TO STDOUT
//   SnapshotRouter                  which read-only statements go to a fork() snapshot
//   DynamicStatements               what routines run with EXECUTE (dynamic SQL)
//   StatementPlanner                plans through the plan cache, literal parameter tuples
//   TransactionControl              statement start and failure, commit and rollback
//   RedoRecorder                    the redo log's record of the running transaction
//   RoutineCache                    routine candidates, compiled routine code, routine calls
//   SessionState                    what they all share (settings, transaction, flags, ...)
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "compiler/compiler.h"
#include "session/call_transactions.h"
#include "session/copy_runner.h"
#include "session/dynamic_statements.h"
#include "session/engine_state.h"
#include "session/extended_protocol.h"
#include "session/redo_recorder.h"
#include "session/routine_cache.h"
#include "session/routine_statements.h"
#include "session/session_api.h"
#include "session/session_state.h"
#include "session/simple_query.h"
#include "session/snapshot_router.h"
#include "session/statement_planner.h"
#include "session/statement_runner.h"
#include "session/transaction_control.h"
#include "session/transaction_record.h"
#include "session/utility_statements.h"

namespace duet {

class SqlSession final : public Session, public rt::SessionServices {
 public:
  SqlSession(EngineState& engine, Database& db, std::string user, std::string dbName,
             const std::vector<std::pair<std::string, std::string>>& startupParams);
  ~SqlSession() override;

  QueryState simpleQuery(std::string_view sql, ResultSink& sink) override { return simpleQuery_.run(sql, sink); }
  bool synchronousCommit() const override { return state_.settings.get("synchronous_commit") != "off"; }
  uint64_t endedTransactions() const override { return state_.endedTransactions; }
  bool takeCheckpointRequest() override { return std::exchange(state_.checkpointRequested, false); }
  // Recovery: runs one logged transaction again with the inputs it ran with.
  void replay(const LoggedTransaction& t);
  // Recovery: a CALL that ended transactions inside, from the records of its transactions
  // (LoggedTransaction::callTransaction), run once.
  void replayCall(const std::vector<LoggedTransaction>& parts);
  // Recovery: this session replays the session `id`, whose temporary schema was `schema`
  // (docs/logging.md, "Temporary tables"). tempSchemaName(): that name while the schema
  // exists, else empty.
  void replayTempSession(TempSessionId id, std::string schema) {
    state_.tempSessionId = id;
    state_.tempSchemaName = std::move(schema);
  }
  std::string tempSchemaName() const { return state_.tempSchema() ? state_.tempSchemaName : std::string(); }
  QueryState copyInData(std::string_view data, ResultSink& sink) override;
  void copyInFail(std::string_view message, ResultSink& sink) override;
  void parse(const std::string& name, std::string_view sql, const std::vector<uint32_t>& paramTypeOids) override {
    extended_.parse(name, sql, paramTypeOids);
  }
  void bind(const std::string& portal, const std::string& statement, const std::vector<BindParam>& params,
            const std::vector<int16_t>& resultFormats) override {
    extended_.bind(portal, statement, params, resultFormats);
  }
  StatementDescription describeStatement(const std::string& name) override { return extended_.describeStatement(name); }
  StatementDescription describePortal(const std::string& name) override { return extended_.describePortal(name); }
  ExecuteState execute(const std::string& portal, int64_t maxRows, ResultSink& sink) override {
    return extended_.execute(portal, maxRows, sink);
  }
  void closeStatement(const std::string& name) override { extended_.closeStatement(name); }
  void closePortal(const std::string& name) override { extended_.closePortal(name); }
  void sync() override { extended_.sync(); }
  void abortCurrent() override;
  TxnStatus txnStatus() const override { return state_.txn.status(); }
  bool holdsExecutor() const override { return router_.holdsExecutor(); }
  void rollbackOpenBlock() override { transaction_.rollbackOpenBlock(); }
  std::vector<std::pair<std::string, std::string>> reportedParameters() const override {
    return state_.settings.reportedValues();
  }
  void requestCancel() override { state_.cancel.store(true); }
  void clearCancel() override { state_.cancel.store(false); }
  int idleInTransactionTimeoutMs() const override { return state_.settings.idleInTransactionTimeoutMs(); }
  SnapshotQuery takeSnapshotQuery() override { return router_.takeSnapshotQuery(); }
  bool queryContinues() const override { return simpleQuery_.continues(); }
  QueryState resumeQuery(ResultSink& sink) override { return simpleQuery_.continueQuery(sink, true); }
  void setBesideHolder(bool beside) override { state_.besideHolder = beside; }
  void setClientInfo(int32_t backendPid, std::string address, int32_t port) override {
    state_.backendPid = backendPid;
    state_.clientAddress = std::move(address);
    state_.clientPort = port;
  }
  void fillPortal(const std::string& portal, std::vector<std::vector<std::optional<std::string>>> rows,
                  std::string tag) override {
    extended_.fillPortal(portal, std::move(rows), std::move(tag));
  }
  // Whether the running transaction is read-only or, between transactions, whether the
  // next one starts so (default_transaction_read_only; its BEGIN may still say otherwise).
  bool transactionReadOnly() const { return transaction_.transactionReadOnly(); }

  // ---- rt::SessionServices
  void callRoutine(rt::QueryContext& ctx, uint32_t oid, const TupleLayout& argLayout, const uint8_t* args,
                   uint8_t* result, rt::TupleBuffer* rows) override {
    routines_.callRoutine(ctx, oid, argLayout.types, args, result, rows);
  }
  // RAISE's notices, filtered by client_min_messages now and sent after the statement.
  void notice(const char* severity, std::string message) override;
  rt::DynamicOutcome executeDynamic(rt::QueryContext& ctx, const rt::DynamicQuery& query,
                                    rt::DynamicRows& rows) override {
    return dynamic_.run(ctx, query, rows);
  }
  void subtransactionRolledBack() override { dynamic_.subtransactionRolledBack(); }
  const std::string* currentSetting(std::string_view name) const override;
  std::string setSetting(std::string_view name, std::string_view value, bool local) override;
  void notify(std::string_view channel, std::string_view payload) override;
  int64_t nextval(uint32_t oid) override { return state_.sequences.nextval(oid); }
  int64_t currval(uint32_t oid) override { return state_.sequences.currval(oid); }
  void setval(uint32_t oid, int64_t value, bool isCalled) override { state_.sequences.setval(oid, value, isCalled); }
  int64_t lastval() override { return state_.sequences.lastval(); }
  int64_t sequenceValue(uint32_t oid, bool* isCalled) override { return state_.sequences.value(oid, isCalled); }
  rt::Portal& openCursor(std::string name, const TupleLayout& layout, std::vector<std::string> columnNames,
                         bool scrollable) override {
    return runner_.cursors().open(std::move(name), layout, std::move(columnNames), scrollable);
  }
  rt::Portal* findCursor(std::string_view name) override { return runner_.cursors().portal(name); }
  void closeCursor(rt::Portal& portal) override { runner_.cursors().close(portal); }
  uint64_t currentRowOf(std::string_view name, const Table& table) override {
    return runner_.cursors().currentRow(name, table);
  }
  std::string unnamedCursorName() override { return runner_.cursors().unnamedName(); }
  uint64_t cursorsOpened() override { return state_.cursorsDeclared; }
  void closeCursorsOpenedSince(uint64_t opened) override { state_.closeCursorsOpenedSince(opened); }
  int64_t transactionId() override {
    return static_cast<int64_t>(state_.txn.transactionId(state_.engine.nextTransactionId));
  }
  bool advisoryLock(rt::AdvisoryLockKey key, bool shared, bool transactionScope, bool wait) override {
    return state_.advisoryLocks.lock(key, shared, transactionScope, wait);
  }
  bool advisoryUnlock(rt::AdvisoryLockKey key, bool shared) override {
    return state_.advisoryLocks.unlock(key, shared);
  }
  void advisoryUnlockAll() override { state_.advisoryLocks.unlockAll(); }
  void endTransactionInCall(rt::QueryContext& ctx, bool commit, bool chain) override {
    calls_.endTransaction(ctx, commit, chain);
  }
  void subtransaction(bool started) override { calls_.subtransaction(started); }
  void setNotificationTarget(int32_t pid, std::function<void()> wake) override;
  std::vector<Notification> takeNotifications() override;

 private:
  // The parts, each after those it holds.
  SessionState state_;
  RoutineCache routines_;
  RedoRecorder redo_;
  TransactionControl transaction_;
  CallTransactions calls_;
  StatementPlanner planner_;
  RoutineStatements routineStatements_;
  ViewStatements viewStatements_;
  SequenceStatements sequenceStatements_;
  ConstraintStatements constraints_;
  UtilityStatements utility_;
  CopyRunner copy_;
  StatementRunner runner_;
  DynamicStatements dynamic_;
  SnapshotRouter router_;
  SimpleQuery simpleQuery_;
  ExtendedProtocol extended_;
  // Replay: the settings the last replayed statement ran with, applied again only on change.
  std::optional<std::vector<std::pair<std::string, std::string>>> replayedSettings_;
};

}  // namespace duet
