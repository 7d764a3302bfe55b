// CREATE TABLE, CREATE TABLE AS, SELECT INTO (see create_table_statements.h).
#include "session/create_table_statements.h"

#include <fmt/format.h>

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/types/record.h"
#include "engine/types/text_functions.h"
#include "session/column_definition.h"
#include "session/internal_query.h"

namespace duet {
namespace {

// PostgreSQL's integer reloption parsing (parse_int): strtol with base 0, a fractional
// value rounded to the nearest integer, surrounding blanks allowed.
std::optional<long> parseIntegerOption(const std::string& text) {
  const char* begin = text.c_str();
  char* end = nullptr;
  errno = 0;
  double value = static_cast<double>(std::strtol(begin, &end, 0));
  if (*end == '.' || *end == 'e' || *end == 'E' || errno == ERANGE) {
    errno = 0;
    value = std::rint(std::strtod(begin, &end));
    if (end == begin || errno == ERANGE) return std::nullopt;
  } else if (end == begin) {
    return std::nullopt;
  }
  while (std::isspace(static_cast<unsigned char>(*end))) ++end;
  if (*end != '\0' || value < INT32_MIN || value > INT32_MAX) return std::nullopt;
  return static_cast<long>(value);
}

// fillfactor does not change DuetDB's storage, but a value PostgreSQL would reject is
// rejected too (22023), so scripts fail here exactly where they fail on PostgreSQL.
void checkFillfactor(const sql::DefElem& o) {
  // A parameter written without a value means "true", which is not an integer.
  std::string text = o.valueKind == sql::DefElem::ValueKind::None ? "true" : o.value;
  auto value = parseIntegerOption(text);
  if (!value) {
    throw SqlError(sqlstate::kInvalidParameterValue,
                   fmt::format("invalid value for integer option \"fillfactor\": {}", text));
  }
  if (*value < 10 || *value > 100) {
    throw SqlError(sqlstate::kInvalidParameterValue,
                   fmt::format("value {} out of bounds for option \"fillfactor\"", text),
                   "Valid values are between \"10\" and \"100\".");
  }
}

}  // namespace

StorageKind CreateTableStatements::storageOf(const sql::CreateTableStmt& s) const {
  StorageKind storage = state_.settings.get("duet.default_storage") == "row" ? StorageKind::Row : StorageKind::Column;
  bool fillfactorSeen = false;
  for (const auto& o : s.options) {
    if (o.name == "fillfactor") {
      if (fillfactorSeen) {
        throw SqlError(sqlstate::kInvalidParameterValue, "parameter \"fillfactor\" specified more than once");
      }
      fillfactorSeen = true;
      checkFillfactor(o);
    }
    if (o.name != "storage") continue;  // other storage parameters are accepted and ignored
    if (o.value == "row") {
      storage = StorageKind::Row;
    } else if (o.value == "column") {
      storage = StorageKind::Column;
    } else {
      throw SqlError(sqlstate::kInvalidParameterValue,
                     fmt::format("invalid value for storage option \"storage\": \"{}\"", o.value), {},
                     "Valid values are \"row\" and \"column\".");
    }
  }
  return storage;
}

CreateTableSpec CreateTableStatements::tableSpec(const sql::CreateTableStmt& s, std::string& schema) {
  using sql::CreateTableStmt;
  if (!s.temporary && s.onCommit != CreateTableStmt::OnCommit::Unspecified)
    throw SqlError(sqlstate::kInvalidTableDefinition, "ON COMMIT can only be used on temporary tables");
  CreateTableSpec spec;
  spec.name = s.table.name();
  spec.storage = storageOf(s);
  bool temporary = s.temporary;
  schema = state_.creationSchema(s.table, temporary);
  if (temporary) {
    spec.onCommit = s.onCommit == CreateTableStmt::OnCommit::DeleteRows ? OnCommit::DeleteRows
                    : s.onCommit == CreateTableStmt::OnCommit::Drop     ? OnCommit::Drop
                                                                        : OnCommit::PreserveRows;
  }
  return spec;
}

void CreateTableStatements::run(const sql::CreateTableStmt& s, std::string_view query, ResultSink& sink) {
  if (s.query) {
    createAs(s, sink);
    return;
  }
  std::string schema;
  CreateTableSpec spec = tableSpec(s, schema);
  std::vector<std::vector<std::string>> indexes;                    // LIKE ... INCLUDING INDEXES's plain ones
  std::vector<SequenceStatements::ColumnSequence> columnSequences;  // SERIAL and identity columns
  size_t like = 0;
  for (size_t i = 0; i <= s.columns.size(); ++i) {
    for (; like < s.likes.size() && s.likes[like].position == i; ++like) addLikeColumns(s.likes[like], spec, indexes);
    if (i >= s.columns.size()) continue;
    const sql::Constraint* identity = nullptr;
    refuseCompositeColumn(s.columns[i].type, state_.typeResolver(), query);
    spec.columns.push_back(columnDefinition(s.columns[i], query, spec.keys, spec.name, &identity));
    if (needsSequence(s.columns[i])) columnSequences.push_back({spec.columns.size() - 1, identity});
  }
  // CHECK and FOREIGN KEY constraints are added once the table exists (a foreign key may
  // reference the table itself); a column's own carry its column.
  std::vector<std::pair<const sql::Constraint*, std::string>> later;
  for (const auto& col : s.columns)
    for (const auto& c : col.constraints)
      if (c.kind == sql::ConstraintKind::Check || c.kind == sql::ConstraintKind::ForeignKey)
        later.emplace_back(&c, col.name);
  for (const auto& c : s.constraints) {
    if (c.kind == sql::ConstraintKind::Check || c.kind == sql::ConstraintKind::ForeignKey)
      later.emplace_back(&c, std::string());
    else
      spec.keys.push_back(keySpec(c, c.columns));
  }
  if (!(s.ifNotExists && state_.engine.catalog.findTable(*state_.db, {schema}, spec.name))) {
    UndoLog& undo = state_.txn.undo();
    std::vector<SequenceInfo*> sequences =
        sequences_.createColumnSequences(schema, spec.name, spec.columns, columnSequences);
    TableInfo& table = state_.engine.catalog.createTable(*state_.db, schema, std::move(spec), undo);
    sequences_.own(sequences, table);
    for (const auto& columns : indexes) state_.engine.catalog.createIndex(table, {}, columns, false, undo);
    transaction_.ddlDone();
    for (const auto& [c, column] : later) constraints_.add(table, *c, query, false, column);
  }
  sink.commandComplete("CREATE TABLE");
}

void CreateTableStatements::addLikeColumns(const sql::TableLikeClause& like, CreateTableSpec& spec,
                                           std::vector<std::vector<std::string>>& indexes) {
  // A view gives its columns' names and types, and nothing else.
  Catalog::Relation r =
      state_.engine.catalog.findRelation(*state_.db, state_.relationPath(like.source), like.source.name());
  if (r.view && !r.table) {
    for (const ColumnDef& c : r.view->columns) spec.columns.push_back(ColumnDef{c.name, c.type, false, {}});
    return;
  }
  const TableInfo& source = state_.tableByName(like.source);
  for (const ColumnDef& c : source.columns) {
    ColumnDef copy = c;  // NOT NULL always comes along
    // An identity column's default is its own sequence's: LIKE copies the column without
    // it (INCLUDING IDENTITY is not supported).
    if (!(like.including & sql::TableLikeClause::Defaults) || copy.identity) copy.defaultSql.clear();
    copy.identity = 0;
    spec.columns.push_back(std::move(copy));
  }
  if (!(like.including & sql::TableLikeClause::Indexes)) return;
  // The new table's indexes get names of their own, as PostgreSQL chooses them.
  for (const IndexInfo* index : source.indexes) {
    std::vector<std::string> columns;
    for (uint32_t c : index->columns) columns.push_back(source.columns[c].name);
    if (index->constraint)
      spec.keys.push_back(KeySpec{index->primary ? KeyKind::PrimaryKey : KeyKind::Unique, std::move(columns), {}});
    else if (!index->unique)
      indexes.push_back(std::move(columns));
  }
}

void CreateTableStatements::createAs(const sql::CreateTableStmt& s, ResultSink& sink) {
  Catalog& catalog = state_.engine.catalog;
  std::string schema;
  CreateTableSpec spec = tableSpec(s, schema);
  if (Schema* in = state_.db->schema(schema); in && in->hasRelation(s.table.name())) {
    std::string message = fmt::format("relation \"{}\" already exists", s.table.name());
    if (!s.ifNotExists) throw SqlError(sqlstate::kDuplicateTable, message);
    state_.sendNotice(sink, Notice::make("NOTICE", sqlstate::kDuplicateTable, message + ", skipping"));
    sink.commandComplete("CREATE TABLE AS");
    return;
  }
  std::vector<OutputColumn> columns = InternalQuery(state_, planner_, s.queryText).columns();
  if (s.columnNames.size() > columns.size())
    throw SqlError(sqlstate::kSyntaxError, "too many column names were specified");
  for (size_t c = 0; c < columns.size(); ++c) {
    std::string name = c < s.columnNames.size() ? s.columnNames[c] : columns[c].name;
    SqlType type = columns[c].type;
    // A record column: an anonymous one has no type to store (PostgreSQL's 42P16); a
    // composite type's is not built yet, as CREATE TABLE says (refuseCompositeColumn).
    if (type.id == TypeId::Record || (type.isArray() && type.element == TypeId::Record)) {
      SqlType record = type.isArray() ? type.elementType() : type;
      if (compositeTypeOid(record) == 0)
        throw SqlError(sqlstate::kInvalidTableDefinition,
                       fmt::format("column \"{}\" has pseudo-type record{}", name, type.isArray() ? "[]" : ""));
      throw SqlError(sqlstate::kFeatureNotSupported,
                     fmt::format("columns of composite type {} are not supported yet", typeName(type)));
    }
    spec.columns.push_back(ColumnDef{name, type, false, {}});
  }
  TableInfo& table = catalog.createTable(*state_.db, schema, std::move(spec), state_.txn.undo());
  transaction_.ddlDone();
  if (!s.withData && !s.selectInto) {
    sink.commandComplete("CREATE TABLE AS");
    return;
  }
  int64_t rows = 0;
  if (s.withData) {
    std::string insert =
        fmt::format("INSERT INTO {}.{} {}", quoteIdent(table.schema->name), quoteIdent(table.name), s.queryText);
    rows = InternalQuery(state_, planner_, std::move(insert)).run();
  }
  sink.commandComplete(fmt::format("SELECT {}", rows));
}

}  // namespace duet
