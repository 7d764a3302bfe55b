// The compiler's one entry for the layers above it (session/): parsing statements,
// planning and compiling them to native code, checking and compiling routine bodies.
// Nothing here, nor anything it includes, names an LLVM type: LLVM's headers stay inside
// compiler/codegen and compiler/plpgsql (scripts/check_layers.py keeps session/ to this
// header).
#pragma once
#include <memory>

#include "compiler/binder/polymorphic_types.h"
#include "compiler/codegen/compiled_query.h"
#include "compiler/parser/ast_deparse.h"
#include "compiler/parser/ast_walk.h"
#include "compiler/parser/parser.h"
#include "compiler/parser/source_position.h"
#include "compiler/plan/explain.h"
#include "compiler/planner/direct_call.h"
#include "compiler/planner/planner.h"
#include "compiler/plpgsql/compiled_routine.h"
#include "compiler/plpgsql/plpgsql.h"
#include "compiler/runtime/instrumentation.h"
#include "compiler/runtime/portal.h"
#include "compiler/runtime/query_runtime.h"

namespace duet {

// Registers the runtime functions generated code calls with the JIT. Idempotent; call it
// before the first statement so that the first query does not pay for it.
void prepareCompiler();

// Drops the optimiser thread's queue and waits for the JIT's threads to finish the modules
// they compile (docs/codegen.md, "Compile tiers"). An engine calls it when it goes (its
// plans' optimised tiers are wanted no more), and so does a process that compiles without
// one before it exits normally: exit destroys LLVM's static objects, which a thread still
// compiling would use. (A snapshot process ends with _exit.)
void finishCompilerThreads();

// Plans the statement (planTree), marks what may run on request.parallelThreads threads,
// and compiles the plan to native code (PreparedPlan::compiled). Throws SqlError (with
// position) for unknown names, type errors, unsupported features; 57014 when cancelled.
std::unique_ptr<PreparedPlan> planStatement(const PlanRequest& request);

// What a cursor's portal keeps of its query's rows (rt::Portal): whole rows of the query's
// output layout `output`, read through `layout` (the plan's columns only: FETCH's), with the
// row ids WHERE CURRENT OF reads past them (PreparedPlan::cursorRowIds).
struct CursorRows {
  TupleLayout layout;
  rt::CursorRowIds rowIds;
};
CursorRows cursorRows(const PreparedPlan& plan, const TupleLayout& output);

// EXPLAIN (docs/explain.md): the statement planned as planStatement plans it, parallel
// marks included, with its plan tree kept and nothing compiled; planningMs: how long it took.
struct ExplainedStatement {
  std::unique_ptr<PreparedPlan> plan;
  plan::NodePtr root;
  double planningMs = 0;
};
ExplainedStatement planForExplain(const PlanRequest& request);
// EXPLAIN ANALYZE: compiles the plan (into plan->compiled) with counters for every node
// numbered in `numbers` (plan::explainNumbers), timed when `timing`; the code then needs a
// QueryContext::instrumentation of that many nodes.
void compileForAnalyze(ExplainedStatement& s, const PlanRequest& request,
                       const std::unordered_map<const plan::Node*, uint32_t>& numbers, bool timing);
// What an analysed run counted (counts.finish() called), as EXPLAIN shows it.
std::vector<plan::NodeActuals> nodeActuals(const rt::Instrumentation& counts);
// How an analysed run's code was made, each compile tier (EXPLAIN's JIT section); waits for
// the optimised tier the optimiser thread is still making.
plan::ExplainJit explainJit(const CompiledQuery& code, const rt::Instrumentation& counts);
// The SQL name of the built-in function a runtime symbol implements, for EXPLAIN's
// expressions: its row in the built-in table, else the symbol without its prefix.
std::string sqlFunctionName(const std::string& symbol);
// Whether the built-in function a runtime symbol implements is VOLATILE (random, setseed,
// clock_timestamp): a statement calling one stays with its session (snapshot routing).
bool builtinFunctionVolatile(const std::string& symbol);

}  // namespace duet
