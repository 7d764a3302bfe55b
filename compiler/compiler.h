// The compiler's one entry for the layers above it (session/): parsing statements,
// planning and compiling them to native code, checking and compiling routine bodies.
// Nothing here, nor anything it includes, names an LLVM type: LLVM's headers stay inside
// compiler/codegen and compiler/plpgsql (scripts/check_layers.py keeps session/ to this
// header).
#pragma once
#include <memory>

#include "compiler/codegen/compiled_query.h"
#include "compiler/parser/ast_walk.h"
#include "compiler/parser/parser.h"
#include "compiler/parser/source_position.h"
#include "compiler/planner/direct_call.h"
#include "compiler/planner/planner.h"
#include "compiler/plpgsql/compiled_routine.h"
#include "compiler/plpgsql/plpgsql.h"
#include "compiler/runtime/query_runtime.h"

namespace duet {

// Registers the runtime functions generated code calls with the JIT. Idempotent; call it
// before the first statement so that the first query does not pay for it.
void prepareCompiler();

// Plans the statement (planTree), marks what may run on request.parallelThreads threads,
// and compiles the plan to native code (PreparedPlan::compiled). Throws SqlError (with
// position) for unknown names, type errors, unsupported features; 57014 when cancelled.
std::unique_ptr<PreparedPlan> planStatement(const PlanRequest& request);

}  // namespace duet
