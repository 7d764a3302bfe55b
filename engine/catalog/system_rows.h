// The rows of each system relation (system_relations.h), made from the catalog: one
// function per relation, each walking the catalog for one database.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "engine/catalog/system_relations.h"

namespace duet {

std::vector<SystemRow> fillNamespaces(const Catalog& catalog, const Database& db);
std::vector<SystemRow> fillClasses(const Catalog& catalog, const Database& db);
std::vector<SystemRow> fillAttributes(const Catalog& catalog, const Database& db);
std::vector<SystemRow> fillTypes(const Catalog& catalog, const Database& db);
std::vector<SystemRow> fillDatabases(const Catalog& catalog, const Database& db);
std::vector<SystemRow> fillAuthIds(const Catalog& catalog, const Database& db);
std::vector<SystemRow> fillAuthMembers(const Catalog& catalog, const Database& db);
std::vector<SystemRow> fillRoles(const Catalog& catalog, const Database& db);
std::vector<SystemRow> fillUsers(const Catalog& catalog, const Database& db);
std::vector<SystemRow> fillIndexes(const Catalog& catalog, const Database& db);
std::vector<SystemRow> fillConstraints(const Catalog& catalog, const Database& db);
std::vector<SystemRow> fillAttributeDefaults(const Catalog& catalog, const Database& db);
std::vector<SystemRow> fillProcs(const Catalog& catalog, const Database& db);
std::vector<SystemRow> fillAccessMethods(const Catalog& catalog, const Database& db);
std::vector<SystemRow> fillTablespaces(const Catalog& catalog, const Database& db);
std::vector<SystemRow> fillCollations(const Catalog& catalog, const Database& db);
std::vector<SystemRow> fillExtensions(const Catalog& catalog, const Database& db);
std::vector<SystemRow> fillLanguages(const Catalog& catalog, const Database& db);
std::vector<SystemRow> fillTables(const Catalog& catalog, const Database& db);
std::vector<SystemRow> fillViews(const Catalog& catalog, const Database& db);
std::vector<SystemRow> fillIndexViews(const Catalog& catalog, const Database& db);
// Relations DuetDB has no objects for (pg_inherits, pg_trigger, ...): no rows.
std::vector<SystemRow> fillNothing(const Catalog& catalog, const Database& db);
// What pg_get_viewdef, pg_views and information_schema.views show of a view: its query as
// written, ended by a semicolon as PostgreSQL's deparsed one is (pg_dump strips it).
std::string viewDefinition(const ViewInfo& view);
std::vector<SystemRow> fillInitPrivileges(const Catalog& catalog, const Database& db);
std::vector<SystemRow> fillDescriptions(const Catalog& catalog, const Database& db);
// Whether the object a comment is on still exists (a dropped one's comment is not shown).
bool commentedObjectExists(const Database& db, const CommentKey& key);

// statistics_rows.cpp, what ANALYZE found (docs/statistics.md). pg_stat_user_tables: a row
// per table outside pg_catalog and information_schema, its live rows now (n_live_tup) and
// its analyses; the scan and tuple counters DuetDB does not keep are 0.
std::vector<SystemRow> fillUserTableStats(const Catalog& catalog, const Database& db);
// pg_stats: a row per analysed column of each table with statistics.
std::vector<SystemRow> fillStatistics(const Catalog& catalog, const Database& db);

// sequence_rows.cpp: pg_sequence, pg_sequences, information_schema.sequences, pg_depend.
std::vector<SystemRow> fillSequences(const Catalog& catalog, const Database& db);
std::vector<SystemRow> fillSequencesView(const Catalog& catalog, const Database& db);
std::vector<SystemRow> fillInfoSequences(const Catalog& catalog, const Database& db);
std::vector<SystemRow> fillDepends(const Catalog& catalog, const Database& db);
// The table that owns a sequence (OWNED BY, SERIAL, identity); null for none.
const TableInfo* sequenceOwner(const Database& db, const SequenceInfo& sequence);
// The sequence of identity column `column` of `table`; null when it is not one.
const SequenceInfo* identitySequence(const Database& db, const TableInfo& table, const std::string& column);

// pg_database_owner: the predefined role that owns every database's public schema.
inline constexpr uint32_t kDatabaseOwnerRoleOid = 6171;

// Calls f(schema) for each schema of the database: what every fill walks.
template <class F>
void forEachSchema(const Database& db, F f) {
  for (const auto& [name, schema] : db.schemas) f(*schema);
}

// One constraint of a table, whichever kind: what pg_constraint and information_schema list.
struct ConstraintView {
  const Schema* schema = nullptr;
  const TableInfo* table = nullptr;
  uint32_t oid = 0;  // a PRIMARY KEY/UNIQUE constraint's is its index's
  const std::string* name = nullptr;
  char type = 'p';                           // pg_constraint.contype: p, u, c, f
  std::vector<uint32_t> columns;             // conkey, 0-based
  const IndexInfo* index = nullptr;          // p, u: the index behind it
  const CheckConstraint* check = nullptr;    // c
  const ForeignKey* foreignKey = nullptr;    // f
  const TableInfo* referenced = nullptr;     // f: the referenced table
  const IndexInfo* referencedKey = nullptr;  // f: the PRIMARY KEY/UNIQUE constraint it references
  bool validated = true;
};

// Calls f(view) for each constraint: PRIMARY KEY and UNIQUE (in index name order), then each
// table's CHECK and FOREIGN KEY constraints.
void forEachConstraint(const Database& db, const std::function<void(const ConstraintView&)>& f);

// pg_get_constraintdef's text: PRIMARY KEY (a), CHECK ((a > 0)), FOREIGN KEY (b) REFERENCES
// p(a) ON DELETE CASCADE; `pretty`: its pretty form (CHECK (a > 0)). `qualifyReferenced`: the
// referenced table with its schema (one the search path does not find).
std::string constraintDefinition(const ConstraintView& c, bool pretty, bool qualifyReferenced);
// A referential action as information_schema names it (CASCADE, SET NULL, NO ACTION, ...).
std::string referentialRule(char action);

// pg_get_indexdef's text: CREATE [UNIQUE] INDEX name ON schema.table USING btree (columns);
// the table's name without its schema when `qualifyTable` is false (the pretty form for a
// table the search path finds).
std::string indexDefinition(const IndexInfo& index, bool qualifyTable = true);
// The oid of a routine type (prorettype, proargtypes): a built-in type's, void's, record's,
// a composite type's of `db` (0 for a table's row type, which has no pg_type row yet).
uint32_t routineTypeOid(const RoutineType& type, const Database& db);

}  // namespace duet

namespace duet {

// information_schema (information_schema_rows.cpp).
std::vector<SystemRow> fillSchemata(const Catalog& catalog, const Database& db);
std::vector<SystemRow> fillInfoTables(const Catalog& catalog, const Database& db);
std::vector<SystemRow> fillInfoColumns(const Catalog& catalog, const Database& db);
std::vector<SystemRow> fillInfoViews(const Catalog& catalog, const Database& db);
std::vector<SystemRow> fillTableConstraints(const Catalog& catalog, const Database& db);
std::vector<SystemRow> fillKeyColumnUsage(const Catalog& catalog, const Database& db);
std::vector<SystemRow> fillConstraintColumnUsage(const Catalog& catalog, const Database& db);
std::vector<SystemRow> fillCheckConstraints(const Catalog& catalog, const Database& db);
std::vector<SystemRow> fillReferentialConstraints(const Catalog& catalog, const Database& db);
std::vector<SystemRow> fillRoutines(const Catalog& catalog, const Database& db);
std::vector<SystemRow> fillParameters(const Catalog& catalog, const Database& db);

}  // namespace duet
