#include "session/type_statements.h"

#include <fmt/format.h>

#include <set>

#include "engine/error.h"

namespace duet {

void TypeStatements::create(const sql::CreateTypeStmt& s) {
  CompositeTypeInfo spec;
  spec.name = s.name.name();
  std::set<std::string> names;
  for (const sql::CreateTypeStmt::Field& f : s.fields) {
    if (!names.insert(f.name).second)
      throw SqlError(sqlstate::kDuplicateColumn, fmt::format("column \"{}\" specified more than once", f.name));
    SqlType type;
    if (f.type.resolved && f.type.serial == sql::SerialKind::None) {
      type = f.type.sqlType();
    } else if (auto named = f.type.arrayBounds == 0 && f.type.serial == sql::SerialKind::None
                                ? state_.namedRowType(f.type.names)
                                : std::nullopt) {
      type = named->type;
    } else {
      throw SqlError(sqlstate::kUndefinedObject, fmt::format("type \"{}\" does not exist", f.type.name()), {}, {},
                     static_cast<int>(f.type.location) + 1);
    }
    spec.fields.push_back({f.name, type});
  }
  std::string schema = state_.creationSchema(s.name);
  state_.engine.catalog.createType(*state_.db, schema, std::move(spec), state_.txn.undo());
  transaction_.ddlDone();
}

void TypeStatements::drop(const sql::DropStmt& s, ResultSink& sink) {
  bool cascade = s.behavior == sql::DropBehavior::Cascade;
  for (const sql::QualifiedName& name : s.names) {
    SchemaPath path = state_.relationPath(name);
    CompositeTypeInfo* type = state_.engine.catalog.findType(*state_.db, path, name.name());
    if (!type) {
      if (const TableInfo* table = state_.engine.catalog.findTable(*state_.db, path, name.name()))
        throw SqlError(sqlstate::kDependentObjectsStillExist,
                       fmt::format("cannot drop type {} because table {} requires it", table->name, table->name), {},
                       fmt::format("You can drop table {} instead.", table->name));
      if (!s.ifExists)
        throw SqlError(sqlstate::kUndefinedObject, fmt::format("type \"{}\" does not exist", name.name()));
      state_.sendNotice(
          sink, Notice::make("NOTICE", "00000", fmt::format("type \"{}\" does not exist, skipping", name.name())));
      continue;
    }
    // Another composite type with a field of this one.
    SqlType row = type->rowType();
    std::string detail;
    for (const auto& [schemaName, schema] : state_.db->schemas)
      for (const auto& [otherName, other] : schema->types)
        for (const ColumnDef& field : other->fields)
          if (field.type == row)
            detail += fmt::format("{}column {} of composite type {} depends on type {}", detail.empty() ? "" : "\n",
                                  field.name, other->name, type->name);
    if (!detail.empty()) {
      if (cascade)
        throw SqlError(sqlstate::kFeatureNotSupported,
                       "DROP TYPE ... CASCADE of a type another composite type uses is not supported");
      throw SqlError(sqlstate::kDependentObjectsStillExist,
                     fmt::format("cannot drop type {} because other objects depend on it", type->name), detail,
                     "Use DROP ... CASCADE to drop the dependent objects too.");
    }
    routines_.dropRoutinesUsingType(type->schema->name, type->name, "type " + type->name, cascade, sink);
    state_.engine.catalog.dropType(*type, state_.txn.undo());
    transaction_.ddlDone();
  }
}

}  // namespace duet
