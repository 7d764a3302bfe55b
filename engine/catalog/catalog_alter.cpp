// ALTER TABLE and ALTER INDEX on the catalog (see catalog.h): renames, defaults, NOT NULL,
// dropping constraints, and rebuilding a table with new columns. Every change records how
// to undo itself, so a failed statement or a ROLLBACK leaves the table as it was.
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <utility>

#include "engine/catalog/catalog.h"
#include "engine/error.h"

namespace duet {

void Catalog::checkNoNulls(const TableInfo& table, const Table& rows, const std::vector<uint32_t>& columns) const {
  if (columns.empty()) return;
  std::vector<uint8_t> row(rows.layout().size);
  for (uint32_t ci = 0; ci < rows.directory().count; ++ci) {
    const Chunk* c = rows.directory().chunks[ci];
    for (uint32_t s = 0; s < c->used; ++s) {
      if (!c->live[s]) continue;
      rows.read((RowId{ci} << kChunkShift) | s, row.data());
      for (uint32_t col : columns) {
        if (!row[col]) continue;
        SqlError error(sqlstate::kNotNullViolation, fmt::format("column \"{}\" of relation \"{}\" contains null values",
                                                                table.columns[col].name, table.name));
        error.schemaName = table.schema->name;
        error.tableName = table.name;
        error.columnName = table.columns[col].name;
        throw error;
      }
    }
  }
}

// ---- renames --------------------------------------------------------------------------------

void Catalog::renameTable(TableInfo& table, const std::string& newName, UndoLog& undo) {
  Schema& schema = *table.schema;
  checkNewRelationName(schema, newName);
  std::string oldName = table.name;
  auto rename = [&schema, &table](const std::string& from, const std::string& to) {
    auto node = schema.tables.extract(from);
    node.key() = to;
    schema.tables.insert(std::move(node));
    table.name = to;
    table.table->setName(to);
  };
  rename(oldName, newName);
  undo.recordAction([rename, oldName, newName] { rename(newName, oldName); });
}

void Catalog::renameView(ViewInfo& view, const std::string& newName, UndoLog& undo) {
  Schema& schema = *view.schema;
  checkNewRelationName(schema, newName);
  std::string oldName = view.name;
  auto rename = [&schema, &view](const std::string& from, const std::string& to) {
    auto node = schema.views.extract(from);
    node.key() = to;
    schema.views.insert(std::move(node));
    view.name = to;
  };
  rename(oldName, newName);
  undo.recordAction([rename, oldName, newName] { rename(newName, oldName); });
}

void Catalog::renameIndex(IndexInfo& index, const std::string& newName, UndoLog& undo) {
  Schema& schema = *index.table->schema;
  checkNewRelationName(schema, newName);
  std::string oldName = index.name;
  auto rename = [&schema, &index](const std::string& from, const std::string& to) {
    auto node = schema.indexes.extract(from);
    node.key() = to;
    schema.indexes.insert(std::move(node));
    index.name = to;
    index.index->setName(to);
  };
  rename(oldName, newName);
  undo.recordAction([rename, oldName, newName] { rename(newName, oldName); });
}

void Catalog::renameColumn(TableInfo& table, const std::string& from, const std::string& to, UndoLog& undo) {
  int column = table.columnIndex(from);
  if (column < 0) throw SqlError(sqlstate::kUndefinedColumn, fmt::format("column \"{}\" does not exist", from));
  if (table.columnIndex(to) >= 0)
    throw SqlError(sqlstate::kDuplicateColumn,
                   fmt::format("column \"{}\" of relation \"{}\" already exists", to, table.name));
  auto rename = [&table, c = static_cast<uint32_t>(column)](const std::string& name) {
    table.columns[c].name = name;
    table.table->renameColumn(c, name);
  };
  rename(to);
  undo.recordAction([rename, from] { rename(from); });
  // A sequence the column owns (SERIAL, identity) names it: it follows. (Owned sequences
  // live in their table's schema.)
  for (const auto& [name, sequence] : table.schema->sequences)
    if (sequence->ownerTable == table.oid && sequence->ownerColumn == from)
      setSequenceOwner(*sequence, table.oid, to, undo);
}

namespace {
IndexInfo* constraintIndex(const TableInfo& table, const std::string& name) {
  for (IndexInfo* i : table.indexes)
    if (i->constraint && i->name == name) return i;
  return nullptr;
}
}  // namespace

void Catalog::renameConstraint(TableInfo& table, const std::string& from, const std::string& to, UndoLog& undo) {
  IndexInfo* index = constraintIndex(table, from);
  if (!index)
    throw SqlError(sqlstate::kUndefinedObject,
                   fmt::format("constraint \"{}\" for table \"{}\" does not exist", from, table.name));
  renameIndex(*index, to, undo);
}

// ---- column properties ----------------------------------------------------------------------

void Catalog::setColumnDefault(TableInfo& table, uint32_t column, std::string defaultSql, UndoLog& undo) {
  std::string old = std::exchange(table.columns.at(column).defaultSql, std::move(defaultSql));
  undo.recordAction([&table, column, old] { table.columns[column].defaultSql = old; });
}

void Catalog::setColumnNotNull(TableInfo& table, uint32_t column, bool notNull, UndoLog& undo) {
  ColumnDef& def = table.columns.at(column);
  if (def.notNull == notNull) return;
  if (notNull) {
    checkNoNulls(table, *table.table, {column});
  } else if (table.primaryKey) {
    const std::vector<uint32_t>& key = table.primaryKey->columns;
    if (std::find(key.begin(), key.end(), column) != key.end())
      throw SqlError(sqlstate::kInvalidTableDefinition, fmt::format("column \"{}\" is in a primary key", def.name));
  }
  auto set = [&table, column](bool v) {
    table.columns[column].notNull = v;
    table.table->setNotNull({column}, v);
  };
  set(notNull);
  undo.recordAction([set, notNull] { set(!notNull); });
}

// ---- constraints ----------------------------------------------------------------------------

void Catalog::detachIndex(IndexInfo& index, UndoLog& undo) {
  TableInfo& table = *index.table;
  Schema& schema = *table.schema;
  std::shared_ptr<IndexInfo> kept = schema.indexes.at(index.name);
  auto pos = std::find(table.indexes.begin(), table.indexes.end(), &index) - table.indexes.begin();
  table.table->dropIndex(index.index, undo);
  table.indexes.erase(table.indexes.begin() + pos);
  schema.indexes.erase(index.name);
  bool primary = table.primaryKey == &index;
  if (primary) table.primaryKey = nullptr;
  undo.recordAction([&schema, &table, kept, pos, primary] {
    schema.indexes[kept->name] = kept;
    table.indexes.insert(table.indexes.begin() + pos, kept.get());
    if (primary) table.primaryKey = kept.get();
  });
}

bool Catalog::dropConstraint(TableInfo& table, const std::string& name, bool ifExists, UndoLog& undo) {
  if (dropCheckOrForeignKey(table, name, undo)) return true;
  if (IndexInfo* index = constraintIndex(table, name)) {
    // A foreign key that references the key needs its index (2BP01, as PostgreSQL's
    // dependency of the constraint on the index).
    for (const ForeignKey* fk : table.table->referencedBy())
      if (fk->parentIndex == index->index)
        throw SqlError(
            "2BP01",
            fmt::format("cannot drop constraint {} on table {} because other objects depend on it", name, table.name),
            fmt::format("constraint {} on table {} depends on index {}", fk->name, fk->child->name(), name),
            "Use DROP ... CASCADE to drop the dependent objects too.");
    // PostgreSQL keeps the NOT NULL a primary key gave its columns.
    detachIndex(*index, undo);
    return true;
  }
  if (ifExists) return false;
  throw SqlError(sqlstate::kUndefinedObject,
                 fmt::format("constraint \"{}\" of relation \"{}\" does not exist", name, table.name));
}

// ---- rebuilding -----------------------------------------------------------------------------

void Catalog::rewriteTable(TableInfo& table, std::vector<ColumnDef> columns, const std::vector<int>& sourceColumn,
                           const std::function<void(Table&, UndoLog&)>& fill, UndoLog& undo) {
  std::vector<ColumnSpec> specs;
  std::vector<uint32_t> notNull;
  for (uint32_t c = 0; c < columns.size(); ++c) {
    specs.push_back({columns[c].name, columns[c].type, false});
    if (columns[c].notNull) notNull.push_back(c);
  }
  auto fresh = std::make_unique<Table>(table.name, std::move(specs), table.storage);
  fresh->setSchemaName(table.schema->name);
  fresh->setAnalysisQueue(analysisQueue_.get());
  // Declared after `fresh`, so an error rolls its rows back before the table goes. The new
  // table is no one's until the swap: its own changes need no place in the transaction.
  UndoLog building;
  fill(*fresh, building);
  // Checked against the new columns (their names, the rows converted).
  std::swap(table.columns, columns);
  try {
    checkNoNulls(table, *fresh, notNull);
  } catch (...) {
    std::swap(table.columns, columns);
    throw;
  }
  std::swap(table.columns, columns);
  fresh->setNotNull(notNull, true);

  // Each index again on its columns' new places, or dropped with a column of its key.
  struct Rebuilt {
    IndexInfo* info;
    Index* index;
    std::vector<uint32_t> columns;
  };
  std::vector<Rebuilt> rebuilt;
  std::vector<IndexInfo*> dropped;
  for (IndexInfo* info : table.indexes) {
    std::vector<uint32_t> mapped;
    for (uint32_t old : info->columns) {
      auto at = std::find(sourceColumn.begin(), sourceColumn.end(), static_cast<int>(old));
      if (at == sourceColumn.end()) break;
      mapped.push_back(static_cast<uint32_t>(at - sourceColumn.begin()));
    }
    if (mapped.size() != info->columns.size()) {
      dropped.push_back(info);
      continue;
    }
    Index* index = fresh->createIndex(info->name, mapped, info->index->kind(), info->unique, building);
    rebuilt.push_back({info, index, std::move(mapped)});
  }
  building.commit();
  for (IndexInfo* info : dropped) detachIndex(*info, undo);

  // Each foreign key of the table, on either side, as it will point into the new one.
  auto newPlace = [&](uint32_t old) {
    auto at = std::find(sourceColumn.begin(), sourceColumn.end(), static_cast<int>(old));
    if (at == sourceColumn.end()) throw std::logic_error("a rewrite dropped a foreign key's column");
    return static_cast<uint32_t>(at - sourceColumn.begin());
  };
  auto newIndex = [&](const Index* old) {
    for (const Rebuilt& r : rebuilt)
      if (r.info->index == old) return static_cast<const Index*>(r.index);
    throw std::logic_error("a rewrite dropped a foreign key's unique index");
  };
  auto keys = std::make_shared<std::vector<ForeignKey>>();  // each one's fields to swap in
  std::vector<ForeignKey*> moved;
  Table* old = table.table.get();
  for (const std::vector<ForeignKey*>* side : {&old->references(), &old->referencedBy()}) {
    for (ForeignKey* fk : *side) {
      if (std::find(moved.begin(), moved.end(), fk) != moved.end()) continue;  // references itself
      ForeignKey next;
      next.child = fk->child;
      next.columns = fk->columns;
      next.parent = fk->parent;
      next.refColumns = fk->refColumns;
      next.parentIndex = fk->parentIndex;
      if (fk->child == old) {
        next.child = fresh.get();
        for (uint32_t& c : next.columns) c = newPlace(c);
      }
      if (fk->parent == old) {
        next.parent = fresh.get();
        for (uint32_t& c : next.refColumns) c = newPlace(c);
        next.parentIndex = newIndex(fk->parentIndex);
      }
      moved.push_back(fk);
      keys->push_back(std::move(next));
    }
  }

  // The swap, and its undoing: everything the table's description and indexes pointed at.
  struct Side {
    std::unique_ptr<Table> table;
    std::vector<ColumnDef> columns;
    std::vector<std::pair<Index*, std::vector<uint32_t>>> indexes;  // per rebuilt entry
  };
  auto other = std::make_shared<Side>();
  other->table = std::move(fresh);
  other->columns = std::move(columns);
  for (const Rebuilt& r : rebuilt) other->indexes.emplace_back(r.index, r.columns);
  std::vector<IndexInfo*> infos;
  for (const Rebuilt& r : rebuilt) infos.push_back(r.info);
  auto swap = [&table, other, infos, moved, keys] {
    std::swap(table.table, other->table);
    std::swap(table.columns, other->columns);
    for (size_t i = 0; i < infos.size(); ++i) {
      std::swap(infos[i]->index, other->indexes[i].first);
      std::swap(infos[i]->columns, other->indexes[i].second);
    }
    for (size_t i = 0; i < moved.size(); ++i) {
      ForeignKey& fk = *moved[i];
      ForeignKey& next = (*keys)[i];
      Table::detachForeignKey(fk);
      std::swap(fk.child, next.child);
      std::swap(fk.columns, next.columns);
      std::swap(fk.parent, next.parent);
      std::swap(fk.refColumns, next.refColumns);
      std::swap(fk.parentIndex, next.parentIndex);
      Table::attachForeignKey(fk);
    }
  };
  swap();
  undo.recordAction(swap);
}

}  // namespace duet
