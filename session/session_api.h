// The boundary between server/ (network threads) and the engine (executor thread).
//
// server/ never touches table data: every call on a Session below must run on the executor
// thread, by handing a closure to Executor::submit(). Results come back through a
// ResultSink that the network session owns; the executor fills it, then the network thread
// writes it out once the closure has finished.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/error.h"

namespace duet {

struct ColumnDesc {
  std::string name;
  uint32_t tableOid = 0;
  int16_t attnum = 0;
  uint32_t typeOid = 0;
  int16_t typlen = -1;
  int32_t typmod = -1;
  int16_t format = 0;  // 0 text, 1 binary
};

// One encoded field of a DataRow: bytes already in the column's format; len -1 is NULL.
struct Field {
  const char* data;
  int32_t len;
};

struct Notice {
  std::string severity = "NOTICE";  // NOTICE, WARNING, INFO, ...
  std::string code = "00000";
  std::string message;
  std::string detail;
  std::string hint;

  static Notice make(std::string severity, std::string code, std::string message) {
    Notice n;
    n.severity = std::move(severity);
    n.code = std::move(code);
    n.message = std::move(message);
    return n;
  }
};

class ResultSink {
 public:
  virtual ~ResultSink() = default;
  virtual void rowDescription(const std::vector<ColumnDesc>& columns) = 0;
  virtual void dataRow(const Field* fields, size_t count) = 0;
  virtual void commandComplete(std::string_view tag) = 0;
  virtual void emptyQuery() = 0;
  virtual void notice(const Notice& notice) = 0;
  // A reported setting changed (client_encoding, DateStyle, application_name, ...).
  virtual void parameterStatus(std::string_view name, std::string_view value) = 0;
  // COPY ... TO STDOUT: begin (column count; binary format or text), data chunks, done.
  virtual void copyOutBegin(int columns, bool binary) = 0;
  virtual void copyData(std::string_view bytes) = 0;
  virtual void copyOutDone() = 0;
  // COPY ... FROM STDIN: the server must now send CopyInResponse and collect CopyData.
  virtual void copyInBegin(int columns, bool binary) = 0;
};

// A sink that passes everything on to another: a base for sinks that hold back or drop
// part of a result.
class ForwardingSink : public ResultSink {
 public:
  explicit ForwardingSink(ResultSink& inner) : inner_(inner) {}
  void rowDescription(const std::vector<ColumnDesc>& c) override { inner_.rowDescription(c); }
  void dataRow(const Field* fields, size_t count) override { inner_.dataRow(fields, count); }
  void commandComplete(std::string_view tag) override { inner_.commandComplete(tag); }
  void emptyQuery() override { inner_.emptyQuery(); }
  void notice(const Notice& n) override { inner_.notice(n); }
  void parameterStatus(std::string_view n, std::string_view v) override { inner_.parameterStatus(n, v); }
  void copyOutBegin(int c, bool binary) override { inner_.copyOutBegin(c, binary); }
  void copyData(std::string_view b) override { inner_.copyData(b); }
  void copyOutDone() override { inner_.copyOutDone(); }
  void copyInBegin(int c, bool binary) override { inner_.copyInBegin(c, binary); }

 protected:
  ResultSink& inner_;
};

// A sink that drops everything: a base for drivers, benchmarks and tests that keep only
// part of a result.
class IgnoringSink : public ResultSink {
 public:
  void rowDescription(const std::vector<ColumnDesc>&) override {}
  void dataRow(const Field*, size_t) override {}
  void commandComplete(std::string_view) override {}
  void emptyQuery() override {}
  void notice(const Notice&) override {}
  void parameterStatus(std::string_view, std::string_view) override {}
  void copyOutBegin(int, bool) override {}
  void copyData(std::string_view) override {}
  void copyOutDone() override {}
  void copyInBegin(int, bool) override {}
};

// Transaction status as ReadyForQuery reports it.
enum class TxnStatus : char { Idle = 'I', InBlock = 'T', Failed = 'E' };

// What a prepared statement or portal describes.
struct StatementDescription {
  std::vector<uint32_t> paramTypeOids;  // statements only
  bool returnsRows = false;             // false: NoData
  std::vector<ColumnDesc> columns;      // valid when returnsRows
};

// Parameter values as Bind delivers them.
struct BindParam {
  std::optional<std::string> value;  // nullopt is NULL
  int16_t format = 0;                // 0 text, 1 binary
};

// A NOTIFY delivered to a listening session: NotificationResponse ('A') on the wire.
struct Notification {
  int32_t pid = 0;  // the notifying session's backend pid
  std::string channel, payload;
};

// OnSnapshot: the statement is read-only and goes to a snapshot process instead of the
// executor (docs/snapshots.md); Session::takeSnapshotQuery() says what to run there.
enum class QueryState { Done, CopyIn, OnSnapshot };
enum class ExecuteState { Complete, Suspended, OnSnapshot };

// Thrown by simpleQuery and execute while the session runs beside another session's
// transaction block (Session::setBesideHolder): the statement cannot go to a snapshot that
// exists already, and nothing of it was done. The server runs the message again once the
// block has ended.
struct StatementDeferred {};

// A read-only statement handed to a forked snapshot process. The snapshot opens a session
// of its own with startupParams and runs the statement there, read-only; the server streams
// the answer to the client.
struct SnapshotQuery {
  // user, database, and every setting whose value is not its default.
  std::vector<std::pair<std::string, std::string>> startupParams;
  std::string sql;
  // Parse/Bind/Execute of sql with these parameters (text) and result formats, without a
  // RowDescription; else a simple Query.
  bool extended = false;
  std::vector<uint32_t> paramTypeOids;
  std::vector<BindParam> params;
  std::vector<int16_t> resultFormats;
  // The engine's commit count now, and the session's own last commit: a snapshot forked
  // before that commit may not serve it (read-your-writes).
  uint64_t currentCommit = 0;
  uint64_t minCommit = 0;
  int maxAgeMs = 1000;         // duet.snapshot_max_age: the oldest snapshot it accepts
  bool readOnlyBlock = false;  // inside BEGIN READ ONLY: one snapshot serves the whole block
  int64_t memoryLimitKb = 0;   // duet.snapshot_memory_limit; 0: none
  int32_t backendPid = 0;      // the client's session's, which pg_backend_pid() answers there too
};

// The engine's per-connection state: database, settings, transaction, prepared statements,
// portals. Created by Engine::openSession on the executor thread.
class Session {
 public:
  virtual ~Session() = default;

  // Simple Query: one or more ';'-separated statements. Errors are reported by throwing
  // SqlError after the sink received the results of the statements that completed.
  // Returns CopyIn when a COPY FROM STDIN needs data: the sink got copyInBegin, and the
  // server calls copyInData() or copyInFail() next.
  virtual QueryState simpleQuery(std::string_view sql, ResultSink& sink) = 0;
  virtual QueryState copyInData(std::string_view data, ResultSink& sink) = 0;
  virtual void copyInFail(std::string_view message, ResultSink& sink) = 0;

  // Extended protocol. The empty name is the unnamed statement / portal.
  virtual void parse(const std::string& name, std::string_view sql, const std::vector<uint32_t>& paramTypeOids) = 0;
  virtual void bind(const std::string& portal, const std::string& statement, const std::vector<BindParam>& params,
                    const std::vector<int16_t>& resultFormats) = 0;
  virtual StatementDescription describeStatement(const std::string& name) = 0;
  virtual StatementDescription describePortal(const std::string& name) = 0;
  // maxRows 0 means all. The sink receives rows and, when complete, commandComplete.
  virtual ExecuteState execute(const std::string& portal, int64_t maxRows, ResultSink& sink) = 0;
  virtual void closeStatement(const std::string& name) = 0;
  virtual void closePortal(const std::string& name) = 0;
  // Sync: ends an implicit transaction, and an error state outside a block.
  virtual void sync() = 0;
  // The extended protocol hit an error: discard messages until Sync (server-side), and
  // let the engine mark an open block failed.
  virtual void abortCurrent() = 0;

  virtual TxnStatus txnStatus() const = 0;
  // True while an explicit transaction block is open and has run a statement (BEGIN, SET and
  // SHOW do not count): the executor then runs no other session's work until it ends.
  virtual bool holdsExecutor() const = 0;
  // Rolls back an open block (idle timeout, disconnect).
  virtual void rollbackOpenBlock() = 0;
  // Parameters the server sends as ParameterStatus after authentication.
  virtual std::vector<std::pair<std::string, std::string>> reportedParameters() const = 0;
  // Cancel support. requestCancel: any thread; the statements of the current batch check it
  // (when they start, and while they scan), so a cancel also stops a batch still queued
  // behind another session's block. clearCancel: the network thread, before it submits a
  // batch, so a late cancel of the previous batch does not reach the next one.
  virtual void requestCancel() = 0;
  virtual void clearCancel() = 0;
  virtual int idleInTransactionTimeoutMs() const = 0;
  // After simpleQuery or execute returned OnSnapshot: what the snapshot must run. If it
  // fails there, the server calls abortCurrent() as for any failed statement (which also
  // drops the rest of a Query).
  virtual SnapshotQuery takeSnapshotQuery() { return {}; }
  // A statement of a Query went to a snapshot and statements after it wait (a Query of
  // several statements): once it answered, resumeQuery runs them, as simpleQuery would
  // have (and may return OnSnapshot again).
  virtual bool queryContinues() const { return false; }
  virtual QueryState resumeQuery(ResultSink& sink) {
    (void)sink;
    return QueryState::Done;
  }
  // An Execute with a row limit that went to a snapshot (ExecuteState::OnSnapshot): the
  // snapshot ran the statement whole, and these are its rows (each field as it was sent,
  // in the portal's formats; nullopt for NULL) and its command tag. The portal's Executes
  // hand them out from here on, as for a portal run on the executor.
  virtual void fillPortal(const std::string& portal, std::vector<std::vector<std::optional<std::string>>> rows,
                          std::string tag) {
    (void)portal;
    (void)rows;
    (void)tag;
  }
  // synchronous_commit is not off: answers wait for the redo log to be durable.
  virtual bool synchronousCommit() const { return true; }
  // How many transactions, implicit or blocks, committed or rolled back, the session has
  // ended: a batch that ended none and left a block open answers without waiting for the
  // log (docs/logging.md, "When a client hears of its commit").
  virtual uint64_t endedTransactions() const { return 0; }
  // Set while this session's messages run beside another session's open transaction block
  // (session/executor.h): then only statements that go to a snapshot already forked
  // run; the others throw StatementDeferred. (No snapshot may be forked meanwhile: it
  // would hold the block's uncommitted changes.)
  virtual void setBesideHolder(bool beside) { (void)beside; }
  // Who the session serves, for pg_stat_activity and pg_backend_pid(): the BackendKeyData
  // pid and the client's address and port (on the executor thread, right after opening).
  virtual void setClientInfo(int32_t backendPid, std::string address, int32_t port) {
    (void)backendPid, (void)address, (void)port;
  }
  // A CHECKPOINT ran since the last call: the server writes an archive
  // (docs/logging.md), and the answer waits for it.
  virtual bool takeCheckpointRequest() { return false; }
  // LISTEN / NOTIFY: the server gives the session its backend pid (what notifications it
  // sends carry) and a function that any thread may call when notifications arrive for it
  // (the session may be idle). takeNotifications: those to send now, before ReadyForQuery.
  virtual void setNotificationTarget(int32_t pid, std::function<void()> wake) {
    (void)pid;
    (void)wake;
  }
  virtual std::vector<Notification> takeNotifications() { return {}; }
};

// One live snapshot process, as pg_catalog.duet_snapshots lists it.
struct SnapshotListing {
  int32_t pid = 0;
  int64_t forkedAtUnixMicros = 0;
  double ageSeconds = 0;
  double forkMillis = 0;
  int64_t commits = 0;      // write transactions it holds (committed before its fork)
  int32_t queries = 0;      // statements sent to it and not yet answered
  int64_t memoryBytes = 0;  // memory only it holds: old copies of changed pages, its own work
  bool ending = false;      // retired: finishing its last statements, or exited and not yet reaped
};

class Engine {
 public:
  virtual ~Engine() = default;
  // Startup: fails with SqlError (fatal) for an unknown database (3D000) or role (28000).
  // startupParams are the StartupMessage's name/value pairs (user, database, options,
  // application_name, client_encoding, DateStyle, ...). Runs on the executor thread.
  virtual std::unique_ptr<Session> openSession(
      const std::vector<std::pair<std::string, std::string>>& startupParams) = 0;
  // How many write transactions have committed: a snapshot forked at count n holds them.
  // Any thread.
  virtual uint64_t commitCount() const { return 0; }
  // Where pg_catalog.duet_snapshots gets its rows (called on the executor thread).
  virtual void setSnapshotLister(std::function<std::vector<SnapshotListing>()> lister) { (void)lister; }
  // Whether a snapshot that exists now is fresh enough for a query (called on the executor
  // thread; see Session::setBesideHolder).
  virtual void setSnapshotProbe(std::function<bool(const SnapshotQuery&)> probe) { (void)probe; }
  // In a snapshot process: a statement may use up to `threads` threads (with at most
  // 1 + max_parallel_workers_per_gather of them). The executor's default is 1: it stays
  // one thread.
  virtual void setParallelThreads(uint32_t threads) { (void)threads; }
  // The redo log (docs/logging.md): `append` takes each committed write transaction's
  // record (on the executor thread) and returns its LSN. Unset: nothing is logged.
  virtual void setCommitLog(std::function<uint64_t(std::string record)> append) { (void)append; }
  // Recovery, before any session: runs a logged transaction's record again. Throws
  // SqlError when it fails (the state would no longer be the one that was logged).
  virtual void replayTransaction(std::string_view record) { (void)record; }
  // Archives (docs/logging.md): the whole database as records that replayTransaction loads
  // into a fresh engine, in order: roles, databases, tables, routines, rows, indexes. Run
  // in a process forked between two transactions (changesPending() false), where nothing
  // changes while it reads; emit gets each record and may throw to stop.
  virtual void writeArchive(const std::function<void(std::string record)>& emit) { (void)emit; }
  // True while a transaction on this (executor) thread has uncommitted changes.
  virtual bool changesPending() const { return false; }
};

}  // namespace duet
