#include "compiler/runtime/catalog_functions.h"

#include <cstdlib>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "engine/catalog/builtin_types.h"
#include "engine/catalog/catalog.h"
#include "engine/error.h"
#include "engine/types/array.h"
#include "engine/types/catalog_lookup.h"
#include "engine/types/type_context.h"

using duet::CatalogLookup;
using duet::TypeAlias;
using duet::VarString;
using duet::rt::QueryContext;

namespace {

const CatalogLookup* lookup(QueryContext* ctx) { return ctx->typeContext ? ctx->typeContext->catalog : nullptr; }

const VarString* text(std::string_view s) { return duet::statementArena().makeString(s); }

const VarString* describe(QueryContext* ctx, CatalogLookup::Text what, int64_t oid) {
  const CatalogLookup* c = lookup(ctx);
  std::optional<std::string> s = c ? c->describe(what, static_cast<uint32_t>(oid)) : std::nullopt;
  return s ? text(*s) : nullptr;
}

bool isVisible(QueryContext* ctx, TypeAlias kind, int64_t oid) {
  const CatalogLookup* c = lookup(ctx);
  return c && c->visible(kind, static_cast<uint32_t>(oid)).value_or(false);
}

}  // namespace

extern "C" {

const VarString* duet_q_current_database(QueryContext* ctx) {
  const CatalogLookup* c = lookup(ctx);
  return text(c ? c->currentDatabase() : "postgres");
}

const VarString* duet_q_current_schema(QueryContext* ctx) {
  const CatalogLookup* c = lookup(ctx);
  std::vector<std::string> schemas = c ? c->currentSchemas(false) : std::vector<std::string>{"public"};
  return schemas.empty() ? nullptr : text(schemas.front());
}

const VarString* duet_q_current_schemas(QueryContext* ctx, bool includeImplicit) {
  const CatalogLookup* c = lookup(ctx);
  std::vector<std::string> schemas = c ? c->currentSchemas(includeImplicit) : std::vector<std::string>{"public"};
  std::vector<std::optional<std::string_view>> names(schemas.begin(), schemas.end());
  return duet::makeTextArray(names, duet::statementArena());
}

const VarString* duet_q_format_type(QueryContext* ctx, int64_t type, int32_t typmod) {
  if (type == 0) return text("-");
  bool known = false;
  duet::SqlType t = duet::sqlTypeFromOid(static_cast<uint32_t>(type), &known);
  if (!known) {
    // A composite type (CREATE TYPE ... AS): its name, as regtype prints it.
    const CatalogLookup* c = lookup(ctx);
    if (auto name = c ? c->nameOf(duet::TypeAlias::RegType, static_cast<uint32_t>(type)) : std::nullopt)
      return text(*name);
    return text("???");
  }
  t.typmod = typmod;
  return text(duet::typeName(t));
}

const VarString* duet_q_format_type_plain(QueryContext* ctx, int64_t type) { return duet_q_format_type(ctx, type, -1); }

const VarString* duet_q_pg_get_userbyid(QueryContext* ctx, int64_t role) {
  return describe(ctx, CatalogLookup::Text::RoleName, role);
}

const VarString* duet_q_pg_get_indexdef(QueryContext* ctx, int64_t index) {
  return describe(ctx, CatalogLookup::Text::IndexDefinition, index);
}

const VarString* duet_q_pg_get_indexdef_column(QueryContext* ctx, int64_t index, int32_t column, bool pretty) {
  // Column 0 is the whole definition, another number that key column's name (pgjdbc's
  // getIndexInfo asks for each).
  if (column != 0) {
    const CatalogLookup* c = lookup(ctx);
    std::optional<std::string> name = c ? c->indexColumn(static_cast<uint32_t>(index), column) : std::nullopt;
    return name ? text(*name) : nullptr;
  }
  return describe(ctx, pretty ? CatalogLookup::Text::IndexDefinitionPretty : CatalogLookup::Text::IndexDefinition,
                  index);
}

const VarString* duet_q_pg_get_constraintdef(QueryContext* ctx, int64_t constraint) {
  return describe(ctx, CatalogLookup::Text::ConstraintDefinition, constraint);
}

const VarString* duet_q_pg_get_constraintdef_pretty(QueryContext* ctx, int64_t constraint, bool pretty) {
  return describe(ctx,
                  pretty ? CatalogLookup::Text::ConstraintDefinitionPretty : CatalogLookup::Text::ConstraintDefinition,
                  constraint);
}

const VarString* duet_q_pg_get_viewdef(QueryContext* ctx, int64_t view) {
  return describe(ctx, CatalogLookup::Text::ViewDefinition, view);
}

const VarString* duet_q_pg_get_expr(QueryContext*, const VarString* expr, int64_t) { return expr; }

const VarString* duet_q_pg_get_expr_pretty(QueryContext*, const VarString* expr, int64_t, bool) { return expr; }

bool duet_q_pg_table_is_visible(QueryContext* ctx, int64_t relation) {
  return isVisible(ctx, TypeAlias::RegClass, relation);
}

bool duet_q_pg_type_is_visible(QueryContext* ctx, int64_t type) { return isVisible(ctx, TypeAlias::RegType, type); }

bool duet_q_pg_collation_is_visible(QueryContext*, int64_t collation) {
  return collation == duet::kDefaultCollationOid || collation == duet::kCCollationOid ||
         collation == duet::kPosixCollationOid;
}

bool duet_q_pg_function_is_visible(QueryContext* ctx, int64_t routine) {
  return isVisible(ctx, TypeAlias::RegProc, routine);
}

const VarString* duet_q_obj_description(QueryContext* ctx, int64_t object, const VarString* catalog) {
  const CatalogLookup* c = lookup(ctx);
  std::string_view name = catalog->view();
  if (name.starts_with("pg_catalog.")) name.remove_prefix(11);
  uint32_t classOid = name == "pg_class"       ? duet::kPgClassOid
                      : name == "pg_namespace" ? duet::kPgNamespaceOid
                      : name == "pg_proc"      ? duet::kPgProcOid
                                               : 0;
  std::optional<std::string> s = c && classOid ? c->comment(classOid, static_cast<uint32_t>(object), 0) : std::nullopt;
  return s ? text(*s) : nullptr;
}

const VarString* duet_q_no_description(QueryContext*, int64_t, const VarString*) { return nullptr; }

const VarString* duet_q_col_description(QueryContext* ctx, int64_t table, int32_t column) {
  const CatalogLookup* c = lookup(ctx);
  std::optional<std::string> s =
      c && column > 0 ? c->comment(duet::kPgClassOid, static_cast<uint32_t>(table), column) : std::nullopt;
  return s ? text(*s) : nullptr;
}

const VarString* duet_q_pg_get_function_result(QueryContext* ctx, int64_t routine) {
  return describe(ctx, CatalogLookup::Text::FunctionResult, routine);
}

const VarString* duet_q_pg_get_function_arguments(QueryContext* ctx, int64_t routine) {
  return describe(ctx, CatalogLookup::Text::FunctionArguments, routine);
}

const VarString* duet_q_pg_get_functiondef(QueryContext* ctx, int64_t routine) {
  return describe(ctx, CatalogLookup::Text::FunctionDefinition, routine);
}

const VarString* duet_q_pg_get_function_identity_arguments(QueryContext* ctx, int64_t routine) {
  return describe(ctx, CatalogLookup::Text::FunctionIdentityArguments, routine);
}

bool duet_q_pg_relation_is_publishable(QueryContext* ctx, int64_t relation) {
  const CatalogLookup* c = lookup(ctx);
  return c && c->isUserTable(static_cast<uint32_t>(relation));
}

const VarString* duet_q_pg_get_statisticsobjdef_columns(QueryContext*, int64_t) { return nullptr; }

bool duet_q_reg_exists(QueryContext* ctx, const VarString* name, int32_t alias) {
  const CatalogLookup* c = lookup(ctx);
  if (!c) return false;
  try {
    c->oidOf(static_cast<TypeAlias>(alias), name->view());
    return true;
  } catch (const duet::SqlError&) {
    return false;
  }
}

bool duet_q_relation_exists(QueryContext* ctx, int64_t relation) {
  const CatalogLookup* c = lookup(ctx);
  return c && c->relationBytes(CatalogLookup::Size::Relation, static_cast<uint32_t>(relation)).has_value();
}

int64_t duet_q_relation_size(QueryContext* ctx, int64_t relation, int32_t what) {
  const CatalogLookup* c = lookup(ctx);
  if (!c) return 0;
  return c->relationBytes(static_cast<CatalogLookup::Size>(what), static_cast<uint32_t>(relation)).value_or(0);
}

int64_t duet_q_database_size(QueryContext* ctx, const VarString* name) {
  const CatalogLookup* c = lookup(ctx);
  std::optional<int64_t> bytes = c ? c->databaseBytes(name->view()) : std::nullopt;
  if (!bytes)
    throw duet::SqlError(duet::sqlstate::kInvalidCatalogName,
                         "database \"" + std::string(name->view()) + "\" does not exist");
  return *bytes;
}

const VarString* duet_q_pg_size_pretty(QueryContext*, int64_t bytes) {
  // PostgreSQL's pg_size_pretty: bytes below 10 kB; then each unit while the value, kept
  // with one extra bit for rounding half away from zero, stays below 20 * 1024 - 1.
  constexpr int64_t kLimit = 10 * 1024, kLimit2 = kLimit * 2 - 1;
  if (std::abs(bytes) < kLimit) return text(std::to_string(bytes) + " bytes");
  static const char* const kUnits[] = {"kB", "MB", "GB", "TB", "PB"};
  int64_t size = bytes >> 9;
  size_t unit = 0;
  while (std::abs(size) >= kLimit2 && unit + 1 < std::size(kUnits)) {
    size >>= 10;
    ++unit;
  }
  int64_t rounded = (size + (size < 0 ? -1 : 1)) / 2;
  return text(std::to_string(rounded) + " " + kUnits[unit]);
}

const VarString* duet_q_no_definition(QueryContext*, int64_t) { return nullptr; }

const VarString* duet_q_no_definition_pretty(QueryContext*, int64_t, bool) { return nullptr; }

const VarString* duet_q_pg_get_serial_sequence(QueryContext* ctx, const VarString* table, const VarString* column) {
  const CatalogLookup* c = lookup(ctx);
  std::optional<std::string> s = c ? c->serialSequence(table->view(), column->view()) : std::nullopt;
  return s ? text(*s) : nullptr;
}

const VarString* duet_q_acldefault(QueryContext* ctx, const VarString* kind, int64_t owner) {
  // PostgreSQL's acldefault(): the owner holds every privilege of the kind; functions,
  // languages and types also grant theirs to PUBLIC, databases CONNECT and TEMPORARY.
  const CatalogLookup* c = lookup(ctx);
  std::string role =
      c ? c->describe(CatalogLookup::Text::RoleName, static_cast<uint32_t>(owner)).value_or("") : std::to_string(owner);
  char k = kind->len ? kind->data[0] : ' ';
  std::string all, publicGrant;
  switch (k) {
    case 'r': all = "arwdDxt"; break;
    case 's': all = "rwU"; break;
    case 'f': all = publicGrant = "X"; break;
    case 'l':
    case 'T': all = publicGrant = "U"; break;
    case 'n': all = "UC"; break;
    case 'd':
      all = "CTc";
      publicGrant = "Tc";
      break;
    case 'F':
    case 'S': all = "U"; break;
    case 'L': all = "rw"; break;
    case 't': all = "C"; break;
    case 'p': all = "sA"; break;
    default:
      throw duet::SqlError(duet::sqlstate::kInternalError,
                           "unrecognized object type abbreviation: " + std::string(kind->view()));
  }
  std::vector<std::string> items;
  if (!publicGrant.empty()) items.push_back("=" + publicGrant + "/" + role);
  items.push_back(role + "=" + all + "/" + role);
  std::vector<std::optional<std::string_view>> views(items.begin(), items.end());
  return duet::makeTextArray(views, duet::statementArena());
}

bool duet_q_pg_is_in_recovery(QueryContext*) { return false; }

int32_t duet_q_pg_backend_pid(QueryContext* ctx) {
  const CatalogLookup* c = lookup(ctx);
  return c ? c->backendPid() : 0;
}

int64_t duet_q_pg_postmaster_start_time(QueryContext* ctx) {
  const CatalogLookup* c = lookup(ctx);
  return c ? c->serverStartTimestamp() : 0;
}

const VarString* duet_q_pg_encoding_to_char(QueryContext*, int32_t encoding) {
  return text(encoding == 6 ? "UTF8" : encoding == 0 ? "SQL_ASCII" : "");
}

}  // extern "C"
