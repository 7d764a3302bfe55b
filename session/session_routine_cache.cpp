// The engine-wide cache of compiled routines. CREATE [OR REPLACE] FUNCTION | PROCEDURE
// compiles the routine to machine code, so that its first call runs at once. The code
// holds what its compilation read of the catalog (tables inlined into its statements,
// overloads chosen for its calls), so it is kept with a fingerprint of each lookup the
// compilation made, found or not. Any DDL moves the catalog version on; the next call
// then looks again: while its own definition and every fingerprint are the same, the
// code still fits and is kept; otherwise it is compiled again there, at that call. That
// recompilation is lazy on purpose: eager recompilation at the DDL would compile
// routines that may never be called again (a DROP TABLE ... CREATE TABLE script would
// compile every dependent routine twice, the first time against a missing table), and
// between two statements of one transaction the catalog may still be half-built. A name
// that was not found is a dependency too: a routine that names a table created later
// compiles (the statement raises 42P01 where it runs, as PostgreSQL's lazily bound
// PL/pgSQL does) and compiles again at the first call after the table exists.
#include <fmt/format.h>

#include "compiler/compiler.h"
#include "session/sql_session.h"

namespace duet {
namespace {

std::string typeKey(const SqlType& t) { return fmt::format("{}/{}/{}", int(t.id), t.typmod, int(t.element)); }

// Everything a call's binding takes from the routine (see RoutineCandidate).
std::string candidateKey(const RoutineCandidate& c) {
  std::string k = fmt::format("{} {} {} {} {}", c.oid, c.name, c.procedure, c.returnsSet, typeKey(c.returnType));
  for (size_t a = 0; a < c.argTypes.size(); ++a)
    k += fmt::format("|{} {} {} {}", typeKey(c.argTypes[a]), c.argNames[a], bool(c.argOutputs[a]), c.defaults[a]);
  for (size_t r = 0; r < c.resultTypes.size(); ++r)
    k += fmt::format("|>{} {}", c.resultNames[r], typeKey(c.resultTypes[r]));
  return k;
}

// The cache key's second half: a record function's row type, spelled out.
std::string rowKey(const std::vector<SqlType>& row) {
  std::string k;
  for (const SqlType& t : row) k += typeKey(t) + ";";
  return k;
}

}  // namespace

std::string SqlSession::tableFingerprint(const std::vector<std::string>& name) const {
  std::string schema = name.size() >= 2 ? name[name.size() - 2] : std::string();
  const TableInfo* t = engine_.catalog.findTable(*db_, schema, name.back());
  if (!t) return {};  // a table of this name created later changes it
  std::string f = fmt::format("{}@{}", t->oid, fmt::ptr(t->table.get()));
  for (const ColumnDef& c : t->columns)
    f += fmt::format("|{} {} {} {}", c.name, typeKey(c.type), c.notNull, c.defaultSql);
  for (const IndexInfo* i : t->indexes) f += fmt::format("|index {}@{}", i->oid, fmt::ptr(i->index));
  return f;
}

std::string SqlSession::routinesFingerprint(const std::vector<std::string>& names) const {
  std::string f;
  for (const RoutineCandidate& c : routineCandidates(names)) f += candidateKey(c) + ";";
  return f;
}

std::string SqlSession::routineDefinition(const RoutineInfo& info) const {
  std::string d = fmt::format("{} {} {}|", candidateKey(candidateOf(info)), info.strict, int(info.language));
  for (const RoutineParamInfo& p : info.params) d += fmt::format("{} {}|", p.name, int(p.mode));
  return d + info.body;
}

std::shared_ptr<plpgsql::CompiledRoutine> SqlSession::compileAndCache(const RoutineInfo& info, bool validate,
                                                                      const std::vector<SqlType>& recordRow) {
  CachedRoutine entry;
  auto* deps = &entry.dependencies;
  plpgsql::RoutineCompileRequest request = compileRequest(info, recordRow);
  request.validate = validate;
  request.optimiseBudgetMs = settings_.maxCompileMs();
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
  entry.code = plpgsql::compileRoutine(request);
  entry.returnsRecord = request.returnsRecord;
  entry.catalogVersion = engine_.catalogVersion;
  entry.definition = routineDefinition(info);
  std::shared_ptr<plpgsql::CompiledRoutine> code = entry.code;
  engine_.routines[{info.oid, rowKey(recordRow)}] = std::move(entry);
  return code;
}

bool SqlSession::stillFits(const RoutineInfo& info, const CachedRoutine& cached) const {
  if (cached.definition != routineDefinition(info)) return false;
  for (const auto& [key, fingerprint] : cached.dependencies) {
    const auto& [kind, name] = key;
    if ((kind == 't' ? tableFingerprint(name) : routinesFingerprint(name)) != fingerprint) return false;
  }
  return true;
}

std::shared_ptr<plpgsql::CompiledRoutine> SqlSession::compiledRoutine(uint32_t oid, const std::vector<SqlType>& row) {
  // Every call passes here: a routine not returning record is found with one lookup,
  // before the catalog is searched or a key is spelled out.
  auto plain = engine_.routines.find({oid, std::string()});
  if (plain != engine_.routines.end() && !plain->second.returnsRecord &&
      plain->second.catalogVersion == engine_.catalogVersion)
    return plain->second.code;
  const RoutineInfo* info = routineByOid(oid);
  // Only a function returning record is compiled per row type; others ignore the row.
  std::vector<SqlType> recordRow = info && candidateOf(*info).returnsRecord ? row : std::vector<SqlType>{};
  auto it = engine_.routines.find({oid, rowKey(recordRow)});
  if (it != engine_.routines.end() && it->second.catalogVersion == engine_.catalogVersion) return it->second.code;
  if (!info) {
    forgetCompiledRoutine(oid);
    throw SqlError(sqlstate::kUndefinedFunction, fmt::format("function with OID {} does not exist", oid));
  }
  if (it != engine_.routines.end() && stillFits(*info, it->second)) {
    it->second.catalogVersion = engine_.catalogVersion;
    return it->second.code;
  }
  return compileAndCache(*info, false, recordRow);
}

void SqlSession::forgetCompiledRoutine(uint32_t oid) {
  auto it = engine_.routines.lower_bound({oid, std::string()});
  while (it != engine_.routines.end() && it->first.first == oid) it = engine_.routines.erase(it);
}

void SqlSession::discardStaleRoutines() {
  for (auto it = engine_.routines.begin(); it != engine_.routines.end();) {
    const RoutineInfo* info = routineByOid(it->first.first);
    if (!info || it->second.definition != routineDefinition(*info))
      it = engine_.routines.erase(it);
    else
      ++it;
  }
}

}  // namespace duet
