// Calling functions and procedures: what the binder may call (the catalog's routines as
// RoutineCandidates), what compiling one takes (its code is cached engine-wide by oid:
// session_routine_cache.cpp), and running it for compiled code (SessionServices).
#include <fmt/format.h>

#include "compiler/compiler.h"
#include "session/sql_session.h"

namespace duet {
namespace {

SqlType callType(const RoutineType& t) {
  if (t.kind != RoutineType::Kind::Scalar) return {TypeId::Unknown, -1};
  if (t.array) return SqlType::arrayOf({t.scalar, -1});
  return {t.scalar, -1};
}

}  // namespace

RoutineCandidate SqlSession::candidateOf(const RoutineInfo& r) const {
  RoutineCandidate c;
  c.oid = r.oid;
  c.name = r.name;
  c.procedure = r.kind == RoutineKind::Procedure;
  c.returnsSet = r.returnsSet;
  std::vector<const RoutineParamInfo*> outputs;
  for (const RoutineParamInfo& p : r.params) {
    if (p.isOutput()) outputs.push_back(&p);
    if (!p.isInput() && !c.procedure) continue;
    c.argTypes.push_back(callType(p.type));
    c.argNames.push_back(p.name);
    c.argOutputs.push_back(p.isOutput());
    c.defaults.push_back(p.defaultSql);
  }
  if (!outputs.empty()) {
    for (const RoutineParamInfo* p : outputs) {
      c.resultNames.push_back(p->name.empty() ? fmt::format("column{}", c.resultNames.size() + 1) : p->name);
      c.resultTypes.push_back(callType(p->type));
    }
    if (outputs.size() == 1) c.returnType = c.resultTypes[0];
  } else if (r.returnType.kind == RoutineType::Kind::Scalar) {
    c.returnType = callType(r.returnType);
    c.resultNames.push_back(r.name);
    c.resultTypes.push_back(c.returnType);
  } else if (r.returnType.kind == RoutineType::Kind::Record && !c.procedure) {
    c.returnsRecord = true;
  } else if (r.returnType.kind == RoutineType::Kind::Composite) {
    // The table's columns as they are now; a table dropped since CREATE (PostgreSQL
    // would have refused while the function depends on its type) leaves no type.
    const TableInfo* table = engine_.catalog.findTable(*db_, r.returnType.tableSchema, r.returnType.table);
    if (!table)
      throw SqlError(sqlstate::kUndefinedObject, fmt::format("type \"{}\" does not exist", r.returnType.table));
    c.returnsComposite = true;
    for (const ColumnDef& col : table->columns) {
      c.resultNames.push_back(col.name);
      c.resultTypes.push_back(col.type);
    }
  } else if (r.returnType.kind == RoutineType::Kind::Void && !c.procedure) {
    c.returnType = {TypeId::Text, -1};
    c.resultNames.push_back(r.name);
    c.resultTypes.push_back(c.returnType);
  }
  return c;
}

std::vector<RoutineCandidate> SqlSession::routineCandidates(const std::vector<std::string>& names) const {
  std::string schema = names.size() >= 2 ? names[names.size() - 2] : std::string();
  std::vector<RoutineCandidate> out;
  for (const RoutineInfo* r : engine_.catalog.findRoutines(*db_, schema, names.back())) out.push_back(candidateOf(*r));
  return out;
}

const RoutineInfo* SqlSession::routineByOid(uint32_t oid) const {
  for (const auto& [schemaName, schema] : db_->schemas)
    for (const auto& [name, overloads] : schema->routines)
      for (const auto& r : overloads)
        if (r->oid == oid) return r.get();
  return nullptr;
}

// PL/pgSQL and LANGUAGE sql routines compile alike: an SQL body becomes the same tree. A
// function returning record returns `recordRow` (a call's column definition list; empty
// when CREATE validates an SQL body, which then checks only that it returns rows).
plpgsql::RoutineCompileRequest SqlSession::compileRequest(const RoutineInfo& info,
                                                          const std::vector<SqlType>& recordRow) {
  plpgsql::RoutineCompileRequest request;
  request.shape = routineShape(info);
  request.signature = info.signature();
  request.body = info.body;
  RoutineCandidate c = candidateOf(info);
  request.returnType = c.returnType;
  request.rowTypes = c.returnsRecord ? recordRow : c.resultTypes;
  request.returnsRecord = c.returnsRecord;
  request.returnsRow = c.returnsRecord || c.returnsComposite;
  request.rowTypeName = routineTypeName(info.returnType);
  request.resolveTable = tableResolver();
  request.resolveRoutines = [this](const std::vector<std::string>& names) { return routineCandidates(names); };
  request.tableColumns = tableColumnsLookup();
  request.strict = info.strict;
  request.sqlBody = info.language == RoutineLanguage::Sql;
  return request;
}

void SqlSession::callRoutine(rt::QueryContext& ctx, uint32_t oid, const uint8_t* args, uint8_t* result,
                             rt::TupleBuffer* rows) {
  std::shared_ptr<plpgsql::CompiledRoutine> routine =
      compiledRoutine(oid, rows ? rows->layout().types : std::vector<SqlType>{});
  plpgsql::runRoutine(*routine, ctx, args, result, rows);
}

void SqlSession::notice(const char* severity, std::string message) {
  // Filtered now, at the client_min_messages of the moment it is raised, as PostgreSQL does.
  if (!reachesClient(severity)) return;
  std::string code = std::string_view(severity) == "WARNING" ? "01000" : "00000";
  pendingNotices_.push_back(Notice::make(severity, code, std::move(message)));
}

const std::string* SqlSession::currentSetting(std::string_view name) const {
  return findSetting(name) ? &settings_.get(name) : nullptr;
}

}  // namespace duet
