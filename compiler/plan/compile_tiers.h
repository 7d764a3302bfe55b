// Which code a statement's plan is compiled to (duet.compile_tier; docs/codegen.md,
// "Compile tiers"): asked for by PlanRequest, carried out by compileQuery.
#pragma once
#include <cstdint>

namespace duet {

enum class CompileTiers : uint8_t {
  Adaptive,   // the cheap tier's code at once, the optimised tier's from the optimiser thread
  Cheap,      // only the cheap tier's
  Optimised,  // only the optimised tier's, made before the statement runs
};

}  // namespace duet
