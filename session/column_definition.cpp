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

ColumnDef columnDefinition(const sql::ColumnDef& col, std::string_view query, std::vector<KeySpec>& keys) {
  if (!col.type.resolved) {
    throw SqlError(sqlstate::kUndefinedObject, fmt::format("type \"{}\" does not exist", col.type.name()), {}, {},
                   static_cast<int>(col.type.location) + 1);
  }
  if (col.type.serial != sql::SerialKind::None)
    throw SqlError(sqlstate::kFeatureNotSupported, "serial column is not supported");
  ColumnDef def{col.name, col.type.sqlType(), false, {}};
  for (const auto& c : col.constraints) {
    switch (c.kind) {
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
      default: throw SqlError(sqlstate::kFeatureNotSupported, "this column constraint is not supported");
    }
  }
  return def;
}

}  // namespace duet
