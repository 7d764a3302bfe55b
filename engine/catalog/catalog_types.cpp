// Named composite types in the catalog: CREATE TYPE ... AS and DROP TYPE, undoable like
// other DDL. Whether a routine still uses a type (2BP01) is the session's question: the
// catalog keeps no dependencies on types.
#include <fmt/format.h>

#include "engine/catalog/catalog.h"
#include "engine/error.h"
#include "engine/types/record.h"

namespace duet {

namespace {

std::vector<RecordField> fieldsOf(const std::vector<ColumnDef>& columns) {
  std::vector<RecordField> fields;
  for (const ColumnDef& c : columns) fields.push_back({c.name, c.type});
  return fields;
}

}  // namespace

SqlType CompositeTypeInfo::rowType() const { return compositeType(oid, name, fieldsOf(fields)); }

SqlType tableRowType(const TableInfo& table) { return compositeType(table.oid, table.name, fieldsOf(table.columns)); }

CompositeTypeInfo* Catalog::findType(const Database& db, const SchemaPath& path, const std::string& name) const {
  for (const std::string& schemaName : path) {
    const Schema* schema = db.schema(schemaName);
    if (!schema) continue;
    auto it = schema->types.find(name);
    if (it != schema->types.end()) return it->second.get();
  }
  return nullptr;
}

CompositeTypeInfo& Catalog::createType(Database& db, const std::string& schemaName, CompositeTypeInfo spec,
                                       UndoLog& undo) {
  Schema& schema = resolveSchema(db, schemaName);
  // Tables, views and sequences have row types of their names in PostgreSQL.
  if (schema.types.count(spec.name) || schema.tables.count(spec.name) || schema.views.count(spec.name) ||
      schema.sequences.count(spec.name))
    throw SqlError(sqlstate::kDuplicateObject, fmt::format("type \"{}\" already exists", spec.name));
  checkNewRelationName(schema, spec.name);
  auto info = std::make_shared<CompositeTypeInfo>(std::move(spec));
  info->relationOid = nextOid();
  info->oid = nextOid();
  info->schema = &schema;
  schema.types[info->name] = info;
  std::string name = info->name;
  undo.recordAction([&schema, name] { schema.types.erase(name); });
  return *info;
}

void Catalog::dropType(CompositeTypeInfo& type, UndoLog& undo) {
  Schema& schema = *type.schema;
  std::shared_ptr<CompositeTypeInfo> kept = schema.types.at(type.name);
  schema.types.erase(type.name);
  undo.recordAction([&schema, kept] { schema.types[kept->name] = kept; });
}

}  // namespace duet
