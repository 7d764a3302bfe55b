// What values that name catalog objects ask of the session's catalog (TypeContext::catalog):
// the reg* types print the name of the object whose oid they hold and read a name into its
// oid, as PostgreSQL's regclassout/regclassin read the syscache. Implemented by the
// session (session/catalog_lookup.cpp); engine/types only declares it.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/types/type_id.h"

namespace duet {

class CatalogLookup {
 public:
  virtual ~CatalogLookup() = default;
  // The name PostgreSQL prints for object `oid` of a reg* type (schema-qualified when the
  // search path does not find it, quoted where needed); nullopt when there is no such
  // object, which prints as the number.
  virtual std::optional<std::string> nameOf(TypeAlias kind, uint32_t oid) const = 0;
  // The oid of the object `name` denotes (a possibly qualified, possibly quoted name; a
  // type name as SQL writes it for regtype); PostgreSQL's error when there is none (42P01
  // for a relation, 42704 for a type, schema or role, 42883 for a function).
  virtual uint32_t oidOf(TypeAlias kind, std::string_view name) const = 0;

  // What the catalog functions print about object `oid`; nullopt (NULL) when there is no
  // such object.
  enum class Text : uint8_t {
    IndexDefinition,             // pg_get_indexdef
    IndexDefinitionPretty,       // pg_get_indexdef(index, 0, true): the table unqualified where visible
    ConstraintDefinition,        // pg_get_constraintdef
    ConstraintDefinitionPretty,  // pg_get_constraintdef(oid, true)
    ViewDefinition,              // pg_get_viewdef
    RoleName,                    // pg_get_userbyid (PostgreSQL prints "unknown (OID=n)" for none)
    FunctionResult,              // pg_get_function_result: "integer", "SETOF text", "TABLE(a integer)"
    FunctionArguments,           // pg_get_function_arguments: "a integer, OUT b text, c integer DEFAULT 1"
    FunctionIdentityArguments,   // pg_get_function_identity_arguments: "a integer, OUT b text"
    FunctionDefinition,          // pg_get_functiondef: "CREATE OR REPLACE FUNCTION ..."
  };
  virtual std::optional<std::string> describe(Text what, uint32_t oid) const = 0;
  // pg_table_is_visible (RegClass), pg_type_is_visible (RegType), pg_function_is_visible
  // (RegProc): whether the search path finds the object by its bare name; nullopt when
  // there is no such object.
  virtual std::optional<bool> visible(TypeAlias kind, uint32_t oid) const = 0;
  virtual std::string currentDatabase() const = 0;
  // current_schemas(includeImplicit): the search path's schemas that exist, with the
  // temporary schema and pg_catalog where they are searched implicitly; current_schema()
  // is the first of current_schemas(false).
  virtual std::vector<std::string> currentSchemas(bool includeImplicit) const = 0;
  // Whether `oid` is an ordinary table outside pg_catalog (pg_relation_is_publishable).
  virtual bool isUserTable(uint32_t oid) const = 0;
  // pg_backend_pid(): the session's BackendKeyData pid; pg_postmaster_start_time(): when
  // the server started, microseconds since 2000-01-01 UTC.
  virtual int32_t backendPid() const = 0;
  virtual int64_t serverStartTimestamp() const = 0;
  // pg_relation_size (Relation: the table's or index's own bytes), pg_table_size (Table:
  // a table's, with no TOAST here the same), pg_indexes_size (Indexes: its indexes'),
  // pg_total_relation_size (Total: both); nullopt when there is no such relation.
  enum class Size : uint8_t { Relation, Table, Indexes, Total };
  virtual std::optional<int64_t> relationBytes(Size what, uint32_t oid) const = 0;
  // pg_database_size: the bytes of every table and index of the database; nullopt when
  // there is no database of that name.
  virtual std::optional<int64_t> databaseBytes(std::string_view name) const = 0;
  // pg_get_serial_sequence(table, column): the schema-qualified name of the sequence a
  // SERIAL or identity column owns; nullopt when it owns none; 42P01 / 42703 when there is
  // no such table or column (the column's name is taken as written, the table's as SQL
  // reads a name).
  virtual std::optional<std::string> serialSequence(std::string_view table, std::string_view column) const = 0;
  // obj_description(object, catalog) / col_description(table, column): COMMENT ON's text of
  // the object in the catalog with relation oid `classOid` (pg_class, pg_namespace,
  // pg_proc), `subId` the column's number or 0; nullopt when it has none.
  virtual std::optional<std::string> comment(uint32_t classOid, uint32_t objectOid, int32_t subId) const = 0;
  // pg_get_indexdef(index, column, pretty) for column > 0: the name of the index's key
  // column `column` (1-based), quoted where needed; "" past the last; nullopt when there
  // is no such index.
  virtual std::optional<std::string> indexColumn(uint32_t index, int32_t column) const = 0;
};

}  // namespace duet
