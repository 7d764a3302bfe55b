// The compiler facade: planning followed by code generation, and the JIT's runtime.
#include "compiler/compiler.h"

#include "compiler/codegen/jit_symbols.h"
#include "compiler/planner/parallel.h"

namespace duet {

PreparedPlan::PreparedPlan() = default;
PreparedPlan::~PreparedPlan() = default;

void prepareCompiler() { registerJitRuntime(); }

std::unique_ptr<PreparedPlan> planStatement(const PlanRequest& request) {
  PlannedStatement s = planTree(request);
  if (request.parallelThreads > 1) {
    plan::markParallel(*s.root, request.parallelThreads);
    s.plan->planOutline = plan::outline(*s.root);
  }
  s.plan->compiled = compileQuery(*s.root, s.plan->paramTypes, request.optLevel, request.optimiseBudgetMs);
  return std::move(s.plan);
}

}  // namespace duet
