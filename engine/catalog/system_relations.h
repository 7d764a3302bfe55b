// The system relations clients read (pg_catalog.pg_class, pg_attribute, ...; docs/catalogs.md):
// one table of them, each with PostgreSQL 15's columns in PostgreSQL's order and the
// function that makes its rows from the catalog. Every database gets a system table per
// relation (Catalog::makeDatabase); the session refills one before a statement reads it
// when the catalog changed since (session/system_tables.cpp).
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "engine/catalog/catalog.h"

namespace duet {

// One value of a system row, converted to its column's type when written: NULL, a bool, an
// integer (integers, oids, timestamps in microseconds), a float, a string (text, name,
// "char"), or an array of integers or of strings.
using SystemValue =
    std::variant<std::monostate, bool, int64_t, double, std::string, std::vector<int64_t>, std::vector<std::string>>;
using SystemRow = std::vector<SystemValue>;

// Fills a relation: its rows for database `db`, in the relation's column order.
using SystemFill = std::vector<SystemRow> (*)(const Catalog& catalog, const Database& db);

struct SystemRelation {
  std::string_view name;  // in `schema`
  uint32_t oid;           // PostgreSQL's
  // "name type, ..." in PostgreSQL's order, with PostgreSQL's type names (system_relations.cpp
  // maps the few DuetDB lacks: int2vector and oidvector are arrays, aclitem[] and
  // pg_node_tree text).
  std::string_view columns;
  // Null: the session fills it with server state before every statement that reads it
  // (duet_snapshots).
  SystemFill fill;
  bool isView = false;                     // a view in PostgreSQL (pg_roles, pg_tables): relkind 'v'
  std::string_view schema = "pg_catalog";  // or information_schema
};

// information_schema's fixed oid (PostgreSQL's varies with the release; this is 15's).
inline constexpr uint32_t kInformationSchemaOid = 13207;

std::span<const SystemRelation> systemRelations();
const SystemRelation* findSystemRelation(std::string_view schema, std::string_view name);
// The relation's columns as catalog columns.
std::vector<ColumnDef> systemColumns(const SystemRelation& relation);
// Replaces table's rows with `rows` (outside any transaction: system rows are not data a
// rollback restores).
void writeSystemRows(Table& table, const std::vector<SystemRow>& rows);

}  // namespace duet
