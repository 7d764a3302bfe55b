// The built-in aggregate table (compiler/functions/builtin_aggregates.h) and the
// precompiled states of compiler/runtime/aggregate_runtime.h.
#include <catch2/catch.hpp>

#include <cstring>
#include <set>
#include <string>
#include <tuple>

#include "compiler/functions/builtin_aggregates.h"
#include "compiler/runtime/aggregate_runtime.h"
#include "engine/types/numeric.h"

using namespace duet;
using plan::AggKind;

TEST_CASE("built-in aggregates: every row has what its kind needs", "[functions]") {
  std::set<std::tuple<std::string, std::vector<TypeId>>> seen;
  for (const BuiltinAggregate& a : builtinAggregates()) {
    INFO(a.name);
    CHECK(seen.insert({std::string(a.name), a.args}).second);  // one row per argument list
    CHECK(a.stateSize <= kAggregateSlot);
    if (a.kind == AggKind::Stepped) {
      CHECK((a.step.address && a.final.address && a.combine.address));
      CHECK(a.stateSize > 0);
    } else if (a.kind == AggKind::Collected) {
      CHECK(a.final.address != nullptr);
      CHECK(a.step.address == nullptr);
    } else {
      CHECK((!a.step.address && !a.final.address && !a.combine.address));
    }
    if (a.orderedSet) CHECK(a.directArgs < a.args.size());
    // An ordered-set aggregate's rows are one name: WITHIN GROUP is required or not by name.
    for (const BuiltinAggregate* other : builtinAggregatesNamed(a.name)) CHECK(other->orderedSet == a.orderedSet);
  }
  CHECK(isBuiltinAggregate("stddev"));
  CHECK_FALSE(isBuiltinAggregate("lower"));
}

TEST_CASE("aggregate states: a zeroed state is empty, and partial states combine", "[functions]") {
  alignas(16) uint8_t all[kAggregateSlot] = {}, a[kAggregateSlot] = {}, b[kAggregateSlot] = {};
  bool isNull = false;
  duet_q_agg_float8_var_samp(all, &isNull);
  CHECK(isNull);
  const double values[] = {1.5, 2.25, -7, 100, 0.125};
  for (int i = 0; i < 5; ++i) {
    duet_q_agg_float8_accum(all, values[i]);
    duet_q_agg_float8_accum(i < 2 ? a : b, values[i]);
  }
  duet_q_agg_float8_combine(a, b);
  isNull = false;
  CHECK(duet_q_agg_float8_var_samp(a, &isNull) == Approx(duet_q_agg_float8_var_samp(all, &isNull)));
  CHECK_FALSE(isNull);
}

TEST_CASE("numeric square root at a given scale rounds half away from zero", "[types][numeric]") {
  CHECK(numericToString(numericSqrtAtScale(parseNumeric("2"), 16)) == "1.4142135623730950");
  CHECK(numericToString(numericSqrtAtScale(parseNumeric("1.6666666666666667"), 16)) == "1.2909944487358056");
  CHECK(numericToString(numericSqrtAtScale(parseNumeric("0.0001"), 4)) == "0.0100");
  CHECK(numericToString(numericSqrtAtScale(parseNumeric("0"), 2)) == "0.00");
  CHECK(numericToString(numericSqrtAtScale(parseNumeric("99999999999999999999999999"), 0)) == "10000000000000");
}
