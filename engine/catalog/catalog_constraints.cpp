// CHECK and FOREIGN KEY constraints in the catalog: names, the referenced key, column
// types, and the undo actions that take them back on rollback.
#include <fmt/format.h>

#include <algorithm>

#include "engine/catalog/catalog.h"
#include "engine/error.h"

namespace duet {
namespace {

[[noreturn]] void duplicateConstraint(const std::string& name, const std::string& table) {
  throw SqlError(sqlstate::kDuplicateObject,
                 fmt::format("constraint \"{}\" for relation \"{}\" already exists", name, table));
}

// Whether a referencing column's values can be looked up in the referenced column's index:
// the same type, strings held the same way (text and varchar), or integers of any width
// (foreign_key.cpp converts them).
bool sameRepresentation(TypeId a, TypeId b) {
  auto textLike = [](TypeId t) { return t == TypeId::Text || t == TypeId::Varchar; };
  return a == b || (textLike(a) && textLike(b)) || (isIntegerType(a) && isIntegerType(b));
}

// Types PostgreSQL would compare with a cross-type equality (integer and bigint, ...).
bool comparable(TypeId a, TypeId b) {
  return (isNumericCategory(a) && isNumericCategory(b)) || (isStringType(a) && isStringType(b));
}

std::vector<uint32_t> foreignKeyColumns(const TableInfo& table, const std::vector<std::string>& names) {
  std::vector<uint32_t> out;
  for (const std::string& n : names) {
    int i = table.columnIndex(n);
    if (i < 0)
      throw SqlError(sqlstate::kUndefinedColumn,
                     fmt::format("column \"{}\" referenced in foreign key constraint does not exist", n));
    out.push_back(static_cast<uint32_t>(i));
  }
  return out;
}

}  // namespace

bool Catalog::hasConstraint(const TableInfo& table, const std::string& name) const {
  for (const IndexInfo* i : table.indexes)
    if (i->constraint && i->name == name) return true;
  for (const CheckConstraint& c : table.checks)
    if (c.name == name) return true;
  for (const auto& fk : table.foreignKeys)
    if (fk->name == name) return true;
  return false;
}

CheckConstraint& Catalog::addCheck(TableInfo& table, CheckConstraint check, UndoLog& undo) {
  if (check.name.empty()) {
    // t_a_check for a condition over one column, else t_check (AddRelationNewConstraints).
    std::vector<std::string> columns;
    if (check.columns.size() == 1) columns.push_back(table.columns[check.columns[0]].name);
    check.name = chooseName(*table.schema, table.name, columns, "check", true);
  } else if (hasConstraint(table, check.name)) {
    duplicateConstraint(check.name, table.name);
  }
  check.oid = nextOid();
  table.checks.push_back(std::move(check));
  undo.recordAction([&table] { table.checks.pop_back(); });
  return table.checks.back();
}

ForeignKey& Catalog::addForeignKey(TableInfo& table, const ForeignKeySpec& spec, TableInfo& referenced,
                                   std::vector<uint8_t> defaults, UndoLog& undo) {
  std::vector<uint32_t> columns = foreignKeyColumns(table, spec.columns);
  std::vector<uint32_t> refColumns;
  const IndexInfo* key = nullptr;
  if (spec.refColumns.empty()) {
    key = referenced.primaryKey;
    if (!key)
      throw SqlError(sqlstate::kUndefinedObject,
                     fmt::format("there is no primary key for referenced table \"{}\"", referenced.name));
    refColumns = key->columns;
  } else {
    refColumns = foreignKeyColumns(referenced, spec.refColumns);
  }
  if (refColumns.size() != columns.size())
    throw SqlError(sqlstate::kInvalidForeignKey,
                   "number of referencing and referenced columns for foreign key disagree");
  if (!key) {
    std::vector<uint32_t> sorted = refColumns;
    std::sort(sorted.begin(), sorted.end());
    for (const IndexInfo* i : referenced.indexes) {
      std::vector<uint32_t> indexed = i->columns;
      std::sort(indexed.begin(), indexed.end());
      if (i->unique && i->constraint && indexed == sorted) key = i;
    }
    if (!key)
      throw SqlError(sqlstate::kInvalidForeignKey,
                     fmt::format("there is no unique constraint matching given keys for referenced table \"{}\"",
                                 referenced.name));
  }
  std::string name = spec.name;
  if (name.empty()) {
    name = chooseName(*table.schema, table.name, spec.columns, "fkey", true);
  } else if (hasConstraint(table, name)) {
    duplicateConstraint(name, table.name);
  }
  for (size_t i = 0; i < columns.size(); ++i) {
    TypeId a = table.columns[columns[i]].type.id, b = referenced.columns[refColumns[i]].type.id;
    if (sameRepresentation(a, b)) continue;
    if (comparable(a, b))
      throw SqlError(sqlstate::kFeatureNotSupported,
                     fmt::format("foreign key constraint \"{}\" between columns of types {} and {} is not supported",
                                 name, typeName({a, -1}), typeName({b, -1})));
    throw SqlError(sqlstate::kDatatypeMismatch,
                   fmt::format("foreign key constraint \"{}\" cannot be implemented", name),
                   fmt::format("Key columns \"{}\" and \"{}\" are of incompatible types: {} and {}.",
                               table.columns[columns[i]].name, referenced.columns[refColumns[i]].name,
                               typeName({a, -1}), typeName({b, -1})));
  }
  auto fk = std::make_shared<ForeignKey>();
  fk->oid = nextOid();
  fk->name = name;
  fk->child = table.table.get();
  fk->columns = std::move(columns);
  fk->parent = referenced.table.get();
  fk->refColumns = std::move(refColumns);
  fk->parentIndex = key->index;
  fk->onUpdate = spec.onUpdate;
  fk->onDelete = spec.onDelete;
  fk->match = spec.match;
  fk->validated = !spec.notValid;
  fk->deferrable = spec.deferrable;
  fk->initiallyDeferred = spec.initiallyDeferred;
  fk->defaults = std::move(defaults);
  Table::attachForeignKey(*fk);
  table.foreignKeys.push_back(fk);
  undo.recordAction([&table, fk] {
    Table::detachForeignKey(*fk);
    table.foreignKeys.pop_back();
  });
  return *fk;
}

void Catalog::dropForeignKey(ForeignKey& fk, UndoLog& undo) {
  for (const auto& [dbName, db] : databases_) {
    TableInfo* table = tableOf(*db, fk.child);
    if (!table) continue;
    auto it = std::find_if(table->foreignKeys.begin(), table->foreignKeys.end(),
                           [&](const auto& f) { return f.get() == &fk; });
    if (it == table->foreignKeys.end()) continue;
    std::shared_ptr<ForeignKey> kept = *it;
    size_t pos = static_cast<size_t>(it - table->foreignKeys.begin());
    Table::detachForeignKey(fk);
    table->foreignKeys.erase(it);
    undo.recordAction([table, kept, pos] {
      Table::attachForeignKey(*kept);
      table->foreignKeys.insert(table->foreignKeys.begin() + static_cast<std::ptrdiff_t>(pos), kept);
    });
    return;
  }
}

bool Catalog::dropCheckOrForeignKey(TableInfo& table, const std::string& name, UndoLog& undo) {
  for (size_t i = 0; i < table.checks.size(); ++i) {
    if (table.checks[i].name != name) continue;
    CheckConstraint kept = table.checks[i];
    table.checks.erase(table.checks.begin() + static_cast<std::ptrdiff_t>(i));
    undo.recordAction(
        [&table, kept, i] { table.checks.insert(table.checks.begin() + static_cast<std::ptrdiff_t>(i), kept); });
    return true;
  }
  for (const auto& fk : table.foreignKeys) {
    if (fk->name != name) continue;
    dropForeignKey(*fk, undo);
    return true;
  }
  return false;
}

TableInfo* Catalog::tableOf(const Database& db, const Table* table) const {
  for (const auto& [schemaName, schema] : db.schemas)
    for (const auto& [name, info] : schema->tables)
      if (info->table.get() == table) return info.get();
  return nullptr;
}

}  // namespace duet
