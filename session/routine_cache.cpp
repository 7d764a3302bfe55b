// RoutineCache: what the binder may call (the catalog's routines as RoutineCandidates),
// what compiling one takes, running a call for compiled code, and the engine-wide cache of
// compiled routines. CREATE [OR REPLACE] FUNCTION | PROCEDURE compiles the routine to
// machine code, so that its first call runs at once. The code holds what its compilation
// read of the catalog (tables inlined into its statements, overloads chosen for its
// calls), so it is kept with a fingerprint of each lookup the compilation made, found or
// not. Any DDL moves the catalog version on; the next call then looks again: while its own
// definition and every fingerprint are the same, the code still fits and is kept;
// otherwise it is compiled again there, at that call. That recompilation is lazy on
// purpose: eager recompilation at the DDL would compile routines that may never be called
// again (a DROP TABLE ... CREATE TABLE script would compile every dependent routine twice,
// the first time against a missing table), and between two statements of one transaction
// the catalog may still be half-built. A name that was not found is a dependency too: a
// routine that names a table created later compiles (the statement raises 42P01 where it
// runs, as PostgreSQL's lazily bound PL/pgSQL does) and compiles again at the first call
// after the table exists.
#include "session/routine_cache.h"

#include <fmt/format.h>

#include "compiler/compiler.h"
#include "engine/types/record.h"
#include "session/call_transactions.h"

namespace duet {
namespace {

constexpr const char* kInvalidFunctionDefinition = "42P13";

// Unknown for what is not one type: void, a row, a polymorphic type until a call resolves it.
SqlType callType(const RoutineType& t) {
  if (t.kind != RoutineType::Kind::Scalar) return {TypeId::Unknown, -1};
  return t.sqlType();
}

std::string typeKey(const SqlType& t) { return fmt::format("{}/{}/{}", int(t.id), t.typmod, int(t.element)); }

// Everything a call's binding takes from the routine (see RoutineCandidate).
std::string candidateKey(const RoutineCandidate& c) {
  std::string k = fmt::format("{} {} {} {} {}", c.oid, c.name, c.procedure, c.returnsSet, typeKey(c.returnType));
  for (size_t a = 0; a < c.argTypes.size(); ++a)
    k += fmt::format("|{} {} {} {} {}", typeKey(c.argTypes[a]), int(c.argPoly[a]), c.argNames[a], bool(c.argOutputs[a]),
                     c.defaults[a]);
  for (size_t r = 0; r < c.resultTypes.size(); ++r)
    k += fmt::format("|>{} {} {}", c.resultNames[r], typeKey(c.resultTypes[r]), int(c.resultPoly[r]));
  return k + fmt::format("|{} {}", c.variadic, int(c.returnPoly));
}

// The cache key's last part: a record function's row type, spelled out.
std::string rowKey(const std::vector<SqlType>& row) {
  std::string k;
  for (const SqlType& t : row) k += typeKey(t) + ";";
  return k;
}

// A polymorphic routine's instance: the actual argument types (without typmods, which
// PostgreSQL's resolution drops too) ahead of the row key.
std::string instanceKey(const std::vector<SqlType>& polymorphicArgs, const std::vector<SqlType>& recordRow) {
  std::string k = "(";
  for (const SqlType& t : polymorphicArgs) k += typeKey(t.withoutTypmod()) + ";";
  return k + ")" + rowKey(recordRow);
}

}  // namespace

std::string RoutineCache::tableFingerprint(const std::vector<std::string>& name) const {
  Catalog::Relation r = state_.engine.catalog.findRelation(*state_.db, state_.relationPath(name), name.back());
  // A view's code is its query, inlined: the relations that query reads are looked up (and
  // fingerprinted) when it is planned, as names of their own.
  if (r.view && !r.table) return fmt::format("view {}|{}", r.view->oid, r.view->query);
  const TableInfo* t = r.table;
  if (!t) {
    // A composite type (its fields are fixed at CREATE TYPE: its oid tells it); no type or
    // table yet: one of this name created later changes it.
    auto type = state_.namedRowType(name);
    return type ? fmt::format("type {}", compositeTypeOid(type->type)) : std::string();
  }
  std::string f = fmt::format("{}@{}", t->oid, fmt::ptr(t->table.get()));
  for (const ColumnDef& c : t->columns)
    f += fmt::format("|{} {} {} {}", c.name, typeKey(c.type), c.notNull, c.defaultSql);
  for (const IndexInfo* i : t->indexes) f += fmt::format("|index {}@{}", i->oid, fmt::ptr(i->index));
  return f;
}

std::string RoutineCache::routinesFingerprint(const std::vector<std::string>& names) const {
  std::string f;
  for (const RoutineCandidate& c : routineCandidates(names)) f += candidateKey(c) + ";";
  return f;
}

std::string RoutineCache::routineDefinition(const RoutineInfo& info) const {
  std::string d = fmt::format("{} {} {}|", candidateKey(candidateOf(info)), info.strict, int(info.language));
  for (const RoutineParamInfo& p : info.params) d += fmt::format("{} {}|", p.name, int(p.mode));
  for (const auto& [name, value] : info.config) d += fmt::format("{}={}|", name, value);
  return d + info.body;
}

RoutineSettingsScope::RoutineSettingsScope(Settings& settings,
                                           const std::vector<std::pair<std::string, std::string>>& config)
    : settings_(settings) {
  if (config.empty()) return;
  saved_ = settings.save();
  try {
    for (const auto& [name, value] : config) settings.set(name, value, true);
  } catch (...) {
    settings.restore(*saved_);
    throw;
  }
}

RoutineSettingsScope::~RoutineSettingsScope() {
  if (saved_) settings_.restore(*saved_);
}

CachedRoutine& RoutineCache::compileAndCache(const RoutineInfo& info, bool validate,
                                             const std::vector<SqlType>& recordRow,
                                             const std::vector<SqlType>& polymorphicArgs) {
  // Cached under the caller's path, which the next call looks it up by.
  std::string path = state_.searchPath().key;
  RoutineSettingsScope settings(state_.settings, info.config);
  CachedRoutine entry;
  auto* deps = &entry.dependencies;
  plpgsql::RoutineCompileRequest request = compileRequest(info, recordRow, polymorphicArgs);
  request.validate = validate;
  request.optimiseBudgetMs = state_.settings.maxCompileMs();
  request.resolveTable = [this, deps, resolve = request.resolveTable](const sql::QualifiedName& name) {
    deps->emplace(std::pair{'t', name.parts}, tableFingerprint(name.parts));
    return resolve(name);
  };
  request.tableColumns = [this, deps, lookup = request.tableColumns](const std::vector<std::string>& name) {
    deps->emplace(std::pair{'t', name}, tableFingerprint(name));
    return lookup(name);
  };
  request.resolveRoutines = [this, deps](const std::vector<std::string>& names) {
    deps->emplace(std::pair{'r', names}, routinesFingerprint(names));
    return routineCandidates(names);
  };
  request.resolveTypeName = [this, deps, resolve = request.resolveTypeName](const std::vector<std::string>& names) {
    deps->emplace(std::pair{'t', names}, tableFingerprint(names));
    return resolve(names);
  };
  entry.code = plpgsql::compileRoutine(request);
  entry.returnsRecord = request.returnsRecord;
  entry.catalogVersion = state_.engine.catalogVersion;
  entry.definition = routineDefinition(info);
  entry.config = info.config;
  std::string key = polymorphicArgs.empty() ? rowKey(recordRow) : instanceKey(polymorphicArgs, recordRow);
  CachedRoutine& cached = state_.engine.routines[{info.oid, path, key}];
  cached = std::move(entry);
  return cached;
}

bool RoutineCache::stillFits(const RoutineInfo& info, const CachedRoutine& cached) const {
  if (cached.definition != routineDefinition(info)) return false;
  for (const auto& [key, fingerprint] : cached.dependencies) {
    const auto& [kind, name] = key;
    if ((kind == 't' ? tableFingerprint(name) : routinesFingerprint(name)) != fingerprint) return false;
  }
  return true;
}

CachedRoutine& RoutineCache::compiledRoutine(uint32_t oid, const std::vector<SqlType>& row,
                                             const std::vector<SqlType>& argTypes) {
  // Every call passes here: a routine not returning record is found with one lookup,
  // before the catalog is searched or a key is spelled out, and a polymorphic one that
  // does not return record with two.
  static const std::string kNoRow;
  const std::string& path = state_.searchPath().key;
  auto plain = state_.engine.routines.find(std::tie(oid, path, kNoRow));
  if (plain != state_.engine.routines.end() && !plain->second.returnsRecord &&
      plain->second.catalogVersion == state_.engine.catalogVersion)
    return plain->second;
  if (plain == state_.engine.routines.end()) {
    auto instance = state_.engine.routines.find(std::make_tuple(oid, path, instanceKey(argTypes, {})));
    if (instance != state_.engine.routines.end() && !instance->second.returnsRecord &&
        instance->second.catalogVersion == state_.engine.catalogVersion)
      return instance->second;
  }
  const RoutineInfo* info = routineByOid(oid);
  RoutineCandidate candidate = info ? candidateOf(*info) : RoutineCandidate{};
  // Only a function returning record is compiled per row type, and only a polymorphic
  // routine per argument types; others ignore them.
  std::vector<SqlType> recordRow = candidate.returnsRecord ? row : std::vector<SqlType>{};
  std::vector<SqlType> polymorphicArgs = candidate.polymorphic() ? argTypes : std::vector<SqlType>{};
  std::string key = polymorphicArgs.empty() ? rowKey(recordRow) : instanceKey(polymorphicArgs, recordRow);
  auto it = state_.engine.routines.find(std::make_tuple(oid, path, key));
  if (it != state_.engine.routines.end() && it->second.catalogVersion == state_.engine.catalogVersion)
    return it->second;
  if (!info) {
    forgetCompiledRoutine(oid);
    throw SqlError(sqlstate::kUndefinedFunction, fmt::format("function with OID {} does not exist", oid));
  }
  if (it != state_.engine.routines.end()) {
    RoutineSettingsScope settings(state_.settings, info->config);  // its names, along its path
    if (stillFits(*info, it->second)) {
      it->second.catalogVersion = state_.engine.catalogVersion;
      return it->second;
    }
  }
  return compileAndCache(*info, false, recordRow, polymorphicArgs);
}

void RoutineCache::forgetCompiledRoutine(uint32_t oid) {
  auto it = state_.engine.routines.lower_bound(std::make_tuple(oid, std::string(), std::string()));
  while (it != state_.engine.routines.end() && std::get<0>(it->first) == oid) it = state_.engine.routines.erase(it);
}

void RoutineCache::discardStaleRoutines() {
  for (auto it = state_.engine.routines.begin(); it != state_.engine.routines.end();) {
    const RoutineInfo* info = routineByOid(std::get<0>(it->first));
    if (!info || it->second.definition != routineDefinition(*info))
      it = state_.engine.routines.erase(it);
    else
      ++it;
  }
}

SqlType RoutineCache::compositeType(const RoutineType& t) const {
  auto found = state_.namedRowType({t.tableSchema, t.table});
  if (!found) throw SqlError(sqlstate::kUndefinedObject, fmt::format("type \"{}\" does not exist", t.table));
  return found->type;
}

RoutineCandidate RoutineCache::candidateOf(const RoutineInfo& r) const {
  RoutineCandidate c;
  c.oid = r.oid;
  c.name = r.name;
  c.procedure = r.kind == RoutineKind::Procedure;
  c.returnsSet = r.returnsSet;
  std::vector<const RoutineParamInfo*> outputs;
  for (const RoutineParamInfo& p : r.params) {
    if (p.isOutput()) outputs.push_back(&p);
    if (!p.isInput() && !c.procedure) continue;
    c.argTypes.push_back(p.type.kind == RoutineType::Kind::Composite ? compositeType(p.type) : callType(p.type));
    c.argPoly.push_back(p.type.poly);
    c.argNames.push_back(p.name);
    c.argOutputs.push_back(p.isOutput());
    c.defaults.push_back(p.defaultSql);
    c.variadic = p.mode == RoutineParamMode::Variadic;
  }
  if (outputs.size() == 1 && outputs[0]->type.kind == RoutineType::Kind::Composite && !c.procedure) {
    // A function's only OUT argument of a composite type is its result, as RETURNS t.
    c.returnsComposite = true;
    SqlType type = compositeType(outputs[0]->type);
    if (!r.returnsSet) c.returnType = type;
    for (const RecordField& f : recordFields(type)) {
      c.resultNames.push_back(f.name);
      c.resultTypes.push_back(f.type);
      c.resultPoly.push_back(Polymorphic::None);
    }
  } else if (!outputs.empty()) {
    for (const RoutineParamInfo* p : outputs) {
      c.resultNames.push_back(p->name.empty() ? fmt::format("column{}", c.resultNames.size() + 1) : p->name);
      c.resultTypes.push_back(p->type.kind == RoutineType::Kind::Composite ? compositeType(p->type)
                                                                           : callType(p->type));
      c.resultPoly.push_back(p->type.poly);
    }
    if (outputs.size() == 1) {
      c.returnType = c.resultTypes[0];
      c.returnPoly = c.resultPoly[0];
    }
  } else if (r.returnType.kind == RoutineType::Kind::Scalar || r.returnType.kind == RoutineType::Kind::Polymorphic) {
    c.returnType = callType(r.returnType);
    c.returnPoly = r.returnType.poly;
    c.resultNames.push_back(r.name);
    c.resultTypes.push_back(c.returnType);
    c.resultPoly.push_back(c.returnPoly);
  } else if (r.returnType.kind == RoutineType::Kind::Record && !c.procedure) {
    c.returnsRecord = true;
  } else if (r.returnType.kind == RoutineType::Kind::Composite) {
    // The type's fields (a table's columns as they are now). DROP TABLE and DROP TYPE
    // refuse while the function depends on the type, so it is there.
    c.returnsComposite = true;
    // SELECT f() of one row: a value of the composite type.
    if (!r.returnsSet) c.returnType = compositeType(r.returnType);
    for (const RecordField& f : recordFields(compositeType(r.returnType))) {
      c.resultNames.push_back(f.name);
      c.resultTypes.push_back(f.type);
      c.resultPoly.push_back(Polymorphic::None);
    }
  } else if (r.returnType.kind == RoutineType::Kind::Void && !c.procedure) {
    c.returnType = {TypeId::Text, -1};
    c.resultNames.push_back(r.name);
    c.resultTypes.push_back(c.returnType);
    c.resultPoly.push_back(Polymorphic::None);
  }
  return c;
}

std::vector<RoutineCandidate> RoutineCache::routineCandidates(const std::vector<std::string>& names) const {
  std::vector<RoutineCandidate> out;
  for (const RoutineInfo* r : state_.engine.catalog.findRoutines(*state_.db, state_.routinePath(names), names.back()))
    out.push_back(candidateOf(*r));
  return out;
}

const RoutineInfo* RoutineCache::routineByOid(uint32_t oid) const {
  for (const auto& [schemaName, schema] : state_.db->schemas)
    for (const auto& [name, overloads] : schema->routines)
      for (const auto& r : overloads)
        if (r->oid == oid) return r.get();
  return nullptr;
}

// PL/pgSQL and LANGUAGE sql routines compile alike: an SQL body becomes the same tree. A
// function returning record returns `recordRow` (a call's column definition list; empty
// when CREATE validates an SQL body, which then checks only that it returns rows).
plpgsql::RoutineCompileRequest RoutineCache::compileRequest(const RoutineInfo& info,
                                                            const std::vector<SqlType>& recordRow,
                                                            const std::vector<SqlType>& polymorphicArgs) {
  plpgsql::RoutineCompileRequest request;
  RoutineCandidate c = candidateOf(info);
  // A polymorphic routine is compiled for the actual types of one call's arguments.
  binder::PolymorphicBinding binding = binder::kValidatorBinding;
  if (c.polymorphic()) {
    binding = binder::bindPolymorphic(polymorphicArgs, c.argPoly);
    binder::resolvePolymorphicCandidate(c, binding);
  }
  request.shape = routineShape(info, binding);
  request.signature = info.signature();
  request.body = info.body;
  request.returnType = c.returnType;
  request.rowTypes = c.returnsRecord ? recordRow : c.resultTypes;
  request.returnsRecord = c.returnsRecord;
  request.returnsRow = c.returnsRecord || c.returnsComposite;
  request.rowTypeName = routineTypeName(info.returnType);
  request.resolveTable = state_.tableResolver();
  request.resolveRoutines = [this](const std::vector<std::string>& names) { return routineCandidates(names); };
  request.resolveTypeName = state_.typeResolver();
  request.tableColumns = tableColumnsLookup();
  request.strict = info.strict;
  request.readOnly = info.volatility != Volatility::Volatile;
  request.sqlBody = info.language == RoutineLanguage::Sql;
  return request;
}

void RoutineCache::callRoutine(rt::QueryContext& ctx, uint32_t oid, const std::vector<SqlType>& argTypes,
                               const uint8_t* args, uint8_t* result, rt::TupleBuffer* rows) {
  static const std::vector<SqlType> kNoRow;
  CachedRoutine& cached = compiledRoutine(oid, rows ? rows->layout().types : kNoRow, argTypes);
  std::shared_ptr<plpgsql::CompiledRoutine> routine = cached.code;  // kept should the entry go meanwhile
  RoutineSettingsScope settings(state_.settings, cached.config);
  // A function's caller's transaction is not its to end, nor that of procedures it calls;
  // nor is it for a procedure CALLed inside an EXCEPTION block's body or one with SET
  // clauses (PostgreSQL).
  struct Atomic {
    CallTransactions* calls;
    explicit Atomic(CallTransactions* c) : calls(c) {
      if (calls) calls->enterAtomic();
    }
    ~Atomic() {
      if (calls) calls->leaveAtomic();
    }
  } atomic(calls_ && (!routine->procedure || calls_->inSubtransaction() || !cached.config.empty()) ? calls_ : nullptr);
  plpgsql::runRoutine(*routine, ctx, args, result, rows);
}

plpgsql::RoutineShape RoutineCache::routineShape(const RoutineInfo& info,
                                                 const binder::PolymorphicBinding& binding) const {
  plpgsql::RoutineShape shape;
  shape.name = info.name;
  shape.procedure = info.kind == RoutineKind::Procedure;
  shape.returnsSet = info.returnsSet;
  shape.returnsVoid = info.kind == RoutineKind::Function && info.returnType.kind == RoutineType::Kind::Void;
  for (const RoutineParamInfo& p : info.params) {
    if (p.type.kind == RoutineType::Kind::Void && info.language == RoutineLanguage::Sql)
      throw SqlError(kInvalidFunctionDefinition, "SQL functions cannot have arguments of type void");
    if (p.type.kind == RoutineType::Kind::Void)
      throw SqlError(sqlstate::kFeatureNotSupported, "PL/pgSQL functions cannot accept type void");
    plpgsql::RoutineParameter param;
    param.name = p.name;
    param.input = p.isInput();
    param.output = p.isOutput();
    SqlType actual = p.type.kind == RoutineType::Kind::Polymorphic ? binder::actualType(p.type.poly, binding)
                     : p.type.array                                ? SqlType::arrayOf({p.type.scalar, -1})
                                                                   : SqlType{p.type.scalar, -1};
    if (p.type.kind == RoutineType::Kind::Record) {
      param.type.kind = plpgsql::VarType::Kind::Record;
    } else if (p.type.kind == RoutineType::Kind::Composite) {
      // A variable of the type's fields, which the call unpacks the argument into.
      param.type.kind = plpgsql::VarType::Kind::Row;
      param.type.scalar = compositeType(p.type);
      param.type.table = {p.type.tableSchema, p.type.table};
      for (const RecordField& f : recordFields(param.type.scalar)) param.type.columns.emplace_back(f.name, f.type);
      shape.params.push_back(std::move(param));
      continue;
    } else if (actual.isArray()) {
      param.type.kind = plpgsql::VarType::Kind::Array;
    }
    param.type.scalar = p.type.kind != RoutineType::Kind::Polymorphic ? p.type.element()
                        : actual.isArray()                            ? actual.elementType()
                                                                      : actual;
    shape.params.push_back(std::move(param));
  }
  return shape;
}

plpgsql::TableLookup RoutineCache::tableColumnsLookup() const {
  return [this](const std::vector<std::string>& name) -> std::optional<plpgsql::TableColumns> {
    Catalog::Relation r = state_.engine.catalog.findRelation(*state_.db, state_.relationPath(name), name.back());
    if (!r.table && !r.view) {
      // A composite type's fields, as %ROWTYPE and a variable of the type take them.
      auto type = state_.namedRowType(name);
      if (!type) return std::nullopt;
      plpgsql::TableColumns columns;
      for (const RecordField& f : recordFields(type->type)) columns.emplace_back(f.name, f.type);
      return columns;
    }
    plpgsql::TableColumns columns;
    for (const ColumnDef& c : r.table ? r.table->columns : r.view->columns) columns.emplace_back(c.name, c.type);
    return columns;
  };
}

}  // namespace duet
