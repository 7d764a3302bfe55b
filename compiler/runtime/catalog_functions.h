// The functions clients call to read the catalog (psql's \d queries, pg_dump, drivers):
// current_database(), format_type(), pg_get_indexdef(), pg_table_is_visible(), ... They ask
// the session's catalog through TypeContext::catalog (engine/types/catalog_lookup.h).
#pragma once
#include <cstdint>

#include "compiler/runtime/query_runtime.h"

extern "C" {
const duet::VarString* duet_q_current_database(duet::rt::QueryContext* ctx);
// current_schema(): the search path's first schema that exists (NULL when none does).
const duet::VarString* duet_q_current_schema(duet::rt::QueryContext* ctx);
// current_schemas(include_implicit): the search path's schemas that exist, the temporary
// schema and pg_catalog first when implicit ones are asked for (a text[]: arrays of name
// are arrays of text here).
const duet::VarString* duet_q_current_schemas(duet::rt::QueryContext* ctx, bool includeImplicit);
// format_type(type oid, typmod): "integer", "character varying(10)"; "???" for an unknown oid.
const duet::VarString* duet_q_format_type(duet::rt::QueryContext* ctx, int64_t type, int32_t typmod);
const duet::VarString* duet_q_format_type_plain(duet::rt::QueryContext* ctx, int64_t type);
const duet::VarString* duet_q_pg_get_userbyid(duet::rt::QueryContext* ctx, int64_t role);
// pg_get_indexdef / pg_get_constraintdef / pg_get_viewdef: a null pointer (NULL) for an oid
// that names no such object.
const duet::VarString* duet_q_pg_get_indexdef(duet::rt::QueryContext* ctx, int64_t index);
const duet::VarString* duet_q_pg_get_indexdef_column(duet::rt::QueryContext* ctx, int64_t index, int32_t column,
                                                     bool pretty);
const duet::VarString* duet_q_pg_get_constraintdef(duet::rt::QueryContext* ctx, int64_t constraint);
const duet::VarString* duet_q_pg_get_constraintdef_pretty(duet::rt::QueryContext* ctx, int64_t constraint, bool pretty);
const duet::VarString* duet_q_pg_get_viewdef(duet::rt::QueryContext* ctx, int64_t view);
// pg_get_expr(adbin, relation): DuetDB keeps expressions as their SQL text, which is what
// it prints.
const duet::VarString* duet_q_pg_get_expr(duet::rt::QueryContext* ctx, const duet::VarString* expr, int64_t relation);
const duet::VarString* duet_q_pg_get_expr_pretty(duet::rt::QueryContext* ctx, const duet::VarString* expr,
                                                 int64_t relation, bool pretty);
// pg_table_is_visible / pg_type_is_visible / pg_function_is_visible; false for no object
// (PostgreSQL returns NULL there, which a WHERE treats alike).
bool duet_q_pg_table_is_visible(duet::rt::QueryContext* ctx, int64_t relation);
bool duet_q_pg_type_is_visible(duet::rt::QueryContext* ctx, int64_t type);
bool duet_q_pg_function_is_visible(duet::rt::QueryContext* ctx, int64_t routine);
// pg_collation_is_visible: the built-in collations live in pg_catalog, always on the path.
bool duet_q_pg_collation_is_visible(duet::rt::QueryContext* ctx, int64_t collation);
// obj_description / col_description / shobj_description: DuetDB keeps no comments yet.
// obj_description(object, catalog) and col_description(table, column): COMMENT ON's texts,
// NULL for none; shobj_description: NULL (no comments on databases or roles yet).
const duet::VarString* duet_q_obj_description(duet::rt::QueryContext* ctx, int64_t object, const duet::VarString* c);
const duet::VarString* duet_q_col_description(duet::rt::QueryContext* ctx, int64_t table, int32_t column);
const duet::VarString* duet_q_no_description(duet::rt::QueryContext* ctx, int64_t object, const duet::VarString* c);
// pg_get_function_result / _arguments / _identity_arguments; NULL for no such routine (and
// the result of a procedure).
const duet::VarString* duet_q_pg_get_function_result(duet::rt::QueryContext* ctx, int64_t routine);
const duet::VarString* duet_q_pg_get_function_arguments(duet::rt::QueryContext* ctx, int64_t routine);
const duet::VarString* duet_q_pg_get_function_identity_arguments(duet::rt::QueryContext* ctx, int64_t routine);
const duet::VarString* duet_q_pg_get_functiondef(duet::rt::QueryContext* ctx, int64_t routine);
bool duet_q_pg_relation_is_publishable(duet::rt::QueryContext* ctx, int64_t relation);
// pg_get_statisticsobjdef_columns: DuetDB has no extended statistics objects, so NULL.
const duet::VarString* duet_q_pg_get_statisticsobjdef_columns(duet::rt::QueryContext* ctx, int64_t object);
// to_regclass(name) and its kin are CASE WHEN duet_q_reg_exists(name, alias) THEN
// name::regclass END (the binder): whether the name denotes an object of that reg* type.
bool duet_q_reg_exists(duet::rt::QueryContext* ctx, const duet::VarString* name, int32_t alias);
// pg_relation_size, pg_table_size, pg_indexes_size, pg_total_relation_size (`what` as
// CatalogLookup::Size): the bytes a relation's memory holds (engine/storage: chunks,
// strings, index slots and nodes). The binder makes each CASE WHEN
// duet_q_relation_exists(oid) THEN duet_q_relation_size(oid, what) END: NULL for no
// relation, as in PostgreSQL.
bool duet_q_relation_exists(duet::rt::QueryContext* ctx, int64_t relation);
int64_t duet_q_relation_size(duet::rt::QueryContext* ctx, int64_t relation, int32_t what);
// pg_database_size(name); 3D000 for no such database, as PostgreSQL.
int64_t duet_q_database_size(duet::rt::QueryContext* ctx, const duet::VarString* name);
// pg_size_pretty(bigint): 8192 bytes, 16 kB, 3 MB, ... with PostgreSQL's rounding.
const duet::VarString* duet_q_pg_size_pretty(duet::rt::QueryContext* ctx, int64_t bytes);
// pg_get_triggerdef, pg_get_ruledef, pg_get_partkeydef, pg_get_statisticsobjdef: NULL, as
// for an oid naming no such object (DuetDB has no triggers, rules, partitioned tables or
// extended statistics); pg_get_function_sqlbody: NULL, as for a body kept as text (DuetDB
// keeps every body so).
const duet::VarString* duet_q_no_definition(duet::rt::QueryContext* ctx, int64_t object);
const duet::VarString* duet_q_no_definition_pretty(duet::rt::QueryContext* ctx, int64_t object, bool pretty);
// pg_get_serial_sequence(table, column): NULL when the column owns no sequence.
const duet::VarString* duet_q_pg_get_serial_sequence(duet::rt::QueryContext* ctx, const duet::VarString* table,
                                                     const duet::VarString* column);
// acldefault(kind, owner): the privileges an object of that kind starts with, as
// PostgreSQL's acldefault prints them (aclitem[] is text[] here).
const duet::VarString* duet_q_acldefault(duet::rt::QueryContext* ctx, const duet::VarString* kind, int64_t owner);
bool duet_q_pg_is_in_recovery(duet::rt::QueryContext* ctx);
int32_t duet_q_pg_backend_pid(duet::rt::QueryContext* ctx);
int64_t duet_q_pg_postmaster_start_time(duet::rt::QueryContext* ctx);
const duet::VarString* duet_q_pg_encoding_to_char(duet::rt::QueryContext* ctx, int32_t encoding);
}
