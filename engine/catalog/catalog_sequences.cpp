// Sequences in the catalog: CREATE, ALTER (parameters, OWNED BY, RENAME) and DROP, each
// undoable like other DDL. A sequence shares its schema's relation namespace.
#include <fmt/format.h>

#include <utility>

#include "engine/catalog/catalog.h"
#include "engine/error.h"

namespace duet {

SequenceInfo* Catalog::sequenceByOid(const Database& db, uint32_t oid) const {
  for (const auto& [schemaName, schema] : db.schemas)
    for (const auto& [name, sequence] : schema->sequences)
      if (sequence->oid == oid) return sequence.get();
  return nullptr;
}

SequenceInfo& Catalog::createSequence(Database& db, const std::string& schemaName, SequenceInfo spec,
                                      const SequenceOptions& options, UndoLog& undo) {
  Schema& schema = resolveSchema(db, schemaName);
  checkNewRelationName(schema, spec.name);
  auto info = std::make_shared<SequenceInfo>(std::move(spec));
  info->apply(options, true);
  info->oid = nextOid();
  info->schema = &schema;
  schema.sequences[info->name] = info;
  std::string name = info->name;
  undo.recordAction([&schema, name] { schema.sequences.erase(name); });
  return *info;
}

void Catalog::alterSequence(SequenceInfo& sequence, const SequenceOptions& options, UndoLog& undo) {
  SequenceInfo kept = sequence;
  sequence.apply(options, false);
  undo.recordAction([&sequence, kept] { sequence = kept; });
}

void Catalog::setSequenceOwner(SequenceInfo& sequence, uint32_t ownerTable, const std::string& ownerColumn,
                               UndoLog& undo) {
  uint32_t keptTable = sequence.ownerTable;
  std::string keptColumn = sequence.ownerColumn;
  sequence.ownerTable = ownerTable;
  sequence.ownerColumn = ownerColumn;
  undo.recordAction([&sequence, keptTable, keptColumn] {
    sequence.ownerTable = keptTable;
    sequence.ownerColumn = keptColumn;
  });
}

void Catalog::setColumnIdentity(TableInfo& table, uint32_t column, char identity, UndoLog& undo) {
  char kept = std::exchange(table.columns.at(column).identity, identity);
  undo.recordAction([&table, column, kept] { table.columns[column].identity = kept; });
}

void Catalog::renameSequence(SequenceInfo& sequence, const std::string& newName, UndoLog& undo) {
  Schema& schema = *sequence.schema;
  checkNewRelationName(schema, newName);
  std::shared_ptr<SequenceInfo> kept = schema.sequences.at(sequence.name);
  std::string oldName = sequence.name;
  schema.sequences.erase(oldName);
  sequence.name = newName;
  schema.sequences[newName] = kept;
  undo.recordAction([&schema, kept, oldName] {
    schema.sequences.erase(kept->name);
    kept->name = oldName;
    schema.sequences[oldName] = kept;
  });
}

void Catalog::dropSequence(SequenceInfo& sequence, UndoLog& undo) {
  Schema& schema = *sequence.schema;
  std::shared_ptr<SequenceInfo> kept = schema.sequences.at(sequence.name);
  schema.sequences.erase(sequence.name);
  undo.recordAction([&schema, kept] { schema.sequences[kept->name] = kept; });
}

std::vector<SequenceInfo*> Catalog::ownedSequences(const Database& db, uint32_t table,
                                                   const std::string& column) const {
  std::vector<SequenceInfo*> owned;
  for (const auto& [schemaName, schema] : db.schemas)
    for (const auto& [name, sequence] : schema->sequences)
      if (sequence->ownerTable == table && (column.empty() || sequence->ownerColumn == column))
        owned.push_back(sequence.get());
  return owned;
}

}  // namespace duet
