// The compiler facade: planning followed by code generation, and the JIT's runtime.
#include "compiler/compiler.h"

#include <chrono>

#include "compiler/codegen/jit_symbols.h"
#include "compiler/functions/builtin_functions.h"
#include "compiler/planner/parallel.h"
#include "engine/elapsed.h"

namespace duet {

PreparedPlan::PreparedPlan() = default;
PreparedPlan::~PreparedPlan() = default;

void prepareCompiler() { registerJitRuntime(); }
void finishCompilerThreads() { finishJitThreads(); }

CursorRows cursorRows(const PreparedPlan& plan, const TupleLayout& output) {
  CursorRows rows;
  rows.layout = output;
  rows.layout.types.resize(plan.columns.size());
  rows.layout.offsets.resize(plan.columns.size());
  rows.rowIds.forUpdate = plan.cursorForUpdate;
  for (const auto& [table, column] : plan.cursorRowIds)
    rows.rowIds.tables.push_back({table, static_cast<uint32_t>(column), output.offsets[column]});
  return rows;
}

namespace {

// planTree, then what may run on request.parallelThreads threads marked.
PlannedStatement planMarked(const PlanRequest& request) {
  PlannedStatement s = planTree(request);
  if (request.parallelThreads > 1) {
    plan::markParallel(*s.root, request.parallelThreads);
    s.plan->planOutline = plan::outline(*s.root);
  }
  return s;
}

}  // namespace

std::unique_ptr<PreparedPlan> planStatement(const PlanRequest& request) {
  PlannedStatement s = planMarked(request);
  s.plan->compiled =
      compileQuery(*s.root, s.plan->paramTypes, request.compileTiers, request.optLevel, request.optimiseBudgetMs);
  return std::move(s.plan);
}

ExplainedStatement planForExplain(const PlanRequest& request) {
  auto started = std::chrono::steady_clock::now();
  PlannedStatement s = planMarked(request);
  return {std::move(s.plan), std::move(s.root), msSince(started)};
}

void compileForAnalyze(ExplainedStatement& s, const PlanRequest& request,
                       const std::unordered_map<const plan::Node*, uint32_t>& numbers, bool timing) {
  s.plan->compiled = compileQuery(*s.root, s.plan->paramTypes, request.compileTiers, request.optLevel,
                                  request.optimiseBudgetMs, Instrument{&numbers, timing});
}

std::vector<plan::NodeActuals> nodeActuals(const rt::Instrumentation& counts) {
  std::vector<plan::NodeActuals> out;
  for (const rt::NodeStats& s : counts.nodes)
    out.push_back({s.rows, s.loops, static_cast<double>(s.startupNs) / 1e6, static_cast<double>(s.totalNs) / 1e6});
  return out;
}

plan::ExplainJit explainJit(const CompiledQuery& code, const rt::Instrumentation& counts) {
  plan::ExplainJit jit;
  jit.functions = code.functions;
  jit.generateMs = code.generateMs;
  jit.cheapMorsels = counts.cheapMorsels;
  jit.optimisedMorsels = counts.optimisedMorsels;
  // The first tier: optimised only when asked for and the module was small enough.
  bool firstOptimised = code.code.optimised;
  const MachineCode* optimised = firstOptimised ? &code.code : nullptr;
  if (!firstOptimised) {
    jit.cheap = true;
    jit.cheapEmitMs = code.code.emitMs;
  }
  if (code.optimised) {
    code.optimised->wait();
    if (code.optimised->addresses.ready()) optimised = &code.optimised->code;
  }
  if (optimised) {
    jit.optimised = true;
    jit.optimiseMs = optimised->optimiseMs;
    jit.optimisedEmitMs = optimised->emitMs;
  }
  return jit;
}

std::string sqlFunctionName(const std::string& symbol) {
  if (const BuiltinFunction* f = builtinFunctionBySymbol(symbol)) return std::string(f->name);
  for (std::string_view prefix : {"duet_rt_", "duet_q_"})
    if (symbol.starts_with(prefix)) return symbol.substr(prefix.size());
  return symbol;
}

bool builtinFunctionVolatile(const std::string& symbol) {
  const BuiltinFunction* f = builtinFunctionBySymbol(symbol);
  return f && f->volatility == Volatility::Volatile;
}

}  // namespace duet
