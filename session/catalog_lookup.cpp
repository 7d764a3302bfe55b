#include "session/catalog_lookup.h"

#include <fmt/format.h>

#include "compiler/compiler.h"
#include "engine/catalog/builtin_types.h"
#include "engine/catalog/system_rows.h"
#include "engine/error.h"
#include "engine/types/text_functions.h"
#include "session/session_state.h"

namespace duet {
namespace {

constexpr uint32_t kVoidType = kVoidTypeOid, kRecordType = kRecordTypeOid;
constexpr const char* kInvalidNameSyntax = "42602";
constexpr uint32_t kDatabaseOwnerRole = kDatabaseOwnerRoleOid;

// "a.b", "\"A\".b": the parts of a possibly qualified name, unquoted parts folded to lower
// case, as PostgreSQL's stringToQualifiedNameList.
std::vector<std::string> nameParts(std::string_view text) {
  std::vector<std::string> parts(1);
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        parts.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        parts.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == '.') {
      parts.emplace_back();
    } else {
      parts.back() += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    }
  }
  for (const std::string& p : parts)
    if (p.empty()) throw SqlError(kInvalidNameSyntax, "invalid name syntax");
  return parts;
}

[[noreturn]] void undefined(const char* sqlstate, const char* what, std::string_view name) {
  throw SqlError(sqlstate, fmt::format("{} \"{}\" does not exist", what, name));
}

// pg_get_function_arguments (with defaults) and pg_get_function_identity_arguments
// (without): each parameter as "[mode ]name type", a RETURNS TABLE column left out.
std::string functionArguments(const RoutineInfo& r, bool withDefaults) {
  static const char* const kModes[] = {"", "OUT ", "INOUT ", "VARIADIC ", ""};
  std::string out;
  for (const RoutineParamInfo& p : r.params) {
    if (p.mode == RoutineParamMode::Table) continue;
    if (!out.empty()) out += ", ";
    // A procedure's IN parameters say so (PostgreSQL 14 and later print them that way).
    out +=
        p.mode == RoutineParamMode::In && r.kind == RoutineKind::Procedure ? "IN " : kModes[static_cast<int>(p.mode)];
    if (!p.name.empty()) out += quoteIdent(p.name) + " ";
    out += routineTypeName(p.type);
    if (withDefaults && !p.defaultSql.empty()) out += " DEFAULT " + p.defaultSql;
  }
  return out;
}

// pg_get_function_result: the result type, SETOF it for a set, TABLE(...) for RETURNS
// TABLE; NULL (nullopt) for a procedure.
std::optional<std::string> functionResult(const RoutineInfo& r) {
  if (r.kind == RoutineKind::Procedure) return std::nullopt;
  std::string columns;
  for (const RoutineParamInfo& p : r.params)
    if (p.mode == RoutineParamMode::Table)
      columns += (columns.empty() ? "" : ", ") + quoteIdent(p.name) + " " + routineTypeName(p.type);
  if (!columns.empty()) return "TABLE(" + columns + ")";
  return (r.returnsSet ? "SETOF " : "") + routineTypeName(r.returnType);
}

// pg_get_functiondef: CREATE OR REPLACE as PostgreSQL lays it out, a clause a line, the
// name qualified, the body in a $function$ (or $procedure$) quote it does not contain.
std::string functionDefinition(const RoutineInfo& r) {
  bool procedure = r.kind == RoutineKind::Procedure;
  std::string out = fmt::format("CREATE OR REPLACE {} {}.{}({})\n", procedure ? "PROCEDURE" : "FUNCTION",
                                quoteIdent(r.schema->name), quoteIdent(r.name), functionArguments(r, true));
  if (std::optional<std::string> result = functionResult(r)) out += " RETURNS " + *result + "\n";
  out += r.language == RoutineLanguage::Sql ? " LANGUAGE sql\n" : " LANGUAGE plpgsql\n";
  std::string options;
  if (r.volatility == Volatility::Immutable) options += " IMMUTABLE";
  if (r.volatility == Volatility::Stable) options += " STABLE";
  if (r.strict) options += " STRICT";
  if (r.securityDefiner) options += " SECURITY DEFINER";
  if (!options.empty()) out += options + "\n";
  for (const auto& [name, value] : r.config) out += " SET " + name + " TO " + setClauseValue(name, value) + "\n";
  std::string quote = procedure ? "$procedure" : "$function";
  while (r.body.find(quote) != std::string::npos) quote += 'x';
  quote += '$';
  return out + "AS " + quote + r.body + quote + "\n";
}

}  // namespace

SessionCatalogLookup::SessionCatalogLookup(SessionState& session)
    : session_(session), catalog_(session.engine.catalog), db_(*session.db) {}

int32_t SessionCatalogLookup::backendPid() const { return session_.backendPid; }

int64_t SessionCatalogLookup::serverStartTimestamp() const { return session_.engine.startTimestamp; }

namespace {

int64_t indexesBytes(const TableInfo& t) {
  int64_t bytes = 0;
  for (const IndexInfo* i : t.indexes) bytes += static_cast<int64_t>(i->index->memoryBytes());
  return bytes;
}

}  // namespace

std::optional<int64_t> SessionCatalogLookup::relationBytes(Size what, uint32_t oid) const {
  Relation r = relationByOid(oid);
  if (!r.name) return std::nullopt;
  if (r.index) return what == Size::Indexes ? 0 : static_cast<int64_t>(r.index->index->memoryBytes());
  if (!r.table) return 0;  // a view stores nothing
  auto own = static_cast<int64_t>(r.table->table->memoryBytes());
  switch (what) {
    case Size::Relation:
    case Size::Table: return own;
    case Size::Indexes: return indexesBytes(*r.table);
    case Size::Total: return own + indexesBytes(*r.table);
  }
  return std::nullopt;
}

std::optional<int64_t> SessionCatalogLookup::databaseBytes(std::string_view name) const {
  const Database* db = catalog_.database(std::string(name));
  if (!db) return std::nullopt;
  int64_t bytes = 0;
  for (const auto& [schemaName, schema] : db->schemas)
    for (const auto& [tableName, t] : schema->tables)
      bytes += static_cast<int64_t>(t->table->memoryBytes()) + indexesBytes(*t);
  return bytes;
}

std::optional<std::string> SessionCatalogLookup::serialSequence(std::string_view table, std::string_view column) const {
  Relation r = relationByOid(oidOf(TypeAlias::RegClass, table));
  std::string name(column);
  bool hasColumn = r.table ? r.table->columnIndex(name) >= 0 : false;
  if (r.view)
    for (const ColumnDef& c : r.view->columns) hasColumn = hasColumn || c.name == name;
  if (!hasColumn)
    throw SqlError(sqlstate::kUndefinedColumn,
                   fmt::format("column \"{}\" of relation \"{}\" does not exist", name, *r.name));
  if (!r.table) return std::nullopt;
  for (const SequenceInfo* s : catalog_.ownedSequences(db_, r.table->oid, name))
    return quoteIdent(s->schema->name) + "." + quoteIdent(s->name);
  return std::nullopt;
}

std::optional<std::string> SessionCatalogLookup::comment(uint32_t classOid, uint32_t objectOid, int32_t subId) const {
  CommentKey key{classOid, objectOid, subId};
  auto it = db_.comments.find(key);
  if (it == db_.comments.end() || !commentedObjectExists(db_, key)) return std::nullopt;
  return it->second;
}

SessionCatalogLookup::Relation SessionCatalogLookup::relationByOid(uint32_t oid) const {
  for (const auto& [schemaName, schema] : db_.schemas) {
    for (const auto& [name, t] : schema->tables)
      if (t->oid == oid) return {schema.get(), t.get(), nullptr, nullptr, &name};
    for (const auto& [name, v] : schema->views)
      if (v->oid == oid) return {schema.get(), nullptr, v.get(), nullptr, &name};
    for (const auto& [name, i] : schema->indexes)
      if (i->oid == oid) return {schema.get(), nullptr, nullptr, i.get(), &name};
    for (const auto& [name, s] : schema->sequences)
      if (s->oid == oid) return {schema.get(), nullptr, nullptr, nullptr, &name, s.get()};
    // A composite type's pg_class row (relkind 'c').
    for (const auto& [name, t] : schema->types)
      if (t->relationOid == oid) return {schema.get(), nullptr, nullptr, nullptr, &name};
  }
  return {};
}

namespace {

// A composite type by its pg_type oid, as a Relation (its name is among the schema's
// relations, so relationVisible answers for it); all null when there is none.
SessionCatalogLookup::Relation compositeTypeByOid(const Database& db, uint32_t oid) {
  for (const auto& [schemaName, schema] : db.schemas)
    for (const auto& [name, type] : schema->types)
      if (type->oid == oid) return {schema.get(), nullptr, nullptr, nullptr, &name};
  return {};
}

}  // namespace

const RoutineInfo* SessionCatalogLookup::routineByOid(uint32_t oid) const {
  for (const auto& [schemaName, schema] : db_.schemas)
    for (const auto& [name, overloads] : schema->routines)
      for (const auto& r : overloads)
        if (r->oid == oid) return r.get();
  return nullptr;
}

bool SessionCatalogLookup::relationVisible(const Relation& r) const {
  for (const std::string& schemaName : session_.searchPath().relations) {
    const Schema* s = db_.schema(schemaName);
    if (s && s->hasRelation(*r.name)) return s == r.schema;
  }
  return false;
}

bool SessionCatalogLookup::routineVisible(const RoutineInfo& r) const {
  for (const RoutineInfo* found : catalog_.findRoutines(db_, session_.searchPath().routines, r.name))
    if (found->identityTypes() == r.identityTypes()) return found == &r;
  return false;
}

std::vector<std::string> SessionCatalogLookup::currentSchemas(bool includeImplicit) const {
  const SearchPath& path = session_.searchPath();
  return includeImplicit ? path.relations : path.named;
}

std::optional<std::string> SessionCatalogLookup::nameOf(TypeAlias kind, uint32_t oid) const {
  switch (kind) {
    case TypeAlias::RegClass: {
      Relation r = relationByOid(oid);
      if (!r.name) return std::nullopt;
      std::string name = quoteIdent(*r.name);
      return relationVisible(r) ? name : quoteIdent(r.schema->name) + "." + name;
    }
    case TypeAlias::RegType: {
      if (oid == kVoidType) return "void";
      if (oid == kRecordType) return "record";
      const BuiltinType* t = builtinTypeByOid(oid);
      if (!t) {
        Relation r = compositeTypeByOid(db_, oid);
        if (!r.name) return std::nullopt;
        return relationVisible(r) ? quoteIdent(*r.name) : quoteIdent(r.schema->name) + "." + quoteIdent(*r.name);
      }
      bool known = false;
      SqlType type = sqlTypeFromOid(oid, &known);
      if (known) return typeName(type);
      // An array of a vector (int2vector[]) has no SqlType: named by its element.
      return nameOf(kind, t->element).value_or("???") + "[]";
    }
    case TypeAlias::RegNamespace:
      for (const auto& [name, schema] : db_.schemas)
        if (schema->oid == oid) return quoteIdent(name);
      return std::nullopt;
    case TypeAlias::RegRole:
      if (oid == kDatabaseOwnerRole) return "pg_database_owner";
      for (const auto& [name, role] : catalog_.roles())
        if (role.oid == oid) return quoteIdent(name);
      return std::nullopt;
    case TypeAlias::RegProc:
    case TypeAlias::RegProcedure: {
      const RoutineInfo* r = routineByOid(oid);
      if (!r) {
        std::string_view builtin = builtinFunctionName(oid);  // a type's I/O function
        if (builtin.empty()) return std::nullopt;
        return std::string(builtin);
      }
      // Qualified where the search path does not find it, as regprocout and format_procedure
      // (which puts no space after the commas).
      std::string name = (routineVisible(*r) ? "" : quoteIdent(r->schema->name) + ".") + quoteIdent(r->name);
      if (kind == TypeAlias::RegProc) return name;
      return name + "(" + routineTypeList(r->identityTypes(), ",") + ")";
    }
    default: return std::nullopt;  // DuetDB has no operators in its catalog
  }
}

uint32_t SessionCatalogLookup::oidOf(TypeAlias kind, std::string_view text) const {
  switch (kind) {
    case TypeAlias::RegClass: {
      std::vector<std::string> parts = nameParts(text);
      if (parts.size() > 2) undefined(sqlstate::kUndefinedTable, "relation", text);
      SchemaPath schema = session_.relationPath(parts);
      Catalog::Relation r = catalog_.findRelation(db_, schema, parts.back());
      if (r.table) return r.table->oid;
      if (r.view) return r.view->oid;
      if (const IndexInfo* i = catalog_.findIndex(db_, schema, parts.back())) return i->oid;
      if (const SequenceInfo* s = catalog_.findSequence(db_, schema, parts.back())) return s->oid;
      undefined(sqlstate::kUndefinedTable, "relation", parts.back());
    }
    case TypeAlias::RegType: {
      // As SQL writes types (char is bpchar, integer[]), then by pg_type's names (_int4).
      sql::TypeName t = sql::parseTypeNameText(text);
      if (t.resolved && t.serial == sql::SerialKind::None) {
        uint32_t oid = typeOid(t.sqlType());
        if (builtinTypeByOid(oid)) return oid;
      }
      if (t.names.size() == 1 || (t.names.size() == 2 && t.names[0] == "pg_catalog")) {
        for (const BuiltinType& b : builtinTypes()) {
          if (b.name == t.names.back()) return b.oid;
          if (b.array && arrayTypeRow(b).name == t.names.back()) return b.array;
        }
      }
      if (t.names.back() == "void") return kVoidType;
      if (t.names.back() == "record") return kRecordType;
      if (t.names.size() <= 2 && t.arrayBounds == 0)
        if (const CompositeTypeInfo* c = catalog_.findType(db_, session_.relationPath(t.names), t.names.back()))
          return c->oid;
      undefined(sqlstate::kUndefinedObject, "type", text);
    }
    case TypeAlias::RegNamespace: {
      std::vector<std::string> parts = nameParts(text);
      if (parts.size() != 1) throw SqlError(kInvalidNameSyntax, "invalid name syntax");
      if (const Schema* s = db_.schema(parts[0])) return s->oid;
      undefined(sqlstate::kInvalidSchemaName, "schema", parts[0]);
    }
    case TypeAlias::RegRole: {
      std::vector<std::string> parts = nameParts(text);
      if (parts.size() != 1) throw SqlError(kInvalidNameSyntax, "invalid name syntax");
      if (const Role* r = catalog_.role(parts[0])) return r->oid;
      if (parts[0] == "pg_database_owner") return kDatabaseOwnerRole;
      undefined(sqlstate::kUndefinedObject, "role", parts[0]);
    }
    case TypeAlias::RegProc:
    case TypeAlias::RegProcedure: {
      std::vector<std::string> parts = nameParts(text.substr(0, text.find('(')));
      std::vector<RoutineInfo*> found = catalog_.findRoutines(db_, session_.routinePath(parts), parts.back());
      if (found.size() == 1) return found[0]->oid;
      if (found.empty() && (parts.size() == 1 || parts[0] == "pg_catalog"))
        if (uint32_t builtin = builtinFunctionOid(parts.back())) return builtin;
      if (found.size() > 1)
        throw SqlError(sqlstate::kAmbiguousFunction, fmt::format("more than one function named \"{}\"", text));
      undefined(sqlstate::kUndefinedFunction, "function", text);
    }
    default: undefined(sqlstate::kUndefinedFunction, "operator", text);
  }
}

std::optional<std::string> SessionCatalogLookup::describe(Text what, uint32_t oid) const {
  switch (what) {
    case Text::IndexDefinition:
    case Text::IndexDefinitionPretty: {
      Relation r = relationByOid(oid);
      if (!r.index) return std::nullopt;
      if (what == Text::IndexDefinition) return indexDefinition(*r.index);
      const TableInfo& t = *r.index->table;
      return indexDefinition(*r.index, !relationVisible({t.schema, &t, nullptr, nullptr, &t.name}));
    }
    case Text::ConstraintDefinition:
    case Text::ConstraintDefinitionPretty: {
      std::optional<std::string> definition;
      forEachConstraint(db_, [&](const ConstraintView& c) {
        if (c.oid != oid) return;
        const TableInfo* r = c.referenced;
        bool qualify = r && !relationVisible({r->schema, r, nullptr, nullptr, &r->name});
        definition = constraintDefinition(c, what == Text::ConstraintDefinitionPretty, qualify);
      });
      return definition;
    }
    case Text::ViewDefinition: {
      Relation r = relationByOid(oid);
      if (!r.view) return std::nullopt;
      return viewDefinition(*r.view);
    }
    case Text::FunctionResult:
    case Text::FunctionArguments:
    case Text::FunctionIdentityArguments:
    case Text::FunctionDefinition: {
      const RoutineInfo* r = routineByOid(oid);
      if (!r) return std::nullopt;
      if (what == Text::FunctionDefinition) return functionDefinition(*r);
      return what == Text::FunctionResult ? functionResult(*r) : functionArguments(*r, what == Text::FunctionArguments);
    }
    case Text::RoleName:
      if (oid == kDatabaseOwnerRole) return "pg_database_owner";
      for (const auto& [name, role] : catalog_.roles())
        if (role.oid == oid) return name;
      return fmt::format("unknown (OID={})", oid);
  }
  return std::nullopt;
}

bool SessionCatalogLookup::isUserTable(uint32_t oid) const {
  Relation r = relationByOid(oid);
  return r.table && !r.table->systemView;
}

std::optional<bool> SessionCatalogLookup::visible(TypeAlias kind, uint32_t oid) const {
  switch (kind) {
    case TypeAlias::RegClass: {
      Relation r = relationByOid(oid);
      if (!r.name) return std::nullopt;
      return relationVisible(r);
    }
    case TypeAlias::RegType: {  // the built-in types live in pg_catalog, always on the path
      if (oid == kVoidType || oid == kRecordType || builtinTypeByOid(oid)) return true;
      Relation r = compositeTypeByOid(db_, oid);
      if (!r.name) return std::nullopt;
      return relationVisible(r);
    }
    case TypeAlias::RegProc: {
      const RoutineInfo* r = routineByOid(oid);
      if (!r) return std::nullopt;
      return routineVisible(*r);
    }
    default: return std::nullopt;
  }
}

std::optional<std::string> SessionCatalogLookup::indexColumn(uint32_t index, int32_t column) const {
  Relation r = relationByOid(index);
  if (!r.index) return std::nullopt;
  if (column < 1 || static_cast<size_t>(column) > r.index->columns.size()) return std::string();
  return quoteIdent(r.index->table->columns[r.index->columns[column - 1]].name);
}

}  // namespace duet
