// Functions and procedures in the catalog: lookup by name and identity types, CREATE [OR
// REPLACE] with PostgreSQL's replacement rules (ProcedureCreate in pg_proc.c), DROP. All
// changes are undoable like other DDL.
#include <fmt/format.h>

#include "engine/catalog/catalog.h"
#include "engine/error.h"

namespace duet {
namespace {

constexpr const char* kInvalidFunctionDefinition = "42P13";
constexpr const char* kDuplicateFunction = "42723";

// The columns of the row an OUT-parameter function returns: names and types in order.
std::vector<std::pair<std::string, RoutineType>> outputRow(const RoutineInfo& r) {
  std::vector<std::pair<std::string, RoutineType>> row;
  for (const RoutineParamInfo& p : r.params)
    if (p.isOutput()) row.emplace_back(p.name, p.type);
  return row;
}

// The names of the input parameters, in order ("" for unnamed ones).
std::vector<std::string> inputNames(const RoutineInfo& r) {
  std::vector<std::string> names;
  for (const RoutineParamInfo& p : r.params)
    if (p.isInput()) names.push_back(p.name);
  return names;
}

}  // namespace

std::string routineTypeName(const RoutineType& t) {
  switch (t.kind) {
    case RoutineType::Kind::Void: return "void";
    case RoutineType::Kind::Record: return t.array ? "record[]" : "record";
    case RoutineType::Kind::Composite: return t.table;
    case RoutineType::Kind::Polymorphic: return polymorphicName(t.poly);
    case RoutineType::Kind::Scalar: break;
  }
  return typeName(t.sqlType());
}

std::string routineTypeList(const std::vector<RoutineType>& types, const char* separator) {
  std::string out;
  for (const RoutineType& t : types) out += (out.empty() ? "" : separator) + routineTypeName(t);
  return out;
}

std::vector<RoutineType> RoutineInfo::identityTypes() const {
  std::vector<RoutineType> types;
  for (const RoutineParamInfo& p : params)
    if (p.isInput() || (kind == RoutineKind::Procedure && p.mode == RoutineParamMode::Out)) types.push_back(p.type);
  return types;
}

std::string RoutineInfo::signature() const { return fmt::format("{}({})", name, routineTypeList(identityTypes())); }

std::string RoutineInfo::objectSignature() const {
  return fmt::format("{}({})", name, routineTypeList(identityTypes(), ","));
}

int RoutineInfo::defaultCount() const {
  int n = 0;
  for (const RoutineParamInfo& p : params) n += !p.defaultSql.empty();
  return n;
}

std::vector<RoutineInfo*> Catalog::findRoutines(const Database& db, const SchemaPath& path,
                                                const std::string& name) const {
  std::vector<RoutineInfo*> found;
  for (const std::string& sn : path) {
    Schema* s = db.schema(sn);
    if (!s) continue;
    auto it = s->routines.find(name);
    if (it == s->routines.end()) continue;
    for (const auto& r : it->second) {
      bool hidden = false;
      for (const RoutineInfo* earlier : found) hidden = hidden || earlier->identityTypes() == r->identityTypes();
      if (!hidden) found.push_back(r.get());
    }
  }
  return found;
}

RoutineInfo* Catalog::findRoutine(const Database& db, const SchemaPath& path, const std::string& name,
                                  const std::vector<RoutineType>& identity) const {
  for (RoutineInfo* r : findRoutines(db, path, name))
    if (r->identityTypes() == identity) return r;
  return nullptr;
}

void Catalog::checkReplacement(const RoutineInfo& old, const RoutineInfo& replacement) const {
  if (old.kind != replacement.kind)
    throw SqlError(
        sqlstate::kWrongObjectType, "cannot change routine kind",
        fmt::format("\"{}\" is a {}.", old.name, old.kind == RoutineKind::Function ? "function" : "procedure"));
  std::string hint =
      fmt::format("Use {} {} first.", old.kind == RoutineKind::Procedure ? "DROP PROCEDURE" : "DROP FUNCTION",
                  old.objectSignature());
  if (old.returnType != replacement.returnType || old.returnsSet != replacement.returnsSet)
    throw SqlError(kInvalidFunctionDefinition,
                   old.kind == RoutineKind::Procedure ? "cannot change whether a procedure has output parameters"
                                                      : "cannot change return type of existing function",
                   {}, hint);
  if (old.returnType.kind == RoutineType::Kind::Record && outputRow(old) != outputRow(replacement))
    throw SqlError(kInvalidFunctionDefinition, "cannot change return type of existing function",
                   "Row type defined by OUT parameters is different.", hint);
  // Names may be added to unnamed input parameters, but not changed or removed: calls
  // with named arguments would break.
  std::vector<std::string> oldNames = inputNames(old), newNames = inputNames(replacement);
  for (size_t i = 0; i < oldNames.size(); ++i)
    if (!oldNames[i].empty() && oldNames[i] != newNames[i])
      throw SqlError(kInvalidFunctionDefinition,
                     fmt::format("cannot change name of input parameter \"{}\"", oldNames[i]), {}, hint);
  if (replacement.defaultCount() < old.defaultCount())
    throw SqlError(kInvalidFunctionDefinition, "cannot remove parameter defaults from existing function", {}, hint);
}

RoutineInfo& Catalog::createRoutine(Database& db, const std::string& schemaName, RoutineInfo spec, bool orReplace,
                                    UndoLog& undo) {
  Schema& schema = resolveSchema(db, schemaName);
  spec.schema = &schema;
  std::vector<RoutineType> identity = spec.identityTypes();
  RoutineInfo* existing = nullptr;
  if (auto named = schema.routines.find(spec.name); named != schema.routines.end())
    for (const auto& r : named->second)
      if (r->identityTypes() == identity) existing = r.get();
  if (existing) {
    if (!orReplace)
      throw SqlError(kDuplicateFunction,
                     fmt::format("function \"{}\" already exists with same argument types", spec.name));
    checkReplacement(*existing, spec);
    RoutineInfo before = *existing;
    spec.oid = existing->oid;
    *existing = std::move(spec);
    undo.recordAction([existing, before] { *existing = before; });
    return *existing;
  }
  spec.oid = nextOid();
  auto info = std::make_shared<RoutineInfo>(std::move(spec));
  schema.routines[info->name].push_back(info);
  std::string name = info->name;
  undo.recordAction([&schema, name] {
    auto& list = schema.routines[name];
    list.pop_back();
    if (list.empty()) schema.routines.erase(name);
  });
  return *info;
}

void Catalog::dropRoutine(RoutineInfo& routine, UndoLog& undo) {
  Schema& schema = *routine.schema;
  auto& list = schema.routines.at(routine.name);
  size_t pos = 0;
  while (list[pos].get() != &routine) ++pos;
  std::shared_ptr<RoutineInfo> kept = list[pos];
  list.erase(list.begin() + static_cast<std::ptrdiff_t>(pos));
  if (list.empty()) schema.routines.erase(kept->name);
  undo.recordAction([&schema, kept, pos] {
    auto& overloads = schema.routines[kept->name];
    overloads.insert(overloads.begin() + static_cast<std::ptrdiff_t>(pos), kept);
  });
}

}  // namespace duet
