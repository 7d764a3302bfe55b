// The built-in aggregate functions, as data: one row per aggregate and argument list
// (PostgreSQL's pg_aggregate with its pg_proc rows, reduced to what DuetDB needs). The
// binder resolves aggregate calls from it by name and argument types (as it does
// functions, builtin_functions.h); the code generator keeps and folds each call's state
// as its row's `kind` says, calling the row's precompiled functions
// (compiler/runtime/aggregate_runtime.h) for Stepped and Collected states; the JIT
// registers those by name.
#pragma once
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "compiler/plan/plan.h"
#include "engine/types/type_id.h"

namespace duet {

// A precompiled function's name, for generated code, and its address, for the JIT.
struct AggregateFunction {
  const char* symbol = nullptr;
  void* address = nullptr;
};

struct BuiltinAggregate {
  std::string_view name{};  // SQL name (in pg_catalog), lowercase
  // Argument types, in order; Unknown: any type (PostgreSQL's anyelement). An ordered-set
  // aggregate's direct arguments come first, then its WITHIN GROUP argument.
  std::vector<TypeId> args{};
  // Unknown: the type of the aggregated argument (min, max, percentile_disc, mode). Array:
  // an array of `resultElement`, or of the aggregated argument's type when that is Unknown.
  TypeId result = TypeId::Unknown;
  plan::AggKind kind = plan::AggKind::Count;
  // Stepped: step(state, args...) folds a row without NULL arguments into the zeroed
  // state; final(state, bool* isNull) gives the result; combine(into, from) merges a
  // parallel worker's state. Collected: final(rows, column, bool* isNull) over the sorted
  // rows (runtime/aggregate_runtime.h).
  AggregateFunction step{}, final{}, combine{};
  TypeId resultElement = TypeId::Unknown;
  TypeId argElement = TypeId::Unknown;  // the element type of an Array argument
  uint8_t directArgs = 0;               // an ordered-set aggregate: how many of `args` are direct
  bool orderedSet = false;              // called with WITHIN GROUP (ORDER BY ...)
  bool keepsNulls = false;              // NULL inputs are aggregated too (array_agg)
  bool finalGivesRow = false;           // final returns the row holding the result value
  bool jsonArgs = false;                // the arguments are aggregated as JSON texts (to_json): json_agg
  uint32_t stateSize = 0;               // Stepped: bytes of the state (at most kAggregateSlot)
};

// The bytes of one aggregate call's state in a group's state block.
inline constexpr uint32_t kAggregateSlot = 48;

// Every row, in one table (builtin_aggregates.cpp); AggSpec::aggregate is a row's index.
std::span<const BuiltinAggregate> builtinAggregates();
// The rows called `name`; empty when no aggregate has that name.
std::vector<const BuiltinAggregate*> builtinAggregatesNamed(std::string_view name);
bool isBuiltinAggregate(std::string_view name);

}  // namespace duet
