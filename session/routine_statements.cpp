// CREATE [OR REPLACE] FUNCTION | PROCEDURE and DROP FUNCTION | PROCEDURE | ROUTINE, in the
// order PostgreSQL 15's CreateFunction and RemoveObjects check things: options, language,
// parameters, result type, then the catalog's replacement rules, then the body (the
// validator runs on the stored routine, so a bad body fails the statement and the undo log
// takes the routine back out). Calls and compiled code are RoutineCache's.
#include "session/routine_statements.h"

#include <algorithm>
#include <cstdlib>

#include <fmt/format.h>

#include "compiler/compiler.h"

namespace duet {
namespace {

constexpr const char* kInvalidFunctionDefinition = "42P13";
constexpr const char* kDependentObjectsStillExist = "2BP01";

std::string joinedName(const sql::QualifiedName& n) {
  std::string s;
  for (const auto& part : n.parts) s += (s.empty() ? "" : ".") + part;
  return s;
}

RoutineParamMode modeOf(sql::ParamMode m) {
  switch (m) {
    case sql::ParamMode::In: return RoutineParamMode::In;
    case sql::ParamMode::Out: return RoutineParamMode::Out;
    case sql::ParamMode::InOut: return RoutineParamMode::InOut;
    case sql::ParamMode::Variadic: return RoutineParamMode::Variadic;
    case sql::ParamMode::Table: return RoutineParamMode::Table;
  }
  return RoutineParamMode::In;
}

// A signature type: a supported scalar type (or an array of one), void, record or a
// polymorphic pseudo-type. Anything else is reported as missing, as the binder does for
// types DuetDB does not implement.
std::optional<RoutineType> signatureType(const sql::TypeName& t) {
  RoutineType r;
  r.array = t.arrayBounds > 0;
  if (t.resolved && t.serial == sql::SerialKind::None) {
    r.scalar = t.type.id;
    r.alias = t.type.alias;
    return r;
  }
  bool catalogName = t.names.size() == 1 || (t.names.size() == 2 && t.names[0] == "pg_catalog");
  if (catalogName && (t.name() == "void" || t.name() == "record")) {
    r.kind = t.name() == "void" ? RoutineType::Kind::Void : RoutineType::Kind::Record;
    return r;
  }
  std::optional<Polymorphic> poly = catalogName && !r.array ? polymorphicNamed(t.name()) : std::nullopt;
  if (poly) {
    r.kind = RoutineType::Kind::Polymorphic;
    r.poly = *poly;
    return r;
  }
  return std::nullopt;
}

// check_valid_polymorphic_signature: a polymorphic result (or OUT argument) is resolved
// from the arguments of its family, so one of them must be polymorphic too.
void checkPolymorphicResult(const RoutineType& result, const std::vector<RoutineParamInfo>& params) {
  if (result.kind != RoutineType::Kind::Polymorphic) return;
  bool compatible = isCompatibleFamily(result.poly);
  for (const RoutineParamInfo& p : params)
    if (p.isInput() && p.type.kind == RoutineType::Kind::Polymorphic && isCompatibleFamily(p.type.poly) == compatible)
      return;
  std::string detail = compatible ? fmt::format(
                                        "A result of type {} requires at least one input of type anycompatible, "
                                        "anycompatiblearray, anycompatiblenonarray, or anycompatiblerange.",
                                        polymorphicName(result.poly))
                                  : fmt::format(
                                        "A result of type {} requires at least one input of type anyelement, anyarray, "
                                        "anynonarray, anyenum, anyrange, or anymultirange.",
                                        polymorphicName(result.poly));
  throw SqlError(kInvalidFunctionDefinition, "cannot determine result data type", detail);
}

// TypeNameToString: the name as written, keyword types qualified with pg_catalog.
std::string typeNameAsWritten(const sql::TypeName& t) {
  std::string s = t.keyword ? "pg_catalog." : "";
  for (size_t i = 0; i < t.names.size(); ++i) s += (i ? "." : "") + t.names[i];
  return s + (t.arrayBounds > 0 ? "[]" : "");
}

[[noreturn]] void failAt(const char* code, const std::string& message, std::string_view query, uint32_t offset) {
  throw SqlError(code, message, {}, {}, sql::sqlPosition(query, offset));
}

}  // namespace

// A SET or RESET clause: the setting must exist (a custom "a.b" may be new) and take the
// value; SET FROM CURRENT takes the session's value now. Later clauses replace earlier ones.
void RoutineStatements::configure(RoutineInfo& info, const sql::RoutineOption& o) {
  std::string name = lower(o.value);
  const SettingDef* def = findSetting(name);
  if (!def && name.find('.') == std::string::npos && name != "all")
    throw SqlError(sqlstate::kUndefinedObject, fmt::format("unrecognized configuration parameter \"{}\"", name));
  if (def) name = def->name;
  std::erase_if(info.config, [&](const auto& c) { return name == "all" || c.first == name; });
  if (o.name == "reset") return;
  std::string value;
  if (o.fromCurrent) {
    const std::string* current = state_.settings.find(name);
    if (!current)
      throw SqlError(sqlstate::kUndefinedObject, fmt::format("unrecognized configuration parameter \"{}\"", name));
    value = *current;
  } else {
    value = joinSettingValues(o.setValues, def);
  }
  if (def) value = def->normalise(*def, value);  // 22023 and friends for a value it refuses
  info.config.emplace_back(name, value);
}

// compute_function_attributes: each option once (SET may repeat); procedures take only
// AS, LANGUAGE, SECURITY and SET.
void RoutineStatements::applyRoutineOptions(const sql::CreateFunctionStmt& s, std::string_view query,
                                            RoutineInfo& info) {
  std::vector<std::string> seen;
  bool procedure = s.routine == sql::RoutineKind::Procedure;
  for (const sql::RoutineOption& o : s.options) {
    if (o.name != "set" && o.name != "reset") {
      if (std::find(seen.begin(), seen.end(), o.name) != seen.end())
        failAt(sqlstate::kSyntaxError, "conflicting or redundant options", query, o.location);
      seen.push_back(o.name);
    }
    bool procedureOption =
        o.name == "as" || o.name == "language" || o.name == "security" || o.name == "set" || o.name == "reset";
    if (procedure && !procedureOption)
      failAt(kInvalidFunctionDefinition, "invalid attribute in procedure definition", query, o.location);
    if (o.name == "volatility") {
      info.volatility = o.value == "immutable" ? Volatility::Immutable
                        : o.value == "stable"  ? Volatility::Stable
                                               : Volatility::Volatile;
    } else if (o.name == "strict") {
      info.strict = o.value == "true";
    } else if (o.name == "security") {
      info.securityDefiner = o.value == "true";
    } else if (o.name == "parallel") {
      if (o.value != "safe" && o.value != "restricted" && o.value != "unsafe")
        failAt(sqlstate::kInvalidParameterValue, "parameter \"parallel\" must be SAFE, RESTRICTED, or UNSAFE", query,
               o.location);
    } else if ((o.name == "cost" || o.name == "rows") && std::strtod(o.value.c_str(), nullptr) <= 0) {
      throw SqlError(sqlstate::kInvalidParameterValue,
                     o.name == "cost" ? "COST must be positive" : "ROWS must be positive");
    } else if (o.name == "set" || o.name == "reset") {
      configure(info, o);
    } else if (o.name == "window") {
      throw SqlError(sqlstate::kFeatureNotSupported, "WINDOW functions are not supported");
    }
  }
  if (!s.hasBody) throw SqlError(kInvalidFunctionDefinition, "no function body specified");
  if (s.language.empty()) throw SqlError(kInvalidFunctionDefinition, "no language specified");
  if (s.language == "plpgsql") {
    info.language = RoutineLanguage::PlPgSql;
  } else if (s.language == "sql") {
    info.language = RoutineLanguage::Sql;
  } else if (s.language == "c" || s.language == "internal") {
    throw SqlError(sqlstate::kFeatureNotSupported, fmt::format("language \"{}\" is not supported", s.language));
  } else {
    throw SqlError(sqlstate::kUndefinedObject, fmt::format("language \"{}\" does not exist", s.language));
  }
}

// interpret_function_parameter_list, then the result type from RETURNS and OUT parameters.
void RoutineStatements::defineRoutineSignature(const sql::CreateFunctionStmt& s, std::string_view query,
                                               RoutineInfo& info, ResultSink& sink) {
  bool procedure = s.routine == sql::RoutineKind::Procedure;
  bool haveDefaults = false, variadicSeen = false;
  std::optional<RoutineType> requiredResult;
  int outputs = 0;
  for (size_t i = 0; i < s.params.size(); ++i) {
    const sql::RoutineParam& p = s.params[i];
    std::optional<RoutineType> type = p.type.columnType ? columnType(p.type, sink) : signatureType(p.type);
    if (!type) type = namedRowType(p.type);
    if (!type)
      throw SqlError(sqlstate::kUndefinedObject, fmt::format("type {} does not exist", typeNameAsWritten(p.type)));
    RoutineParamInfo param{p.name, modeOf(p.mode), *type, {}};
    if (param.isInput()) {
      if (variadicSeen)
        failAt(kInvalidFunctionDefinition, "VARIADIC parameter must be the last input parameter", query, p.location);
    }
    if (param.isOutput()) {
      if (procedure && variadicSeen)
        failAt(kInvalidFunctionDefinition, "VARIADIC parameter must be the last parameter", query, p.location);
      if (procedure)
        requiredResult = RoutineType::of(RoutineType::Kind::Record);
      else if (outputs == 0)
        requiredResult = *type;
      ++outputs;
    }
    if (param.mode == RoutineParamMode::Variadic) {
      variadicSeen = true;
      bool array = type->array || (type->kind == RoutineType::Kind::Polymorphic && isPolymorphicArray(type->poly));
      if (!array) failAt(kInvalidFunctionDefinition, "VARIADIC parameter must be an array", query, p.location);
    }
    // The same name may not serve two inputs or two outputs.
    for (size_t j = 0; j < i && !p.name.empty(); ++j) {
      const RoutineParamInfo& prev = info.params[j];
      bool pureIn = !param.isOutput(), prevPureIn = !prev.isOutput();
      bool pureOut = !param.isInput(), prevPureOut = !prev.isInput();
      if ((pureIn && prevPureOut) || (prevPureIn && pureOut)) continue;
      if (prev.name == p.name)
        failAt(kInvalidFunctionDefinition, fmt::format("parameter name \"{}\" used more than once", p.name), query,
               p.location);
    }
    if (p.defaultExpr) {
      if (!param.isInput())
        failAt(kInvalidFunctionDefinition, "only input parameters can have default values", query, p.location);
      sql::visitSubLinks(*p.defaultExpr, [&](const sql::SubLink& link) {
        failAt(sqlstate::kFeatureNotSupported, "cannot use subquery in DEFAULT expression", query, link.location);
      });
      param.defaultSql = std::string(query.substr(p.defaultBegin, p.defaultEnd - p.defaultBegin));
      haveDefaults = true;
    } else if (param.isInput() && haveDefaults) {
      failAt(kInvalidFunctionDefinition, "input parameters after one with a default value must also have defaults",
             query, p.location);
    } else if (procedure && haveDefaults) {
      failAt(kInvalidFunctionDefinition, "procedure OUT parameters cannot appear after one with a default value", query,
             p.location);
    }
    info.params.push_back(std::move(param));
  }
  if (outputs > 1) requiredResult = RoutineType::of(RoutineType::Kind::Record);

  if (procedure) {
    info.returnType = requiredResult.value_or(RoutineType::of(RoutineType::Kind::Void));
  } else if (s.returnsTable) {
    info.returnType = RoutineType::of(RoutineType::Kind::Record);
    info.returnsSet = true;
  } else if (s.hasReturns) {
    std::optional<RoutineType> type =
        s.returnType.columnType ? columnType(s.returnType, sink) : signatureType(s.returnType);
    if (!type) type = namedRowType(s.returnType);
    if (!type)
      throw SqlError(sqlstate::kUndefinedObject,
                     fmt::format("type \"{}\" does not exist", typeNameAsWritten(s.returnType)));
    if (requiredResult && *type != *requiredResult)
      throw SqlError(
          kInvalidFunctionDefinition,
          fmt::format("function result type must be {} because of OUT parameters", routineTypeName(*requiredResult)));
    info.returnType = *type;
    info.returnsSet = s.returnsSet;
  } else if (requiredResult) {
    info.returnType = *requiredResult;
  } else {
    throw SqlError(kInvalidFunctionDefinition, "function result type must be specified");
  }
  checkPolymorphicResult(info.returnType, info.params);
  for (const RoutineParamInfo& p : info.params)
    if (p.isOutput()) checkPolymorphicResult(p.type, info.params);
  for (const sql::RoutineOption& o : s.options)
    if (o.name == "rows" && !info.returnsSet)
      throw SqlError(sqlstate::kInvalidParameterValue, "ROWS is not applicable when function does not return a set");
}

// LookupTypeNameExtended for `table.column%TYPE` (a view's column too): the column's type
// without its modifier, as the NOTICE says; PostgreSQL keeps no dependency on the column.
RoutineType RoutineStatements::columnType(const sql::TypeName& t, ResultSink& sink) const {
  std::vector<std::string> relation(t.names.begin(), t.names.end() - 1);
  Catalog::Relation r = state_.engine.catalog.findRelation(*state_.db, state_.relationPath(relation), relation.back());
  if (!r.table && !r.view)
    throw SqlError(sqlstate::kUndefinedTable, fmt::format("relation \"{}\" does not exist", joinedName({relation})));
  const std::vector<ColumnDef>& columns = r.table ? r.table->columns : r.view->columns;
  auto column = std::find_if(columns.begin(), columns.end(), [&](const ColumnDef& c) { return c.name == t.name(); });
  if (column == columns.end())
    throw SqlError(sqlstate::kUndefinedColumn,
                   fmt::format("column \"{}\" of relation \"{}\" does not exist", t.name(), relation.back()));
  SqlType type = column->type.withoutTypmod();
  state_.sendNotice(
      sink, Notice::make("NOTICE", "00000",
                         fmt::format("type reference {}%TYPE converted to {}", joinedName({t.names}), typeName(type))));
  RoutineType result;
  result.array = type.isArray();
  result.scalar = result.array ? type.element : type.id;
  return result;
}

// A named composite type (CREATE TYPE ... AS, or a table's row type) as a parameter or
// result type: `RETURNS [SETOF] t`, `f(x t)` (found through the search path as PostgreSQL
// finds the type). Arrays of it are not built.
std::optional<RoutineType> RoutineStatements::namedRowType(const sql::TypeName& t) const {
  if (t.resolved || t.arrayBounds > 0) return std::nullopt;
  auto found = state_.namedRowType(t.names);
  if (!found) return std::nullopt;
  RoutineType r;
  r.kind = RoutineType::Kind::Composite;
  r.tableSchema = found->schema;
  r.table = found->name;
  return r;
}

void RoutineStatements::createRoutine(const sql::CreateFunctionStmt& s, std::string_view query, ResultSink& sink) {
  RoutineInfo info;
  info.name = s.name.name();
  info.kind = s.routine == sql::RoutineKind::Procedure ? RoutineKind::Procedure : RoutineKind::Function;
  std::string schema = state_.creationSchema(s.name);
  applyRoutineOptions(s, query, info);
  defineRoutineSignature(s, query, info, sink);
  info.body = s.body;
  RoutineInfo& stored =
      state_.engine.catalog.createRoutine(*state_.db, schema, std::move(info), s.orReplace, state_.txn.undo());
  transaction_.ddlDone();
  // check_function_bodies = off (pg_dump's scripts, and archives: docs/logging.md) creates
  // the routine unchecked, as PostgreSQL does; its first call compiles it.
  if (state_.settings.get("check_function_bodies") == "off") {
    routines_.forgetCompiledRoutine(stored.oid);
    return;
  }
  validateRoutineBody(stored, s, query);
}

// The validator, then the compiler: PL/pgSQL bodies are parsed and checked as
// plpgsql_validator compiles them. SQL bodies are parsed (syntax errors at their places
// in this statement), then compiled with RoutineCompileRequest::validate, which binds
// every statement and checks the final one against the result type, as
// fmgr_sql_validator analyses them. Either way the machine code is made here and cached
// (RoutineCache), so the first call does not compile. A PL/pgSQL body that
// parses but does not compile (a construct not built yet) still creates the routine, as
// in PostgreSQL, whose validator does not go further: its calls raise the error. A
// polymorphic routine is only parsed (a PL/pgSQL body with integer for its polymorphic
// types, as plpgsql_validator does; an SQL body is not analysed, as fmgr_sql_validator
// does not): each call compiles an instance for its argument types.
void RoutineStatements::validateRoutineBody(const RoutineInfo& info, const sql::CreateFunctionStmt& s,
                                            std::string_view query) {
  plpgsql::BodySource source{query, s.bodyTokenBegin, s.bodyTokenEnd, s.body};
  plpgsql::RoutineShape shape = routines_.routineShape(info);
  bool polymorphic = std::any_of(info.params.begin(), info.params.end(), [](const RoutineParamInfo& p) {
    return p.type.kind == RoutineType::Kind::Polymorphic;
  });
  if (polymorphic) routines_.forgetCompiledRoutine(info.oid);  // an OR REPLACE's old instances
  if (info.language == RoutineLanguage::Sql) {
    plpgsql::parseSqlBody(shape, source);
    if (!polymorphic) routines_.compileAndCache(info, true);
    return;
  }
  plpgsql::TableLookup tables = routines_.tableColumnsLookup();
  plpgsql::parsePlpgsqlBody(shape, source, tables);
  if (polymorphic) return;
  try {
    routines_.compileAndCache(info, false);
  } catch (const SqlError&) {
    routines_.forgetCompiledRoutine(info.oid);  // an OR REPLACE's old code; the call compiles again
  }
}

// Functions returning a table's row type depend on the table (pg_depend): DROP TABLE
// refuses while there are any (2BP01), DROP TABLE ... CASCADE drops them first, as
// PostgreSQL's reportDependentObjects reports.
void RoutineStatements::dropRoutinesUsingType(const std::string& typeSchema, const std::string& typeName,
                                              const std::string& dropping, bool cascade, ResultSink& sink) {
  auto isType = [&](const RoutineType& t) {
    return t.kind == RoutineType::Kind::Composite && t.table == typeName && t.tableSchema == typeSchema;
  };
  std::vector<RoutineInfo*> dependents;
  for (const auto& [schemaName, schema] : state_.db->schemas)
    for (const auto& [name, overloads] : schema->routines)
      for (const auto& r : overloads) {
        bool uses = isType(r->returnType);
        for (const RoutineParamInfo& p : r->params) uses = uses || isType(p.type);
        if (uses) dependents.push_back(r.get());
      }
  if (dependents.empty()) return;
  std::sort(dependents.begin(), dependents.end(), [](auto* a, auto* b) { return a->oid < b->oid; });
  std::string detail;
  for (const RoutineInfo* r : dependents)
    detail += fmt::format("{}{} {} depends on type {}", detail.empty() ? "" : "\n",
                          r->kind == RoutineKind::Procedure ? "procedure" : "function", r->objectSignature(), typeName);
  if (!cascade)
    throw SqlError(kDependentObjectsStillExist,
                   fmt::format("cannot drop {} because other objects depend on it", dropping), detail,
                   "Use DROP ... CASCADE to drop the dependent objects too.");
  Notice n = Notice::make("NOTICE", "00000", "");
  if (dependents.size() == 1) {
    n.message = fmt::format("drop cascades to function {}", dependents[0]->objectSignature());
  } else {
    n.message = fmt::format("drop cascades to {} other objects", dependents.size());
    for (const RoutineInfo* r : dependents)
      n.detail += fmt::format("{}drop cascades to function {}", n.detail.empty() ? "" : "\n", r->objectSignature());
  }
  state_.sendNotice(sink, n);
  for (RoutineInfo* r : dependents) state_.engine.catalog.dropRoutine(*r, state_.txn.undo());
}

// RemoveObjects for functions and procedures: one name at a time, with or without an
// argument list, IF EXISTS turning "does not exist" into a notice.
// LookupFuncWithArgs for DROP and ALTER: the routine a name (with or without an argument
// list) means, the kind checked; null when it does not exist and `ifExists` made that a
// notice.
RoutineInfo* RoutineStatements::findRoutineRef(sql::RoutineObject object, const sql::RoutineRef& ref, bool ifExists,
                                               ResultSink& sink) {
  const char* noun = object == sql::RoutineObject::Procedure ? "procedure"
                     : object == sql::RoutineObject::Routine ? "routine"
                                                             : "function";
  std::string name = joinedName(ref.name);
  std::vector<RoutineInfo*> candidates =
      state_.engine.catalog.findRoutines(*state_.db, state_.routinePath(ref.name.parts), ref.name.name());
  RoutineInfo* target = nullptr;
  if (!ref.argsGiven) {
    // Without arguments only routines of the named kind count (LookupFuncName).
    std::erase_if(candidates, [&](const RoutineInfo* r) {
      return (object == sql::RoutineObject::Function && r->kind != RoutineKind::Function) ||
             (object == sql::RoutineObject::Procedure && r->kind != RoutineKind::Procedure);
    });
    if (candidates.empty()) {
      if (!ifExists)
        throw SqlError(sqlstate::kUndefinedFunction, fmt::format("could not find a {} named \"{}\"", noun, name));
      state_.sendNotice(sink,
                        Notice::make("NOTICE", "00000", fmt::format("{} {}() does not exist, skipping", noun, name)));
      return nullptr;
    }
    if (candidates.size() > 1)
      throw SqlError(sqlstate::kAmbiguousFunction, fmt::format("{} name \"{}\" is not unique", noun, name), {},
                     fmt::format("Specify the argument list to select the {} unambiguously.", noun));
    target = candidates[0];
  } else {
    // Input types identify a routine (arguments marked OUT are noise); for PROCEDURE and
    // ROUTINE a list without mode markers may also be every argument, OUT ones included
    // (the SQL standard's way). Both ways finding different procedures is ambiguous.
    std::vector<RoutineType> inputs, all;
    std::string written;
    bool modesWritten = false;
    for (const sql::RoutineParam& a : ref.args) {
      written += (written.empty() ? "" : ",") + typeNameAsWritten(a.type);
      std::optional<RoutineType> type = signatureType(a.type);
      if (!type) type = namedRowType(a.type);
      if (!type) {
        std::string message = fmt::format("type \"{}\" does not exist", typeNameAsWritten(a.type));
        if (!ifExists) throw SqlError(sqlstate::kUndefinedObject, message);
        state_.sendNotice(sink, Notice::make("NOTICE", "00000", message + ", skipping"));
        return nullptr;
      }
      all.push_back(*type);
      modesWritten = modesWritten || a.modeWritten;
      if (a.mode != sql::ParamMode::Out && a.mode != sql::ParamMode::Table) inputs.push_back(*type);
    }
    bool allArguments = object != sql::RoutineObject::Function && !modesWritten;
    RoutineInfo* byAll = nullptr;
    for (RoutineInfo* c : candidates) {
      std::vector<RoutineType> cInputs, cAll;
      for (const RoutineParamInfo& p : c->params) {
        if (p.isInput()) cInputs.push_back(p.type);
        cAll.push_back(p.type);
      }
      if (cInputs == inputs) target = c;
      if (allArguments && c->kind == RoutineKind::Procedure && cAll == all) byAll = c;
    }
    if (target && byAll && target != byAll)
      throw SqlError(sqlstate::kAmbiguousFunction, fmt::format("{} name \"{}\" is not unique", noun, name));
    if (!target) target = byAll;
    if (!target) {
      if (!ifExists)
        throw SqlError(sqlstate::kUndefinedFunction,
                       fmt::format("{} {}({}) does not exist", noun, name, routineTypeList(inputs)));
      state_.sendNotice(sink, Notice::make("NOTICE", "00000",
                                           fmt::format("{} {}({}) does not exist, skipping", noun, name, written)));
      return nullptr;
    }
  }
  if (object == sql::RoutineObject::Function && target->kind != RoutineKind::Function)
    throw SqlError(sqlstate::kWrongObjectType, fmt::format("{} is not a function", target->signature()));
  if (object == sql::RoutineObject::Procedure && target->kind != RoutineKind::Procedure)
    throw SqlError(sqlstate::kWrongObjectType, fmt::format("{} is not a procedure", target->signature()));
  return target;
}

// RemoveObjects for functions and procedures: one name at a time, IF EXISTS turning "does
// not exist" into a notice.
void RoutineStatements::dropRoutines(const sql::DropRoutineStmt& s, ResultSink& sink) {
  for (const sql::RoutineRef& ref : s.routines) {
    RoutineInfo* target = findRoutineRef(s.object, ref, s.ifExists, sink);
    if (!target) continue;
    uint32_t oid = target->oid;
    state_.engine.catalog.dropRoutine(*target, state_.txn.undo());
    routines_.forgetCompiledRoutine(oid);  // if the DROP is rolled back, the next call compiles it
    transaction_.ddlDone();
  }
  sink.commandComplete(s.object == sql::RoutineObject::Procedure ? "DROP PROCEDURE"
                       : s.object == sql::RoutineObject::Routine ? "DROP ROUTINE"
                                                                 : "DROP FUNCTION");
}

void RoutineStatements::alterRoutine(const sql::AlterRoutineStmt& s, ResultSink& sink) {
  findRoutineRef(s.object, s.routine, false, sink);
  if (!state_.engine.catalog.role(s.owner))
    throw SqlError(sqlstate::kUndefinedObject, fmt::format("role \"{}\" does not exist", s.owner));
  sink.commandComplete(s.object == sql::RoutineObject::Procedure ? "ALTER PROCEDURE"
                       : s.object == sql::RoutineObject::Routine ? "ALTER ROUTINE"
                                                                 : "ALTER FUNCTION");
}

}  // namespace duet
