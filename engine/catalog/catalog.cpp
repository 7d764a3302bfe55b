// Catalog objects and DDL (see catalog.h).
#include "engine/catalog/catalog.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <utility>

#include "engine/catalog/system_relations.h"
#include "engine/error.h"

namespace duet {
namespace {

constexpr size_t kMaxNameBytes = 63;  // PostgreSQL's NAMEDATALEN - 1

// PostgreSQL's fixed OIDs for the bootstrap objects.
constexpr uint32_t kPostgresDatabaseOid = 5, kPostgresRoleOid = 10, kPgCatalogOid = 11, kPublicOid = 2200;

[[noreturn]] void undefinedTable(const std::string& name) {
  throw SqlError(sqlstate::kUndefinedTable, fmt::format("relation \"{}\" does not exist", name));
}

}  // namespace

int TableInfo::columnIndex(const std::string& column) const {
  for (size_t i = 0; i < columns.size(); ++i)
    if (columns[i].name == column) return static_cast<int>(i);
  return -1;
}

Schema* Database::schema(const std::string& n) const {
  auto it = schemas.find(n);
  return it == schemas.end() ? nullptr : it->second.get();
}

Catalog::Catalog() {
  roles_["postgres"] = Role{kPostgresRoleOid, "postgres", true, {}};
  databases_["postgres"] = makeDatabase(kPostgresDatabaseOid, "postgres", "postgres");
}

std::shared_ptr<Database> Catalog::makeDatabase(uint32_t oid, const std::string& name, const std::string& owner) {
  auto db = std::make_shared<Database>();
  db->oid = oid;
  db->name = name;
  db->owner = owner;
  for (auto [schemaOid, schemaName] : {std::pair{kPgCatalogOid, "pg_catalog"}, std::pair{kPublicOid, "public"},
                                       std::pair{kInformationSchemaOid, "information_schema"}}) {
    auto s = std::make_unique<Schema>();
    s->oid = schemaOid;
    s->name = schemaName;
    db->schemas[schemaName] = std::move(s);
    if (std::string_view(schemaName) == "public")
      db->comments[{kPgNamespaceOid, schemaOid, 0}] = "standard public schema";
  }
  // The system tables (system_relations.h): empty until a statement reads them.
  UndoLog undo;
  for (const SystemRelation& relation : systemRelations()) {
    CreateTableSpec spec;
    spec.name = std::string(relation.name);
    spec.oid = relation.oid;
    spec.columns = systemColumns(relation);
    TableInfo& table = createTable(*db, std::string(relation.schema), std::move(spec), undo);
    table.systemView = true;
    table.table->setAnalysisQueue(nullptr);  // its rows are the catalog's, refilled per read
  }
  undo.commit();
  return db;
}

// A database may outlive the catalog (a session's reference to it): its tables leave the
// analysis queue before the queue goes, so that neither their writes nor their end reach it.
Catalog::~Catalog() {
  for (const auto& [name, db] : databases_)
    for (const auto& [schemaName, schema] : db->schemas)
      for (const auto& [tableName, table] : schema->tables) table->table->setAnalysisQueue(nullptr);
}

void Catalog::setComment(Database& db, const CommentKey& key, std::optional<std::string> text, UndoLog& undo) {
  std::optional<std::string> kept;
  if (auto it = db.comments.find(key); it != db.comments.end()) kept = it->second;
  if (text)
    db.comments[key] = std::move(*text);
  else
    db.comments.erase(key);
  undo.recordAction([&db, key, kept] {
    if (kept)
      db.comments[key] = *kept;
    else
      db.comments.erase(key);
  });
}

Schema& Catalog::createSchema(Database& db, const std::string& name, UndoLog& undo) {
  if (name.starts_with("pg_"))
    throw SqlError("42939", fmt::format("unacceptable schema name \"{}\"", name),
                   "The prefix \"pg_\" is reserved for system schemas.");
  if (db.schema(name)) throw SqlError("42P06", fmt::format("schema \"{}\" already exists", name));
  return addSchema(db, name, undo);
}

Schema& Catalog::createTemporarySchema(Database& db, const std::string& name, TempSessionId owner, UndoLog& undo) {
  Schema& created = addSchema(db, name, undo);
  created.tempOwner = owner;
  return created;
}

Schema& Catalog::addSchema(Database& db, const std::string& name, UndoLog& undo) {
  auto s = std::make_unique<Schema>();
  s->oid = nextOid();
  s->name = name;
  Schema& created = *s;
  db.schemas[name] = std::move(s);
  undo.recordAction([&db, name] { db.schemas.erase(name); });
  return created;
}

bool Catalog::schemaEmpty(const Schema& s) {
  for (const auto& [name, t] : s.tables)
    if (!t->systemView) return false;
  return s.views.empty() && s.indexes.empty() && s.sequences.empty() && s.routines.empty() && s.types.empty();
}

void Catalog::dropSchema(Database& db, const std::string& name, UndoLog& undo) {
  auto it = db.schemas.find(name);
  if (it == db.schemas.end()) throw SqlError("3F000", fmt::format("schema \"{}\" does not exist", name));
  auto kept = std::make_shared<std::unique_ptr<Schema>>(std::move(it->second));
  db.schemas.erase(it);
  undo.recordAction([&db, kept, name] { db.schemas[name] = std::move(*kept); });
}

void Catalog::renameSchema(Database& db, const std::string& name, const std::string& newName, UndoLog& undo) {
  if (newName.starts_with("pg_"))
    throw SqlError("42939", fmt::format("unacceptable schema name \"{}\"", newName),
                   "The prefix \"pg_\" is reserved for system schemas.");
  if (db.schema(newName)) throw SqlError("42P06", fmt::format("schema \"{}\" already exists", newName));
  auto it = db.schemas.find(name);
  if (it == db.schemas.end()) throw SqlError("3F000", fmt::format("schema \"{}\" does not exist", name));
  std::unique_ptr<Schema> moved = std::move(it->second);
  db.schemas.erase(it);
  moved->name = newName;
  Schema* s = moved.get();
  db.schemas[newName] = std::move(moved);
  undo.recordAction([&db, s, name, newName] {
    std::unique_ptr<Schema> back = std::move(db.schemas[newName]);
    db.schemas.erase(newName);
    s->name = name;
    db.schemas[name] = std::move(back);
  });
}

// ---- databases and roles --------------------------------------------------------------------

Database* Catalog::database(const std::string& name) const {
  auto it = databases_.find(name);
  return it == databases_.end() ? nullptr : it->second.get();
}

Database& Catalog::createDatabase(const std::string& name, const std::string& owner, UndoLog& undo) {
  if (databases_.count(name))
    throw SqlError(sqlstate::kDuplicateDatabase, fmt::format("database \"{}\" already exists", name));
  auto db = makeDatabase(nextOid(), name, owner);
  databases_[name] = db;
  undo.recordAction([this, name] { databases_.erase(name); });
  return *db;
}

void Catalog::dropDatabase(const std::string& name, bool ifExists, UndoLog& undo) {
  auto it = databases_.find(name);
  if (it == databases_.end()) {
    if (ifExists) return;
    throw SqlError(sqlstate::kInvalidCatalogName, fmt::format("database \"{}\" does not exist", name));
  }
  std::shared_ptr<Database> kept = it->second;
  databases_.erase(it);
  undo.recordAction([this, kept] { databases_[kept->name] = kept; });
}

const Role* Catalog::role(const std::string& name) const {
  auto it = roles_.find(name);
  return it == roles_.end() ? nullptr : &it->second;
}

const Role& Catalog::createRole(const std::string& name, bool superuser, UndoLog& undo) {
  if (roles_.count(name)) throw SqlError(sqlstate::kDuplicateObject, fmt::format("role \"{}\" already exists", name));
  Role& r = roles_[name] = Role{nextOid(), name, superuser, {}};
  undo.recordAction([this, name] { roles_.erase(name); });
  return r;
}

void Catalog::dropRole(const std::string& name, bool ifExists, UndoLog& undo) {
  auto it = roles_.find(name);
  if (it == roles_.end()) {
    if (ifExists) return;
    throw SqlError(sqlstate::kUndefinedObject, fmt::format("role \"{}\" does not exist", name));
  }
  for (const auto& [dbName, db] : databases_)
    if (db->owner == name)
      throw SqlError("2BP01", fmt::format("role \"{}\" cannot be dropped because some objects depend on it", name),
                     fmt::format("owner of database {}", dbName));
  Role kept = it->second;
  roles_.erase(it);
  // Its memberships in other roles went with it; those of other roles in it go too.
  std::vector<std::pair<std::string, bool>> members;
  for (auto& [other, r] : roles_) {
    auto m = r.memberOf.find(name);
    if (m == r.memberOf.end()) continue;
    members.emplace_back(other, m->second);
    r.memberOf.erase(m);
  }
  undo.recordAction([this, kept, members] {
    roles_[kept.name] = kept;
    for (const auto& [other, admin] : members) roles_[other].memberOf[kept.name] = admin;
  });
}

namespace {
Role& existingRole(std::map<std::string, Role>& roles, const std::string& name) {
  auto it = roles.find(name);
  if (it == roles.end()) throw SqlError(sqlstate::kUndefinedObject, fmt::format("role \"{}\" does not exist", name));
  return it->second;
}
}  // namespace

void Catalog::setSuperuser(const std::string& role, bool superuser, UndoLog& undo) {
  Role& r = existingRole(roles_, role);
  const bool before = r.superuser;
  r.superuser = superuser;
  undo.recordAction([this, role, before] { roles_[role].superuser = before; });
}

bool Catalog::isMemberOf(const std::string& member, const std::string& role) const {
  if (member == role) return true;
  auto it = roles_.find(member);
  if (it == roles_.end()) return false;
  for (const auto& [group, admin] : it->second.memberOf)
    if (isMemberOf(group, role)) return true;
  return false;
}

bool Catalog::grantRole(const std::string& role, const std::string& member, bool admin, UndoLog& undo) {
  existingRole(roles_, role);
  Role& m = existingRole(roles_, member);
  // PostgreSQL's AddRoleMems: no loops.
  if (isMemberOf(role, member))
    throw SqlError("0LP01", fmt::format("role \"{}\" is a member of role \"{}\"", role, member));
  auto it = m.memberOf.find(role);
  if (it != m.memberOf.end() && (it->second || !admin)) return false;
  std::optional<bool> before;
  if (it != m.memberOf.end()) before = it->second;
  m.memberOf[role] = admin;
  undo.recordAction([this, role, member, before] {
    if (before)
      roles_[member].memberOf[role] = *before;
    else
      roles_[member].memberOf.erase(role);
  });
  return true;
}

bool Catalog::revokeRole(const std::string& role, const std::string& member, bool adminOnly, UndoLog& undo) {
  existingRole(roles_, role);
  Role& m = existingRole(roles_, member);
  auto it = m.memberOf.find(role);
  if (it == m.memberOf.end()) return false;
  const bool admin = it->second;
  if (adminOnly)
    it->second = false;
  else
    m.memberOf.erase(it);
  undo.recordAction([this, role, member, admin] { roles_[member].memberOf[role] = admin; });
  return true;
}

void Catalog::setDatabaseOwner(const std::string& database, const std::string& owner, UndoLog& undo) {
  auto it = databases_.find(database);
  if (it == databases_.end()) throw SqlError("3D000", fmt::format("database \"{}\" does not exist", database));
  existingRole(roles_, owner);
  std::shared_ptr<Database> db = it->second;
  std::string before = db->owner;
  db->owner = owner;
  undo.recordAction([db, before] { db->owner = before; });
}

// ---- name resolution ----------------------------------------------------------------------

Schema& Catalog::resolveSchema(const Database& db, const std::string& schemaName) const {
  Schema* s = db.schema(schemaName);
  if (!s) throw SqlError(sqlstate::kInvalidSchemaName, fmt::format("schema \"{}\" does not exist", schemaName));
  return *s;
}

namespace {
// Looks `name` up in one of a schema's maps (tables or indexes) along a path: the first
// schema that has it.
template <typename Info, typename Map>
Info* findInPath(const Database& db, const SchemaPath& path, const std::string& name, Map Schema::* objects) {
  for (const std::string& sn : path) {
    Schema* s = db.schema(sn);
    if (!s) continue;
    auto it = (s->*objects).find(name);
    if (it != (s->*objects).end()) return it->second.get();
  }
  return nullptr;
}
}  // namespace

TableInfo* Catalog::findTable(const Database& db, const SchemaPath& path, const std::string& name) const {
  return findInPath<TableInfo>(db, path, name, &Schema::tables);
}

TableInfo& Catalog::table(const Database& db, const SchemaPath& path, const std::string& name) const {
  TableInfo* t = findTable(db, path, name);
  if (!t) undefinedTable(name);
  return *t;
}

Catalog::Relation Catalog::findRelation(const Database& db, const SchemaPath& path, const std::string& name) const {
  for (const std::string& sn : path) {
    Relation r;
    if (Schema* s = db.schema(sn)) {
      if (auto t = s->tables.find(name); t != s->tables.end()) r.table = t->second.get();
      if (auto v = s->views.find(name); v != s->views.end()) r.view = v->second.get();
    }
    if (r.table || r.view) return r;
  }
  return {};
}

IndexInfo* Catalog::findIndex(const Database& db, const SchemaPath& path, const std::string& name) const {
  return findInPath<IndexInfo>(db, path, name, &Schema::indexes);
}

ViewInfo* Catalog::findView(const Database& db, const SchemaPath& path, const std::string& name) const {
  return findInPath<ViewInfo>(db, path, name, &Schema::views);
}

SequenceInfo* Catalog::findSequence(const Database& db, const SchemaPath& path, const std::string& name) const {
  return findInPath<SequenceInfo>(db, path, name, &Schema::sequences);
}

void Catalog::checkNewRelationName(const Schema& schema, const std::string& name) const {
  if (schema.hasRelation(name))
    throw SqlError(sqlstate::kDuplicateTable, fmt::format("relation \"{}\" already exists", name));
}

// PostgreSQL's ChooseRelationName: table_col1_col2_label, shortened to fit, then a
// counter appended until the name is free.
std::string Catalog::chooseName(const Schema& schema, const std::string& table, const std::vector<std::string>& columns,
                                const std::string& label, bool constraint) const {
  auto taken = [&](const std::string& name) {
    if (schema.hasRelation(name)) return true;
    if (!constraint) return false;
    for (const auto& [n, t] : schema.tables)
      if (hasConstraint(*t, name)) return true;
    return false;
  };
  std::string middle;
  for (const std::string& c : columns) middle += (middle.empty() ? "" : "_") + c;
  for (int n = 0;; ++n) {
    std::string suffix = label + (n ? std::to_string(n) : "");
    std::string t = table, m = middle;
    // Trim the longer of the two parts until the whole fits, as makeObjectName does.
    while (t.size() + (m.empty() ? 0 : m.size() + 1) + 1 + suffix.size() > kMaxNameBytes) {
      if (t.size() >= m.size())
        t.pop_back();
      else
        m.pop_back();
    }
    std::string name = t + (m.empty() ? "" : "_" + m) + "_" + suffix;
    if (!taken(name)) return name;
  }
}

std::vector<uint32_t> Catalog::resolveColumns(const TableInfo& table, const std::vector<std::string>& columns,
                                              bool forKey) const {
  std::vector<uint32_t> out;
  for (const std::string& c : columns) {
    int i = table.columnIndex(c);
    if (i < 0)
      throw SqlError(sqlstate::kUndefinedColumn, forKey ? fmt::format("column \"{}\" named in key does not exist", c)
                                                        : fmt::format("column \"{}\" does not exist", c));
    if (std::find(out.begin(), out.end(), static_cast<uint32_t>(i)) != out.end())
      throw SqlError(sqlstate::kDuplicateColumn,
                     forKey ? fmt::format("column \"{}\" appears twice in primary key constraint", c)
                            : fmt::format("column \"{}\" appears more than once in index", c));
    out.push_back(static_cast<uint32_t>(i));
  }
  return out;
}

// ---- tables and indexes -------------------------------------------------------------------

IndexInfo& Catalog::attachIndex(TableInfo& table, std::string name, std::vector<uint32_t> columns, bool unique,
                                bool primary, bool constraint, UndoLog& undo) {
  Schema& schema = *table.schema;
  checkNewRelationName(schema, name);
  auto info = std::make_shared<IndexInfo>();
  info->oid = nextOid();
  info->name = name;
  info->table = &table;
  info->columns = columns;
  info->unique = unique;
  info->primary = primary;
  info->constraint = constraint;
  // A one-column key is looked up only by equality: hashed. A key of several columns is
  // also read by its prefixes (an order's lines, a district's new orders), which only an
  // ordered index serves, so such a constraint keeps its key ordered.
  IndexKind kind = constraint && columns.size() == 1 ? IndexKind::Hash : IndexKind::Ordered;
  info->index = table.table->createIndex(name, std::move(columns), kind, unique, undo);
  schema.indexes[name] = info;
  table.indexes.push_back(info.get());
  if (primary) table.primaryKey = info.get();
  undo.recordAction([&schema, &table, name, primary] {
    table.indexes.pop_back();
    if (primary) table.primaryKey = nullptr;
    schema.indexes.erase(name);
  });
  return *info;
}

IndexInfo& Catalog::addKey(TableInfo& table, const KeySpec& key, UndoLog& undo) {
  bool primary = key.kind == KeyKind::PrimaryKey;
  if (primary && table.primaryKey)
    throw SqlError(sqlstate::kInvalidTableDefinition,
                   fmt::format("multiple primary keys for table \"{}\" are not allowed", table.name));
  std::vector<uint32_t> cols = resolveColumns(table, key.columns, true);
  std::string name = key.name.empty()
                         ? chooseName(*table.schema, table.name, primary ? std::vector<std::string>{} : key.columns,
                                      primary ? "pkey" : "key")
                         : key.name;
  // Primary key columns become NOT NULL; existing NULLs forbid it.
  if (primary) checkNoNulls(table, *table.table, cols);
  IndexInfo& info = attachIndex(table, name, cols, true, primary, true, undo);
  if (primary) {
    std::vector<uint32_t> madeNotNull;
    for (uint32_t col : cols)
      if (!table.columns[col].notNull) madeNotNull.push_back(col);
    auto setNotNull = [&table](const std::vector<uint32_t>& which, bool v) {
      for (uint32_t col : which) table.columns[col].notNull = v;
    };
    setNotNull(madeNotNull, true);
    table.table->setNotNull(madeNotNull, true);
    undo.recordAction([&table, madeNotNull, setNotNull] {
      setNotNull(madeNotNull, false);
      table.table->setNotNull(madeNotNull, false);
    });
  }
  return info;
}

TableInfo& Catalog::createTable(Database& db, const std::string& schemaName, CreateTableSpec spec, UndoLog& undo) {
  Schema& schema = resolveSchema(db, schemaName);
  checkNewRelationName(schema, spec.name);
  for (size_t i = 0; i < spec.columns.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (spec.columns[i].name == spec.columns[j].name)
        throw SqlError(sqlstate::kDuplicateColumn,
                       fmt::format("column \"{}\" specified more than once", spec.columns[i].name));
  int primaryKeys = 0;
  for (const KeySpec& k : spec.keys) primaryKeys += k.kind == KeyKind::PrimaryKey;
  if (primaryKeys > 1)
    throw SqlError(sqlstate::kInvalidTableDefinition,
                   fmt::format("multiple primary keys for table \"{}\" are not allowed", spec.name));

  auto info = std::make_shared<TableInfo>();
  info->oid = spec.oid ? spec.oid : nextOid();
  info->name = spec.name;
  info->schema = &schema;
  info->columns = std::move(spec.columns);
  info->storage = spec.storage;
  info->onCommit = spec.onCommit;
  // Validate key columns before anything is registered, so errors leave no trace.
  for (const KeySpec& k : spec.keys) resolveColumns(*info, k.columns, true);
  std::vector<ColumnSpec> specs;
  for (const ColumnDef& c : info->columns) specs.push_back({c.name, c.type, c.notNull});
  info->table = std::make_unique<Table>(info->name, std::move(specs), info->storage);
  info->table->setSchemaName(schema.name);
  info->table->setAnalysisQueue(analysisQueue_.get());

  schema.tables[info->name] = info;
  std::string name = info->name;
  undo.recordAction([&schema, name] { schema.tables.erase(name); });
  // Primary key first, as PostgreSQL names and creates it first.
  std::stable_sort(spec.keys.begin(), spec.keys.end(), [](const KeySpec& a, const KeySpec& b) {
    return a.kind == KeyKind::PrimaryKey && b.kind != KeyKind::PrimaryKey;
  });
  for (const KeySpec& k : spec.keys) addKey(*info, k, undo);
  return *info;
}

void Catalog::dropTable(Database& db, const SchemaPath& path, const std::string& name, bool ifExists, UndoLog& undo) {
  TableInfo* t = findTable(db, path, name);
  if (!t) {
    if (ifExists) return;
    undefinedTable(name);
  }
  Schema& schema = *t->schema;
  // SERIAL's and identity's sequences go with their table, as in PostgreSQL.
  for (SequenceInfo* owned : ownedSequences(db, t->oid)) dropSequence(*owned, undo);
  std::shared_ptr<TableInfo> kept = schema.tables.at(name);
  std::vector<std::shared_ptr<IndexInfo>> keptIndexes;
  for (IndexInfo* i : t->indexes) {
    keptIndexes.push_back(schema.indexes.at(i->name));
    schema.indexes.erase(i->name);
  }
  schema.tables.erase(name);
  // Its own foreign keys go with it (those of other tables that reference it, the caller
  // dropped or refused).
  for (const auto& fk : kept->foreignKeys) Table::detachForeignKey(*fk);
  // Nor is it analysed any more (a plan may keep it alive past the queue).
  kept->table->setAnalysisQueue(nullptr);
  // The table (and its rows) lives on in the log until commit, for a rollback to restore.
  undo.recordAction([&schema, kept, keptIndexes, queue = analysisQueue_.get()] {
    schema.tables[kept->name] = kept;
    for (const auto& i : keptIndexes) schema.indexes[i->name] = i;
    for (const auto& fk : kept->foreignKeys) Table::attachForeignKey(*fk);
    kept->table->setAnalysisQueue(queue);
  });
}

IndexInfo& Catalog::createIndex(TableInfo& table, std::string name, const std::vector<std::string>& columns,
                                bool unique, UndoLog& undo) {
  std::vector<uint32_t> cols = resolveColumns(table, columns, false);
  if (name.empty()) name = chooseName(*table.schema, table.name, columns, "idx");
  return attachIndex(table, std::move(name), std::move(cols), unique, false, false, undo);
}

void Catalog::dropIndex(Database& db, const SchemaPath& path, const std::string& name, bool ifExists, UndoLog& undo) {
  IndexInfo* info = findIndex(db, path, name);
  if (!info) {
    if (ifExists) return;
    throw SqlError(sqlstate::kUndefinedObject, fmt::format("index \"{}\" does not exist", name));
  }
  TableInfo& table = *info->table;
  if (info->constraint)
    throw SqlError(
        "2BP01",
        fmt::format("cannot drop index {} because constraint {} on table {} requires it", name, name, table.name), {},
        fmt::format("You can drop constraint {} on table {} instead.", name, table.name));
  detachIndex(*info, undo);
}

}  // namespace duet
