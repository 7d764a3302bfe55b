// Plans through the engine's plan cache, and the parameter tuples of lifted literals.
#include "session/statement_planner.h"

#include <algorithm>

#include <fmt/format.h>

#include "session/table_analysis.h"

namespace duet {
std::string StatementPlanner::planKey(const Statement& st) const {
  const sql::ParsedStatement& p = st.parsed;
  std::string key = fmt::format("{}|{}|", state_.db->oid, state_.searchPath().key);
  for (const SqlType& t : st.declaredTypes) key += fmt::format("{}:{},", typeOid(t), t.typmod);
  key += '|';
  if (p.shapeKey.empty())
    key += st.sql.substr(p.stmt->begin, p.stmt->end - p.stmt->begin);
  else
    key += p.shapeKey;
  if (uint32_t threads = parallelThreads(); threads > 1) key += fmt::format("|parallel {}", threads);
  // A plan compiled to one tier only keeps it: the other settings' plans are apart.
  if (CompileTiers tiers = state_.settings.compileTiers(); tiers != CompileTiers::Adaptive)
    key += fmt::format("|tiers {}", static_cast<int>(tiers));
  return key;
}

uint32_t StatementPlanner::parallelThreads() const {
  if (state_.engine.parallelThreads <= 1) return 1;  // the executor: every statement, no lookup
  return std::min<uint32_t>(1 + state_.settings.maxParallelWorkersPerGather(), state_.engine.parallelThreads);
}

PlanRequest StatementPlanner::planRequest(const Statement& st) {
  const sql::ParsedStatement& p = st.parsed;
  PlanRequest request;
  request.stmt = p.stmt.get();
  request.declaredParamTypes = st.declaredTypes;
  for (const auto& lit : p.literals) {
    request.literalTypes.push_back(literalType(lit.kind));
    request.literalUses.push_back(lit.uses);
    request.literalSameAs.push_back(lit.sameTextAs);
  }
  request.explicitParamCount = p.explicitParams;
  request.queryText = st.sql;
  request.resolveTable = state_.tableResolver();
  request.resolveRoutines = [this](const std::vector<std::string>& names) {
    return routines_.routineCandidates(names);
  };
  request.resolveTypeName = state_.typeResolver();
  request.parallelThreads = parallelThreads();
  request.optimiseBudgetMs = state_.settings.maxCompileMs();
  request.compileTiers = state_.settings.compileTiers();
  return request;
}

std::shared_ptr<PreparedPlan> StatementPlanner::planFor(Statement& st) {
  TableAnalysis::analyzeDue(state_.engine);  // statistics due before anything is planned
  std::string key = planKey(st);
  EngineState& engine = state_.engine;
  if (auto cached = engine.plans.find(key, engine.catalogVersion)) return cached;
  std::shared_ptr<PreparedPlan> plan = planStatement(planRequest(st));
  plan->catalogVersion = engine.catalogVersion;
  plan->searchPath = state_.searchPath().key;
  engine.plans.put(key, plan);
  return plan;
}

bool StatementPlanner::stale(const PreparedPlan& plan) const {
  return plan.catalogVersion != state_.engine.catalogVersion || plan.searchPath != state_.searchPath().key;
}

std::shared_ptr<PreparedPlan> StatementPlanner::replan(Statement& st) {
  std::shared_ptr<PreparedPlan> plan = planFor(st);
  const std::vector<OutputColumn>& before = st.plan->columns;
  const std::vector<OutputColumn>& after = plan->columns;
  bool same = before.size() == after.size();
  for (size_t c = 0; same && c < before.size(); ++c) same = before[c].type == after[c].type;
  if (!same) throw SqlError(sqlstate::kFeatureNotSupported, "cached plan must not change result type");
  return plan;
}

std::unique_ptr<ParamTuple> StatementPlanner::literalParams(const Statement& st) {
  auto params = std::make_unique<ParamTuple>(st.plan->compiled->paramLayout);
  for (const auto& lit : st.parsed.literals) {
    try {
      params->set(lit.paramNumber - 1, lit.value(), 0, state_.settings.typeContext());
    } catch (SqlError& e) {
      // Read as its type here, the literal is where PostgreSQL's parser reports the error.
      if (e.position == 0) e.position = sql::sqlPosition(st.sql, lit.location);
      throw;
    }
  }
  return params;
}

}  // namespace duet
