// A session's shared state: its settings at startup, and the helpers every part uses
// (tables by name, notices and reports, the QueryContext, statement_timeout and cancel).
#include "session/session_state.h"

#include <algorithm>

#include <fmt/format.h>

#include "engine/limits/stack_depth.h"
#include "session/statement_timer.h"

namespace duet {
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

// The level of a notice's severity. DuetDB's only DEBUG messages are RAISE DEBUG's, which
// PostgreSQL raises at DEBUG1.
MessageLevel severityLevel(std::string_view severity) {
  if (severity == "DEBUG") return MessageLevel::Debug1;
  if (severity == "LOG") return MessageLevel::Log;
  if (severity == "INFO") return MessageLevel::Info;
  if (severity == "WARNING") return MessageLevel::Warning;
  return MessageLevel::Notice;
}

}  // namespace

SessionState::SessionState(EngineState& engineState, Database& database, std::string userName, std::string databaseName,
                           const std::vector<std::pair<std::string, std::string>>& startupParams,
                           rt::SessionServices& sessionServices)
    : engine(engineState),
      db(&database),
      user(std::move(userName)),
      dbName(std::move(databaseName)),
      services(sessionServices),
      catalogLookup(*this) {
  for (const SystemRelation& relation : systemRelations())
    if (TableInfo* t = engine.catalog.findTable(*db, {std::string(relation.schema)}, std::string(relation.name)))
      systemTables[t->table.get()] = {&relation, t->table.get()};
  settings.setCatalogLookup(&catalogLookup);
  backendStart = currentTimestamp();
  engine.sessions.push_back(this);
  ++engine.databaseStats[db->oid].sessions;
  // A new session reads no snapshot older than its connection: a script's next psql sees
  // what the previous one committed, as with PostgreSQL.
  lastCommit = engine.commitCount.load(std::memory_order_acquire);
  settings.setSessionDefault("session_authorization", user);
  settings.setSessionDefault("idle_in_transaction_session_timeout",
                             std::to_string(engine.config.idleInTransactionTimeoutMs));
  for (const auto& [name, value] : startupParams) {
    if (name == "options") {
      for (const auto& [option, optionValue] : commandLineSettings(value))
        settings.setSessionDefault(option, optionValue);
      continue;
    }
    if (name == "user" || name == "database" || name == "replication") continue;
    // Unknown startup parameters are refused by PostgreSQL too (42704, fatal).
    settings.setSessionDefault(name, value);
  }
  // The startup's ParameterStatus messages (reportedParameters) carry these values: mark
  // them reported so the first statement does not send them all again.
  settings.takeReportChanges();
}

bool SessionState::readsLiveSystemTable(const PreparedPlan& plan) const {
  for (const Table* t : plan.footprint.walked)
    if (auto it = systemTables.find(t); it != systemTables.end() && !it->second.relation->fill) return true;
  return false;
}

void SessionState::endCursors(bool committed) {
  for (auto it = cursors.begin(); it != cursors.end();) {
    if (!it->second.hold || (!committed && it->second.declaredInTransaction)) {
      it = cursors.erase(it);
    } else {
      it->second.declaredInTransaction = false;
      ++it;
    }
  }
}

void SessionState::closeCursorsOpenedSince(uint64_t opened) {
  std::erase_if(cursors, [&](const auto& c) { return c.second.portal.number > opened; });
}

void SessionState::holdPinnedCursors() {
  for (auto& [name, cursor] : cursors) {
    if (!cursor.portal.pinned) continue;
    cursor.hold = cursor.autoHeld = true;
    cursor.declaredInTransaction = false;  // a ROLLBACK keeps it too
  }
}

void SessionState::dropAutoHeldCursors() {
  std::erase_if(cursors, [](const auto& c) { return c.second.autoHeld; });
}

void SessionState::transactionEnded(bool committed) {
  ++endedTransactions;
  currentOfCursors.clear();
  loggedCursors.clear();
  endNotifications(committed);
  endCursors(committed);
  advisoryLocks.transactionEnded();
}

SessionState::~SessionState() {
  advisoryLocks.sessionEnded();
  std::erase(engine.sessions, this);
  engine.notifications.remove(&listener);
}

void SessionState::notify(std::string_view channel, std::string_view payload) {
  if (channel.empty()) throw SqlError(sqlstate::kInvalidParameterValue, "channel name cannot be empty");
  if (channel.size() >= 64) throw SqlError(sqlstate::kInvalidParameterValue, "channel name too long");
  if (payload.size() >= 8000) throw SqlError(sqlstate::kInvalidParameterValue, "payload string too long");
  for (const Notification& n : pendingNotifies)
    if (n.channel == channel && n.payload == payload) return;
  pendingNotifies.push_back(Notification{listener.pid, std::string(channel), std::string(payload)});
}

void SessionState::endNotifications(bool committed) {
  if (committed) {
    for (auto& [listen, channel] : pendingListens) {
      if (listen) {
        listener.channels.insert(channel);
      } else if (channel.empty()) {
        listener.channels.clear();
      } else {
        listener.channels.erase(channel);
      }
    }
    if (!pendingListens.empty()) {
      if (listener.channels.empty()) {
        engine.notifications.remove(&listener);
      } else {
        engine.notifications.add(&listener);
      }
    }
    if (!pendingNotifies.empty()) engine.notifications.deliver(pendingNotifies);
  }
  pendingListens.clear();
  pendingNotifies.clear();
}

const SearchPath& SessionState::searchPath() {
  const Schema* temp = tempSchema();
  if (searchPathSettings_ != settings.version() || searchPathCatalog_ != engine.catalogVersion ||
      searchPathTemp_ != temp) {
    searchPath_ = resolveSearchPath(settings.get("search_path"), *db, user, temp ? tempSchemaName : std::string());
    searchPathSettings_ = settings.version();
    searchPathCatalog_ = engine.catalogVersion;
    searchPathTemp_ = temp;
  }
  return searchPath_;
}

Schema* SessionState::tempSchema() const {
  if (tempSchemaName.empty()) return nullptr;
  Schema* s = db->schema(tempSchemaName);
  return s && s->tempOwner == tempSessionId ? s : nullptr;
}

Schema& SessionState::makeTempSchema() {
  if (Schema* s = tempSchema()) return *s;
  if (tempSessionId.number == 0) tempSessionId = {engine.startTimestamp, ++engine.tempSessions};
  // pg_temp_N with the smallest N no other session's schema has (a replay's session was
  // given the name its session had).
  if (tempSchemaName.empty() || db->schema(tempSchemaName))
    for (int n = 1; db->schema(tempSchemaName = fmt::format("pg_temp_{}", n)); ++n) {}
  return engine.catalog.createTemporarySchema(*db, tempSchemaName, tempSessionId, txn.undo());
}

namespace {
// A qualified name's schema; empty for a bare name.
const std::string* qualifier(const std::vector<std::string>& parts) {
  return parts.size() >= 2 ? &parts[parts.size() - 2] : nullptr;
}
}  // namespace

SchemaPath SessionState::relationPath(const std::vector<std::string>& names) {
  const std::string* schema = qualifier(names);
  if (!schema) return searchPath().relations;
  if (*schema == "pg_temp") return {tempSchema() ? tempSchemaName : std::string()};
  return {*schema};
}

SchemaPath SessionState::relationPath(const sql::QualifiedName& name) { return relationPath(name.parts); }

std::optional<SessionState::NamedRowType> SessionState::namedRowType(const std::vector<std::string>& names) {
  if (names.empty() || names.size() > 2) return std::nullopt;
  // Types and relations share the schema's names, so the first schema with either wins.
  for (const std::string& schemaName : relationPath(names)) {
    const Schema* schema = db->schema(schemaName);
    if (!schema) continue;
    if (auto it = schema->types.find(names.back()); it != schema->types.end())
      return NamedRowType{it->second->rowType(), schema->name, it->second->name};
    if (auto it = schema->tables.find(names.back()); it != schema->tables.end() && !it->second->systemView)
      return NamedRowType{tableRowType(*it->second), schema->name, it->second->name};
    if (schema->hasRelation(names.back())) return std::nullopt;
  }
  return std::nullopt;
}

SchemaPath SessionState::routinePath(const std::vector<std::string>& names) {
  const std::string* schema = qualifier(names);
  if (!schema) return searchPath().routines;
  if (*schema == "pg_temp") return {tempSchema() ? tempSchemaName : std::string()};
  return {*schema};
}

std::string SessionState::creationSchema(const sql::QualifiedName& name, bool& temporary) {
  const std::string* schema = qualifier(name.parts);
  // pg_temp_N by its own name: the session's (an archive's records name it so).
  bool ownTemp = schema && *schema == tempSchemaName && (tempSchema() || !db->schema(*schema));
  if (schema && *schema != "pg_temp" && !ownTemp) {
    if (temporary)
      throw SqlError(sqlstate::kInvalidTableDefinition, "cannot create temporary relation in non-temporary schema");
    if (!db->schema(*schema))
      throw SqlError(sqlstate::kInvalidSchemaName, fmt::format("schema \"{}\" does not exist", *schema));
    return *schema;
  }
  if (!schema && !temporary) {
    const SearchPath& path = searchPath();
    if (!path.createsTemporary) {
      if (path.creation.empty())
        throw SqlError(sqlstate::kInvalidSchemaName, "no schema has been selected to create in");
      if (!(tempSchema() && path.creation == tempSchemaName)) return path.creation;
    }
  }
  temporary = true;
  return makeTempSchema().name;
}

std::string SessionState::creationSchema(const sql::QualifiedName& name) {
  bool temporary = false;
  std::string schema = creationSchema(name, temporary);
  if (temporary) throw SqlError(sqlstate::kFeatureNotSupported, "only tables, views and sequences can be temporary");
  return schema;
}

TableInfo& SessionState::tableByName(const sql::QualifiedName& name, const ViewRefusal& refusal) {
  SchemaPath path = relationPath(name);
  Catalog::Relation r = engine.catalog.findRelation(*db, path, name.name());
  if (r.view && !r.table)
    throw SqlError(sqlstate::kWrongObjectType, fmt::format(fmt::runtime(refusal.message), name.name()), refusal.detail,
                   refusal.hint);
  return engine.catalog.table(*db, path, name.name());
}

TableInfo& SessionState::tableByName(const sql::QualifiedName& name) { return tableByName(name, ViewRefusal{}); }

TypeResolver SessionState::typeResolver() {
  return [this](const std::vector<std::string>& names) -> std::optional<SqlType> {
    if (auto found = namedRowType(names)) return found->type;
    return std::nullopt;
  };
}

TableResolver SessionState::tableResolver() {
  return [this](const sql::QualifiedName& name) {
    SchemaPath path = relationPath(name);
    Catalog::Relation r = engine.catalog.findRelation(*db, path, name.name());
    const Schema* in = r.table ? r.table->schema : r.view ? r.view->schema : nullptr;
    if (in && in->temporary() && in != tempSchema())
      throw SqlError(sqlstate::kFeatureNotSupported, "cannot access temporary tables of other sessions");
    if (!r.table && !r.view) {
      // A sequence reads as its one row (what pg_dump asks of it), read when the query runs.
      if (const SequenceInfo* s = engine.catalog.findSequence(*db, path, name.name())) {
        auto row = std::make_shared<ViewBinding>();
        row->query = fmt::format(
            "SELECT pg_catalog.duet_sequence_value({0}) AS last_value, 0::bigint AS log_cnt, "
            "pg_catalog.duet_sequence_is_called({0}) AS is_called",
            s->oid);
        row->columns = {"last_value", "log_cnt", "is_called"};
        return TableBinding{nullptr, s->oid, s->name, {}, std::move(row)};
      }
    }
    if (r.view && !r.table) {
      TableBinding b{nullptr, r.view->oid, r.view->name, {}, nullptr};
      auto view = std::make_shared<ViewBinding>();
      view->query = r.view->query;
      for (const ColumnDef& c : r.view->columns) view->columns.push_back(c.name);
      b.view = std::move(view);
      return b;
    }
    TableInfo& t = tableByName(name);
    TableBinding b{t.table.get(), t.oid, t.name, {}, nullptr};
    for (const auto& c : t.columns) {
      b.defaults.push_back(c.defaultSql);
      b.identity.push_back(c.identity);
    }
    for (const CheckConstraint& c : t.checks) b.checks.push_back({c.name, c.exprSql});
    return b;
  };
}

bool SessionState::reachesClient(std::string_view severity) const {
  MessageLevel level = severityLevel(severity);
  return level == MessageLevel::Info || level >= settings.clientMinMessages();
}

void SessionState::sendNotice(ResultSink& sink, const Notice& notice) const {
  if (reachesClient(notice.severity)) sink.notice(notice);
}

void SessionState::flushReports(ResultSink& sink) {
  for (Notice& n : pendingNotices) sink.notice(std::move(n));
  pendingNotices.clear();
  for (const auto& [name, value] : settings.takeReportChanges()) {
    sink.parameterStatus(name, value);
  }
}

// ---- statement_timeout and cancel

// The timer raises the cancel flag; a flag it raised ends with the statement (a user's
// cancel request stays for the statement it was meant for). Guards nest: planning and
// running one statement share the timer the outer one armed. The guard also gives the
// thread this session's max_stack_depth: the executor serves every session.
TimeoutGuard::TimeoutGuard(SessionState& s, bool applies)
    : s_(s), interrupts_(&s.cancel, &s.timedOut), memory_(s.settings.executorMemoryLimitKb() * 1024) {
  setMaxStackDepthKb(static_cast<size_t>(s.settings.maxStackDepthKb()));
  int ms = s.settings.statementTimeoutMs();
  if (!applies || ms <= 0 || s.timeoutArmed) return;
  ticket_ = StatementTimer::instance().arm(ms, &s.cancel, &s.timedOut);
  s.timeoutArmed = true;
}

TimeoutGuard::~TimeoutGuard() {
  if (!ticket_) return;
  StatementTimer::instance().disarm(ticket_);
  s_.timeoutArmed = false;
  if (s_.timedOut.exchange(false)) s_.cancel.store(false);
}

void SessionState::endRoutineCursorUse() {
  for (auto& [name, cursor] : cursors) {
    if (!cursor.portal.routineUse) continue;
    cursor.portal.routineUse = false;
    cursor.portal.replayable = false;
  }
}

}  // namespace duet
