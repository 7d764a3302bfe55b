// Column definitions of CREATE TABLE and ALTER TABLE ADD COLUMN (see column_definition.h).
#include "session/column_definition.h"

#include <fmt/format.h>

#include <string>
#include <utility>

namespace duet {

void checkColumnDefault(const sql::Expr& e, std::string_view query) {
  auto fail = [&](const char* what, uint32_t offset) {
    throw SqlError(sqlstate::kFeatureNotSupported, fmt::format("cannot use {} in DEFAULT expression", what), {}, {},
                   sql::sqlPosition(query, offset));
  };
  sql::visitSubLinks(e, [&](const sql::SubLink& s) { fail("subquery", s.location); });
  sql::visitColumnRefs(e, [&](const sql::ColumnRef& r) { fail("column reference", r.location); });
}

KeySpec keySpec(const sql::Constraint& c, std::vector<std::string> columns) {
  return KeySpec{c.kind == sql::ConstraintKind::PrimaryKey ? KeyKind::PrimaryKey : KeyKind::Unique, std::move(columns),
                 c.name};
}

bool needsSequence(const sql::ColumnDef& col) {
  if (col.type.serial != sql::SerialKind::None) return true;
  for (const auto& c : col.constraints)
    if (c.kind == sql::ConstraintKind::Identity) return true;
  return false;
}

void refuseCompositeColumn(const sql::TypeName& type, const TypeResolver& resolve, std::string_view query) {
  if (type.resolved || type.serial != sql::SerialKind::None || !resolve || !resolve(type.names)) return;
  throw SqlError(sqlstate::kFeatureNotSupported,
                 fmt::format("columns of composite type {}{} are not supported yet", type.name(),
                             type.arrayBounds > 0 ? "[]" : ""),
                 {}, {}, sql::sqlPosition(query, type.location));
}

ColumnDef columnDefinition(const sql::ColumnDef& col, std::string_view query, std::vector<KeySpec>& keys,
                           std::string_view table, const sql::Constraint** identity) {
  if (!col.type.resolved) {
    throw SqlError(sqlstate::kUndefinedObject, fmt::format("type \"{}\" does not exist", col.type.name()), {}, {},
                   static_cast<int>(col.type.location) + 1);
  }
  ColumnDef def{col.name, col.type.sqlType(), false, {}};
  if (col.collateAt && !sql::isCollatable(def.type))
    throw SqlError(sqlstate::kDatatypeMismatch,
                   fmt::format("collations are not supported by type {}", typeName(def.type)), {}, {},
                   static_cast<int>(col.collateAt) + 1);
  // SERIAL is an integer column with a sequence of its own, as an identity column is: one
  // default at most among DEFAULT, SERIAL and IDENTITY (42601, worded as PostgreSQL's).
  bool hasDefault = col.type.serial != sql::SerialKind::None;
  const sql::Constraint* identityConstraint = nullptr;
  for (const auto& c : col.constraints) {
    if (c.kind == sql::ConstraintKind::Default || c.kind == sql::ConstraintKind::Identity) {
      if (hasDefault)
        throw SqlError(sqlstate::kSyntaxError, fmt::format("{} specified for column \"{}\" of table \"{}\"",
                                                           c.kind == sql::ConstraintKind::Identity || identityConstraint
                                                               ? "both default and identity"
                                                               : "multiple default values",
                                                           col.name, table));
      hasDefault = true;
    }
    switch (c.kind) {
      case sql::ConstraintKind::Identity:
        identityConstraint = &c;
        *identity = &c;
        break;
      case sql::ConstraintKind::NotNull: def.notNull = true; break;
      case sql::ConstraintKind::Null: break;
      case sql::ConstraintKind::PrimaryKey:
        def.notNull = true;
        keys.push_back(keySpec(c, {col.name}));
        break;
      case sql::ConstraintKind::Unique: keys.push_back(keySpec(c, {col.name})); break;
      case sql::ConstraintKind::Default:
        // Kept as text: the binder binds it again at each INSERT that needs it.
        if (c.expr) checkColumnDefault(*c.expr, query);
        def.defaultSql = std::string(query.substr(c.exprBegin, c.exprEnd - c.exprBegin));
        break;
      case sql::ConstraintKind::Check:
      case sql::ConstraintKind::ForeignKey: break;  // the caller's, once the table exists (ConstraintStatements)
    }
  }
  return def;
}

}  // namespace duet
