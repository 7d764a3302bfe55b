// What every part of a SQL session (sql_session.h) shares: the connection's database and
// user, its settings and transaction, the cancel flags, the statement arena, the notices a
// statement raised, the prepared statements and portals; and the helpers that need nothing
// but these: the catalog's tables as the session names them, notices and ParameterStatus
// reports, the QueryContext compiled code runs with, and a statement's TimeoutGuard. Only
// the executor thread touches it, but for the cancel flags.
#pragma once
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "compiler/compiler.h"
#include "engine/catalog/system_relations.h"
#include "engine/limits/interrupts.h"
#include "engine/limits/statement_memory.h"
#include "engine/types/value.h"
#include "session/advisory_locks.h"
#include "session/catalog_lookup.h"
#include "session/engine_state.h"
#include "session/search_path.h"
#include "session/session_api.h"
#include "session/session_sequences.h"
#include "session/settings.h"
#include "session/statement.h"
#include "session/transaction_state.h"

namespace duet {

struct SessionState {
  // The startup parameters (and their `options` switches) are the settings' session defaults.
  SessionState(EngineState& engineState, Database& database, std::string userName, std::string databaseName,
               const std::vector<std::pair<std::string, std::string>>& startupParams,
               rt::SessionServices& sessionServices);
  ~SessionState();
  SessionState(const SessionState&) = delete;
  SessionState& operator=(const SessionState&) = delete;

  EngineState& engine;
  Database* db;
  std::string user, dbName;
  // What compiled code calls back (the SqlSession): routine calls, notices, current_setting().
  rt::SessionServices& services;
  Settings settings;
  TransactionState txn;
  bool checkpointRequested = false;
  // EngineState::commitCount at connection, then after each of this session's write
  // commits: no snapshot older than that may serve it.
  uint64_t lastCommit = 0;
  // The database's system tables (docs/catalogs.md), by table: which relation each holds
  // and the catalog version this session last filled it at (the rows of a static relation
  // stay valid while the catalog does not change; any session's fill is as good).
  struct SystemTable {
    const SystemRelation* relation = nullptr;
    Table* table = nullptr;
    uint64_t filledAt = ~uint64_t{0};          // the catalog version
    uint64_t filledAtAnalyses = ~uint64_t{0};  // AnalysisQueue::version
  };
  std::unordered_map<const Table*, SystemTable> systemTables;
  // Whether the plan reads a live system relation (pg_stat_activity, duet_snapshots, ...):
  // the server's state now, which a snapshot's copy does not have.
  bool readsLiveSystemTable(const PreparedPlan& plan) const;
  // The reg* types' names and the catalog functions' lookups, in this database.
  SessionCatalogLookup catalogLookup;
  // What pg_stat_activity shows: the client (Session::setClientInfo; pid 0 and no address
  // for a session the server did not open for a client), when the session began, and its
  // latest statement and when that began (timestamps in microseconds since 2000-01-01 UTC).
  int32_t backendPid = 0;
  std::string clientAddress;
  int32_t clientPort = -1;
  int64_t backendStart = 0;
  int64_t queryStart = 0;
  std::string query;
  // Running beside another session's open block: statements that cannot go to an existing
  // snapshot throw StatementDeferred (Session::setBesideHolder).
  bool besideHolder = false;
  // Statements that routines run (EXECUTE) and that are running now: PostgreSQL's
  // !isTopLevel, which PreventInTransactionBlock refuses (DynamicStatements).
  int nestedStatements = 0;
  std::atomic<bool> cancel = false;
  std::atomic<bool> timedOut = false;  // cancel was raised by statement_timeout
  bool timeoutArmed = false;           // a TimeoutGuard's timer runs
  Arena arena;
  // RAISE NOTICE and friends that reachesClient passed when raised, sent after the statement.
  std::vector<Notice> pendingNotices;
  // Parse's prepared statements and Bind's portals (ExtendedProtocol), which DEALLOCATE and
  // DISCARD ALL (UtilityStatements) drop too.
  std::map<std::string, std::shared_ptr<Statement>> statements;
  std::map<std::string, Portal> portals;
  // Cursors (CursorRunner), DECLARE's and PL/pgSQL's, by name, and how many were opened
  // (each one's rt::Portal::number).
  std::map<std::string, SqlCursor> cursors;
  uint64_t cursorsDeclared = 0;
  // The cursors a statement of the transaction used in WHERE CURRENT OF: the redo log keeps
  // their DECLARE, FETCH and MOVE statements so that a replay finds them where they stood.
  std::set<std::string, std::less<>> currentOfCursors;
  std::set<std::string, std::less<>> loggedCursors;  // declared in it, DECLARE recorded
  // Where a top-level statement ends: the cursors routines opened or moved in it can no
  // longer serve WHERE CURRENT OF (rt::Portal::replayable).
  void endRoutineCursorUse();
  // Those opened after the `opened`-th close: ROLLBACK TO SAVEPOINT, an EXCEPTION block
  // that caught an error (a subtransaction's abort drops the portals it made).
  void closeCursorsOpenedSince(uint64_t opened);
  // A procedure's COMMIT or ROLLBACK keeps the cursors PL/pgSQL FOR loops read (pinned)
  // open, as PostgreSQL's HoldPinnedPortals does, until the CALL ends.
  void holdPinnedCursors();
  void dropAutoHeldCursors();
  // LISTEN / NOTIFY: this session as a listener, and what its running transaction does at
  // commit (a rollback forgets it): LISTEN (true) or UNLISTEN (false; "" for UNLISTEN *) in
  // order, and its notifications, each (channel, payload) once, as PostgreSQL folds them.
  NotificationHub::Listener listener;
  std::vector<std::pair<bool, std::string>> pendingListens;
  std::vector<Notification> pendingNotifies;
  // nextval / currval / setval / lastval, and what they leave for the redo log.
  SessionSequences sequences{*this};
  // pg_advisory_lock and friends: this session's holds and the answers its requests got.
  SessionAdvisoryLocks advisoryLocks{*this};
  // NOTIFY and pg_notify(): 22023 for an empty or too long channel name, a payload too long.
  void notify(std::string_view channel, std::string_view payload);
  // The transaction ended (committed or not): cursors without hold close, and at a
  // rollback the ones it declared; at a commit the LISTENs take effect and the
  // notifications go out; its transaction-scope advisory locks are given back.
  void transactionEnded(bool committed);
  // How many transactions (implicit or blocks, committed or not) have ended in this session:
  // the server compares it across a batch (Session::endedTransactions).
  uint64_t endedTransactions = 0;

  // ---- names: the search path and the temporary schema (docs/sql.md, "Schemas")
  // The search path as of now: computed again when a setting or the catalog changed.
  const SearchPath& searchPath();
  // The schemas a name is looked up in: a qualified name's own (pg_temp: this session's
  // temporary schema), else the search path's (relations' or routines').
  SchemaPath relationPath(const sql::QualifiedName& name);
  SchemaPath relationPath(const std::vector<std::string>& names);
  SchemaPath routinePath(const std::vector<std::string>& names);
  // The named composite type a (possibly qualified) type name means: a CREATE TYPE ... AS
  // type, or a table's row type, found through the search path; nullopt when it is
  // neither; with the schema and name it was found as.
  struct NamedRowType {
    SqlType type;
    std::string schema, name;
  };
  std::optional<NamedRowType> namedRowType(const std::vector<std::string>& names);
  // namedRowType's SqlType, as the binder asks for it.
  TypeResolver typeResolver();
  // The schema CREATE puts `name` in: a qualified name's own (3F000 if it does not exist),
  // else the search path's creation schema (3F000 "no schema has been selected to create
  // in" when there is none). The temporary schema, made now if need be, for pg_temp and for
  // `temporary` (CREATE TEMP; 42P16 with another schema's name), which is set when the
  // schema chosen is the temporary one.
  std::string creationSchema(const sql::QualifiedName& name, bool& temporary);
  std::string creationSchema(const sql::QualifiedName& name);  // a relation that is never temporary
  // This session's temporary schema (pg_temp_N), null while it has none. Its name and
  // identity stay the session's once chosen; the schema itself goes with its last object
  // (DISCARD TEMP, the session's end) or the rollback that made it.
  Schema* tempSchema() const;
  std::string tempSchemaName;
  TempSessionId tempSessionId;  // number 0 until the session first makes a temporary schema

  // A statement that works on tables only, and what it says when the name is a view
  // (42809; `message` names the view with {}).
  struct ViewRefusal {
    const char* message = "\"{}\" is not a table";
    const char* detail = "";
    const char* hint = "";
  };
  // The table `name` means; 42P01 if none, 42809 (`refusal`) for a view.
  TableInfo& tableByName(const sql::QualifiedName& name, const ViewRefusal& refusal);
  TableInfo& tableByName(const sql::QualifiedName& name);
  // The catalog's tables as the planner and the routine compiler look them up.
  TableResolver tableResolver();
  // Whether a notice of this severity goes to the client at the current client_min_messages.
  bool reachesClient(std::string_view severity) const;
  // How statements send a notice: dropped when client_min_messages filters it out.
  void sendNotice(ResultSink& sink, const Notice& notice) const;
  // After a statement: the notices it raised and the reported settings it changed.
  void flushReports(ResultSink& sink);
  // What compiled code runs with: the parameters, the transaction's undo log, timestamps,
  // clock and random state, the cancel flags and settings, and the statement arena. Inline:
  // every statement makes one.
  rt::QueryContext queryContext(const uint8_t* params) {
    rt::QueryContext ctx;
    ctx.params = params;
    ctx.undo = &txn.undo();
    ctx.cancel = &cancel;
    ctx.timedOut = &timedOut;
    ctx.transactionTimestamp = txn.startTimestamp();
    ctx.statementTimestamp = txn.statementTimestamp();
    ctx.clock = txn.clock();
    ctx.randomState = txn.randomState();
    ctx.typeContext = &settings.typeContext();  // casts between timestamp types need the zone
    ctx.session = &services;
    ctx.settings = &services;
    setStatementArena(&arena);
    return ctx;
  }

 private:
  void endCursors(bool committed);
  void endNotifications(bool committed);
  Schema& makeTempSchema();
  // searchPath()'s result and what it was computed from.
  SearchPath searchPath_;
  uint64_t searchPathSettings_ = 0, searchPathCatalog_ = 0;
  const Schema* searchPathTemp_ = nullptr;
};

// statement_timeout over a statement's parsing, planning, compiling and running, the
// thread's interrupt flags (engine/limits/interrupts.h) pointing at the session's, and its
// max_stack_depth (engine/limits/stack_depth.h) and memory limit
// (engine/limits/statement_memory.h).
class TimeoutGuard {
 public:
  TimeoutGuard(SessionState& s, bool applies);
  ~TimeoutGuard();

 private:
  SessionState& s_;
  InterruptScope interrupts_;
  StatementMemoryScope memory_;
  uint64_t ticket_ = 0;
};

}  // namespace duet
