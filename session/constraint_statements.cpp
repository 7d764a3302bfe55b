// CHECK and FOREIGN KEY constraints for CREATE TABLE, ALTER TABLE, DROP TABLE and TRUNCATE
// (constraint_statements.h), with PostgreSQL's messages (tablecmds.c, dependency.c).
#include "session/constraint_statements.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "compiler/compiler.h"
#include "engine/catalog/system_rows.h"
#include "engine/types/text_functions.h"

namespace duet {
namespace {

std::string qualifiedName(const TableInfo& t) { return quoteIdent(t.schema->name) + "." + quoteIdent(t.name); }

[[noreturn]] void unsupported(const std::string& what) {
  throw SqlError(sqlstate::kFeatureNotSupported, fmt::format("{} is not supported", what));
}

}  // namespace

void ConstraintStatements::add(TableInfo& table, const sql::Constraint& c, std::string_view query, bool existingRows,
                               const std::string& column) {
  if (c.kind == sql::ConstraintKind::Check)
    addCheck(table, c, query, existingRows);
  else
    addForeignKey(table, c, existingRows, column);
}

void ConstraintStatements::addCheck(TableInfo& table, const sql::Constraint& c, std::string_view query,
                                    bool existingRows) {
  sql::visitSubLinks(*c.expr, [&](const sql::SubLink& s) {
    throw SqlError(sqlstate::kFeatureNotSupported, "cannot use subquery in check constraint", {}, {},
                   sql::sqlPosition(query, s.location));
  });
  std::set<uint32_t> columns;
  sql::visitColumnRefs(*c.expr, [&](const sql::ColumnRef& r) {
    int i = r.star ? -1 : table.columnIndex(r.names.back());
    if (i >= 0) columns.insert(static_cast<uint32_t>(i));
  });
  CheckConstraint check;
  check.name = c.name;
  check.exprSql = std::string(query.substr(c.exprBegin, c.exprEnd - c.exprBegin));
  // A form the deparser does not know is shown as written.
  check.expression = sql::deparseExpr(*c.expr, false).value_or("(" + check.exprSql + ")");
  check.prettyExpression = sql::deparseExpr(*c.expr, true).value_or(check.exprSql);
  check.columns.assign(columns.begin(), columns.end());
  check.validated = !c.notValid;
  const CheckConstraint& added = state_.engine.catalog.addCheck(table, std::move(check), state_.txn.undo());
  transaction_.ddlDone();
  // An INSERT plan binds every CHECK of the table: names, types (42804 for a condition that
  // is not boolean), aggregates (42803). Rows the table has must pass this one.
  std::string name = qualifiedName(table);
  plan("INSERT INTO " + name + " OVERRIDING SYSTEM VALUE SELECT * FROM " + name + " WHERE false");
  if (existingRows && added.validated &&
      producesRow("SELECT 1 FROM " + name + " WHERE NOT (" + added.exprSql + ") LIMIT 1")) {
    SqlError error(
        sqlstate::kCheckViolation,
        fmt::format("check constraint \"{}\" of relation \"{}\" is violated by some row", added.name, table.name));
    error.schemaName = table.schema->name;
    error.tableName = table.name;
    error.constraintName = added.name;
    throw error;
  }
}

void ConstraintStatements::addForeignKey(TableInfo& table, const sql::Constraint& c, bool existingRows,
                                         const std::string& column) {
  if (c.match == 'p') throw SqlError(sqlstate::kFeatureNotSupported, "MATCH PARTIAL not yet implemented");
  TableInfo& referenced = state_.tableByName(c.refTable);
  ForeignKeySpec spec{c.name,
                      column.empty() ? c.columns : std::vector<std::string>{column},
                      c.refColumns,
                      c.onUpdate,
                      c.onDelete,
                      c.match,
                      c.notValid,
                      c.deferrable,
                      c.initiallyDeferred};
  // SET DEFAULT sets the referencing columns to their defaults: NULL where there is none.
  // Other defaults would need evaluating here, which is not built.
  std::vector<uint8_t> defaults(table.table->layout().size, 0);
  for (size_t col = 0; col < table.columns.size(); ++col) defaults[col] = 1;
  if (c.onUpdate == fk_action::kSetDefault || c.onDelete == fk_action::kSetDefault) {
    for (const std::string& name : spec.columns) {
      int i = table.columnIndex(name);
      if (i >= 0 && !table.columns[static_cast<size_t>(i)].defaultSql.empty())
        unsupported("ON DELETE / ON UPDATE SET DEFAULT of a column with a DEFAULT");
    }
  }
  ForeignKey& fk = state_.engine.catalog.addForeignKey(table, spec, referenced, std::move(defaults), state_.txn.undo());
  transaction_.ddlDone();
  if (existingRows && fk.validated) validateForeignKey(fk);
}

void ConstraintStatements::drop(TableInfo& table, const std::string& name, bool ifExists, ResultSink& sink) {
  if (state_.engine.catalog.dropConstraint(table, name, ifExists, state_.txn.undo())) {
    transaction_.ddlDone();
    return;
  }
  state_.sendNotice(sink, Notice::make("NOTICE", "00000",
                                       fmt::format("constraint \"{}\" of relation \"{}\" does not exist, skipping",
                                                   name, table.name)));
}

void ConstraintStatements::dropReferencingKeys(TableInfo& table, const std::vector<const Table*>& dropped, bool cascade,
                                               ResultSink& sink) {
  std::vector<ForeignKey*> dependents;
  for (ForeignKey* fk : table.table->referencedBy())
    if (std::find(dropped.begin(), dropped.end(), fk->child) == dropped.end()) dependents.push_back(fk);
  if (dependents.empty()) return;
  auto describe = [](const ForeignKey* fk) {
    return fmt::format("constraint {} on table {}", fk->name, fk->child->name());
  };
  if (!cascade) {
    std::string detail;
    for (const ForeignKey* fk : dependents)
      detail += fmt::format("{}{} depends on table {}", detail.empty() ? "" : "\n", describe(fk), table.name);
    throw SqlError(sqlstate::kDependentObjectsStillExist,
                   fmt::format("cannot drop table {} because other objects depend on it", table.name), detail,
                   "Use DROP ... CASCADE to drop the dependent objects too.");
  }
  Notice n = Notice::make("NOTICE", "00000", "");
  if (dependents.size() == 1) {
    n.message = "drop cascades to " + describe(dependents[0]);
  } else {
    n.message = fmt::format("drop cascades to {} other objects", dependents.size());
    for (const ForeignKey* fk : dependents)
      n.detail += fmt::format("{}drop cascades to {}", n.detail.empty() ? "" : "\n", describe(fk));
  }
  state_.sendNotice(sink, n);
  for (ForeignKey* fk : dependents) state_.engine.catalog.dropForeignKey(*fk, state_.txn.undo());
}

void ConstraintStatements::setModes(const sql::TransactionStmt& s) {
  UndoLog& undo = state_.txn.undo();
  if (s.constraints.empty()) undo.setConstraintMode(nullptr, s.deferred);
  for (const sql::QualifiedName& name : s.constraints) {
    // As PostgreSQL: the first schema of the path with a constraint of that name, and every
    // constraint of that name there.
    std::vector<const ForeignKey*> found;
    bool notDeferrable = false;
    for (const std::string& schemaName : state_.relationPath(name)) {
      const Schema* schema = state_.db->schema(schemaName);
      if (!schema) continue;
      forEachConstraint(*state_.db, [&](const ConstraintView& c) {
        if (c.schema != schema || *c.name != name.name()) return;
        if (c.foreignKey && c.foreignKey->deferrable)
          found.push_back(c.foreignKey);
        else
          notDeferrable = true;
      });
      if (!found.empty() || notDeferrable) break;
    }
    if (notDeferrable)
      throw SqlError(sqlstate::kWrongObjectType, fmt::format("constraint \"{}\" is not deferrable", name.name()));
    if (found.empty())
      throw SqlError(sqlstate::kUndefinedObject, fmt::format("constraint \"{}\" does not exist", name.name()));
    for (const ForeignKey* fk : found) undo.setConstraintMode(fk, s.deferred);
  }
  undo.runDeferred();
}

void ConstraintStatements::refusePendingChecks(const TableInfo& table, const char* command) {
  if (state_.txn.undo().hasCommitChecks(table.table.get()))
    throw SqlError(sqlstate::kObjectInUse,
                   fmt::format("cannot {} \"{}\" because it has pending trigger events", command, table.name));
}

void ConstraintStatements::truncateClosure(std::vector<TableInfo*>& tables, bool cascade, ResultSink& sink) {
  auto listed = [&](const Table* t) {
    return std::any_of(tables.begin(), tables.end(), [&](const TableInfo* i) { return i->table.get() == t; });
  };
  for (size_t i = 0; i < tables.size(); ++i) {
    for (const ForeignKey* fk : tables[i]->table->referencedBy()) {
      if (listed(fk->child)) continue;
      if (!cascade)
        throw SqlError(
            sqlstate::kFeatureNotSupported, "cannot truncate a table referenced in a foreign key constraint",
            fmt::format("Table \"{}\" references \"{}\".", fk->child->name(), tables[i]->name),
            fmt::format("Truncate table \"{}\" at the same time, or use TRUNCATE ... CASCADE.", fk->child->name()));
      state_.sendNotice(
          sink, Notice::make("NOTICE", "00000", fmt::format("truncate cascades to table \"{}\"", fk->child->name())));
      tables.push_back(state_.engine.catalog.tableOf(*state_.db, fk->child));
    }
  }
}

Statement ConstraintStatements::plan(const std::string& query) {
  auto parsed = sql::parseQuery(query, sql::ParseOptions{.liftLiterals = true});
  auto text = std::make_shared<const std::string>(query);
  Statement q{text, *text, std::move(parsed.at(0)), {}, nullptr, {}};
  q.plan = planner_.planFor(q);
  return q;
}

bool ConstraintStatements::producesRow(const std::string& query) {
  Statement q = plan(query);
  auto params = planner_.literalParams(q);
  class AnyRow final : public rt::RowConsumer {
   public:
    void consume(const uint8_t*) override { seen = true; }
    bool seen = false;
  };
  AnyRow consumer;
  rt::QueryContext ctx = state_.queryContext(params->data());
  ctx.output = &consumer;
  q.plan->compiled->run(&ctx);
  return consumer.seen;
}

}  // namespace duet
