#include "session/temp_objects.h"

#include <string>
#include <vector>

namespace duet {

void TempObjects::dropTable(TableInfo& table) {
  Catalog& catalog = state_.engine.catalog;
  Database& db = *state_.db;
  UndoLog& undo = state_.txn.undo();
  std::vector<ViewInfo*> views = catalog.dependentViews(db, table.oid);
  for (auto v = views.rbegin(); v != views.rend(); ++v) catalog.dropView(**v, undo);
  // Only temporary tables reference a temporary one.
  for (const auto& [name, other] : table.schema->tables) {
    std::vector<ForeignKey*> referencing;
    for (const auto& fk : other->foreignKeys)
      if (fk->parent == table.table.get() && other.get() != &table) referencing.push_back(fk.get());
    for (ForeignKey* fk : referencing) catalog.dropForeignKey(*fk, undo);
  }
  catalog.dropTable(db, {table.schema->name}, table.name, false, undo);
}

bool TempObjects::dropAll() {
  Schema* schema = state_.tempSchema();
  if (!schema) return false;
  Catalog& catalog = state_.engine.catalog;
  UndoLog& undo = state_.txn.undo();
  while (!schema->tables.empty()) dropTable(*schema->tables.begin()->second);
  // Views of permanent tables only, each after the views that read it.
  while (!schema->views.empty()) {
    ViewInfo& first = *schema->views.begin()->second;
    std::vector<ViewInfo*> views = catalog.dependentViews(*state_.db, first.oid);
    for (auto v = views.rbegin(); v != views.rend(); ++v) catalog.dropView(**v, undo);
    catalog.dropView(first, undo);
  }
  while (!schema->sequences.empty()) catalog.dropSequence(*schema->sequences.begin()->second, undo);
  catalog.dropSchema(*state_.db, schema->name, undo);
  return true;
}

bool TempObjects::atCommit() {
  Schema* schema = state_.tempSchema();
  if (!schema) return false;
  std::vector<TableInfo*> dropped;
  for (const auto& [name, table] : schema->tables) {
    if (table->onCommit == OnCommit::Drop) dropped.push_back(table.get());
    if (table->onCommit == OnCommit::DeleteRows && table->table->liveRowCount() > 0)
      state_.engine.catalog.truncate(*table, state_.txn.undo());
  }
  for (TableInfo* table : dropped) dropTable(*table);
  return !dropped.empty();
}

}  // namespace duet
