// Utility statements: transaction control, SET/SHOW/RESET, DDL through the catalog (with
// the undo log, so ROLLBACK undoes it), and the maintenance statements that are accepted
// as no-ops in a main-memory database. CREATE/DROP FUNCTION are RoutineStatements'.
#include "session/utility_statements.h"

#include <fmt/format.h>

#include "compiler/compiler.h"
#include "engine/types/text_functions.h"
#include "session/statement.h"
#include "session/table_analysis.h"
#include "session/temp_objects.h"

namespace duet {
namespace {

[[noreturn]] void unsupported(std::string_view what) {
  throw SqlError(sqlstate::kFeatureNotSupported, fmt::format("{} is not supported", what));
}

// SET's value list as one string: "ISO, MDY", "a, b"; for a list of names, each quoted
// where an identifier needs it ("$user", public), as PostgreSQL's flatten_set_variable_args.
std::string joinValues(const std::vector<sql::DefElem>& values, const SettingDef* def = nullptr) {
  std::vector<std::string> items;
  for (const sql::DefElem& v : values) items.push_back(v.value);
  return joinSettingValues(items, def);
}

void sendTextRows(ResultSink& sink, const std::vector<ColumnDesc>& desc,
                  const std::vector<std::vector<std::string>>& rows) {
  size_t columns = desc.size();
  sink.rowDescription(desc);
  std::vector<Field> fields(columns);
  for (const auto& row : rows) {
    for (size_t i = 0; i < columns; ++i) {
      fields[i] = Field{row[i].data(), static_cast<int32_t>(row[i].size())};
    }
    sink.dataRow(fields.data(), columns);
  }
  sink.commandComplete("SHOW");
}

const char* dropTag(sql::ObjectType object) {
  static const char* tags[] = {"DROP TABLE", "DROP INDEX",    "DROP DATABASE", "DROP ROLE",
                               "DROP VIEW",  "DROP SEQUENCE", "DROP SCHEMA",   "DROP TYPE"};
  return tags[static_cast<int>(object)];
}

const char* isolationName(sql::IsolationLevel level) {
  switch (level) {
    case sql::IsolationLevel::ReadUncommitted: return "read uncommitted";
    case sql::IsolationLevel::ReadCommitted: return "read committed";
    case sql::IsolationLevel::RepeatableRead: return "repeatable read";
    case sql::IsolationLevel::Serializable: return "serializable";
    case sql::IsolationLevel::Default: break;
  }
  return nullptr;
}

// VACUUM ANALYZE, VACUUM (ANALYZE) and VACUUM (ANALYZE true): the analyze option, on.
bool vacuumAnalyzes(const sql::VacuumStmt& stmt) {
  bool analyze = false;
  for (const sql::DefElem& o : stmt.options)
    if (o.name == "analyze") analyze = booleanOption(o);
  return analyze;
}

}  // namespace

// PostgreSQL's PreventCommandIfReadOnly names.
const char* changingCommand(const sql::Stmt& stmt) {
  switch (stmt.kind) {
    case sql::StmtKind::CreateTable: {
      const auto& s = stmt.as<sql::CreateTableStmt>();
      return !s.query ? "CREATE TABLE" : s.selectInto ? "SELECT INTO" : "CREATE TABLE AS";
    }
    case sql::StmtKind::CreateView: return "CREATE VIEW";
    case sql::StmtKind::CreateSequence: return "CREATE SEQUENCE";
    case sql::StmtKind::CreateType: return "CREATE TYPE";
    case sql::StmtKind::Comment: return "COMMENT";
    case sql::StmtKind::CreateSchema: return "CREATE SCHEMA";
    case sql::StmtKind::AlterSchema: return "ALTER SCHEMA";
    case sql::StmtKind::AlterSequence: return "ALTER SEQUENCE";
    case sql::StmtKind::CreateIndex: return "CREATE INDEX";
    case sql::StmtKind::AlterTable: return stmt.as<sql::AlterTableStmt>().index ? "ALTER INDEX" : "ALTER TABLE";
    case sql::StmtKind::Drop: return dropTag(stmt.as<sql::DropStmt>().object);
    case sql::StmtKind::Truncate: return "TRUNCATE TABLE";
    case sql::StmtKind::CreateDatabase: return "CREATE DATABASE";
    case sql::StmtKind::CreateRole: return "CREATE ROLE";
    case sql::StmtKind::AlterRole: return "ALTER ROLE";
    case sql::StmtKind::GrantRole: return stmt.as<sql::GrantRoleStmt>().grant ? "GRANT ROLE" : "REVOKE ROLE";
    case sql::StmtKind::AlterDatabase: return "ALTER DATABASE";
    case sql::StmtKind::CreateFunction:
      return stmt.as<sql::CreateFunctionStmt>().routine == sql::RoutineKind::Procedure ? "CREATE PROCEDURE"
                                                                                       : "CREATE FUNCTION";
    case sql::StmtKind::DropRoutine:
      switch (stmt.as<sql::DropRoutineStmt>().object) {
        case sql::RoutineObject::Function: return "DROP FUNCTION";
        case sql::RoutineObject::Procedure: return "DROP PROCEDURE";
        case sql::RoutineObject::Routine: return "DROP ROUTINE";
      }
      return nullptr;
    default: return nullptr;
  }
}

void UtilityStatements::preventInTransactionBlock(std::string_view command) const {
  if (state_.txn.inTransactionBlock()) {
    throw SqlError(sqlstate::kActiveSqlTransaction, fmt::format("{} cannot run inside a transaction block", command));
  }
  if (state_.nestedStatements > 0) {
    throw SqlError(sqlstate::kActiveSqlTransaction, fmt::format("{} cannot be executed from a function", command));
  }
}

void UtilityStatements::run(const Statement& st, ResultSink& sink) {
  const sql::Stmt& stmt = *st.parsed.stmt;
  UndoLog& undo = state_.txn.undo();
  // Before anything else, as PostgreSQL checks: DROP TABLE IF EXISTS of no table is refused too.
  if (const char* command = changingCommand(stmt)) undo.checkWritable(command);
  switch (stmt.kind) {
    case sql::StmtKind::Transaction: runTransaction(stmt.as<sql::TransactionStmt>(), sink); break;
    case sql::StmtKind::Set: runSet(stmt.as<sql::SetStmt>(), sink); break;
    case sql::StmtKind::Show: runShow(stmt.as<sql::ShowStmt>(), sink); break;
    case sql::StmtKind::CreateTable: createTables_.run(stmt.as<sql::CreateTableStmt>(), st.sql, sink); break;
    case sql::StmtKind::CreateView:
      viewStatements_.createView(st);
      sink.commandComplete("CREATE VIEW");
      break;
    case sql::StmtKind::CreateSequence:
      sequenceStatements_.create(stmt.as<sql::CreateSequenceStmt>(), sink);
      sink.commandComplete("CREATE SEQUENCE");
      break;
    case sql::StmtKind::AlterSequence:
      sequenceStatements_.alter(stmt.as<sql::AlterSequenceStmt>());
      sink.commandComplete("ALTER SEQUENCE");
      break;
    case sql::StmtKind::CreateType:
      typeStatements_.create(stmt.as<sql::CreateTypeStmt>());
      sink.commandComplete("CREATE TYPE");
      break;
    case sql::StmtKind::Drop:
      if (stmt.as<sql::DropStmt>().object == sql::ObjectType::Type) {
        typeStatements_.drop(stmt.as<sql::DropStmt>(), sink);
        sink.commandComplete("DROP TYPE");
      } else if (stmt.as<sql::DropStmt>().object == sql::ObjectType::Sequence) {
        sequenceStatements_.drop(stmt.as<sql::DropStmt>(), sink);
        sink.commandComplete("DROP SEQUENCE");
      } else if (stmt.as<sql::DropStmt>().object == sql::ObjectType::View) {
        viewStatements_.dropViews(stmt.as<sql::DropStmt>(), sink);
        sink.commandComplete("DROP VIEW");
      } else {
        dropObjects(stmt.as<sql::DropStmt>(), sink);
      }
      break;
    case sql::StmtKind::CreateIndex: {
      const auto& s = stmt.as<sql::CreateIndexStmt>();
      if (s.where) unsupported("partial index");
      std::vector<std::string> columns;
      for (const auto& e : s.elems) {
        if (e.expr) unsupported("index on an expression");
        columns.push_back(e.column);
      }
      TableInfo& table = state_.tableByName(
          s.table, {"cannot create index on relation \"{}\"", "This operation is not supported for views.", ""});
      if (s.ifNotExists && !s.name.empty() &&
          state_.engine.catalog.findIndex(*state_.db, {table.schema->name}, s.name)) {
        state_.sendNotice(
            sink, Notice::make("NOTICE", "42P07", fmt::format("relation \"{}\" already exists, skipping", s.name)));
      } else {
        state_.engine.catalog.createIndex(table, s.name, columns, s.unique, undo);
        transaction_.ddlDone();
      }
      sink.commandComplete("CREATE INDEX");
      break;
    }
    case sql::StmtKind::AlterTable: alterTables_.run(stmt.as<sql::AlterTableStmt>(), st.sql, sink); break;
    case sql::StmtKind::Truncate:
      truncate(stmt.as<sql::TruncateStmt>(), sink);
      sink.commandComplete("TRUNCATE TABLE");
      break;
    case sql::StmtKind::Vacuum: {
      // VACUUM refuses a transaction block; the ANALYZE statement does not. VACUUM itself
      // has nothing to do (no dead tuples to reclaim); its ANALYZE option analyses.
      const auto& s = stmt.as<sql::VacuumStmt>();
      if (!s.isAnalyze) preventInTransactionBlock("VACUUM");
      if (s.isAnalyze || vacuumAnalyzes(s)) TableAnalysis(state_).run(s, sink);
      sink.commandComplete(s.isAnalyze ? "ANALYZE" : "VACUUM");
      break;
    }
    case sql::StmtKind::Checkpoint:
      state_.checkpointRequested = true;
      sink.commandComplete("CHECKPOINT");
      break;
    case sql::StmtKind::Discard: {
      const auto& s = stmt.as<sql::DiscardStmt>();
      if (s.target == "all") {
        preventInTransactionBlock("DISCARD ALL");
        state_.settings.resetAll();
        state_.statements.clear();
        state_.portals.clear();
        state_.cursors.clear();
        state_.pendingListens.emplace_back(false, "");  // UNLISTEN *
        state_.advisoryLocks.unlockAll();
      }
      if ((s.target == "all" || s.target == "temp") && TempObjects(state_).dropAll()) transaction_.ddlDone();
      std::string tag = s.target;
      for (char& c : tag) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      sink.commandComplete("DISCARD " + tag);
      break;
    }
    case sql::StmtKind::CreateDatabase: {
      preventInTransactionBlock("CREATE DATABASE");
      // OWNER names an existing role (DEFAULT: the creator); the other options change nothing here.
      std::string owner = state_.user;
      for (const sql::DefElem& o : stmt.as<sql::CreateDatabaseStmt>().options) {
        if (o.name != "owner" || (o.valueKind == sql::DefElem::ValueKind::Word && lower(o.value) == "default"))
          continue;
        if (!state_.engine.catalog.role(o.value))
          throw SqlError(sqlstate::kUndefinedObject, fmt::format("role \"{}\" does not exist", o.value));
        owner = o.value;
      }
      state_.engine.catalog.createDatabase(stmt.as<sql::CreateDatabaseStmt>().name, owner, undo);
      transaction_.ddlDone();
      sink.commandComplete("CREATE DATABASE");
      break;
    }
    case sql::StmtKind::CreateRole: {
      const auto& s = stmt.as<sql::CreateRoleStmt>();
      bool superuser = false;
      for (const auto& o : s.options) superuser = superuser || o.name == "superuser";
      state_.engine.catalog.createRole(s.name, superuser, undo);
      sink.commandComplete("CREATE ROLE");
      break;
    }
    case sql::StmtKind::AlterRole: {
      // Of the options only SUPERUSER is kept today; the others (LOGIN, PASSWORD, ...) are
      // accepted as CREATE ROLE accepts them (docs/compatibility.md; issue 24).
      const auto& s = stmt.as<sql::AlterRoleStmt>();
      if (!state_.engine.catalog.role(s.name))
        throw SqlError(sqlstate::kUndefinedObject, fmt::format("role \"{}\" does not exist", s.name));
      for (const auto& o : s.options)
        if (o.name == "superuser" || o.name == "nosuperuser")
          state_.engine.catalog.setSuperuser(s.name, o.name == "superuser", undo);
      transaction_.ddlDone();
      sink.commandComplete("ALTER ROLE");
      break;
    }
    case sql::StmtKind::GrantRole: {
      const auto& s = stmt.as<sql::GrantRoleStmt>();
      for (const std::string& role : s.roles) {
        for (const std::string& member : s.members) {
          if (s.grant) {
            if (!state_.engine.catalog.grantRole(role, member, s.adminOption, undo))
              state_.sendNotice(
                  sink, Notice::make("NOTICE", "00000",
                                     fmt::format("role \"{}\" is already a member of role \"{}\"", member, role)));
          } else if (!state_.engine.catalog.revokeRole(role, member, s.adminOption, undo)) {
            state_.sendNotice(sink,
                              Notice::make("WARNING", "01000",
                                           fmt::format("role \"{}\" is not a member of role \"{}\"", member, role)));
          }
        }
      }
      transaction_.ddlDone();
      sink.commandComplete(s.grant ? "GRANT ROLE" : "REVOKE ROLE");
      break;
    }
    case sql::StmtKind::AlterDatabase: {
      const auto& s = stmt.as<sql::AlterDatabaseStmt>();
      state_.engine.catalog.setDatabaseOwner(s.name, s.owner, undo);
      transaction_.ddlDone();
      sink.commandComplete("ALTER DATABASE");
      break;
    }
    case sql::StmtKind::Deallocate: {
      const auto& s = stmt.as<sql::DeallocateStmt>();
      if (s.all) {
        state_.statements.clear();
      } else if (!state_.statements.erase(s.name)) {
        throw SqlError(sqlstate::kUndefinedPstatement, fmt::format("prepared statement \"{}\" does not exist", s.name));
      }
      sink.commandComplete(s.all ? "DEALLOCATE ALL" : "DEALLOCATE");
      break;
    }
    case sql::StmtKind::CreateFunction: {
      const auto& s = stmt.as<sql::CreateFunctionStmt>();
      routineStatements_.createRoutine(s, st.sql, sink);
      sink.commandComplete(s.routine == sql::RoutineKind::Procedure ? "CREATE PROCEDURE" : "CREATE FUNCTION");
      break;
    }
    case sql::StmtKind::DropRoutine: routineStatements_.dropRoutines(stmt.as<sql::DropRoutineStmt>(), sink); break;
    case sql::StmtKind::CreateSchema: {
      const auto& s = stmt.as<sql::CreateSchemaStmt>();
      if (!s.authorization.empty() && !state_.engine.catalog.role(s.authorization))
        throw SqlError(sqlstate::kUndefinedObject, fmt::format("role \"{}\" does not exist", s.authorization));
      if (s.ifNotExists && state_.db->schema(s.name)) {
        state_.sendNotice(
            sink, Notice::make("NOTICE", "42P06", fmt::format("schema \"{}\" already exists, skipping", s.name)));
      } else {
        state_.engine.catalog.createSchema(*state_.db, s.name, undo);
        transaction_.ddlDone();
      }
      sink.commandComplete("CREATE SCHEMA");
      break;
    }
    case sql::StmtKind::AlterSchema: {
      const auto& s = stmt.as<sql::AlterSchemaStmt>();
      if (!state_.db->schema(s.name)) throw SqlError("3F000", fmt::format("schema \"{}\" does not exist", s.name));
      if (!s.owner.empty()) {
        // DuetDB keeps no owners (what a dump says is accepted): the role must exist.
        if (!state_.engine.catalog.role(s.owner))
          throw SqlError(sqlstate::kUndefinedObject, fmt::format("role \"{}\" does not exist", s.owner));
      } else {
        if (s.name == "pg_catalog" || s.name == "information_schema")
          throw SqlError("42939", fmt::format("unacceptable schema name \"{}\"", s.name),
                         "The prefix \"pg_\" is reserved for system schemas.");
        state_.engine.catalog.renameSchema(*state_.db, s.name, s.newName, undo);
        transaction_.ddlDone();
      }
      sink.commandComplete("ALTER SCHEMA");
      break;
    }
    case sql::StmtKind::Comment:
      comment(stmt.as<sql::CommentStmt>(), sink);
      sink.commandComplete("COMMENT");
      break;
    case sql::StmtKind::AlterRoutine: routineStatements_.alterRoutine(stmt.as<sql::AlterRoutineStmt>(), sink); break;
    case sql::StmtKind::Listen:
      state_.pendingListens.emplace_back(true, stmt.as<sql::ListenStmt>().channel);
      sink.commandComplete("LISTEN");
      break;
    case sql::StmtKind::Unlisten:
      state_.pendingListens.emplace_back(false, stmt.as<sql::UnlistenStmt>().channel);
      sink.commandComplete("UNLISTEN");
      break;
    case sql::StmtKind::Notify:
      state_.notify(stmt.as<sql::NotifyStmt>().channel, stmt.as<sql::NotifyStmt>().payload);
      sink.commandComplete("NOTIFY");
      break;
    case sql::StmtKind::Lock: {
      // One statement runs at a time and a block holds the executor: every lock is granted.
      if (!state_.txn.inTransactionBlock()) {
        throw SqlError(sqlstate::kNoActiveSqlTransaction, "LOCK TABLE can only be used in transaction blocks");
      }
      for (const auto& name : stmt.as<sql::LockStmt>().tables) {
        Catalog::Relation r = state_.engine.catalog.findRelation(*state_.db, state_.relationPath(name), name.name());
        if (!r.table && !r.view) {
          throw SqlError(sqlstate::kUndefinedTable, fmt::format("relation \"{}\" does not exist", name.name()), {}, {},
                         static_cast<int>(name.location) + 1);
        }
      }
      sink.commandComplete("LOCK TABLE");
      break;
    }
    default: unsupported("this statement");
  }
}

void UtilityStatements::runTransaction(const sql::TransactionStmt& s, ResultSink& sink) {
  switch (s.action) {
    case sql::TransactionKind::Begin:
    case sql::TransactionKind::Start:
      if (state_.txn.inBlock()) {
        state_.sendNotice(sink, Notice::make("WARNING", sqlstate::kActiveSqlTransaction,
                                             "there is already a transaction in progress"));
      }
      state_.txn.beginBlock();
      // A BEGIN inside a block still sets the block's access mode, as PostgreSQL's does.
      if (s.readOnly) transaction_.setTransactionReadOnly(*s.readOnly);
      sink.commandComplete("BEGIN");
      return;
    case sql::TransactionKind::Commit:
    case sql::TransactionKind::Rollback: {
      bool commit = s.action == sql::TransactionKind::Commit && !state_.txn.failed();
      if (!state_.txn.inBlock()) {
        state_.sendNotice(
            sink, Notice::make("WARNING", sqlstate::kNoActiveSqlTransaction, "there is no transaction in progress"));
      }
      transaction_.endTransaction(commit);
      sink.commandComplete(commit ? "COMMIT" : "ROLLBACK");
      return;
    }
    case sql::TransactionKind::SetTransaction:
      // Outside a block it sets the modes of the statement's own transaction only.
      if (!state_.txn.inTransactionBlock()) {
        state_.sendNotice(sink, Notice::make("WARNING", sqlstate::kNoActiveSqlTransaction,
                                             "SET TRANSACTION can only be used in transaction blocks"));
      }
      if (s.readOnly) transaction_.setTransactionReadOnly(*s.readOnly);
      sink.commandComplete("SET");
      return;
    case sql::TransactionKind::SetConstraints:
      if (!state_.txn.inTransactionBlock()) {
        state_.sendNotice(sink, Notice::make("WARNING", sqlstate::kNoActiveSqlTransaction,
                                             "SET CONSTRAINTS can only be used in transaction blocks"));
      }
      constraints_.setModes(s);
      sink.commandComplete("SET CONSTRAINTS");
      return;
    case sql::TransactionKind::SetSessionCharacteristics:
      setSessionCharacteristics(s);
      sink.commandComplete("SET");
      return;
    case sql::TransactionKind::Savepoint:
      transaction_.defineSavepoint(s.savepoint);
      sink.commandComplete("SAVEPOINT");
      return;
    case sql::TransactionKind::Release:
      transaction_.releaseSavepoint(s.savepoint);
      sink.commandComplete("RELEASE");
      return;
    case sql::TransactionKind::RollbackTo:
      transaction_.rollbackToSavepoint(s.savepoint);
      sink.commandComplete("ROLLBACK");
      return;
  }
}

void UtilityStatements::runSet(const sql::SetStmt& s, ResultSink& sink) {
  if (s.local && !state_.txn.inBlock()) {
    state_.sendNotice(sink, Notice::make("WARNING", sqlstate::kNoActiveSqlTransaction,
                                         "SET LOCAL can only be used in transaction blocks"));
  }
  const SettingDef* def = findSetting(s.name);
  if (def && std::string_view(def->name) == "transaction_read_only") {
    // The transaction's access mode, which the transaction keeps. RESET (and SET ... TO
    // DEFAULT) makes it read-write without the first-query check, as PostgreSQL checks only
    // the values SET gives.
    if (s.action == sql::SetStmt::Action::Set) {
      transaction_.setTransactionReadOnly(def->normalise(*def, joinValues(s.values)) == "on");
    } else {
      state_.txn.setReadOnly(false);
    }
  } else {
    if (def && s.action == sql::SetStmt::Action::Set) checkRole(*def, joinValues(s.values));
    // A custom placeholder ("app.user") takes one value, as in PostgreSQL.
    if (!def && s.values.size() > 1) {
      throw SqlError(sqlstate::kInvalidParameterValue, fmt::format("SET {} takes only one argument", s.name));
    }
    switch (s.action) {
      case sql::SetStmt::Action::Set: state_.settings.set(s.name, joinValues(s.values, def), s.local); break;
      case sql::SetStmt::Action::SetDefault:
      case sql::SetStmt::Action::Reset: state_.settings.reset(s.name, s.local); break;
      case sql::SetStmt::Action::ResetAll: state_.settings.resetAll(); break;
    }
  }
  sink.commandComplete(s.action == sql::SetStmt::Action::Set || s.action == sql::SetStmt::Action::SetDefault ? "SET"
                                                                                                             : "RESET");
}

// SET ROLE and SET SESSION AUTHORIZATION (or SET of role and session_authorization): the
// role must exist (22023, as PostgreSQL's check_role says), and be the session's user, the one identity
// DuetDB runs statements as (ROLE may also be NONE).
void UtilityStatements::checkRole(const SettingDef& def, const std::string& value) const {
  std::string_view name = def.name;
  if (name != "role" && name != "session_authorization") return;
  if (name == "role" && value == "none") return;
  if (!state_.engine.catalog.role(value)) {
    throw SqlError(sqlstate::kInvalidParameterValue, fmt::format("role \"{}\" does not exist", value));
  }
  if (value != state_.user) {
    throw SqlError(sqlstate::kFeatureNotSupported,
                   fmt::format("{} to a role other than the session user is not supported",
                               name == "role" ? "SET ROLE" : "SET SESSION AUTHORIZATION"));
  }
}

// SET SESSION CHARACTERISTICS AS TRANSACTION: the defaults of the transactions that
// follow (DEFERRABLE has no setting here and changes nothing).
void UtilityStatements::setSessionCharacteristics(const sql::TransactionStmt& s) {
  if (s.readOnly) state_.settings.set("default_transaction_read_only", *s.readOnly ? "on" : "off", s.local);
  if (const char* isolation = isolationName(s.isolation))
    state_.settings.set("default_transaction_isolation", isolation, s.local);
}

std::vector<ColumnDesc> showColumns(const sql::ShowStmt& s) {
  auto text = [](std::string name) { return ColumnDesc{std::move(name), 0, 0, oid::kText, -1, -1, 0}; };
  if (s.name == "all") return {text("name"), text("setting"), text("description")};
  const SettingDef* def = findSetting(s.name);
  return {text(def ? def->name : s.name)};
}

void UtilityStatements::runShow(const sql::ShowStmt& s, ResultSink& sink) {
  if (s.name == "all") {
    sendTextRows(sink, showColumns(s), state_.settings.showAll());
    return;
  }
  std::string value = state_.settings.get(s.name);  // 42704 for unknown names
  sendTextRows(sink, showColumns(s), {{value}});
}

void UtilityStatements::comment(const sql::CommentStmt& s, ResultSink& sink) {
  using Object = sql::CommentStmt::Object;
  Catalog& catalog = state_.engine.catalog;
  CommentKey key;
  auto relationMissing = [](const std::string& name) {
    throw SqlError(sqlstate::kUndefinedTable, fmt::format("relation \"{}\" does not exist", name));
  };
  switch (s.object) {
    case Object::Schema: {
      const Schema* schema = state_.db->schema(s.name.name());
      if (!schema) throw SqlError("3F000", fmt::format("schema \"{}\" does not exist", s.name.name()));
      key = {kPgNamespaceOid, schema->oid, 0};
      break;
    }
    case Object::Column: {
      if (s.name.parts.size() < 2) throw SqlError(sqlstate::kSyntaxError, "column name must be qualified");
      sql::QualifiedName relation = s.name;
      std::string column = relation.parts.back();
      relation.parts.pop_back();
      Catalog::Relation r = catalog.findRelation(*state_.db, state_.relationPath(relation), relation.name());
      int attnum = -1;
      if (r.table) attnum = r.table->columnIndex(column);
      if (r.view)
        for (size_t i = 0; i < r.view->columns.size(); ++i)
          if (r.view->columns[i].name == column) attnum = static_cast<int>(i);
      if (!r.table && !r.view) relationMissing(relation.name());
      if (attnum < 0)
        throw SqlError(sqlstate::kUndefinedColumn,
                       fmt::format("column \"{}\" of relation \"{}\" does not exist", column, relation.name()));
      key = {kPgClassOid, r.table ? r.table->oid : r.view->oid, attnum + 1};
      break;
    }
    case Object::Table:
    case Object::View:
    case Object::Index:
    case Object::Sequence: {
      const SchemaPath schema = state_.relationPath(s.name);
      const std::string& name = s.name.name();
      uint32_t oid = 0;
      if (s.object == Object::Table) {
        if (const TableInfo* t = catalog.findTable(*state_.db, schema, name)) oid = t->oid;
      } else if (s.object == Object::View) {
        if (const ViewInfo* v = catalog.findView(*state_.db, schema, name)) oid = v->oid;
      } else if (s.object == Object::Index) {
        if (const IndexInfo* i = catalog.findIndex(*state_.db, schema, name)) oid = i->oid;
      } else if (const SequenceInfo* q = catalog.findSequence(*state_.db, schema, name)) {
        oid = q->oid;
      }
      if (oid == 0) {
        static const char* kKinds[] = {"a table", "a view", "an index", "a sequence"};
        Catalog::Relation r = catalog.findRelation(*state_.db, schema, name);
        bool other = r.table || r.view || catalog.findIndex(*state_.db, schema, name) ||
                     catalog.findSequence(*state_.db, schema, name);
        if (!other) relationMissing(name);
        throw SqlError(sqlstate::kWrongObjectType,
                       fmt::format("\"{}\" is not {}", name, kKinds[static_cast<int>(s.object)]));
      }
      key = {kPgClassOid, oid, 0};
      break;
    }
    case Object::Function:
    case Object::Procedure: {
      sql::RoutineObject kind =
          s.object == Object::Function ? sql::RoutineObject::Function : sql::RoutineObject::Procedure;
      key = {kPgProcOid, routineStatements_.findRoutineRef(kind, s.routine, false, sink)->oid, 0};
      break;
    }
  }
  // An empty text removes the comment, as NULL does (CreateComments).
  std::optional<std::string> text = s.text && !s.text->empty() ? s.text : std::nullopt;
  catalog.setComment(*state_.db, key, std::move(text), state_.txn.undo());
  transaction_.ddlDone();
}

void UtilityStatements::truncate(const sql::TruncateStmt& s, ResultSink& sink) {
  std::vector<TableInfo*> tables;
  for (const auto& name : s.tables) tables.push_back(&state_.tableByName(name));
  constraints_.truncateClosure(tables, s.behavior == sql::DropBehavior::Cascade, sink);
  for (TableInfo* t : tables) constraints_.refusePendingChecks(*t, "TRUNCATE");
  UndoLog& undo = state_.txn.undo();
  for (TableInfo* t : tables) {
    state_.engine.catalog.truncate(*t, undo);
    // RESTART IDENTITY: the sequences its columns own start again (as ALTER SEQUENCE
    // RESTART: a rollback undoes it).
    if (s.restartIdentity)
      for (SequenceInfo* owned : state_.engine.catalog.ownedSequences(*state_.db, t->oid))
        state_.engine.catalog.alterSequence(*owned, SequenceOptions{.restart = true}, undo);
  }
}

void UtilityStatements::dropObjects(const sql::DropStmt& s, ResultSink& sink) {
  UndoLog& undo = state_.txn.undo();
  for (const auto& name : s.names) {
    switch (s.object) {
      case sql::ObjectType::Table: {
        SchemaPath path = state_.relationPath(name);
        Catalog::Relation r = state_.engine.catalog.findRelation(*state_.db, path, name.name());
        if (r.view && !r.table)
          throw SqlError(sqlstate::kWrongObjectType, fmt::format("\"{}\" is not a table", name.name()), {},
                         "Use DROP VIEW to remove a view.");
        if (s.ifExists && !r.table) {
          state_.sendNotice(
              sink, Notice::make("NOTICE", "00000", fmt::format("table \"{}\" does not exist, skipping", name.name())));
          continue;
        }
        bool cascade = s.behavior == sql::DropBehavior::Cascade;
        if (r.table) {
          constraints_.refusePendingChecks(*r.table, "DROP TABLE");
          std::vector<const Table*> dropped;
          for (const auto& other : s.names)
            if (TableInfo* t = state_.engine.catalog.findTable(*state_.db, state_.relationPath(other), other.name()))
              dropped.push_back(t->table.get());
          constraints_.dropReferencingKeys(*r.table, dropped, cascade, sink);
          viewStatements_.dropDependents(r.table->oid, "table " + r.table->name, s, {}, sink);
          routineStatements_.dropRoutinesUsingType(r.table->schema->name, r.table->name, "table " + r.table->name,
                                                   cascade, sink);
        }
        state_.engine.catalog.dropTable(*state_.db, path, name.name(), s.ifExists, undo);
        break;
      }
      case sql::ObjectType::Index:
        if (s.ifExists && !state_.engine.catalog.findIndex(*state_.db, state_.relationPath(name), name.name())) {
          state_.sendNotice(
              sink, Notice::make("NOTICE", "00000", fmt::format("index \"{}\" does not exist, skipping", name.name())));
          continue;
        }
        state_.engine.catalog.dropIndex(*state_.db, state_.relationPath(name), name.name(), s.ifExists, undo);
        break;
      case sql::ObjectType::Database:
        preventInTransactionBlock("DROP DATABASE");
        if (name.name() == state_.dbName) {
          throw SqlError(sqlstate::kObjectInUse, "cannot drop the currently open database");
        }
        state_.engine.catalog.dropDatabase(name.name(), s.ifExists, undo);
        break;
      case sql::ObjectType::Role: state_.engine.catalog.dropRole(name.name(), s.ifExists, undo); break;
      case sql::ObjectType::Schema: {
        const Schema* schema = state_.db->schema(name.name());
        if (!schema) {
          if (!s.ifExists) throw SqlError("3F000", fmt::format("schema \"{}\" does not exist", name.name()));
          state_.sendNotice(sink, Notice::make("NOTICE", "00000",
                                               fmt::format("schema \"{}\" does not exist, skipping", name.name())));
          continue;
        }
        if (schema->name == "pg_catalog" || schema->name == "information_schema")
          throw SqlError("2BP01", fmt::format("cannot drop schema {} because it is required by the database system",
                                              schema->name));
        if (!Catalog::schemaEmpty(*schema)) {
          if (s.behavior == sql::DropBehavior::Cascade)
            unsupported("DROP SCHEMA ... CASCADE of a schema that holds objects");
          std::string detail;
          auto depends = [&](const char* kind, const std::string& object) {
            detail += fmt::format("{}{} {}.{} depends on schema {}", detail.empty() ? "" : "\n", kind, schema->name,
                                  object, schema->name);
          };
          for (const auto& [n, t] : schema->tables) depends("table", n);
          for (const auto& [n, v] : schema->views) depends("view", n);
          for (const auto& [n, q] : schema->sequences)
            if (q->ownerTable == 0) depends("sequence", n);
          for (const auto& [n, overloads] : schema->routines)
            for (const auto& r : overloads)
              depends(r->kind == RoutineKind::Procedure ? "procedure" : "function", r->objectSignature());
          throw SqlError("2BP01", fmt::format("cannot drop schema {} because other objects depend on it", schema->name),
                         detail, "Use DROP ... CASCADE to drop the dependent objects too.");
        }
        state_.engine.catalog.dropSchema(*state_.db, name.name(), undo);
        break;
      }
      case sql::ObjectType::View:      // ViewStatements::dropViews
      case sql::ObjectType::Sequence:  // SequenceStatements::drop
      case sql::ObjectType::Type:      // TypeStatements::drop
        break;
    }
    transaction_.ddlDone();
  }
  sink.commandComplete(dropTag(s.object));
}

}  // namespace duet
