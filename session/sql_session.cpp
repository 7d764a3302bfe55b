// Simple Query, transactions and compiled-plan execution. Utility statements are in
// session_utility.cpp, COPY in session_copy.cpp, the extended protocol in
// session_extended.cpp.
#include "session/sql_session.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstring>
#include <exception>

#include <fmt/format.h>

#include "compiler/compiler.h"
#include "engine/limits/stack_depth.h"
#include "engine/types/strings.h"
#include "engine/types/value_io.h"
#include "session/statement_timer.h"

namespace duet {
namespace {

LiteralType literalType(TypeId kind) {
  switch (kind) {
    case TypeId::Int4: return LiteralType::Int4;
    case TypeId::Int8: return LiteralType::Int8;
    case TypeId::Numeric: return LiteralType::Numeric;
    default: return LiteralType::Unknown;
  }
}

// Hands each result row to the sink as a DataRow.
class SinkConsumer final : public rt::RowConsumer {
 public:
  SinkConsumer(const TupleLayout& layout, std::vector<int16_t> formats, ResultSink& sink, const TypeContext& ctx)
      : encoder_(layout, std::move(formats)), sink_(sink), ctx_(ctx) {}
  void consume(const uint8_t* tuple) override {
    encoder_.encode(tuple, ctx_);
    sink_.dataRow(encoder_.fields(), encoder_.size());
    ++rows;
  }
  int64_t rows = 0;

 private:
  RowEncoder encoder_;
  ResultSink& sink_;
  const TypeContext& ctx_;
};

// The level of a notice's severity. DuetDB's only DEBUG messages are RAISE DEBUG's, which
// PostgreSQL raises at DEBUG1.
MessageLevel severityLevel(std::string_view severity) {
  if (severity == "DEBUG") return MessageLevel::Debug1;
  if (severity == "LOG") return MessageLevel::Log;
  if (severity == "INFO") return MessageLevel::Info;
  if (severity == "WARNING") return MessageLevel::Warning;
  return MessageLevel::Notice;
}

// Whether PostgreSQL takes the transaction's snapshot for the statement
// (PlannedStmtRequiresSnapshot): transaction control, SET, SHOW and CHECKPOINT run before
// one, so they may set up a transaction that must not have read yet.
bool takesSnapshot(const sql::Stmt& stmt) {
  switch (stmt.kind) {
    case sql::StmtKind::Transaction:
    case sql::StmtKind::Set:
    case sql::StmtKind::Show:
    case sql::StmtKind::Checkpoint: return false;
    default: return true;
  }
}

bool readsTable(const sql::TableRef& item);

// Whether a FROM list reaches a table, through joins and subqueries: FOR UPDATE and the
// like lock the rows of every table a query's FROM list reads, its subqueries' too.
bool readsTable(const std::vector<sql::TableRefPtr>& from) {
  return std::any_of(from.begin(), from.end(), [](const sql::TableRefPtr& item) { return readsTable(*item); });
}

bool readsTable(const sql::TableRef& item) {
  switch (item.kind) {
    case sql::TableRefKind::Table: return true;
    case sql::TableRefKind::Join: {
      const auto& join = item.as<sql::JoinRef>();
      return readsTable(*join.left) || readsTable(*join.right);
    }
    case sql::TableRefKind::Subquery: return readsTable(item.as<sql::RangeSubquery>().subquery->from);
    case sql::TableRefKind::Function: return false;
  }
  return false;
}

// The command a read-only transaction refuses to run, as PostgreSQL names it
// (ExecCheckXactReadOnly): one that changes a table, or a query that locks table rows,
// which PostgreSQL does by writing them. Null for any other plan.
const char* writingCommand(const PreparedPlan& plan, const sql::Stmt& stmt) {
  switch (plan.command) {
    case PreparedPlan::Command::Insert: return "INSERT";
    case PreparedPlan::Command::Update: return "UPDATE";
    case PreparedPlan::Command::Delete: return "DELETE";
    case PreparedPlan::Command::Call: return nullptr;
    case PreparedPlan::Command::Select: break;
  }
  if (stmt.kind != sql::StmtKind::Select) return nullptr;
  const auto& select = stmt.as<sql::SelectStmt>();
  const char* command = nullptr;
  switch (select.locking) {
    case sql::LockStrength::None: return nullptr;
    case sql::LockStrength::KeyShare: command = "SELECT FOR KEY SHARE"; break;
    case sql::LockStrength::Share: command = "SELECT FOR SHARE"; break;
    case sql::LockStrength::NoKeyUpdate: command = "SELECT FOR NO KEY UPDATE"; break;
    case sql::LockStrength::Update: command = "SELECT FOR UPDATE"; break;
  }
  return readsTable(select.from) ? command : nullptr;
}

// "PREFIX n" without fmt's general machinery: every call of a routine ends with one, and
// the tag fits the string's inline buffer.
std::string tagWithCount(std::string_view prefix, int64_t n) {
  char buf[32];
  std::memcpy(buf, prefix.data(), prefix.size());
  char* end = std::to_chars(buf + prefix.size(), buf + sizeof buf, n).ptr;
  return std::string(buf, end);
}
}  // namespace

std::string commandTag(const PreparedPlan& plan, int64_t rows, int64_t affected) {
  switch (plan.command) {
    case PreparedPlan::Command::Select: return tagWithCount("SELECT ", rows);
    case PreparedPlan::Command::Insert: return tagWithCount("INSERT 0 ", affected);
    case PreparedPlan::Command::Update: return tagWithCount("UPDATE ", affected);
    case PreparedPlan::Command::Delete: return tagWithCount("DELETE ", affected);
    case PreparedPlan::Command::Call: return "CALL";
  }
  return "SELECT 0";
}

namespace {

// The startup packet's `options` (libpq's options= and PGOPTIONS): command-line switches of
// which PostgreSQL's clients use "-c name=value" and "--name=value"; a backslash escapes the
// next character, so "\ " is a space inside a value.
std::vector<std::pair<std::string, std::string>> commandLineSettings(std::string_view options) {
  std::vector<std::string> words(1);
  for (size_t i = 0; i < options.size(); ++i) {
    char c = options[i];
    if (c == '\\' && i + 1 < options.size()) {
      words.back() += options[++i];
    } else if (c == ' ' || c == '\t') {
      if (!words.back().empty()) words.emplace_back();
    } else {
      words.back() += c;
    }
  }
  std::vector<std::pair<std::string, std::string>> settings;
  for (size_t i = 0; i < words.size(); ++i) {
    std::string setting;
    if (words[i] == "-c" && i + 1 < words.size()) {
      setting = words[++i];
    } else if (words[i].rfind("-c", 0) == 0 && words[i].size() > 2) {
      setting = words[i].substr(2);
    } else if (words[i].rfind("--", 0) == 0) {
      setting = words[i].substr(2);
    } else if (!words[i].empty()) {
      throw SqlError(sqlstate::kSyntaxError,
                     fmt::format("invalid command-line argument for server process: {}", words[i]));
    } else {
      continue;
    }
    size_t eq = setting.find('=');
    if (eq == std::string::npos) {
      throw SqlError(sqlstate::kSyntaxError, fmt::format("--{} requires a value", setting));
    }
    std::string name = setting.substr(0, eq);
    std::replace(name.begin(), name.end(), '-', '_');  // PostgreSQL accepts either
    settings.emplace_back(std::move(name), setting.substr(eq + 1));
  }
  return settings;
}

}  // namespace

SqlSession::SqlSession(EngineState& engine, Database& db, std::string user, std::string dbName,
                       const std::vector<std::pair<std::string, std::string>>& startupParams)
    : engine_(engine), db_(&db), user_(std::move(user)), dbName_(std::move(dbName)) {
  if (TableInfo* view = engine_.catalog.findTable(db, "pg_catalog", "duet_snapshots"))
    snapshotsView_ = view->table.get();
  // A new session reads no snapshot older than its connection: a script's next psql sees
  // what the previous one committed, as with PostgreSQL.
  lastCommit_ = engine_.commitCount.load(std::memory_order_acquire);
  settings_.setSessionDefault("session_authorization", user_);
  settings_.setSessionDefault("idle_in_transaction_session_timeout",
                              std::to_string(engine.config.idleInTransactionTimeoutMs));
  for (const auto& [name, value] : startupParams) {
    if (name == "options") {
      for (const auto& [option, optionValue] : commandLineSettings(value))
        settings_.setSessionDefault(option, optionValue);
      continue;
    }
    if (name == "user" || name == "database" || name == "replication") continue;
    // Unknown startup parameters are refused by PostgreSQL too (42704, fatal).
    settings_.setSessionDefault(name, value);
  }
  // The startup's ParameterStatus messages (reportedParameters) carry these values: mark
  // them reported so the first statement does not send them all again.
  settings_.takeReportChanges();
}

SqlSession::~SqlSession() {
  rollbackOpenBlock();
  // Runtime functions allocate in the thread's statement arena: never leave it pointing here.
  if (&statementArena() == &arena_) setStatementArena(nullptr);
}

std::vector<std::pair<std::string, std::string>> SqlSession::reportedParameters() const {
  return settings_.reportedValues();
}

int SqlSession::idleInTransactionTimeoutMs() const { return settings_.idleInTransactionTimeoutMs(); }

bool SqlSession::transactionReadOnly() const {
  return txn_.mode() == TransactionState::Mode::None ? settings_.defaultTransactionReadOnly() : txn_.readOnly();
}

bool SqlSession::isQuery(const sql::Stmt& stmt) const {
  switch (stmt.kind) {
    case sql::StmtKind::Select:
    case sql::StmtKind::Insert:
    case sql::StmtKind::Update:
    case sql::StmtKind::Delete:
    case sql::StmtKind::Call: return true;
    default: return false;
  }
}

// ---- transactions

void SqlSession::checkNotFailed(const sql::Stmt& stmt) const {
  if (!txn_.failed()) return;
  bool ends = stmt.kind == sql::StmtKind::Transaction &&
              (stmt.as<sql::TransactionStmt>().action == sql::TransactionKind::Commit ||
               stmt.as<sql::TransactionStmt>().action == sql::TransactionKind::Rollback);
  if (!ends) {
    throw SqlError(sqlstate::kInFailedSqlTransaction,
                   "current transaction is aborted, commands ignored until end of "
                   "transaction block");
  }
}

void SqlSession::startStatement() {
  arena_.reset();
  txn_.startStatement(settings_.defaultTransactionReadOnly());
  // What the statement's SHOW transaction_read_only prints: the mode it runs in, which the
  // statements before it (BEGIN, SET TRANSACTION) may have changed.
  settings_.showTransactionReadOnly(txn_.readOnly());
}

void SqlSession::setTransactionReadOnly(bool on) {
  // PostgreSQL lets a transaction become read-only at any time, but read-write again only
  // before it took its snapshot (check_transaction_read_only).
  if (!on && txn_.readOnly() && txn_.ranStatement()) {
    throw SqlError(sqlstate::kActiveSqlTransaction, "transaction read-write mode must be set before any query");
  }
  txn_.setReadOnly(on);
}

void SqlSession::failStatement(UndoLog::Mark mark) {
  bool implicit = !txn_.inBlock();
  txn_.statementFailed(mark);
  if (implicit) {
    settings_.endTransaction(false);
    logged_.statements.clear();
  }
  if (txn_.takeRolledBackDdl()) {
    ++engine_.catalogVersion;
    discardStaleRoutines();
  }
}

void SqlSession::endTransaction(bool commit) {
  // The log takes the record before the changes become permanent: a record it refuses
  // (54000, over its size limit) rolls the transaction back instead of leaving a commit in
  // memory that a recovery would not bring back. Appending does no I/O, and nobody else
  // runs in between, so the order is invisible otherwise.
  std::exception_ptr refused;
  if (commit && engine_.commitLog && !logged_.statements.empty()) {
    logged_.database = dbName_;
    logged_.user = user_;
    logged_.startTimestamp = txn_.startTimestamp();
    try {
      engine_.commitLog(encodeTransaction(logged_));
    } catch (const SqlError&) {
      refused = std::current_exception();
      commit = false;
    }
  }
  if (commit) {
    bool wrote = !txn_.undo().empty() || !logged_.statements.empty();
    txn_.commit();
    if (wrote) lastCommit_ = engine_.commitCount.fetch_add(1, std::memory_order_release) + 1;
  } else {
    txn_.rollback();
  }
  logged_.statements.clear();
  settings_.endTransaction(commit);
  if (txn_.takeRolledBackDdl()) {
    ++engine_.catalogVersion;
    discardStaleRoutines();
  }
  if (refused) std::rethrow_exception(refused);
}

void SqlSession::ddlDone() {
  txn_.noteDdl();
  ++engine_.catalogVersion;
}

void SqlSession::flushReports(ResultSink& sink) {
  for (Notice& n : pendingNotices_) sink.notice(std::move(n));
  pendingNotices_.clear();
  for (const auto& [name, value] : settings_.takeReportChanges()) {
    sink.parameterStatus(name, value);
  }
}

bool SqlSession::reachesClient(std::string_view severity) const {
  MessageLevel level = severityLevel(severity);
  return level == MessageLevel::Info || level >= settings_.clientMinMessages();
}

void SqlSession::sendNotice(ResultSink& sink, const Notice& notice) const {
  if (reachesClient(notice.severity)) sink.notice(notice);
}

void SqlSession::rollbackOpenBlock() {
  if (txn_.mode() != TransactionState::Mode::None) endTransaction(false);
}

// ---- statement_timeout and cancel

// The timer raises the cancel flag; a flag it raised ends with the statement (a user's
// cancel request stays for the statement it was meant for). Guards nest: planning and
// running one statement share the timer the outer one armed. The guard also gives the
// thread this session's max_stack_depth: the executor serves every session.
SqlSession::TimeoutGuard::TimeoutGuard(SqlSession& s, bool applies)
    : s_(s), interrupts_(&s.cancel_, &s.timedOut_), memory_(s.settings_.executorMemoryLimitKb() * 1024) {
  setMaxStackDepthKb(static_cast<size_t>(s.settings_.maxStackDepthKb()));
  int ms = s.settings_.statementTimeoutMs();
  if (!applies || ms <= 0 || s.timeoutArmed_) return;
  ticket_ = StatementTimer::instance().arm(ms, &s.cancel_, &s.timedOut_);
  s.timeoutArmed_ = true;
}

SqlSession::TimeoutGuard::~TimeoutGuard() {
  if (!ticket_) return;
  StatementTimer::instance().disarm(ticket_);
  s_.timeoutArmed_ = false;
  if (s_.timedOut_.exchange(false)) s_.cancel_.store(false);
}

// ---- Simple Query

QueryState SqlSession::simpleQuery(std::string_view sql, ResultSink& sink) {
  std::vector<sql::ParsedStatement> parsed;
  try {
    TimeoutGuard timeout(*this, true);
    checkUtf8(sql);  // PostgreSQL verifies the whole text, comments and names included
    parsed = sql::parseQuery(sql, sql::ParseOptions{.liftLiterals = true});
    // A simple query has no parameters to bind (PREPARE's statement waits for EXECUTE's).
    for (const sql::ParsedStatement& p : parsed)
      if (p.stmt->kind != sql::StmtKind::Prepare) checkParamNumbers(p, sql, 0);
  } catch (const SqlError&) {
    if (txn_.inBlock()) txn_.statementFailed(txn_.undo().mark());
    throw;
  }
  if (parsed.size() == 1 && parsed[0].stmt->kind == sql::StmtKind::Empty) {
    sink.emptyQuery();
    return QueryState::Done;
  }
  pendingSql_ = std::make_shared<const std::string>(sql);
  pendingStmts_ = std::move(parsed);
  pendingImplicitBlock_ = std::count_if(pendingStmts_.begin(), pendingStmts_.end(),
                                        [](const auto& p) { return p.stmt->kind != sql::StmtKind::Empty; }) > 1;
  return continueQuery(sink, true);
}

QueryState SqlSession::resumeQuery(ResultSink& sink) { return continueQuery(sink, true); }

bool SqlSession::queryContinues() const { return !pendingStmts_.empty(); }

void SqlSession::keepPending(std::vector<Statement>& statements, size_t from) {
  for (size_t j = from; j < statements.size(); ++j) pendingStmts_.push_back(std::move(statements[j].parsed));
}

QueryState SqlSession::continueQuery(ResultSink& sink, bool mayRoute) {
  std::vector<Statement> statements;
  for (auto& p : pendingStmts_) statements.push_back(Statement{pendingSql_, *pendingSql_, std::move(p), {}, nullptr});
  pendingStmts_.clear();
  for (size_t i = 0; i < statements.size(); ++i) {
    Statement& st = statements[i];
    if (st.parsed.stmt->kind == sql::StmtKind::Empty) continue;
    if (mayRoute && routeStatement(st)) {
      keepPending(statements, i + 1);
      return QueryState::OnSnapshot;
    }
    // Beside another session's block, the first statement that cannot go to a snapshot
    // waits with the rest of the message (after one that went, the rest waits on the
    // executor's queue instead: the server resumes it without running beside the block).
    if (besideHolder_) throw StatementDeferred{};
    // Several statements in one Query run in an implicit transaction block (PostgreSQL's
    // exec_simple_query), re-entered before each one in case a COMMIT ended it.
    if (pendingImplicitBlock_) txn_.startImplicitBlock();
    TimeoutGuard timeout(*this, st.parsed.stmt->kind != sql::StmtKind::Transaction);
    std::unique_ptr<ParamTuple> params;
    if (isQuery(*st.parsed.stmt) && !txn_.failed()) {
      UndoLog::Mark mark = txn_.undo().mark();
      try {
        // Routing may have found the plan already (a Query of SELECTs: no DDL in between).
        if (!st.plan) st.plan = planFor(st);
        params = literalParams(st);
      } catch (const SqlError&) {
        txn_.ensureStarted();
        failStatement(mark);
        flushReports(sink);
        throw;
      }
    }
    QueryState state = runStatement(st, params ? params->data() : nullptr, {}, sink, true);
    if (state == QueryState::CopyIn) {
      copyFromSimple_ = true;
      keepPending(statements, i + 1);
      return state;
    }
  }
  // The statements of one Query form one implicit transaction, unless they opened a block.
  if (txn_.mode() == TransactionState::Mode::Implicit) endTransaction(true);
  flushReports(sink);
  return QueryState::Done;
}

QueryState SqlSession::runStatement(Statement& st, const uint8_t* params, const std::vector<int16_t>& formats,
                                    ResultSink& sink, bool describe) {
  const sql::Stmt& stmt = *st.parsed.stmt;
  checkNotFailed(stmt);
  startStatement();
  if (takesSnapshot(stmt)) txn_.noteStatement();
  UndoLog::Mark mark = txn_.undo().mark();
  StatementInputs inputs = statementInputs();
  TimeoutGuard timeout(*this, stmt.kind != sql::StmtKind::Transaction);
  try {
    if (cancel_.load() && stmt.kind != sql::StmtKind::Transaction) raiseQueryCanceled(&timedOut_);
    QueryState state = QueryState::Done;
    if (st.plan) {
      runPlan(st, params, formats, sink, describe);
    } else {
      state = runUtility(st, sink);
    }
    if (engine_.commitLog) {
      if (state == QueryState::CopyIn) {
        copyIn_->log = loggedStatement(st, params, inputs);
      } else if (txn_.undo().mark() != mark || changingCommand(stmt)) {
        logged_.statements.push_back(loggedStatement(st, params, inputs));
      }
    }
    flushReports(sink);
    return state;
  } catch (const SqlError&) {
    if (txn_.mode() != TransactionState::Mode::None) failStatement(mark);
    flushReports(sink);
    throw;
  }
}

SqlSession::TextParams SqlSession::explicitParamsAsText(const Statement& st, const PreparedPlan& plan,
                                                        const uint8_t* params) const {
  TextParams out;
  const TupleLayout& layout = plan.compiled->paramLayout;
  // Floats bound in binary must read back to the same bits: shortest exact digits, whatever
  // the session's extra_float_digits (the redo log's replay and snapshot processes parse them).
  TypeContext exact = settings_.typeContext();
  exact.extraFloatDigits = 1;
  for (int i = 0; i < st.parsed.explicitParams; ++i) {
    out.typeOids.push_back(typeOid(plan.paramTypes[i]));
    if (params[layout.nullOffset(i)]) {
      out.values.emplace_back(std::nullopt);
      continue;
    }
    std::string text;
    formatText(layout.types[i], params + layout.offsets[i], text, exact);
    out.values.emplace_back(std::move(text));
  }
  return out;
}

void SqlSession::checkParamNumbers(const sql::ParsedStatement& p, std::string_view sql, int bindable) {
  int missing = p.firstParam >= 0 && (p.firstParam < 1 || p.firstParam > bindable) ? p.firstParam
                : p.explicitParams > bindable                                      ? p.explicitParams
                                                                                   : -1;
  if (missing < 0) return;
  throw SqlError(sqlstate::kUndefinedParameter, fmt::format("there is no parameter ${}", missing), {}, {},
                 missing == p.firstParam ? sql::sqlPosition(sql, p.firstParamLocation) : 0);
}

// ---- the redo log's record of a transaction (docs/logging.md)

SqlSession::StatementInputs SqlSession::statementInputs() {
  return StatementInputs{txn_.statementTimestamp(), *txn_.randomState(), txn_.clock()->readings.size()};
}

LoggedStatement SqlSession::loggedStatement(const Statement& st, const uint8_t* params, const StatementInputs& inputs) {
  LoggedStatement l;
  const sql::Stmt& stmt = *st.parsed.stmt;
  l.sql = st.sql.substr(stmt.begin, stmt.end - stmt.begin);
  // Lifted literals are in the text; only the extended protocol's $n values are not.
  if (st.plan && params) {
    TextParams text = explicitParamsAsText(st, *st.plan, params);
    l.paramTypeOids = std::move(text.typeOids);
    l.params = std::move(text.values);
  }
  // Settings that would make a replay refuse or stop what once ran are left out. They
  // change rarely: computed again only when some setting did.
  if (loggedSettingsVersion_ != settings_.version()) {
    loggedSettings_.clear();
    for (auto& [name, value] : settings_.nonDefaultValues()) {
      if (name == "statement_timeout" || name == "idle_in_transaction_session_timeout" ||
          name == "default_transaction_read_only" || name == "lock_timeout")
        continue;
      loggedSettings_.emplace_back(name, value);
    }
    loggedSettingsVersion_ = settings_.version();
  }
  l.settings = loggedSettings_;
  l.statementTimestamp = inputs.statementTimestamp;
  l.randomState = inputs.randomState;
  const std::vector<int64_t>& readings = txn_.clock()->readings;
  l.clockOffsets.assign(readings.begin() + static_cast<std::ptrdiff_t>(inputs.clockReadings), readings.end());
  return l;
}

// ---- compiled plans

std::string SqlSession::planKey(const Statement& st) const {
  const sql::ParsedStatement& p = st.parsed;
  std::string key = fmt::format("{}|{}|", db_->oid, settings_.get("search_path"));
  for (const SqlType& t : st.declaredTypes) key += fmt::format("{}:{},", typeOid(t), t.typmod);
  key += '|';
  if (p.shapeKey.empty())
    key += st.sql.substr(p.stmt->begin, p.stmt->end - p.stmt->begin);
  else
    key += p.shapeKey;
  if (uint32_t threads = parallelThreads(); threads > 1) key += fmt::format("|parallel {}", threads);
  return key;
}

uint32_t SqlSession::parallelThreads() const {
  if (engine_.parallelThreads <= 1) return 1;  // the executor: every statement, no lookup
  return std::min<uint32_t>(1 + settings_.maxParallelWorkersPerGather(), engine_.parallelThreads);
}

PlanRequest SqlSession::planRequest(const Statement& st) {
  const sql::ParsedStatement& p = st.parsed;
  PlanRequest request;
  request.stmt = p.stmt.get();
  request.declaredParamTypes = st.declaredTypes;
  for (const auto& lit : p.literals) {
    request.literalTypes.push_back(literalType(lit.kind));
    request.literalUses.push_back(lit.uses);
    request.literalSameAs.push_back(lit.sameTextAs);
  }
  request.explicitParamCount = p.explicitParams;
  request.queryText = st.sql;
  request.resolveTable = tableResolver();
  request.resolveRoutines = [this](const std::vector<std::string>& names) { return routineCandidates(names); };
  request.parallelThreads = parallelThreads();
  request.optimiseBudgetMs = settings_.maxCompileMs();
  return request;
}

std::shared_ptr<PreparedPlan> SqlSession::planFor(Statement& st) {
  std::string key = planKey(st);
  if (auto cached = engine_.plans.find(key, engine_.catalogVersion)) return cached;
  std::shared_ptr<PreparedPlan> plan = planStatement(planRequest(st));
  plan->catalogVersion = engine_.catalogVersion;
  engine_.plans.put(key, plan);
  return plan;
}

TableResolver SqlSession::tableResolver() {
  return [this](const sql::QualifiedName& name) {
    TableInfo& t = tableByName(name);
    TableBinding b{t.table.get(), t.oid, t.name, {}};
    for (const auto& c : t.columns) b.defaults.push_back(c.defaultSql);
    return b;
  };
}

std::unique_ptr<ParamTuple> SqlSession::literalParams(const Statement& st) {
  auto params = std::make_unique<ParamTuple>(st.plan->compiled->paramLayout);
  for (const auto& lit : st.parsed.literals) {
    params->set(lit.paramNumber - 1, std::string_view(lit.text), 0, settings_.typeContext());
  }
  return params;
}

std::vector<ColumnDesc> SqlSession::columnsOf(const PreparedPlan& plan, const std::vector<int16_t>& formats) const {
  std::vector<ColumnDesc> cols;
  for (size_t i = 0; i < plan.columns.size(); ++i) {
    const OutputColumn& c = plan.columns[i];
    cols.push_back(ColumnDesc{c.name, c.tableOid, c.attnum, typeOid(c.type), typeLen(c.type.id), c.type.typmod,
                              i < formats.size() ? formats[i] : int16_t{0}});
  }
  return cols;
}

void SqlSession::runPlan(Statement& st, const uint8_t* params, const std::vector<int16_t>& formats, ResultSink& sink,
                         bool describe) {
  // A cached plan may have been compiled before DDL this statement must see.
  if (st.plan->catalogVersion != engine_.catalogVersion) st.plan = planFor(st);
  PreparedPlan& plan = *st.plan;
  // Before it runs, so a change of no row is refused too, as in PostgreSQL.
  if (const char* command = writingCommand(plan, *st.parsed.stmt)) txn_.undo().checkWritable(command);
  std::vector<int16_t> fmts = formats.empty() ? std::vector<int16_t>(plan.columns.size(), 0) : formats;
  if (describe && plan.returnsRows) sink.rowDescription(columnsOf(plan, fmts));
  if (plan.directCall && settings_.directCalls() && callDirectly(plan, params, fmts, sink)) return;
  if (std::find(plan.footprint.walked.begin(), plan.footprint.walked.end(), snapshotsView_) !=
      plan.footprint.walked.end())
    refreshSnapshotsView();
  SinkConsumer consumer(plan.compiled->outputLayout, fmts, sink, settings_.typeContext());
  rt::QueryContext ctx = makeContext(params);
  ctx.output = &consumer;
  auto start = std::chrono::steady_clock::now();
  plan.compiled->entry(&ctx);
  plan.executionNs += static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count());
  ++plan.executions;
  sink.commandComplete(commandTag(plan, consumer.rows, ctx.affectedRows));
}

rt::QueryContext SqlSession::makeContext(const uint8_t* params) {
  rt::QueryContext ctx;
  ctx.params = params;
  ctx.undo = &txn_.undo();
  ctx.cancel = &cancel_;
  ctx.timedOut = &timedOut_;
  ctx.transactionTimestamp = txn_.startTimestamp();
  ctx.statementTimestamp = txn_.statementTimestamp();
  ctx.clock = txn_.clock();
  ctx.randomState = txn_.randomState();
  ctx.typeContext = &settings_.typeContext();  // casts between timestamp types need the zone
  ctx.session = this;
  ctx.settings = this;
  setStatementArena(&arena_);
  return ctx;
}

}  // namespace duet
