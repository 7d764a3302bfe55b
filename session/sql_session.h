// The SQL session: one client connection's database, settings, transaction, prepared
// statements and portals. Statements that touch table data run as compiled plans (cached
// engine-wide by shape); utility statements are executed here directly.
#pragma once
#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "compiler/compiler.h"
#include "engine/limits/interrupts.h"
#include "engine/limits/statement_memory.h"
#include "session/copy_io.h"
#include "session/engine_state.h"
#include "session/session_api.h"
#include "session/settings.h"
#include "session/transaction_record.h"
#include "session/transaction_state.h"
#include "session/value_io.h"

namespace duet {

// The CommandComplete tag of a plan's statement: "SELECT n", "INSERT 0 n", "UPDATE n", ...
std::string commandTag(const PreparedPlan& plan, int64_t rows, int64_t affected);

// The command a read-only transaction refuses to run, as PostgreSQL names it: a utility
// statement that changes the catalog or a table (CREATE TABLE, DROP FUNCTION, TRUNCATE
// TABLE, ...). Null for any other. Read-only refusal (25006) and the redo log use it.
const char* changingCommand(const sql::Stmt& stmt);

class SqlSession final : public Session, public rt::SessionServices {
 public:
  SqlSession(EngineState& engine, Database& db, std::string user, std::string dbName,
             const std::vector<std::pair<std::string, std::string>>& startupParams);
  ~SqlSession() override;

  QueryState simpleQuery(std::string_view sql, ResultSink& sink) override;
  bool synchronousCommit() const override { return settings_.get("synchronous_commit") != "off"; }
  bool takeCheckpointRequest() override { return std::exchange(checkpointRequested_, false); }
  // Recovery: runs one logged transaction again with the inputs it ran with.
  void replay(const LoggedTransaction& t);
  QueryState copyInData(std::string_view data, ResultSink& sink) override;
  void copyInFail(std::string_view message, ResultSink& sink) override;
  void parse(const std::string& name, std::string_view sql, const std::vector<uint32_t>& paramTypeOids) override;
  void bind(const std::string& portal, const std::string& statement, const std::vector<BindParam>& params,
            const std::vector<int16_t>& resultFormats) override;
  StatementDescription describeStatement(const std::string& name) override;
  StatementDescription describePortal(const std::string& name) override;
  ExecuteState execute(const std::string& portal, int64_t maxRows, ResultSink& sink) override;
  void closeStatement(const std::string& name) override;
  void closePortal(const std::string& name) override { portals_.erase(name); }
  void sync() override;
  void abortCurrent() override;
  TxnStatus txnStatus() const override { return txn_.status(); }
  bool holdsExecutor() const override;
  void rollbackOpenBlock() override;
  std::vector<std::pair<std::string, std::string>> reportedParameters() const override;
  void requestCancel() override { cancel_.store(true); }
  void clearCancel() override { cancel_.store(false); }
  int idleInTransactionTimeoutMs() const override;
  SnapshotQuery takeSnapshotQuery() override;
  bool queryContinues() const override;
  QueryState resumeQuery(ResultSink& sink) override;
  void setBesideHolder(bool beside) override { besideHolder_ = beside; }
  void fillPortal(const std::string& portal, std::vector<std::vector<std::optional<std::string>>> rows,
                  std::string tag) override;
  // Whether the running transaction is read-only or, between transactions, whether the
  // next one starts so (default_transaction_read_only; its BEGIN may still say otherwise).
  bool transactionReadOnly() const;

  // ---- rt::SessionServices (session_routine_calls.cpp)
  void callRoutine(rt::QueryContext& ctx, uint32_t oid, const uint8_t* args, uint8_t* result,
                   rt::TupleBuffer* rows) override;
  void notice(const char* severity, std::string message) override;
  const std::string* currentSetting(std::string_view name) const override;

 private:
  // A parsed statement with its plan (for SELECT/VALUES/INSERT/UPDATE/DELETE).
  struct Statement {
    // The whole query text the statement came in (positions count from its start),
    // shared by every statement of a message: a copy each made 20,000 statements of one
    // message cost 20,000 times its size.
    std::shared_ptr<const std::string> text;
    std::string_view sql;  // *text
    sql::ParsedStatement parsed;
    std::vector<SqlType> declaredTypes;
    std::shared_ptr<PreparedPlan> plan;  // null for utility statements
  };
  struct Portal {
    std::shared_ptr<Statement> stmt;
    std::shared_ptr<PreparedPlan> plan;  // keeps the params' layout alive
    std::unique_ptr<ParamTuple> params;
    std::vector<int16_t> formats;
    // Rows of a partially fetched query, encoded on the first Execute (or sent by the
    // snapshot that ran it: fillPortal).
    bool ran = false;
    std::vector<std::vector<std::optional<std::string>>> rows;
    size_t next = 0;
    std::string tag;
    bool finished = false;  // ran to completion: a further Execute gets no rows
  };
  // ---- statement execution (sql_session.cpp)
  bool isQuery(const sql::Stmt& stmt) const;
  // Runs one statement of a simple Query or an Execute; returns CopyIn for COPY FROM.
  QueryState runStatement(Statement& st, const uint8_t* params, const std::vector<int16_t>& formats, ResultSink& sink,
                          bool describe);
  void runPlan(Statement& st, const uint8_t* params, const std::vector<int16_t>& formats, ResultSink& sink,
               bool describe);
  // A DirectCall plan run without its code (session_direct_call.cpp): sends the rows and
  // the tag and returns true, or returns false having sent nothing (run the plan instead).
  bool callDirectly(PreparedPlan& plan, const uint8_t* params, const std::vector<int16_t>& formats, ResultSink& sink);
  std::shared_ptr<PreparedPlan> planFor(Statement& st);
  // The plan cache key of st, and what planStatement needs to plan it.
  std::string planKey(const Statement& st) const;
  // How many threads this session's statements may use: 1 on the executor.
  uint32_t parallelThreads() const;
  PlanRequest planRequest(const Statement& st);

  // ---- snapshot routing (session_snapshot_route.cpp)
  bool snapshotRoutingOn() const;
  bool readOnlyBlock() const;
  // The statement's cached plan (kept in st.plan), else a plan tree without code.
  std::shared_ptr<const PreparedPlan> routingPlan(Statement& st);
  // Whether the plans of one statement or Query go to a snapshot: never when they read
  // server state (duet_snapshots); in a read-only block always; else when they walk at
  // least duet.snapshot_min_rows rows (or routing is `always`) and cannot write.
  bool goesToSnapshot(const std::vector<std::shared_ptr<const PreparedPlan>>& plans, bool block) const;
  // A statement of a read-only block goes to its snapshot: the block counts as having read.
  void noteBlockSnapshot(bool block);
  // True (and snapshotQuery_ set) when a statement of a simple Query, or a portal's, goes
  // to a snapshot. A Query's statement goes there wherever it stands in the message, as
  // long as its implicit transaction has changed nothing yet (that transaction then ends:
  // the statements after it start a new one once the snapshot answered).
  bool routeStatement(Statement& st);
  bool routeExecute(Portal& p);
  // Whether a snapshot can be had for a routed statement without a fork, where a fork is
  // not allowed (besideHolder_).
  bool snapshotAvailable(bool block) const;
  SnapshotQuery snapshotQueryBase(bool block) const;
  // Fills pg_catalog.duet_snapshots with the snapshots live now (a plan reads it).
  void refreshSnapshotsView();
  std::unique_ptr<ParamTuple> literalParams(const Statement& st);
  rt::QueryContext makeContext(const uint8_t* params);
  std::vector<ColumnDesc> columnsOf(const PreparedPlan& plan, const std::vector<int16_t>& formats) const;
  // 25P02 unless the transaction is healthy or stmt ends it (COMMIT / ROLLBACK).
  void checkNotFailed(const sql::Stmt& stmt) const;
  void startStatement();
  // BEGIN READ ONLY/WRITE, SET TRANSACTION, SET transaction_read_only: 25001 for read-write
  // after the transaction's first query.
  void setTransactionReadOnly(bool on);
  void failStatement(UndoLog::Mark mark);
  void endTransaction(bool commit);
  void flushReports(ResultSink& sink);
  // Whether a notice of this severity goes to the client at the current client_min_messages.
  bool reachesClient(std::string_view severity) const;
  // How statements send a notice: dropped when client_min_messages filters it out.
  void sendNotice(ResultSink& sink, const Notice& notice) const;
  void ddlDone();
  // 25001 "<command> cannot run inside a transaction block" (PreventInTransactionBlock).
  void preventInTransactionBlock(std::string_view command) const;

  // ---- COPY (session_copy.cpp)
  QueryState runCopy(const Statement& st, ResultSink& sink);
  void copyOut(const Statement& st, ResultSink& sink);
  // Runs pendingStmts_. mayRoute: they may go to a snapshot (not after a COPY FROM STDIN).
  QueryState continueQuery(ResultSink& sink, bool mayRoute = false);
  // Keeps statements[from..] in pendingStmts_, to run after a COPY or a snapshot.
  void keepPending(std::vector<Statement>& statements, size_t from);

  // ---- utility statements (session_utility.cpp)
  QueryState runUtility(const Statement& st, ResultSink& sink);
  void runTransaction(const sql::TransactionStmt& s, ResultSink& sink);
  void runSet(const sql::SetStmt& s, ResultSink& sink);
  void setSessionCharacteristics(const sql::TransactionStmt& s);
  void runShow(const sql::ShowStmt& s, ResultSink& sink);
  static std::vector<ColumnDesc> showColumns(const sql::ShowStmt& s);
  void createTable(const sql::CreateTableStmt& s, std::string_view query);
  void dropObjects(const sql::DropStmt& s, ResultSink& sink);

  // ---- functions and procedures (session_routines.cpp)
  void createRoutine(const sql::CreateFunctionStmt& s, std::string_view query);
  void applyRoutineOptions(const sql::CreateFunctionStmt& s, std::string_view query, RoutineInfo& info);
  void defineRoutineSignature(const sql::CreateFunctionStmt& s, std::string_view query, RoutineInfo& info);
  void validateRoutineBody(const RoutineInfo& info, const sql::CreateFunctionStmt& s, std::string_view query);
  void dropRoutines(const sql::DropRoutineStmt& s, ResultSink& sink);
  std::optional<RoutineType> tableRowType(const sql::TypeName& t) const;
  void dropRoutinesReturning(const TableInfo& table, bool cascade, ResultSink& sink);
  // What the PL/pgSQL front end needs to know of a routine and of the tables it names.
  plpgsql::RoutineShape routineShape(const RoutineInfo& info) const;
  plpgsql::TableLookup tableColumnsLookup() const;
  TableResolver tableResolver();

  // ---- calls (session_routine_calls.cpp)
  RoutineCandidate candidateOf(const RoutineInfo& r) const;
  std::vector<RoutineCandidate> routineCandidates(const std::vector<std::string>& names) const;
  const RoutineInfo* routineByOid(uint32_t oid) const;
  // A function returning record returns `recordRow` (a call's column definition list;
  // empty when CREATE validates an SQL body, which then checks only that it returns rows).
  plpgsql::RoutineCompileRequest compileRequest(const RoutineInfo& info, const std::vector<SqlType>& recordRow = {});
  // ---- compiled routines (session_routine_cache.cpp)
  // The routine's code for the current catalog, compiled now if there is none that fits.
  // `row`: the rows the caller takes, which a function returning record is compiled for.
  std::shared_ptr<plpgsql::CompiledRoutine> compiledRoutine(uint32_t oid, const std::vector<SqlType>& row = {});
  // Compiles the routine (validate: RoutineCompileRequest::validate) and caches the code
  // with what the compilation read of the catalog.
  std::shared_ptr<plpgsql::CompiledRoutine> compileAndCache(const RoutineInfo& info, bool validate,
                                                            const std::vector<SqlType>& recordRow = {});
  bool stillFits(const RoutineInfo& info, const CachedRoutine& cached) const;
  // After a rollback undid DDL: drops the code of routines that are gone or changed back.
  void discardStaleRoutines();
  // Drops every compiled version of a routine (OR REPLACE, DROP).
  void forgetCompiledRoutine(uint32_t oid);
  // What a lookup finds now, as text: equal fingerprints, equal catalog for the code.
  std::string tableFingerprint(const std::vector<std::string>& name) const;
  std::string routinesFingerprint(const std::vector<std::string>& names) const;
  std::string routineDefinition(const RoutineInfo& info) const;
  TableInfo& tableByName(const sql::QualifiedName& name);

  // The redo log's record of the running transaction (docs/logging.md): each statement
  // that changed something, with the inputs it ran with, taken as it succeeds.
  struct StatementInputs {
    int64_t statementTimestamp;
    uint64_t randomState;
    size_t clockReadings;  // clock readings before it began
  };
  StatementInputs statementInputs();
  // The most parameters a Bind message can carry (its count is 16 bits).
  static constexpr int kMaxBindParams = 65535;
  // 42P02 unless every $n of the statement is in 1..bindable: 0 in a simple query, the
  // protocol's 65,535 in a Parse message.
  static void checkParamNumbers(const sql::ParsedStatement& p, std::string_view sql, int bindable);
  // A statement's explicit parameters ($1..$n; lifted literals stay in its text) as text in
  // this session's settings, with their types: how a snapshot (routeExecute) and the redo
  // log (loggedStatement) take them.
  struct TextParams {
    std::vector<uint32_t> typeOids;
    std::vector<std::optional<std::string>> values;
  };
  TextParams explicitParamsAsText(const Statement& st, const PreparedPlan& plan, const uint8_t* params) const;
  LoggedStatement loggedStatement(const Statement& st, const uint8_t* params, const StatementInputs& inputs);

  EngineState& engine_;
  Database* db_;
  std::string user_, dbName_;
  Settings settings_;
  TransactionState txn_;
  bool checkpointRequested_ = false;
  // EngineState::commitCount at connection, then after each of this session's write
  // commits: no snapshot older than that may serve it.
  uint64_t lastCommit_ = 0;
  LoggedTransaction logged_;
  // The settings each logged statement records, as of settings_.version() (loggedStatement).
  std::vector<std::pair<std::string, std::string>> loggedSettings_;
  uint64_t loggedSettingsVersion_ = 0;  // Settings::version() is never 0
  // Replay: the settings the last replayed statement ran with, applied again only on change.
  std::optional<std::vector<std::pair<std::string, std::string>>> replayedSettings_;
  SnapshotQuery snapshotQuery_;
  // Running beside another session's open block: statements that cannot go to an existing
  // snapshot throw StatementDeferred (Session::setBesideHolder).
  bool besideHolder_ = false;
  Table* snapshotsView_ = nullptr;  // this database's pg_catalog.duet_snapshots
  std::atomic<bool> cancel_ = false;
  std::atomic<bool> timedOut_ = false;  // cancel_ was raised by statement_timeout
  bool timeoutArmed_ = false;           // a TimeoutGuard's timer runs
  // statement_timeout over a statement's parsing, planning, compiling and running, the
  // thread's interrupt flags (engine/limits/interrupts.h) pointing at this session's, and
  // its max_stack_depth (engine/limits/stack_depth.h) and memory limit
  // (engine/limits/statement_memory.h).
  class TimeoutGuard {
   public:
    TimeoutGuard(SqlSession& s, bool applies);
    ~TimeoutGuard();

   private:
    SqlSession& s_;
    InterruptScope interrupts_;
    StatementMemoryScope memory_;
    uint64_t ticket_ = 0;
  };
  Arena arena_;
  // RAISE NOTICE and friends that reachesClient passed when raised, sent after the statement.
  std::vector<Notice> pendingNotices_;
  std::map<std::string, std::shared_ptr<Statement>> statements_;
  std::map<std::string, Portal> portals_;
  RowEncoder callEncoder_;  // callDirectly's, reused by every call
  // The last unnamed portal's map node, with its parameter tuple and format vector, kept
  // by sync() for the next bind(): a client's call (Bind, Execute, Sync) allocates nothing
  // for its portal.
  std::map<std::string, Portal>::node_type spareUnnamedPortal_;
  Portal takeUnnamedPortal();
  // A COPY FROM STDIN waiting for its data.
  struct CopyInState {
    TableInfo* table = nullptr;
    std::vector<int> columns;  // table column per field
    std::vector<std::string> names;
    // Per table column not in the COPY list: its DEFAULT's value as text (nullopt: NULL).
    std::vector<std::pair<int, std::optional<std::string>>> defaults;
    CopyOptions options;
    UndoLog::Mark mark;
    // The redo log's entry for this COPY, completed with the data once it succeeds.
    std::optional<LoggedStatement> log;
  };
  // Runs `query` (one row, one column) and returns its value as text (nullopt for NULL).
  std::optional<std::string> evaluateText(const std::string& query);
  std::unique_ptr<CopyInState> copyIn_;
  bool copyFromSimple_ = false;
  // Statements of a simple Query still to run: those after a COPY FROM STDIN, or after a
  // statement that went to a snapshot. pendingImplicitBlock_: the Query has several
  // statements, so they run in an implicit transaction block.
  std::shared_ptr<const std::string> pendingSql_;
  std::vector<sql::ParsedStatement> pendingStmts_;
  bool pendingImplicitBlock_ = false;
};

}  // namespace duet
