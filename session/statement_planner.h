// A statement's compiled plan through the engine's plan cache (plan_cache.cpp): the cache
// key (database, search_path, declared parameter types, the statement's shape with literals
// lifted, the thread count in a snapshot process), what the compiler needs to plan it (the
// catalog's tables and routines as this session sees them, the lifted literals' kinds,
// duet.max_compile_ms), and the parameter tuple of its lifted literals. Every part that
// plans - running statements, COPY, snapshot routing, the extended protocol - plans here.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "compiler/compiler.h"
#include "session/routine_cache.h"
#include "session/session_state.h"
#include "session/statement.h"
#include "session/value_io.h"

namespace duet {

class StatementPlanner {
 public:
  StatementPlanner(SessionState& state, RoutineCache& routines) : state_(state), routines_(routines) {}

  // The cached plan of st, or a new one, compiled and cached.
  std::shared_ptr<PreparedPlan> planFor(Statement& st);
  // A prepared statement's plan once DDL made it stale: planned again, and 0A000 "cached
  // plan must not change result type" when its result columns changed (ALTER TABLE under
  // a SELECT *), as PostgreSQL's RevalidateCachedQuery refuses: its clients were told the
  // old columns.
  std::shared_ptr<PreparedPlan> replan(Statement& st);
  // Whether a statement's plan must be made again before it runs: DDL happened since, or
  // the search path finds names elsewhere now (PostgreSQL replans a prepared statement then).
  bool stale(const PreparedPlan& plan) const;
  // The plan cache key of st, and what planStatement (or planTree) needs to plan it.
  std::string planKey(const Statement& st) const;
  PlanRequest planRequest(const Statement& st);
  // The parameter tuple of a simple Query's statement: its lifted literals.
  std::unique_ptr<ParamTuple> literalParams(const Statement& st);

 private:
  // How many threads this session's statements may use: 1 on the executor.
  uint32_t parallelThreads() const;

  SessionState& state_;
  RoutineCache& routines_;
};

}  // namespace duet
