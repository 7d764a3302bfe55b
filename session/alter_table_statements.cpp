// ALTER TABLE and ALTER INDEX (see alter_table_statements.h).
#include "session/alter_table_statements.h"

#include <fmt/format.h>

#include <algorithm>

#include <utility>

#include "engine/types/text_functions.h"
#include "session/column_definition.h"
#include "session/internal_query.h"

namespace duet {
namespace {

[[noreturn]] void unsupported(const std::string& what) {
  throw SqlError(sqlstate::kFeatureNotSupported, fmt::format("{} is not supported", what));
}

std::string qualified(const TableInfo& table) { return quoteIdent(table.schema->name) + "." + quoteIdent(table.name); }

}  // namespace

void AlterTableStatements::run(const sql::AlterTableStmt& s, std::string_view query, ResultSink& sink) {
  const char* tag = s.index ? "ALTER INDEX" : "ALTER TABLE";
  if (s.cmds.size() == 1 && s.cmds[0].action == sql::AlterTableAction::RenameRelation) {
    renameRelation(s, sink);
    sink.commandComplete(tag);
    return;
  }
  SchemaPath path = state_.relationPath(s.table);
  Catalog::Relation r = state_.engine.catalog.findRelation(*state_.db, path, s.table.name());
  if (!r.table && !r.view && s.ifExists) {
    state_.sendNotice(
        sink, Notice::make("NOTICE", "00000", fmt::format("relation \"{}\" does not exist, skipping", s.table.name())));
    sink.commandComplete(tag);
    return;
  }
  if (!r.table && !r.view && state_.engine.catalog.findSequence(*state_.db, path, s.table.name())) {
    // ALTER TABLE on a sequence: what a dump writes (OWNER TO), which changes nothing here.
    for (const sql::AlterTableCmd& cmd : s.cmds) {
      if (cmd.action != sql::AlterTableAction::Owner) unsupported("this ALTER TABLE command on a sequence");
      checkOwner(cmd);
    }
    sink.commandComplete(tag);
    return;
  }
  if (r.view && !r.table) {
    refuseOnView(s, r.view->name);  // all OWNER TO (a dump's), which changes nothing here
    for (const sql::AlterTableCmd& cmd : s.cmds) checkOwner(cmd);
    sink.commandComplete(tag);
    return;
  }
  TableInfo& table = state_.tableByName(s.table);
  if (table.systemView)
    throw SqlError("42501", fmt::format("permission denied: \"{}\" is a system catalog", table.name));
  constraints_.refusePendingChecks(table, "ALTER TABLE");
  for (const sql::AlterTableCmd& cmd : s.cmds) runCommand(table, cmd, query, sink);
  sink.commandComplete(tag);
}

// ALTER TABLE on a view: PostgreSQL's 42809 for what it refuses there; what it takes but
// OWNER TO, DuetDB does not do to a view yet (0A000).
void AlterTableStatements::refuseOnView(const sql::AlterTableStmt& s, const std::string& view) {
  for (const sql::AlterTableCmd& cmd : s.cmds) {
    const char* action = nullptr;
    switch (cmd.action) {
      case sql::AlterTableAction::Owner: continue;
      case sql::AlterTableAction::AddColumn: action = "ADD COLUMN"; break;
      case sql::AlterTableAction::DropColumn: action = "DROP COLUMN"; break;
      case sql::AlterTableAction::AlterColumnType: action = "ALTER COLUMN ... SET DATA TYPE"; break;
      case sql::AlterTableAction::SetNotNull: action = "ALTER COLUMN ... SET NOT NULL"; break;
      case sql::AlterTableAction::DropNotNull: action = "ALTER COLUMN ... DROP NOT NULL"; break;
      case sql::AlterTableAction::AddConstraint: action = "ADD CONSTRAINT"; break;
      case sql::AlterTableAction::DropConstraint: action = "DROP CONSTRAINT"; break;
      default: unsupported("this ALTER TABLE command on a view");
    }
    throw SqlError(sqlstate::kWrongObjectType,
                   fmt::format("ALTER action {} cannot be performed on relation \"{}\"", action, view),
                   "This operation is not supported for views.");
  }
}

// ALTER TABLE | INDEX [IF EXISTS] name RENAME TO new: any relation, as in PostgreSQL.
void AlterTableStatements::renameRelation(const sql::AlterTableStmt& s, ResultSink& sink) {
  Catalog& catalog = state_.engine.catalog;
  const sql::AlterTableCmd& cmd = s.cmds[0];
  UndoLog& undo = state_.txn.undo();
  SchemaPath schema = state_.relationPath(s.table);
  Catalog::Relation r = catalog.findRelation(*state_.db, schema, s.table.name());
  IndexInfo* index = r.table || r.view ? nullptr : catalog.findIndex(*state_.db, schema, s.table.name());
  if (!r.table && !r.view && !index) {
    if (s.ifExists) {
      state_.sendNotice(sink, Notice::make("NOTICE", "00000",
                                           fmt::format("relation \"{}\" does not exist, skipping", s.table.name())));
      return;
    }
    throw SqlError(sqlstate::kUndefinedTable, fmt::format("relation \"{}\" does not exist", s.table.name()));
  }
  if (r.table && r.table->systemView)
    throw SqlError("42501", fmt::format("permission denied: \"{}\" is a system catalog", r.table->name));
  // A view is kept as its query's text, which names the relations it reads.
  uint32_t oid = r.table ? r.table->oid : r.view ? r.view->oid : 0;
  if (oid && !catalog.dependentViews(*state_.db, oid).empty())
    unsupported(fmt::format("renaming \"{}\", which a view reads,", s.table.name()));
  if (r.table)
    catalog.renameTable(*r.table, cmd.newName, undo);
  else if (r.view)
    catalog.renameView(*r.view, cmd.newName, undo);
  else
    catalog.renameIndex(*index, cmd.newName, undo);
  transaction_.ddlDone();
}

// DuetDB keeps no owners (what a dump says is accepted): the role must exist.
void AlterTableStatements::checkOwner(const sql::AlterTableCmd& cmd) const {
  if (!state_.engine.catalog.role(cmd.owner))
    throw SqlError(sqlstate::kUndefinedObject, fmt::format("role \"{}\" does not exist", cmd.owner));
}

uint32_t AlterTableStatements::column(const TableInfo& table, const std::string& name) const {
  int c = table.columnIndex(name);
  if (c < 0)
    throw SqlError(sqlstate::kUndefinedColumn,
                   fmt::format("column \"{}\" of relation \"{}\" does not exist", name, table.name));
  return static_cast<uint32_t>(c);
}

void AlterTableStatements::runCommand(TableInfo& table, const sql::AlterTableCmd& cmd, std::string_view query,
                                      ResultSink& sink) {
  Catalog& catalog = state_.engine.catalog;
  UndoLog& undo = state_.txn.undo();
  switch (cmd.action) {
    case sql::AlterTableAction::Owner: checkOwner(cmd); return;
    case sql::AlterTableAction::AddConstraint: {
      const sql::Constraint& c = cmd.constraint;
      if (c.kind == sql::ConstraintKind::Check || c.kind == sql::ConstraintKind::ForeignKey) {
        constraints_.add(table, c, query, true);
        break;
      }
      if (c.kind != sql::ConstraintKind::PrimaryKey && c.kind != sql::ConstraintKind::Unique)
        unsupported("ALTER TABLE with this constraint");
      catalog.addKey(table, keySpec(c, c.columns), undo);
      break;
    }
    case sql::AlterTableAction::AddColumn: addColumn(table, cmd, query, sink); break;
    case sql::AlterTableAction::DropColumn: dropColumn(table, cmd, sink); break;
    case sql::AlterTableAction::AlterColumnType: alterColumnType(table, cmd, query); break;
    case sql::AlterTableAction::AddIdentity: addIdentity(table, cmd); break;
    case sql::AlterTableAction::SetDefault:
      checkNotIdentity(table, column(table, cmd.name), true);
      if (cmd.expr) checkColumnDefault(*cmd.expr, query);
      catalog.setColumnDefault(table, column(table, cmd.name),
                               std::string(query.substr(cmd.exprBegin, cmd.exprEnd - cmd.exprBegin)), undo);
      break;
    case sql::AlterTableAction::DropDefault:
      checkNotIdentity(table, column(table, cmd.name), false);
      catalog.setColumnDefault(table, column(table, cmd.name), {}, undo);
      break;
    case sql::AlterTableAction::SetNotNull:
    case sql::AlterTableAction::DropNotNull:
      catalog.setColumnNotNull(table, column(table, cmd.name), cmd.action == sql::AlterTableAction::SetNotNull, undo);
      break;
    case sql::AlterTableAction::DropConstraint: constraints_.drop(table, cmd.name, cmd.ifExists, sink); return;
    case sql::AlterTableAction::RenameColumn: renameColumn(table, cmd); break;
    case sql::AlterTableAction::RenameConstraint: catalog.renameConstraint(table, cmd.name, cmd.newName, undo); break;
    case sql::AlterTableAction::RenameRelation: break;  // run()
  }
  transaction_.ddlDone();
}

void AlterTableStatements::renameColumn(TableInfo& table, const sql::AlterTableCmd& cmd) {
  int c = table.columnIndex(cmd.name);
  if (c >= 0 && !views_.viewsReadingColumn(table, static_cast<uint32_t>(c)).empty())
    unsupported(fmt::format("renaming column \"{}\", which a view reads,", cmd.name));
  if (c >= 0 && checkReads(table, static_cast<uint32_t>(c)))
    unsupported(fmt::format("renaming column \"{}\", which a CHECK constraint reads,", cmd.name));
  state_.engine.catalog.renameColumn(table, cmd.name, cmd.newName, state_.txn.undo());
}

void AlterTableStatements::addColumn(TableInfo& table, const sql::AlterTableCmd& cmd, std::string_view query,
                                     ResultSink& sink) {
  const std::string& name = cmd.column.name;
  if (table.columnIndex(name) >= 0) {
    std::string message = fmt::format("column \"{}\" of relation \"{}\" already exists", name, table.name);
    if (!cmd.ifNotExists) throw SqlError(sqlstate::kDuplicateColumn, message);
    state_.sendNotice(sink, Notice::make("NOTICE", sqlstate::kDuplicateColumn, message + ", skipping"));
    return;
  }
  std::vector<KeySpec> keys;
  const sql::Constraint* identity = nullptr;
  refuseCompositeColumn(cmd.column.type, state_.typeResolver(), query);
  ColumnDef added = columnDefinition(cmd.column, query, keys, table.name, &identity);
  // Before the rows are converted, as PostgreSQL checks it.
  for (const KeySpec& key : keys)
    if (key.kind == KeyKind::PrimaryKey && table.primaryKey)
      throw SqlError(sqlstate::kInvalidTableDefinition,
                     fmt::format("multiple primary keys for table \"{}\" are not allowed", table.name));
  // SERIAL and identity: the column's sequence, whose nextval default numbers the rows
  // there are, one by one in scan order, as PostgreSQL's rewrite does.
  std::vector<SequenceInfo*> sequences;
  if (needsSequence(cmd.column)) {
    std::vector<ColumnDef> one{std::move(added)};
    sequences = sequences_.createColumnSequences(table.schema->name, table.name, one, {{0, identity}});
    added = std::move(one[0]);
  }
  std::vector<ColumnDef> columns = table.columns;
  std::vector<int> source;
  std::vector<std::string> values;
  for (uint32_t c = 0; c < columns.size(); ++c) {
    source.push_back(static_cast<int>(c));
    values.push_back(quoteIdent(columns[c].name));
  }
  // Existing rows get the default, evaluated for each row (once, in effect, unless volatile).
  values.push_back(added.defaultSql.empty() ? "NULL" : "(" + added.defaultSql + ")");
  source.push_back(-1);
  columns.push_back(std::move(added));
  rewrite(table, std::move(columns), source, values);
  sequences_.own(sequences, table);
  for (const KeySpec& key : keys) state_.engine.catalog.addKey(table, key, state_.txn.undo());
  // CHECK and REFERENCES, as ADD CONSTRAINT adds them: the rows there are are checked.
  for (const auto& c : cmd.column.constraints)
    if (c.kind == sql::ConstraintKind::Check || c.kind == sql::ConstraintKind::ForeignKey)
      constraints_.add(table, c, query, true, name);
}

void AlterTableStatements::dropColumn(TableInfo& table, const sql::AlterTableCmd& cmd, ResultSink& sink) {
  if (table.columnIndex(cmd.name) < 0 && cmd.ifExists) {
    state_.sendNotice(sink, Notice::make("NOTICE", "00000",
                                         fmt::format("column \"{}\" of relation \"{}\" does not exist, skipping",
                                                     cmd.name, table.name)));
    return;
  }
  uint32_t dropped = column(table, cmd.name);
  // PostgreSQL keeps the rows of a table without columns; DuetDB's rows need one.
  if (table.columns.size() == 1) unsupported("dropping the last column of a table");
  views_.dropColumnDependents(table, dropped, cmd.behavior, sink);
  // A foreign key on the column goes with it, as in PostgreSQL.
  std::vector<ForeignKey*> onColumn;
  for (ForeignKey* fk : table.table->references())
    if (fk->child == table.table.get() &&
        std::find(fk->columns.begin(), fk->columns.end(), dropped) != fk->columns.end())
      onColumn.push_back(fk);
  for (ForeignKey* fk : onColumn) state_.engine.catalog.dropForeignKey(*fk, state_.txn.undo());
  std::vector<ColumnDef> columns;
  std::vector<int> source;
  std::vector<std::string> values;
  for (uint32_t c = 0; c < table.columns.size(); ++c) {
    if (c == dropped) continue;
    columns.push_back(table.columns[c]);
    source.push_back(static_cast<int>(c));
    values.push_back(quoteIdent(table.columns[c].name));
  }
  rewrite(table, std::move(columns), source, values);
  // The sequence a SERIAL or identity column owned goes with it.
  for (SequenceInfo* owned : state_.engine.catalog.ownedSequences(*state_.db, table.oid, cmd.name))
    state_.engine.catalog.dropSequence(*owned, state_.txn.undo());
}

void AlterTableStatements::addIdentity(TableInfo& table, const sql::AlterTableCmd& cmd) {
  uint32_t c = column(table, cmd.name);
  const ColumnDef& current = table.columns[c];
  auto refuse = [&](const char* what) {
    throw SqlError(sqlstate::kObjectNotInPrerequisiteState,
                   fmt::format("column \"{}\" of relation \"{}\" {}", cmd.name, table.name, what));
  };
  if (current.identity) refuse("is already an identity column");
  if (!current.defaultSql.empty()) refuse("already has a default value");
  if (!current.notNull) refuse("must be declared NOT NULL before identity can be added");
  std::vector<ColumnDef> columns{current};
  std::vector<SequenceInfo*> sequence =
      sequences_.createColumnSequences(table.schema->name, table.name, columns, {{0, &cmd.constraint}});
  UndoLog& undo = state_.txn.undo();
  state_.engine.catalog.setColumnIdentity(table, c, columns[0].identity, undo);
  state_.engine.catalog.setColumnDefault(table, c, columns[0].defaultSql, undo);
  sequences_.own(sequence, table);
}

// SET / DROP DEFAULT of an identity column: PostgreSQL's 42601 (its default is its identity).
void AlterTableStatements::checkNotIdentity(const TableInfo& table, uint32_t column, bool setting) const {
  if (!table.columns[column].identity) return;
  throw SqlError(
      sqlstate::kSyntaxError,
      fmt::format("column \"{}\" of relation \"{}\" is an identity column", table.columns[column].name, table.name), {},
      setting ? "" : "Use ALTER TABLE ... ALTER COLUMN ... DROP IDENTITY instead.");
}

void AlterTableStatements::alterColumnType(TableInfo& table, const sql::AlterTableCmd& cmd, std::string_view query) {
  uint32_t changed = column(table, cmd.name);
  refuseCompositeColumn(cmd.type, state_.typeResolver(), query);
  if (!cmd.type.resolved)
    throw SqlError(sqlstate::kUndefinedObject, fmt::format("type \"{}\" does not exist", cmd.type.name()), {}, {},
                   sql::sqlPosition(query, cmd.type.location));
  if (std::vector<ViewInfo*> readers = views_.viewsReadingColumn(table, changed); !readers.empty())
    throw SqlError(sqlstate::kFeatureNotSupported, "cannot alter type of a column used by a view or rule",
                   fmt::format("rule _RETURN on view {} depends on column \"{}\"", readers[0]->name, cmd.name));
  SqlType type = cmd.type.sqlType();
  std::vector<ColumnDef> columns = table.columns;
  std::vector<int> source;
  std::vector<std::string> values;
  for (uint32_t c = 0; c < columns.size(); ++c) {
    source.push_back(static_cast<int>(c));
    values.push_back(c == changed && cmd.expr
                         ? "(" + std::string(query.substr(cmd.exprBegin, cmd.exprEnd - cmd.exprBegin)) + ")"
                         : quoteIdent(columns[c].name));
  }
  columns[changed].type = type;
  try {
    rewrite(table, std::move(columns), source, values);
  } catch (SqlError& e) {
    // The INSERT's "column is of type ... but expression is of type ...", as ALTER says it.
    if (e.code != sqlstate::kDatatypeMismatch) throw;
    std::string typeText = typeName(type);
    if (cmd.expr)
      throw SqlError(sqlstate::kDatatypeMismatch,
                     fmt::format("result of USING clause for column \"{}\" cannot be cast automatically to type {}",
                                 cmd.name, typeText),
                     {}, "You might need to add an explicit cast.");
    throw SqlError(sqlstate::kDatatypeMismatch,
                   fmt::format("column \"{}\" cannot be cast automatically to type {}", cmd.name, typeText), {},
                   fmt::format("You might need to specify \"USING {}::{}\".", quoteIdent(cmd.name), typeText));
  }
}

bool AlterTableStatements::checkReads(const TableInfo& table, uint32_t column) {
  for (const CheckConstraint& c : table.checks)
    if (std::find(c.columns.begin(), c.columns.end(), column) != c.columns.end()) return true;
  return false;
}

void AlterTableStatements::rewrite(TableInfo& table, std::vector<ColumnDef> columns,
                                   const std::vector<int>& sourceColumn, const std::vector<std::string>& values) {
  // Foreign keys move to the rebuilt table with their columns (Catalog::rewriteTable) when
  // those stay as they are; a CHECK is tied to its columns' places. What a rebuild would
  // change under them is not carried over yet (0A000 rather than a constraint left wrong).
  auto carried = [&](uint32_t old) {
    auto at = std::find(sourceColumn.begin(), sourceColumn.end(), static_cast<int>(old));
    return at != sourceColumn.end() && columns[at - sourceColumn.begin()].type == table.columns[old].type;
  };
  for (const ForeignKey* fk : table.table->references()) {
    for (uint32_t c : fk->columns)
      if (!carried(c))
        unsupported(
            fmt::format("changing column \"{}\" of FOREIGN KEY constraint \"{}\"", table.columns[c].name, fk->name));
    if (fk->onUpdate == fk_action::kSetDefault || fk->onDelete == fk_action::kSetDefault)
      unsupported(fmt::format("changing the columns of a table with ON ... SET DEFAULT constraint \"{}\"", fk->name));
  }
  for (const ForeignKey* fk : table.table->referencedBy())
    for (uint32_t c : fk->refColumns)
      if (!carried(c))
        unsupported(fmt::format("changing column \"{}\", which FOREIGN KEY constraint \"{}\" references,",
                                table.columns[c].name, fk->name));
  for (size_t c = 0; c < sourceColumn.size(); ++c)
    if (sourceColumn[c] != static_cast<int>(c) && sourceColumn[c] >= 0 && !table.checks.empty())
      unsupported("moving the columns of a table with CHECK constraints");
  for (uint32_t c = 0; c < table.columns.size(); ++c)
    if (checkReads(table, c) &&
        (c >= columns.size() || !(columns[c].type == table.columns[c].type) ||
         std::find(sourceColumn.begin(), sourceColumn.end(), static_cast<int>(c)) == sourceColumn.end()))
      unsupported(fmt::format("changing column \"{}\", which a CHECK constraint reads,", table.columns[c].name));
  std::string select;
  for (const std::string& v : values) select += (select.empty() ? "" : ", ") + v;
  // The rows as they are: identity columns GENERATED ALWAYS keep their values too.
  std::string sql = fmt::format("INSERT INTO {} OVERRIDING SYSTEM VALUE SELECT {} FROM {}", InternalQuery::kTarget,
                                select, qualified(table));
  state_.engine.catalog.rewriteTable(
      table, std::move(columns), sourceColumn,
      [&](Table& fresh, UndoLog& building) { InternalQuery(state_, planner_, sql, &fresh).run(&building); },
      state_.txn.undo());
}

}  // namespace duet
