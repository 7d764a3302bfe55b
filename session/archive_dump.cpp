#include "session/archive_dump.h"

#include <algorithm>
#include <memory>
#include <vector>

#include <fmt/format.h>

#include "engine/catalog/system_rows.h"
#include "engine/types/record.h"
#include "engine/types/text_functions.h"
#include "session/engine_state.h"
#include "session/sql_session.h"
#include "session/transaction_record.h"

namespace duet {
namespace {

// Rows per COPY record: a few MiB keeps the writer's and the loader's memory small and
// each record far under the log format's limit.
constexpr size_t kCopyRecordBytes = size_t{4} << 20;

// The bootstrap superuser, who exists in every catalog, creates everything.
constexpr const char* kLoader = "postgres";

// The settings rows are written and read with, so that every value's text reads back to
// the same value whatever the defaults become (time zone, date order, float digits), and
// routines are created unchecked: a body may name a routine created after it.
const std::vector<std::pair<std::string, std::string>>& archiveSettings() {
  static const std::vector<std::pair<std::string, std::string>> settings = {
      {"DateStyle", "ISO, MDY"},
      {"TimeZone", "UTC"},
      {"extra_float_digits", "1"},
      {"check_function_bodies", "off"},
  };
  return settings;
}

std::string ident(const std::string& name) {
  std::string out = "\"";
  for (char c : name) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string qualified(const Schema& schema, const std::string& name) { return ident(schema.name) + "." + ident(name); }

std::string columnList(const TableInfo& table, const std::vector<uint32_t>& columns) {
  std::string out;
  for (uint32_t c : columns) out += (out.empty() ? "" : ", ") + ident(table.columns[c].name);
  return out;
}

// A sequence's parameters as CREATE SEQUENCE and an identity column take them.
std::string sequenceOptionsSql(const SequenceInfo& s) {
  return fmt::format("INCREMENT BY {} MINVALUE {} MAXVALUE {} START WITH {} CACHE {} {}", s.increment, s.minValue,
                     s.maxValue, s.start, s.cache, s.cycle ? "CYCLE" : "NO CYCLE");
}

std::string createTableSql(const Database& db, const TableInfo& t) {
  std::string sql =
      (t.schema->temporary() ? "CREATE TEMP TABLE " : "CREATE TABLE ") + qualified(*t.schema, t.name) + " (";
  bool first = true;
  for (const ColumnDef& c : t.columns) {
    sql += (first ? "" : ", ") + ident(c.name) + " " + typeName(c.type);
    if (c.notNull) sql += " NOT NULL";
    if (const SequenceInfo* s = c.identity ? identitySequence(db, t, c.name) : nullptr) {
      sql += fmt::format(" GENERATED {} AS IDENTITY (SEQUENCE NAME {} {})", c.identity == 'a' ? "ALWAYS" : "BY DEFAULT",
                         qualified(*s->schema, s->name), sequenceOptionsSql(*s));
    } else if (!c.defaultSql.empty()) {
      sql += " DEFAULT " + c.defaultSql;
    }
    first = false;
  }
  for (const IndexInfo* index : t.indexes) {
    if (!index->constraint) continue;
    sql += fmt::format(", CONSTRAINT {} {} ({})", ident(index->name), index->primary ? "PRIMARY KEY" : "UNIQUE",
                       columnList(t, index->columns));
  }
  sql += fmt::format(") WITH (storage = {})", t.storage == StorageKind::Row ? "row" : "column");
  // A temporary table between two transactions: ON COMMIT DROP ones are gone.
  return t.onCommit == OnCommit::DeleteRows ? sql + " ON COMMIT DELETE ROWS" : sql;
}

// CREATE TYPE ... AS (...), a field of another composite type named with its schema.
std::string createTypeSql(const Database& db, const CompositeTypeInfo& type) {
  std::string fields;
  for (const ColumnDef& f : type.fields) {
    std::string name = typeName(f.type);
    if (uint32_t oid = compositeTypeOid(f.type))
      for (const auto& [schemaName, schema] : db.schemas)
        for (const auto& [otherName, other] : schema->types)
          if (other->oid == oid) name = qualified(*schema, otherName);
    fields += (fields.empty() ? "" : ", ") + ident(f.name) + " " + name;
  }
  return fmt::format("CREATE TYPE {} AS ({})", qualified(*type.schema, type.name), fields);
}

std::string routineTypeSql(const RoutineType& t) {
  if (t.kind != RoutineType::Kind::Composite) return routineTypeName(t);
  return ident(t.tableSchema) + "." + ident(t.table);
}

// A dollar quote whose tag the body does not contain.
std::string dollarQuoted(const std::string& body) {
  std::string tag = "$duet$";
  for (int i = 1; body.find(tag) != std::string::npos; ++i) tag = fmt::format("$duet{}$", i);
  return tag + body + tag;
}

// The CREATE statement that makes this routine again, as pg_get_functiondef writes it.
std::string createRoutineSql(const RoutineInfo& r) {
  bool procedure = r.kind == RoutineKind::Procedure;
  std::string params, tableColumns;
  bool outParams = false;
  for (const RoutineParamInfo& p : r.params) {
    std::string name = p.name.empty() ? "" : ident(p.name) + " ";
    if (p.mode == RoutineParamMode::Table) {
      tableColumns += (tableColumns.empty() ? "" : ", ") + name + routineTypeSql(p.type);
      continue;
    }
    const char* mode = "IN ";
    switch (p.mode) {
      case RoutineParamMode::Out: mode = "OUT "; break;
      case RoutineParamMode::InOut: mode = "INOUT "; break;
      case RoutineParamMode::Variadic: mode = "VARIADIC "; break;
      default: break;
    }
    outParams = outParams || p.isOutput();
    params += (params.empty() ? "" : ", ") + std::string(mode) + name + routineTypeSql(p.type);
    if (!p.defaultSql.empty()) params += " DEFAULT " + p.defaultSql;
  }
  std::string sql =
      fmt::format("CREATE {} {}({})", procedure ? "PROCEDURE" : "FUNCTION", qualified(*r.schema, r.name), params);
  if (!procedure) {
    if (!tableColumns.empty())
      sql += " RETURNS TABLE(" + tableColumns + ")";
    else if (r.returnsSet)
      sql += " RETURNS SETOF " + routineTypeSql(r.returnType);
    else if (!outParams)
      sql += " RETURNS " + routineTypeSql(r.returnType);
  }
  sql += r.language == RoutineLanguage::Sql ? " LANGUAGE sql" : " LANGUAGE plpgsql";
  if (!procedure) {
    sql += r.volatility == Volatility::Immutable ? " IMMUTABLE"
           : r.volatility == Volatility::Stable  ? " STABLE"
                                                 : " VOLATILE";
    if (r.strict) sql += " STRICT";
  }
  if (r.securityDefiner) sql += " SECURITY DEFINER";
  for (const auto& [name, value] : r.config) sql += fmt::format(" SET {} TO {}", name, setClauseValue(name, value));
  return sql + " AS " + dollarQuoted(r.body);
}

// The CREATE VIEW that makes this view again: its column names as a column list, so that
// the query's own names need not match.
std::string createViewSql(const ViewInfo& v) {
  std::string columns;
  for (const ColumnDef& c : v.columns) columns += (columns.empty() ? "" : ", ") + ident(c.name);
  return fmt::format("CREATE VIEW {} ({}) AS {}", qualified(*v.schema, v.name), columns, v.query);
}

// Views in creation order, but each after the views it reads (OR REPLACE may make a view
// read one created after it).
std::vector<const ViewInfo*> viewsInDependencyOrder(std::vector<const ViewInfo*> views) {
  std::sort(views.begin(), views.end(), [](const auto* a, const auto* b) { return a->oid < b->oid; });
  std::vector<const ViewInfo*> out;
  auto placed = [&](uint32_t oid) {
    return std::any_of(out.begin(), out.end(), [&](const ViewInfo* v) { return v->oid == oid; });
  };
  auto isView = [&](uint32_t oid) {
    return std::any_of(views.begin(), views.end(), [&](const ViewInfo* v) { return v->oid == oid; });
  };
  while (out.size() < views.size()) {
    size_t before = out.size();
    for (const ViewInfo* v : views)
      if (!placed(v->oid) &&
          std::all_of(v->dependsOn.begin(), v->dependsOn.end(), [&](uint32_t d) { return !isView(d) || placed(d); }))
        out.push_back(v);
    if (out.size() == before) break;  // views that read each other cannot be made again
  }
  return out;
}

LoggedStatement statement(std::string sql) {
  LoggedStatement s;
  s.sql = std::move(sql);
  s.settings = archiveSettings();
  return s;
}

class ArchiveDump {
 public:
  ArchiveDump(EngineState& state, const std::function<void(std::string)>& emit) : state_(state), emit_(emit) {}

  void run() {
    // First, how far transaction ids went: a recovery from this archive goes on after them.
    LoggedTransaction ids = tagged("postgres", kLoader);
    ids.transactionId = state_.nextTransactionId - 1;
    emit_(encodeTransaction(ids));
    Catalog fresh;
    for (const auto& [name, role] : state_.catalog.roles()) {
      if (fresh.role(name)) continue;
      run("postgres", fmt::format("CREATE ROLE {}{}", ident(name), role.superuser ? " SUPERUSER" : ""));
    }
    for (const auto& [name, role] : state_.catalog.roles()) {
      if (const Role* before = fresh.role(name); before && before->superuser != role.superuser)
        run("postgres", fmt::format("ALTER ROLE {} {}", ident(name), role.superuser ? "SUPERUSER" : "NOSUPERUSER"));
      for (const auto& [group, admin] : role.memberOf)
        run("postgres", fmt::format("GRANT {} TO {}{}", ident(group), ident(name), admin ? " WITH ADMIN OPTION" : ""));
    }
    for (const auto& [name, db] : state_.catalog.databases()) {
      if (!fresh.database(name)) run("postgres", "CREATE DATABASE " + ident(name), db->owner);
    }
    for (const auto& [name, db] : state_.catalog.databases()) {
      dumpDatabase(*db, nullptr);
      // Then each session's temporary objects, in records of that session (docs/logging.md,
      // "Temporary tables"), which a replay loads into a session of their own.
      for (const auto& [schemaName, schema] : db->schemas) {
        if (!schema->temporary()) continue;
        tag_.serverStart = schema->tempOwner->serverStart;
        tag_.tempSession = schema->tempOwner->number;
        tag_.tempSchema = schemaName;
        dumpDatabase(*db, schema.get());
        tag_ = {};
      }
    }
  }

 private:
  void run(const std::string& database, std::string sql, const std::string& user = kLoader) {
    LoggedTransaction t = tagged(database, user);
    t.statements.push_back(statement(std::move(sql)));
    emit_(encodeTransaction(t));
  }

  // A record's header: whose it is, and the temporary objects' session being dumped.
  LoggedTransaction tagged(const std::string& database, const std::string& user) const {
    LoggedTransaction t = tag_;
    t.database = database;
    t.user = user;
    return t;
  }

  // The objects of every permanent schema (`temporary` null), or those of one session's
  // temporary schema.
  void dumpDatabase(Database& db, const Schema* temporary) {
    std::vector<const TableInfo*> tables;
    std::vector<const RoutineInfo*> routines;
    std::vector<const ViewInfo*> views;
    auto dumped = [&](const Schema& schema) { return temporary ? &schema == temporary : !schema.temporary(); };
    for (const auto& [schemaName, schema] : db.schemas) {
      if (!dumped(*schema)) continue;
      for (const auto& [name, table] : schema->tables)
        if (!table->systemView) tables.push_back(table.get());
      for (const auto& [name, view] : schema->views) views.push_back(view.get());
      for (const auto& [name, overloads] : schema->routines)
        for (const auto& r : overloads) routines.push_back(r.get());
    }
    // Creation order, as far as oids tell it (a replaced routine keeps its first oid).
    auto byOid = [](const auto* a, const auto* b) { return a->oid < b->oid; };
    std::sort(tables.begin(), tables.end(), byOid);
    std::sort(routines.begin(), routines.end(), byOid);
    for (const auto& [schemaName, schema] : db.schemas)
      if (!temporary && !schema->temporary() && schemaName != "pg_catalog" && schemaName != "public" &&
          schemaName != "information_schema")
        run(db.name, "CREATE SCHEMA " + ident(schemaName));
    // Sequences first: column defaults name them. An identity column's comes with its table.
    std::vector<const SequenceInfo*> sequences;
    for (const auto& [schemaName, schema] : db.schemas)
      if (dumped(*schema))
        for (const auto& [name, sequence] : schema->sequences) sequences.push_back(sequence.get());
    for (const SequenceInfo* s : sequences)
      if (!s->identity)
        run(db.name, fmt::format("CREATE SEQUENCE {} AS {} {}", qualified(*s->schema, s->name),
                                 sequenceTypeName(s->type), sequenceOptionsSql(*s)));
    // Composite types in creation order: a type's fields name only types made before it.
    std::vector<const CompositeTypeInfo*> types;
    for (const auto& [schemaName, schema] : db.schemas)
      if (dumped(*schema))
        for (const auto& [name, type] : schema->types) types.push_back(type.get());
    std::sort(types.begin(), types.end(), byOid);
    for (const CompositeTypeInfo* type : types) run(db.name, createTypeSql(db, *type));
    for (const TableInfo* t : tables) run(db.name, createTableSql(db, *t));
    for (const RoutineInfo* r : routines) run(db.name, createRoutineSql(*r));
    for (const ViewInfo* v : viewsInDependencyOrder(std::move(views))) run(db.name, createViewSql(*v));
    if (!tables.empty()) {
      std::vector<std::pair<std::string, std::string>> params = {{"user", kLoader}, {"database", db.name}};
      params.insert(params.end(), archiveSettings().begin(), archiveSettings().end());
      params.emplace_back("duet.snapshot_routing", "never");
      SqlSession reader(state_, db, kLoader, db.name, params);
      // Temporary tables are read as their session's: only its own session reaches them.
      if (temporary) reader.replayTempSession(*temporary->tempOwner, temporary->name);
      for (const TableInfo* t : tables) dumpRows(reader, db, *t);
      reader.replayTempSession({}, {});  // and stay that session's at the reader's end
    }
    for (const TableInfo* t : tables) {
      for (const IndexInfo* index : t->indexes) {
        if (index->constraint) continue;
        run(db.name, fmt::format("CREATE {}INDEX {} ON {} ({})", index->unique ? "UNIQUE " : "", ident(index->name),
                                 qualified(*t->schema, t->name), columnList(*t, index->columns)));
      }
    }
    // Where each sequence stands, and the column a SERIAL's belongs to.
    for (const SequenceInfo* s : sequences) {
      std::string name = qualified(*s->schema, s->name);
      const TableInfo* owner = sequenceOwner(db, *s);
      if (owner && !s->identity)
        run(db.name, fmt::format("ALTER SEQUENCE {} OWNED BY {}.{}", name, qualified(*owner->schema, owner->name),
                                 ident(s->ownerColumn)));
      run(db.name, fmt::format("SELECT pg_catalog.setval({}, {}, {})", quoteLiteral(name), s->lastValue, s->isCalled));
    }
    dumpConstraints(db, tables);
    if (!temporary) dumpComments(db);
  }

  // COMMENT ON for every comment of an object that exists, but public's as initdb leaves it.
  void dumpComments(const Database& db) {
    for (const auto& [key, text] : db.comments) {
      if (!commentedObjectExists(db, key) || (key.classOid == kPgNamespaceOid && text == "standard public schema"))
        continue;
      std::string object;
      for (const auto& [schemaName, schema] : db.schemas) {
        const Schema& s = *schema;
        if (key.classOid == kPgNamespaceOid && s.oid == key.objectOid) object = "SCHEMA " + ident(s.name);
        if (key.classOid == kPgClassOid) {
          auto relation = [&](const char* kind, const std::string& name, const std::vector<ColumnDef>* columns) {
            object = key.subId > 0 && columns
                         ? "COLUMN " + qualified(s, name) + "." + ident((*columns)[key.subId - 1].name)
                         : std::string(kind) + " " + qualified(s, name);
          };
          for (const auto& [name, t] : s.tables)
            if (t->oid == key.objectOid) relation("TABLE", name, &t->columns);
          for (const auto& [name, v] : s.views)
            if (v->oid == key.objectOid) relation("VIEW", name, &v->columns);
          for (const auto& [name, i] : s.indexes)
            if (i->oid == key.objectOid) relation("INDEX", name, nullptr);
          for (const auto& [name, q] : s.sequences)
            if (q->oid == key.objectOid) relation("SEQUENCE", name, nullptr);
        }
        if (key.classOid == kPgProcOid)
          for (const auto& [name, overloads] : s.routines)
            for (const auto& r : overloads) {
              if (r->oid != key.objectOid) continue;
              std::string inputs;
              for (const RoutineParamInfo& p : r->params)
                if (p.isInput()) inputs += (inputs.empty() ? "" : ", ") + routineTypeSql(p.type);
              object = fmt::format("{} {}({})", r->kind == RoutineKind::Procedure ? "PROCEDURE" : "FUNCTION",
                                   qualified(s, r->name), inputs);
            }
      }
      run(db.name, fmt::format("COMMENT ON {} IS {}", object, quoteLiteral(text)));
    }
  }

  // CHECK and FOREIGN KEY constraints, once every table has its rows (which they check
  // again, unless NOT VALID) and its keys: a foreign key may reference any table.
  void dumpConstraints(const Database& db, const std::vector<const TableInfo*>& tables) {
    for (const TableInfo* t : tables)
      for (const CheckConstraint& c : t->checks)
        run(db.name, fmt::format("ALTER TABLE {} ADD CONSTRAINT {} CHECK ({}){}", qualified(*t->schema, t->name),
                                 ident(c.name), c.exprSql, c.validated ? "" : " NOT VALID"));
    std::vector<std::string> foreignKeys;
    forEachConstraint(db, [&](const ConstraintView& c) {
      if (!c.foreignKey || std::find(tables.begin(), tables.end(), c.table) == tables.end()) return;
      foreignKeys.push_back(fmt::format("ALTER TABLE {} ADD CONSTRAINT {} {}", qualified(*c.schema, c.table->name),
                                        ident(*c.name), constraintDefinition(c, false, true)));
    });
    for (std::string& sql : foreignKeys) run(db.name, std::move(sql));
  }

  // COPY ... TO STDOUT sends one row per copyData: rows gather into records of about
  // kCopyRecordBytes, each a COPY ... FROM STDIN with its rows as data.
  class RowsToRecords final : public IgnoringSink {
   public:
    RowsToRecords(ArchiveDump& dump, const std::string& database, std::string copySql)
        : dump_(dump), database_(database), copySql_(std::move(copySql)) {}
    void copyData(std::string_view row) override {
      rows_.append(row);
      if (rows_.size() >= kCopyRecordBytes) flush();
    }
    void flush() {
      if (rows_.empty()) return;
      LoggedTransaction t = dump_.tagged(database_, kLoader);
      LoggedStatement s = statement(copySql_);
      s.copyData = std::move(rows_);
      t.statements.push_back(std::move(s));
      dump_.emit_(encodeTransaction(t));
      rows_.clear();
    }

   private:
    ArchiveDump& dump_;
    const std::string& database_;
    std::string copySql_;
    std::string rows_;
  };

  void dumpRows(SqlSession& reader, const Database& db, const TableInfo& t) {
    std::vector<uint32_t> all(t.columns.size());
    for (uint32_t i = 0; i < all.size(); ++i) all[i] = i;
    std::string name = qualified(*t.schema, t.name);
    RowsToRecords sink(*this, db.name, fmt::format("COPY {} ({}) FROM STDIN", name, columnList(t, all)));
    reader.simpleQuery("COPY " + name + " TO STDOUT", sink);
    sink.flush();
  }

  EngineState& state_;
  const std::function<void(std::string)>& emit_;
  LoggedTransaction tag_;  // the header fields of every record (tagged)
};

}  // namespace

void dumpArchive(EngineState& state, const std::function<void(std::string record)>& emit) {
  ArchiveDump(state, emit).run();
}

}  // namespace duet
