#include "engine/catalog/system_rows.h"

#include "engine/catalog/builtin_types.h"
#include "engine/types/text_functions.h"

namespace duet {
namespace {

// PostgreSQL's fixed oids for the objects every database has.
constexpr int64_t kPgCatalog = 11, kBootstrapRole = 10, kHeapAm = 2, kBtreeAm = 403, kHashAm = 405,
                  kDefaultTablespace = 1663, kGlobalTablespace = 1664, kDefaultCollation = kDefaultCollationOid,
                  kCCollation = kCCollationOid, kPosixCollation = kPosixCollationOid, kSqlLanguage = 14,
                  kPlpgsqlLanguage = 13563, kPlpgsqlExtension = 13564, kVoidType = kVoidTypeOid,
                  kRecordType = kRecordTypeOid, kDatabaseOwnerRole = kDatabaseOwnerRoleOid;
constexpr int64_t kUtf8Encoding = 6;

using Row = SystemRow;
const SystemValue kNull{};

int64_t ownerOid(const Catalog& catalog, const Database& db) {
  const Role* r = catalog.role(db.owner);
  return r ? r->oid : kBootstrapRole;
}

std::string ownerName(const Catalog& catalog, const Database& db) {
  return catalog.role(db.owner) ? db.owner : "postgres";
}

std::string qualifiedName(const Schema& schema, const std::string& name) {
  return quoteIdent(schema.name) + "." + quoteIdent(name);
}

std::vector<int64_t> attnums(const IndexInfo& index) {
  std::vector<int64_t> out;
  for (uint32_t c : index.columns) out.push_back(static_cast<int64_t>(c) + 1);
  return out;
}

std::string relkindOf(const TableInfo& t) {
  if (!t.systemView) return "r";
  const SystemRelation* r = findSystemRelation(t.schema->name, t.name);
  return r && r->isView ? "v" : "r";
}

// A sequence read as a relation: its one row's columns (SELECT * FROM s).
const std::vector<ColumnDef>& sequenceColumns() {
  static const std::vector<ColumnDef> columns{{"last_value", SqlType{TypeId::Int8, -1}, true},
                                              {"log_cnt", SqlType{TypeId::Int8, -1}, true},
                                              {"is_called", SqlType{TypeId::Bool, -1}, true}};
  return columns;
}

Row classRow(int64_t oid, const std::string& name, const Schema& schema, int64_t owner, int64_t am,
             const std::string& kind, size_t columns, bool hasIndex, double tuples) {
  bool shared = schema.name == "pg_catalog" &&
                (name == "pg_database" || name == "pg_authid" || name == "pg_tablespace" || name == "pg_auth_members");
  bool isView = kind == "v";
  return {oid,
          name,
          static_cast<int64_t>(schema.oid),
          int64_t{0},  // reltype: DuetDB has no composite row types in pg_type yet
          int64_t{0},
          owner,
          am,
          isView ? int64_t{0} : oid,
          int64_t{0},
          int64_t{0},
          tuples,
          int64_t{0},
          int64_t{0},
          hasIndex,
          shared,
          std::string(schema.temporary() ? "t" : "p"),  // relpersistence: a temporary schema's are temporary
          kind,
          static_cast<int64_t>(columns),
          int64_t{0},
          isView,  // a view's _RETURN rule
          false,
          false,
          false,
          false,
          true,
          std::string(kind == "r" ? "d" : "n"),
          false,
          int64_t{0},
          int64_t{0},
          int64_t{0},
          kNull,
          kNull,
          kNull};
}

Row attributeRow(int64_t relation, const ColumnDef& column, size_t position) {
  BuiltinType t = builtinTypeOf(column.type);
  return {relation,
          column.name,
          static_cast<int64_t>(typeOid(column.type.withoutTypmod())),
          int64_t{-1},
          static_cast<int64_t>(t.len),
          static_cast<int64_t>(position + 1),
          int64_t{column.type.isArray() && !isVectorAlias(column.type.alias) ? 1 : 0},
          int64_t{-1},
          static_cast<int64_t>(column.type.typmod),
          t.byValue,
          std::string(1, t.align),
          std::string(1, t.storage),
          std::string(),
          column.notNull,
          !column.defaultSql.empty() && !column.identity,
          false,
          column.identity ? std::string(1, column.identity) : std::string(),
          std::string(),
          false,
          true,
          int64_t{0},
          static_cast<int64_t>(t.collation),
          kNull,
          kNull,
          kNull,
          kNull};
}

Row typeRow(const BuiltinType& t) {
  TypeFunctions f = typeFunctions(t.oid);
  return {static_cast<int64_t>(t.oid),
          std::string(t.name),
          kPgCatalog,
          kBootstrapRole,
          static_cast<int64_t>(t.len),
          t.byValue,
          std::string("b"),
          std::string(1, t.category),
          t.preferred,
          true,
          std::string(","),
          int64_t{0},
          int64_t{0},
          static_cast<int64_t>(t.element),
          static_cast<int64_t>(t.array),
          int64_t{f.input},
          int64_t{f.output},
          int64_t{f.receive},
          int64_t{f.send},
          int64_t{f.typmodIn},
          int64_t{f.typmodOut},
          int64_t{0},
          std::string(1, t.align),
          std::string(1, t.storage),
          false,
          int64_t{0},
          int64_t{-1},
          int64_t{0},
          static_cast<int64_t>(t.collation),
          kNull,
          kNull,
          kNull};
}

}  // namespace

uint32_t routineTypeOid(const RoutineType& type, const Database& db) {
  switch (type.kind) {
    case RoutineType::Kind::Void: return kVoidType;
    case RoutineType::Kind::Record: return kRecordType;
    case RoutineType::Kind::Composite: {
      // A CREATE TYPE type's pg_type row; a table's row type has none yet (0).
      auto schema = db.schemas.find(type.tableSchema);
      if (schema == db.schemas.end()) return 0;
      auto found = schema->second->types.find(type.table);
      return found == schema->second->types.end() ? 0 : found->second->oid;
    }
    case RoutineType::Kind::Polymorphic: return polymorphicOid(type.poly);
    case RoutineType::Kind::Scalar: break;
  }
  return typeOid(type.sqlType());
}

// The element type of a VARIADIC parameter's array (anyelement for anyarray).
static int64_t variadicElementOid(const RoutineType& type) {
  if (type.kind == RoutineType::Kind::Polymorphic)
    return polymorphicOid(type.poly == Polymorphic::AnyArray ? Polymorphic::AnyElement : Polymorphic::AnyCompatible);
  return typeOid(SqlType{type.scalar, -1});
}

void forEachConstraint(const Database& db, const std::function<void(const ConstraintView&)>& f) {
  forEachSchema(db, [&](const Schema& s) {
    for (const auto& [name, index] : s.indexes) {
      if (!index->constraint) continue;
      ConstraintView c{&s, index->table, index->oid, &index->name, index->primary ? 'p' : 'u', index->columns};
      c.index = index.get();
      f(c);
    }
  });
  forEachSchema(db, [&](const Schema& s) {
    for (const auto& [name, t] : s.tables) {
      for (const CheckConstraint& check : t->checks) {
        ConstraintView c{&s, t.get(), check.oid, &check.name, 'c', check.columns};
        c.check = &check;
        c.validated = check.validated;
        f(c);
      }
      for (const auto& fk : t->foreignKeys) {
        ConstraintView c{&s, t.get(), fk->oid, &fk->name, 'f', fk->columns};
        c.foreignKey = fk.get();
        c.validated = fk->validated;
        forEachSchema(db, [&](const Schema& other) {
          for (const auto& [n, candidate] : other.tables)
            if (candidate->table.get() == fk->parent) c.referenced = candidate.get();
        });
        if (c.referenced)
          for (const IndexInfo* i : c.referenced->indexes)
            if (i->index == fk->parentIndex) c.referencedKey = i;
        f(c);
      }
    }
  });
}

namespace {

const char* referentialAction(char action) {
  switch (action) {
    case fk_action::kRestrict: return "RESTRICT";
    case fk_action::kCascade: return "CASCADE";
    case fk_action::kSetNull: return "SET NULL";
    case fk_action::kSetDefault: return "SET DEFAULT";
    default: return "NO ACTION";
  }
}

std::string columnList(const TableInfo& t, const std::vector<uint32_t>& columns) {
  std::string out;
  for (uint32_t c : columns) out += (out.empty() ? "" : ", ") + quoteIdent(t.columns[c].name);
  return out;
}

}  // namespace

std::string constraintDefinition(const ConstraintView& c, bool pretty, bool qualifyReferenced) {
  std::string out;
  switch (c.type) {
    case 'p':
    case 'u':
      return std::string(c.type == 'p' ? "PRIMARY KEY" : "UNIQUE") + " (" + columnList(*c.table, c.columns) + ")";
    case 'c': out = "CHECK (" + (pretty ? c.check->prettyExpression : c.check->expression) + ")"; break;
    default: {
      const ForeignKey& fk = *c.foreignKey;
      const TableInfo& r = *c.referenced;
      out = "FOREIGN KEY (" + columnList(*c.table, fk.columns) + ") REFERENCES " +
            (qualifyReferenced ? qualifiedName(*r.schema, r.name) : quoteIdent(r.name)) + "(" +
            columnList(r, fk.refColumns) + ")";
      if (fk.match == fk_match::kFull) out += " MATCH FULL";
      if (fk.onUpdate != fk_action::kNoAction) out += std::string(" ON UPDATE ") + referentialAction(fk.onUpdate);
      if (fk.onDelete != fk_action::kNoAction) out += std::string(" ON DELETE ") + referentialAction(fk.onDelete);
      if (fk.deferrable) out += " DEFERRABLE";
      if (fk.initiallyDeferred) out += " INITIALLY DEFERRED";
    }
  }
  if (!c.validated) out += " NOT VALID";
  return out;
}

std::string referentialRule(char action) { return referentialAction(action); }

std::string indexDefinition(const IndexInfo& index, bool qualifyTable) {
  std::string columns;
  for (uint32_t c : index.columns) columns += (columns.empty() ? "" : ", ") + quoteIdent(index.table->columns[c].name);
  return std::string("CREATE ") + (index.unique ? "UNIQUE " : "") + "INDEX " + quoteIdent(index.name) + " ON " +
         (qualifyTable ? qualifiedName(*index.table->schema, index.table->name) : quoteIdent(index.table->name)) +
         " USING btree (" + columns + ")";
}

// The privileges public starts with in PostgreSQL 15 (its owner's, and USAGE for PUBLIC):
// in its nspacl and pg_init_privs, so that pg_dump finds nothing to GRANT or REVOKE.
const std::vector<std::string>& publicSchemaAcl() {
  static const std::vector<std::string> acl{"pg_database_owner=UC/pg_database_owner", "=U/pg_database_owner"};
  return acl;
}

std::string viewDefinition(const ViewInfo& view) { return view.query + ";"; }

std::vector<SystemRow> fillNamespaces(const Catalog& catalog, const Database& db) {
  std::vector<Row> rows;
  forEachSchema(db, [&](const Schema& s) {
    bool isPublic = s.name == "public";
    rows.push_back({static_cast<int64_t>(s.oid), s.name, isPublic ? kDatabaseOwnerRole : kBootstrapRole,
                    isPublic ? SystemValue(publicSchemaAcl()) : kNull});
  });
  return rows;
}

std::vector<SystemRow> fillInitPrivileges(const Catalog&, const Database& db) {
  const Schema* s = db.schema("public");
  if (!s) return {};
  return {{static_cast<int64_t>(s->oid), int64_t{kPgNamespaceOid}, int64_t{0}, std::string("i"), publicSchemaAcl()}};
}

bool commentedObjectExists(const Database& db, const CommentKey& key) {
  bool found = false;
  forEachSchema(db, [&](const Schema& s) {
    if (key.classOid == kPgNamespaceOid && s.oid == key.objectOid) found = true;
    if (key.classOid == kPgClassOid) {
      for (const auto& [name, t] : s.tables)
        if (t->oid == key.objectOid) found = key.subId <= static_cast<int32_t>(t->columns.size());
      for (const auto& [name, v] : s.views)
        if (v->oid == key.objectOid) found = key.subId <= static_cast<int32_t>(v->columns.size());
      for (const auto& [name, i] : s.indexes) found = found || (i->oid == key.objectOid && key.subId == 0);
      for (const auto& [name, q] : s.sequences) found = found || (q->oid == key.objectOid && key.subId == 0);
    }
    if (key.classOid == kPgProcOid)
      for (const auto& [name, overloads] : s.routines)
        for (const auto& r : overloads) found = found || r->oid == key.objectOid;
  });
  return found;
}

// COMMENT ON's texts, public's among them as initdb leaves it (pg_dump emits COMMENT ON
// SCHEMA public IS '' when that one is missing).
std::vector<SystemRow> fillDescriptions(const Catalog&, const Database& db) {
  std::vector<Row> rows;
  for (const auto& [key, text] : db.comments)
    if (commentedObjectExists(db, key))
      rows.push_back({static_cast<int64_t>(key.objectOid), static_cast<int64_t>(key.classOid),
                      static_cast<int64_t>(key.subId), text});
  return rows;
}

std::vector<SystemRow> fillClasses(const Catalog& catalog, const Database& db) {
  std::vector<Row> rows;
  int64_t owner = ownerOid(catalog, db);
  forEachSchema(db, [&](const Schema& s) {
    for (const auto& [name, t] : s.tables) {
      // reltuples: the rows at the last analysis, as PostgreSQL's; before any, the live rows.
      const TableStatistics* statistics = t->table->statistics();
      double tuples = statistics ? statistics->rows : static_cast<double>(t->table->liveRowCount());
      Row row = classRow(t->oid, name, s, t->systemView ? kBootstrapRole : owner, kHeapAm, relkindOf(*t),
                         t->columns.size(), !t->indexes.empty(), tuples);
      // relchecks, and relhastriggers: PostgreSQL enforces foreign keys with triggers on
      // both tables (psql shows the foreign-key sections only when it is set).
      row[18] = static_cast<int64_t>(t->checks.size());
      row[20] = !t->table->references().empty() || !t->table->referencedBy().empty();
      rows.push_back(std::move(row));
    }
    for (const auto& [name, v] : s.views)
      rows.push_back(classRow(v->oid, name, s, owner, 0, "v", v->columns.size(), false, -1));
    for (const auto& [name, i] : s.indexes)
      rows.push_back(classRow(i->oid, name, s, owner, kBtreeAm, "i", i->columns.size(), false,
                              static_cast<double>(i->table->table->liveRowCount())));
    for (const auto& [name, seq] : s.sequences)
      rows.push_back(classRow(seq->oid, name, s, owner, 0, "S", sequenceColumns().size(), false, 1));
    for (const auto& [name, type] : s.types) {
      Row row = classRow(type->relationOid, name, s, owner, 0, "c", type->fields.size(), false, -1);
      row[3] = static_cast<int64_t>(type->oid);  // reltype
      row[7] = int64_t{0};                       // relfilenode: no storage
      rows.push_back(std::move(row));
    }
  });
  return rows;
}

std::vector<SystemRow> fillAttributes(const Catalog&, const Database& db) {
  std::vector<Row> rows;
  forEachSchema(db, [&](const Schema& s) {
    for (const auto& [name, t] : s.tables)
      for (size_t i = 0; i < t->columns.size(); ++i) rows.push_back(attributeRow(t->oid, t->columns[i], i));
    for (const auto& [name, v] : s.views)
      for (size_t i = 0; i < v->columns.size(); ++i) rows.push_back(attributeRow(v->oid, v->columns[i], i));
    for (const auto& [name, seq] : s.sequences)
      for (size_t i = 0; i < sequenceColumns().size(); ++i)
        rows.push_back(attributeRow(seq->oid, sequenceColumns()[i], i));
    for (const auto& [name, type] : s.types)
      for (size_t i = 0; i < type->fields.size(); ++i)
        rows.push_back(attributeRow(type->relationOid, type->fields[i], i));
    for (const auto& [name, index] : s.indexes)
      for (size_t i = 0; i < index->columns.size(); ++i) {
        ColumnDef c = index->table->columns[index->columns[i]];
        c.notNull = false;
        c.defaultSql.clear();
        rows.push_back(attributeRow(index->oid, c, i));
      }
  });
  return rows;
}

std::vector<SystemRow> fillTypes(const Catalog& catalog, const Database& db) {
  std::vector<Row> rows;
  for (const BuiltinType& t : builtinTypes()) {
    rows.push_back(typeRow(t));
    if (t.array) rows.push_back(typeRow(arrayTypeRow(t)));
  }
  // The pseudo-types routines declare.
  for (auto [oid, name] : {std::pair{kVoidType, "void"}, std::pair{kRecordType, "record"}}) {
    Row r = typeRow({static_cast<uint32_t>(oid), name, oid == kVoidType ? int16_t{4} : int16_t{-1}, oid == kVoidType,
                     'P', false, oid == kVoidType ? 'i' : 'd', oid == kVoidType ? 'p' : 'x', 0,
                     oid == kRecordType ? 2287u : 0u, 0});
    r[6] = std::string("p");
    rows.push_back(std::move(r));
  }
  // CREATE TYPE ... AS: typtype 'c', read and written by record_in/record_out as record is,
  // and no array type (typarray 0: arrays of composite types are not built).
  TypeFunctions record = typeFunctions(kRecordType);
  forEachSchema(db, [&](const Schema& s) {
    for (const auto& [name, type] : s.types) {
      Row r = typeRow({type->oid, name, -1, false, 'C', false, 'd', 'x', 0, 0, 0});
      r[2] = static_cast<int64_t>(s.oid);
      r[3] = ownerOid(catalog, db);
      r[6] = std::string("c");
      r[11] = static_cast<int64_t>(type->relationOid);
      r[15] = int64_t{record.input};
      r[16] = int64_t{record.output};
      r[17] = int64_t{record.receive};
      r[18] = int64_t{record.send};
      rows.push_back(std::move(r));
    }
  });
  return rows;
}

std::vector<SystemRow> fillDatabases(const Catalog& catalog, const Database&) {
  std::vector<Row> rows;
  for (const auto& [name, d] : catalog.databases())
    rows.push_back({static_cast<int64_t>(d->oid), name, ownerOid(catalog, *d), kUtf8Encoding, std::string("c"), false,
                    true, int64_t{-1}, int64_t{0}, int64_t{0}, kDefaultTablespace, std::string("C"), std::string("C"),
                    kNull, kNull, kNull});
  return rows;
}

// Both list the predefined role pg_database_owner, the owner of every public schema.
std::vector<SystemRow> fillAuthIds(const Catalog& catalog, const Database&) {
  std::vector<Row> rows{{kDatabaseOwnerRole, std::string("pg_database_owner"), false, true, false, false, false, false,
                         false, int64_t{-1}, kNull, kNull}};
  for (const auto& [name, r] : catalog.roles())
    rows.push_back({static_cast<int64_t>(r.oid), name, r.superuser, true, r.superuser, r.superuser, true, r.superuser,
                    r.superuser, int64_t{-1}, kNull, kNull});
  return rows;
}

// GRANT role TO member. Grants are not recorded with their grantor: the bootstrap
// superuser stands in, as for grants PostgreSQL's superuser makes.
std::vector<SystemRow> fillAuthMembers(const Catalog& catalog, const Database&) {
  std::vector<Row> rows;
  const int64_t grantor = static_cast<int64_t>(catalog.role("postgres") ? catalog.role("postgres")->oid : 10);
  for (const auto& [name, r] : catalog.roles())
    for (const auto& [group, admin] : r.memberOf)
      rows.push_back({static_cast<int64_t>(catalog.role(group)->oid), static_cast<int64_t>(r.oid), grantor, admin});
  return rows;
}

std::vector<SystemRow> fillRoles(const Catalog& catalog, const Database&) {
  std::vector<Row> rows{{std::string("pg_database_owner"), false, true, false, false, false, false, int64_t{-1},
                         std::string("********"), kNull, false, kNull, kDatabaseOwnerRole}};
  for (const auto& [name, r] : catalog.roles())
    rows.push_back({name, r.superuser, true, r.superuser, r.superuser, true, r.superuser, int64_t{-1},
                    std::string("********"), kNull, r.superuser, kNull, static_cast<int64_t>(r.oid)});
  return rows;
}

std::vector<SystemRow> fillUsers(const Catalog& catalog, const Database&) {
  std::vector<Row> rows;
  for (const auto& [name, r] : catalog.roles())
    rows.push_back({name, static_cast<int64_t>(r.oid), r.superuser, r.superuser, r.superuser, r.superuser,
                    std::string("********"), kNull, kNull});
  return rows;
}

std::vector<SystemRow> fillIndexes(const Catalog&, const Database& db) {
  std::vector<Row> rows;
  forEachSchema(db, [&](const Schema& s) {
    for (const auto& [name, i] : s.indexes) {
      auto n = static_cast<int64_t>(i->columns.size());
      std::vector<int64_t> collations, classes(i->columns.size(), 0), options(i->columns.size(), 0);
      for (uint32_t c : i->columns) collations.push_back(builtinTypeOf(i->table->columns[c].type).collation);
      rows.push_back({static_cast<int64_t>(i->oid),
                      static_cast<int64_t>(i->table->oid),
                      n,
                      n,
                      i->unique,
                      false,
                      i->primary,
                      false,
                      true,
                      false,
                      true,
                      false,
                      true,
                      true,
                      false,
                      attnums(*i),
                      collations,
                      classes,
                      options,
                      kNull,
                      kNull});
    }
  });
  return rows;
}

std::vector<SystemRow> fillConstraints(const Catalog&, const Database& db) {
  std::vector<Row> rows;
  auto attnumsOf = [](const std::vector<uint32_t>& columns) {
    std::vector<int64_t> out;
    for (uint32_t c : columns) out.push_back(static_cast<int64_t>(c) + 1);
    return out;
  };
  forEachConstraint(db, [&](const ConstraintView& c) {
    // A PRIMARY KEY/UNIQUE constraint shares its index's oid: DuetDB keeps no separate
    // constraint object for it. A foreign key's conindid is the referenced key's index.
    const ForeignKey* fk = c.foreignKey;
    const IndexInfo* index = fk ? c.referencedKey : c.index;
    std::string none(" ");
    rows.push_back({static_cast<int64_t>(c.oid),
                    *c.name,
                    static_cast<int64_t>(c.schema->oid),
                    std::string(1, c.type),
                    fk && fk->deferrable,
                    fk && fk->initiallyDeferred,
                    c.validated,
                    static_cast<int64_t>(c.table->oid),
                    int64_t{0},
                    static_cast<int64_t>(index ? index->oid : 0),
                    int64_t{0},
                    static_cast<int64_t>(fk && c.referenced ? c.referenced->oid : 0),
                    fk ? std::string(1, fk->onUpdate) : none,
                    fk ? std::string(1, fk->onDelete) : none,
                    fk ? std::string(1, fk->match) : none,
                    true,
                    int64_t{0},
                    c.type == 'c' ? false : true,
                    attnumsOf(c.columns),
                    fk ? SystemValue(attnumsOf(fk->refColumns)) : kNull,
                    kNull,
                    kNull,
                    kNull,
                    kNull,
                    kNull,
                    c.check ? SystemValue(c.check->expression) : kNull});
  });
  return rows;
}

std::vector<SystemRow> fillAttributeDefaults(const Catalog&, const Database& db) {
  std::vector<Row> rows;
  forEachSchema(db, [&](const Schema& s) {
    for (const auto& [name, t] : s.tables)
      for (size_t i = 0; i < t->columns.size(); ++i)
        if (!t->columns[i].defaultSql.empty() && !t->columns[i].identity)
          rows.push_back(
              {int64_t{0}, static_cast<int64_t>(t->oid), static_cast<int64_t>(i + 1), t->columns[i].defaultSql});
  });
  return rows;
}

std::vector<SystemRow> fillProcs(const Catalog& catalog, const Database& db) {
  std::vector<Row> rows;
  int64_t owner = ownerOid(catalog, db);
  forEachSchema(db, [&](const Schema& s) {
    for (const auto& [name, overloads] : s.routines)
      for (const auto& r : overloads) {
        std::vector<int64_t> argTypes, allTypes;
        std::vector<std::string> modes, names;
        bool outputs = false, named = false;
        int64_t variadic = 0;  // provariadic: the VARIADIC parameter's element type
        for (const RoutineParamInfo& p : r->params) {
          if (p.mode == RoutineParamMode::Variadic) variadic = variadicElementOid(p.type);
          if (p.isInput()) argTypes.push_back(routineTypeOid(p.type, db));
          allTypes.push_back(routineTypeOid(p.type, db));
          static const char* const kModes[] = {"i", "o", "b", "v", "t"};
          modes.push_back(kModes[static_cast<int>(p.mode)]);
          outputs |= p.mode != RoutineParamMode::In;
          names.push_back(p.name);
          named |= !p.name.empty();
        }
        static const char* const kVolatility[] = {"i", "s", "v"};
        std::vector<std::string> config;  // proconfig: name=value per SET clause
        for (const auto& [setting, value] : r->config) config.push_back(setting + "=" + value);
        rows.push_back({static_cast<int64_t>(r->oid),
                        name,
                        static_cast<int64_t>(s.oid),
                        owner,
                        r->language == RoutineLanguage::Sql ? kSqlLanguage : kPlpgsqlLanguage,
                        100.0,
                        r->returnsSet ? 1000.0 : 0.0,
                        variadic,
                        int64_t{0},
                        std::string(r->kind == RoutineKind::Procedure ? "p" : "f"),
                        r->securityDefiner,
                        false,
                        r->strict,
                        r->returnsSet,
                        std::string(kVolatility[static_cast<int>(r->volatility)]),
                        std::string("u"),
                        static_cast<int64_t>(argTypes.size()),
                        static_cast<int64_t>(r->defaultCount()),
                        static_cast<int64_t>(routineTypeOid(r->returnType, db)),
                        argTypes,
                        outputs ? SystemValue(allTypes) : kNull,
                        outputs ? SystemValue(modes) : kNull,
                        named ? SystemValue(names) : kNull,
                        kNull,
                        kNull,
                        r->body,
                        kNull,
                        kNull,
                        config.empty() ? kNull : SystemValue(config),
                        kNull});
      }
  });
  return rows;
}

std::vector<SystemRow> fillAccessMethods(const Catalog&, const Database&) {
  return {{kHeapAm, std::string("heap"), int64_t{0}, std::string("t")},
          {kBtreeAm, std::string("btree"), int64_t{0}, std::string("i")},
          {kHashAm, std::string("hash"), int64_t{0}, std::string("i")}};
}

std::vector<SystemRow> fillTablespaces(const Catalog&, const Database&) {
  return {{kDefaultTablespace, std::string("pg_default"), kBootstrapRole, kNull, kNull},
          {kGlobalTablespace, std::string("pg_global"), kBootstrapRole, kNull, kNull}};
}

std::vector<SystemRow> fillCollations(const Catalog&, const Database&) {
  std::vector<Row> rows;
  for (auto [oid, name, provider] : {std::tuple{kDefaultCollation, "default", "d"}, std::tuple{kCCollation, "C", "c"},
                                     std::tuple{kPosixCollation, "POSIX", "c"}}) {
    SystemValue locale = oid == kDefaultCollation ? kNull : SystemValue(std::string(name));
    rows.push_back({oid, std::string(name), kPgCatalog, kBootstrapRole, std::string(provider), true, int64_t{-1},
                    locale, locale, kNull, kNull});
  }
  return rows;
}

std::vector<SystemRow> fillExtensions(const Catalog&, const Database&) {
  return {
      {kPlpgsqlExtension, std::string("plpgsql"), kBootstrapRole, kPgCatalog, false, std::string("1.0"), kNull, kNull}};
}

std::vector<SystemRow> fillLanguages(const Catalog&, const Database&) {
  std::vector<Row> rows;
  for (auto [oid, name, pl] : {std::tuple{int64_t{12}, "internal", false}, std::tuple{int64_t{13}, "c", false},
                               std::tuple{kSqlLanguage, "sql", false}, std::tuple{kPlpgsqlLanguage, "plpgsql", true}})
    rows.push_back({oid, std::string(name), kBootstrapRole, pl, oid == kSqlLanguage || pl, int64_t{0}, int64_t{0},
                    int64_t{0}, kNull});
  return rows;
}

std::vector<SystemRow> fillTables(const Catalog& catalog, const Database& db) {
  std::vector<Row> rows;
  std::string owner = ownerName(catalog, db);
  forEachSchema(db, [&](const Schema& s) {
    for (const auto& [name, t] : s.tables)
      if (relkindOf(*t) == "r")
        rows.push_back({s.name, name, t->systemView ? std::string("postgres") : owner, kNull, !t->indexes.empty(),
                        false, false, false});
  });
  return rows;
}

std::vector<SystemRow> fillViews(const Catalog& catalog, const Database& db) {
  std::vector<Row> rows;
  std::string owner = ownerName(catalog, db);
  forEachSchema(db, [&](const Schema& s) {
    for (const auto& [name, v] : s.views) rows.push_back({s.name, name, owner, viewDefinition(*v)});
  });
  return rows;
}

std::vector<SystemRow> fillIndexViews(const Catalog&, const Database& db) {
  std::vector<Row> rows;
  forEachSchema(db, [&](const Schema& s) {
    for (const auto& [name, i] : s.indexes) rows.push_back({s.name, i->table->name, name, kNull, indexDefinition(*i)});
  });
  return rows;
}

std::vector<SystemRow> fillNothing(const Catalog&, const Database&) { return {}; }

}  // namespace duet
