// CREATE / ALTER / DROP SEQUENCE and the sequences of SERIAL and identity columns.
#include "session/sequence_statements.h"

#include <fmt/format.h>

#include "engine/types/text_functions.h"

namespace duet {
namespace {

constexpr const char* kDependentObjectsStillExist = "2BP01";

using Kind = sql::SequenceOption::Kind;

// PostgreSQL's message for a relation of the wrong kind, with its hint.
[[noreturn]] void notASequence(const std::string& name, const char* hint) {
  throw SqlError(sqlstate::kWrongObjectType, fmt::format("\"{}\" is not a sequence", name), {}, hint);
}

}  // namespace

SequenceOptions SequenceStatements::options(const std::vector<sql::SequenceOption>& list) const {
  SequenceOptions o;
  for (const sql::SequenceOption& option : list) {
    switch (option.kind) {
      case Kind::As:
        if (!option.type.resolved)
          throw SqlError(sqlstate::kUndefinedObject, fmt::format("type \"{}\" does not exist", option.type.name()), {},
                         {}, static_cast<int>(option.type.location) + 1);
        o.type = option.type.serial == sql::SerialKind::None ? option.type.sqlType().id : TypeId::Unknown;
        break;
      case Kind::Increment: o.increment = option.value; break;
      case Kind::MinValue: o.minValue = option.value; break;
      case Kind::NoMinValue: o.noMinValue = true; break;
      case Kind::MaxValue: o.maxValue = option.value; break;
      case Kind::NoMaxValue: o.noMaxValue = true; break;
      case Kind::Start: o.start = option.value; break;
      case Kind::Restart:
        o.restart = true;
        if (option.hasValue) o.restartWith = option.value;
        break;
      case Kind::Cache: o.cache = option.value; break;
      case Kind::Cycle: o.cycle = true; break;
      case Kind::NoCycle: o.cycle = false; break;
      case Kind::OwnedBy:
      case Kind::SequenceName: break;
    }
  }
  return o;
}

void SequenceStatements::setOwner(SequenceInfo& sequence, const sql::SequenceOption& ownedBy) {
  Catalog& catalog = state_.engine.catalog;
  if (ownedBy.name.parts.empty()) {  // OWNED BY NONE
    catalog.setSequenceOwner(sequence, 0, {}, state_.txn.undo());
    return;
  }
  if (ownedBy.name.parts.size() < 2)
    throw SqlError(sqlstate::kSyntaxError, "invalid OWNED BY option", {},
                   "Specify OWNED BY table.column or OWNED BY NONE.");
  sql::QualifiedName tableName = ownedBy.name;
  std::string column = tableName.parts.back();
  tableName.parts.pop_back();
  TableInfo& table = state_.tableByName(tableName);
  if (table.schema != sequence.schema)
    throw SqlError(sqlstate::kObjectNotInPrerequisiteState, "sequence must be in same schema as table it is linked to");
  if (table.columnIndex(column) < 0)
    throw SqlError(sqlstate::kUndefinedColumn,
                   fmt::format("column \"{}\" of relation \"{}\" does not exist", column, table.name));
  catalog.setSequenceOwner(sequence, table.oid, column, state_.txn.undo());
}

void SequenceStatements::create(const sql::CreateSequenceStmt& s, ResultSink& sink) {
  Catalog& catalog = state_.engine.catalog;
  bool temporary = s.temporary;
  std::string schemaName = state_.creationSchema(s.name, temporary);
  if (s.ifNotExists) {
    Schema* schema = state_.db->schema(schemaName);
    if (schema && schema->hasRelation(s.name.name())) {
      state_.sendNotice(sink, Notice::make("NOTICE", "42P07",
                                           fmt::format("relation \"{}\" already exists, skipping", s.name.name())));
      return;
    }
  }
  SequenceInfo spec;
  spec.name = s.name.name();
  SequenceInfo& sequence = catalog.createSequence(*state_.db, schemaName, spec, options(s.options), state_.txn.undo());
  for (const sql::SequenceOption& o : s.options)
    if (o.kind == Kind::OwnedBy) setOwner(sequence, o);
  transaction_.ddlDone();
}

void SequenceStatements::alter(const sql::AlterSequenceStmt& s) {
  Catalog& catalog = state_.engine.catalog;
  SchemaPath path = state_.relationPath(s.name);
  SequenceInfo* sequence = catalog.findSequence(*state_.db, path, s.name.name());
  if (!sequence) {
    Catalog::Relation r = catalog.findRelation(*state_.db, path, s.name.name());
    if (r.table || r.view) notASequence(s.name.name(), "");
    if (s.ifExists) {
      state_.pendingNotices.push_back(
          Notice::make("NOTICE", "00000", fmt::format("relation \"{}\" does not exist, skipping", s.name.name())));
      return;
    }
    throw SqlError(sqlstate::kUndefinedTable, fmt::format("relation \"{}\" does not exist", s.name.name()), {}, {},
                   static_cast<int>(s.name.location) + 1);
  }
  if (!s.owner.empty()) {
    // DuetDB keeps no owners (what a dump says is accepted): the role must exist.
    if (!catalog.role(s.owner))
      throw SqlError(sqlstate::kUndefinedObject, fmt::format("role \"{}\" does not exist", s.owner));
    return;
  }
  if (!s.newName.empty()) {
    catalog.renameSequence(*sequence, s.newName, state_.txn.undo());
  } else {
    catalog.alterSequence(*sequence, options(s.options), state_.txn.undo());
    for (const sql::SequenceOption& o : s.options)
      if (o.kind == Kind::OwnedBy) setOwner(*sequence, o);
  }
  transaction_.ddlDone();
}

void SequenceStatements::drop(const sql::DropStmt& s, ResultSink& sink) {
  Catalog& catalog = state_.engine.catalog;
  for (const auto& name : s.names) {
    SchemaPath path = state_.relationPath(name);
    SequenceInfo* sequence = catalog.findSequence(*state_.db, path, name.name());
    if (!sequence) {
      Catalog::Relation r = catalog.findRelation(*state_.db, path, name.name());
      if (r.table) notASequence(name.name(), "Use DROP TABLE to remove a table.");
      if (r.view) notASequence(name.name(), "Use DROP VIEW to remove a view.");
      if (s.ifExists) {
        state_.sendNotice(sink, Notice::make("NOTICE", "00000",
                                             fmt::format("sequence \"{}\" does not exist, skipping", name.name())));
        continue;
      }
      throw SqlError(sqlstate::kUndefinedTable, fmt::format("sequence \"{}\" does not exist", name.name()), {}, {},
                     static_cast<int>(name.location) + 1);
    }
    // SERIAL's default reads its sequence: PostgreSQL's dependency of the default on it.
    // (An identity column's sequence is part of the column.)
    if (sequence->ownerTable != 0) {
      TableInfo* table = nullptr;
      for (const auto& [schemaName, schema] : state_.db->schemas)
        for (const auto& [tableName, t] : schema->tables)
          if (t->oid == sequence->ownerTable) table = t.get();
      int column = table ? table->columnIndex(sequence->ownerColumn) : -1;
      if (column >= 0 && sequence->identity)
        throw SqlError(kDependentObjectsStillExist,
                       fmt::format("cannot drop sequence {} because column {} of table {} requires it", sequence->name,
                                   sequence->ownerColumn, table->name),
                       {},
                       fmt::format("You can drop column {} of table {} instead.", sequence->ownerColumn, table->name));
      if (column >= 0 && !table->columns[column].defaultSql.empty()) {
        std::string dependent =
            fmt::format("default value for column {} of table {}", sequence->ownerColumn, table->name);
        if (s.behavior != sql::DropBehavior::Cascade)
          throw SqlError(kDependentObjectsStillExist,
                         fmt::format("cannot drop sequence {} because other objects depend on it", sequence->name),
                         fmt::format("{} depends on sequence {}", dependent, sequence->name),
                         "Use DROP ... CASCADE to drop the dependent objects too.");
        state_.sendNotice(sink, Notice::make("NOTICE", "00000", "drop cascades to " + dependent));
        catalog.setColumnDefault(*table, static_cast<uint32_t>(column), {}, state_.txn.undo());
      }
    }
    catalog.dropSequence(*sequence, state_.txn.undo());
    transaction_.ddlDone();
  }
}

std::vector<SequenceInfo*> SequenceStatements::createColumnSequences(const std::string& schemaName,
                                                                     const std::string& table,
                                                                     std::vector<ColumnDef>& columns,
                                                                     const std::vector<ColumnSequence>& sequences) {
  Catalog& catalog = state_.engine.catalog;
  std::vector<SequenceInfo*> created;
  for (const ColumnSequence& c : sequences) {
    ColumnDef& column = columns[c.column];
    SequenceOptions o;
    SequenceInfo info;
    info.identity = c.identity != nullptr;
    std::string sequenceSchema = schemaName;
    if (c.identity) {
      o = options(c.identity->sequenceOptions);
      for (const sql::SequenceOption& option : c.identity->sequenceOptions)
        if (option.kind == Kind::SequenceName) {
          info.name = option.name.name();
          sequenceSchema = state_.creationSchema(option.name);
        } else if (option.kind == Kind::OwnedBy) {
          throw SqlError(sqlstate::kSyntaxError, "invalid sequence option OWNED BY", {}, {},
                         static_cast<int>(option.location) + 1);
        }
      column.identity = c.identity->identityAlways ? 'a' : 'd';
    }
    // The column's type is the sequence's (an identity column's must be an integer).
    TypeId type = column.type.id;
    if (type != TypeId::Int2 && type != TypeId::Int4 && type != TypeId::Int8)
      throw SqlError(sqlstate::kInvalidParameterValue, "identity column type must be smallint, integer, or bigint");
    if (!o.type) o.type = type;
    if (info.name.empty()) {
      Schema* schema = state_.db->schema(sequenceSchema);
      if (!schema)
        throw SqlError(sqlstate::kInvalidSchemaName, fmt::format("schema \"{}\" does not exist", schemaName));
      info.name = catalog.chooseName(*schema, table, {column.name}, "seq");
    }
    info.ownerColumn = column.name;
    SequenceInfo& sequence = catalog.createSequence(*state_.db, sequenceSchema, info, o, state_.txn.undo());
    column.notNull = true;
    std::string name = *state_.catalogLookup.nameOf(TypeAlias::RegClass, sequence.oid);
    column.defaultSql = fmt::format("nextval({}::regclass)", quoteLiteral(name));
    created.push_back(&sequence);
  }
  return created;
}

void SequenceStatements::own(const std::vector<SequenceInfo*>& sequences, const TableInfo& table) {
  for (SequenceInfo* s : sequences)
    state_.engine.catalog.setSequenceOwner(*s, table.oid, s->ownerColumn, state_.txn.undo());
}

}  // namespace duet
