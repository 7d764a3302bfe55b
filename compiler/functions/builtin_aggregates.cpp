#include "compiler/functions/builtin_aggregates.h"

#include "compiler/runtime/aggregate_runtime.h"
#include "compiler/runtime/json_runtime.h"
#include "engine/invariant.h"

namespace duet {
namespace {

using enum TypeId;
using plan::AggKind;

#define DUET_AGG(fn) \
  AggregateFunction { #fn, reinterpret_cast<void*>(&fn) }

BuiltinAggregate aggregate(std::string_view name, std::vector<TypeId> args, TypeId result, AggKind kind) {
  BuiltinAggregate a;
  a.name = name;
  a.args = std::move(args);
  a.result = result;
  a.kind = kind;
  return a;
}

// Folded by generated code in its slot.
BuiltinAggregate folded(std::string_view name, std::vector<TypeId> args, TypeId result, AggKind kind) {
  return aggregate(name, std::move(args), result, kind);
}

// A fixed state of `stateSize` bytes folded by precompiled functions.
BuiltinAggregate stepped(std::string_view name, std::vector<TypeId> args, TypeId result, AggregateFunction step,
                         AggregateFunction final, AggregateFunction combine, uint32_t stateSize) {
  BuiltinAggregate a = aggregate(name, std::move(args), result, AggKind::Stepped);
  a.step = step;
  a.final = final;
  a.combine = combine;
  a.stateSize = stateSize;
  return a;
}

// Rows kept in a buffer, which `final` reads sorted.
BuiltinAggregate collected(std::string_view name, std::vector<TypeId> args, TypeId result, AggregateFunction final) {
  BuiltinAggregate a = aggregate(name, std::move(args), result, AggKind::Collected);
  a.final = final;
  return a;
}

// An ordered-set aggregate: `directArgs` of `args`, then the WITHIN GROUP argument.
BuiltinAggregate orderedSet(std::string_view name, std::vector<TypeId> args, TypeId result, AggregateFunction final,
                            uint8_t directArgs) {
  BuiltinAggregate a = collected(name, std::move(args), result, final);
  a.orderedSet = true;
  a.directArgs = directArgs;
  return a;
}

std::vector<BuiltinAggregate> makeAggregates() {
  constexpr uint32_t kFloatState = 24, kRegrState = 48, kNumericState = 48, kIntervalState = 32;
  std::vector<BuiltinAggregate> rows = {
      folded("count", {}, Int8, AggKind::CountStar),  // count(*)
      folded("count", {Unknown}, Int8, AggKind::Count),
      folded("sum", {Int2}, Int8, AggKind::Sum),
      folded("sum", {Int4}, Int8, AggKind::Sum),
      folded("sum", {Int8}, Numeric, AggKind::Sum),
      folded("sum", {Numeric}, Numeric, AggKind::Sum),
      folded("sum", {Float4}, Float4, AggKind::Sum),
      folded("sum", {Float8}, Float8, AggKind::Sum),
      folded("sum", {Interval}, Interval, AggKind::Sum),
      folded("avg", {Int2}, Numeric, AggKind::Avg),
      folded("avg", {Int4}, Numeric, AggKind::Avg),
      folded("avg", {Int8}, Numeric, AggKind::Avg),
      folded("avg", {Numeric}, Numeric, AggKind::Avg),
      folded("avg", {Float4}, Float8, AggKind::Avg),
      folded("avg", {Float8}, Float8, AggKind::Avg),
      stepped("avg", {Interval}, Interval, DUET_AGG(duet_q_agg_interval_accum), DUET_AGG(duet_q_agg_interval_avg),
              DUET_AGG(duet_q_agg_interval_combine), kIntervalState),
      folded("min", {Unknown}, Unknown, AggKind::Min),
      folded("max", {Unknown}, Unknown, AggKind::Max),
      folded("bool_and", {Bool}, Bool, AggKind::BoolAnd),
      folded("every", {Bool}, Bool, AggKind::BoolAnd),
      folded("bool_or", {Bool}, Bool, AggKind::BoolOr),
      collected("string_agg", {Text, Text}, Text, DUET_AGG(duet_q_agg_string_agg_final)),
      collected("string_agg", {Bytea, Bytea}, Bytea, DUET_AGG(duet_q_agg_string_agg_final)),
      orderedSet("percentile_cont", {Float8, Float8}, Float8, DUET_AGG(duet_q_agg_percentile_cont_float8_final), 1),
      orderedSet("percentile_cont", {Float8, Interval}, Interval, DUET_AGG(duet_q_agg_percentile_cont_interval_final),
                 1),
  };
  BuiltinAggregate arrayAgg = collected("array_agg", {Unknown}, Array, DUET_AGG(duet_q_agg_array_agg_final));
  arrayAgg.keepsNulls = true;
  rows.push_back(arrayAgg);
  // json_agg and json_object_agg: the values as JSON, NULLs as null.
  const BuiltinAggregate jsonAggregates[] = {
      collected("json_agg", {Unknown}, Json, DUET_AGG(duet_q_agg_json_agg_final)),
      collected("jsonb_agg", {Unknown}, Jsonb, DUET_AGG(duet_q_agg_jsonb_agg_final)),
      collected("json_object_agg", {Unknown, Unknown}, Json, DUET_AGG(duet_q_agg_json_object_agg_final)),
      collected("jsonb_object_agg", {Unknown, Unknown}, Jsonb, DUET_AGG(duet_q_agg_jsonb_object_agg_final)),
  };
  for (BuiltinAggregate a : jsonAggregates) {
    a.keepsNulls = true;
    a.jsonArgs = true;
    rows.push_back(std::move(a));
  }
  // percentile_cont and percentile_disc of a float8[]: one value per fraction.
  BuiltinAggregate contFloats =
      orderedSet("percentile_cont", {Array, Float8}, Array, DUET_AGG(duet_q_agg_percentile_cont_float8_multi_final), 1);
  contFloats.argElement = Float8;
  contFloats.resultElement = Float8;
  rows.push_back(contFloats);
  BuiltinAggregate contIntervals = orderedSet("percentile_cont", {Array, Interval}, Array,
                                              DUET_AGG(duet_q_agg_percentile_cont_interval_multi_final), 1);
  contIntervals.argElement = Float8;
  contIntervals.resultElement = Interval;
  rows.push_back(contIntervals);
  BuiltinAggregate discs =
      orderedSet("percentile_disc", {Array, Unknown}, Array, DUET_AGG(duet_q_agg_percentile_disc_multi_final), 1);
  discs.argElement = Float8;
  rows.push_back(discs);
  BuiltinAggregate percentileDisc =
      orderedSet("percentile_disc", {Float8, Unknown}, Unknown, DUET_AGG(duet_q_agg_percentile_disc_final), 1);
  percentileDisc.finalGivesRow = true;
  rows.push_back(percentileDisc);
  BuiltinAggregate mode = orderedSet("mode", {Unknown}, Unknown, DUET_AGG(duet_q_agg_mode_final), 0);
  mode.finalGivesRow = true;
  rows.push_back(mode);

  // The variances and standard deviations: variance is var_samp, stddev stddev_samp.
  struct Statistic {
    std::string_view name;
    AggregateFunction floatFinal, numericFinal;
  };
  const Statistic statistics[] = {
      {"var_pop", DUET_AGG(duet_q_agg_float8_var_pop), DUET_AGG(duet_q_agg_numeric_var_pop)},
      {"var_samp", DUET_AGG(duet_q_agg_float8_var_samp), DUET_AGG(duet_q_agg_numeric_var_samp)},
      {"variance", DUET_AGG(duet_q_agg_float8_var_samp), DUET_AGG(duet_q_agg_numeric_var_samp)},
      {"stddev_pop", DUET_AGG(duet_q_agg_float8_stddev_pop), DUET_AGG(duet_q_agg_numeric_stddev_pop)},
      {"stddev_samp", DUET_AGG(duet_q_agg_float8_stddev_samp), DUET_AGG(duet_q_agg_numeric_stddev_samp)},
      {"stddev", DUET_AGG(duet_q_agg_float8_stddev_samp), DUET_AGG(duet_q_agg_numeric_stddev_samp)},
  };
  for (const Statistic& s : statistics) {
    AggregateFunction floatCombine = DUET_AGG(duet_q_agg_float8_combine);
    AggregateFunction numericCombine = DUET_AGG(duet_q_agg_numeric_combine);
    rows.push_back(
        stepped(s.name, {Float4}, Float8, DUET_AGG(duet_q_agg_float4_accum), s.floatFinal, floatCombine, kFloatState));
    rows.push_back(
        stepped(s.name, {Float8}, Float8, DUET_AGG(duet_q_agg_float8_accum), s.floatFinal, floatCombine, kFloatState));
    rows.push_back(stepped(s.name, {Int2}, Numeric, DUET_AGG(duet_q_agg_int2_accum), s.numericFinal, numericCombine,
                           kNumericState));
    rows.push_back(stepped(s.name, {Int4}, Numeric, DUET_AGG(duet_q_agg_int4_accum), s.numericFinal, numericCombine,
                           kNumericState));
    rows.push_back(stepped(s.name, {Int8}, Numeric, DUET_AGG(duet_q_agg_int8_accum), s.numericFinal, numericCombine,
                           kNumericState));
    rows.push_back(stepped(s.name, {Numeric}, Numeric, DUET_AGG(duet_q_agg_numeric_accum), s.numericFinal,
                           numericCombine, kNumericState));
  }

  // Two-variable statistics of (Y, X).
  const std::pair<std::string_view, AggregateFunction> regressions[] = {
      {"regr_count", DUET_AGG(duet_q_agg_float8_regr_count)},
      {"regr_sxx", DUET_AGG(duet_q_agg_float8_regr_sxx)},
      {"regr_syy", DUET_AGG(duet_q_agg_float8_regr_syy)},
      {"regr_sxy", DUET_AGG(duet_q_agg_float8_regr_sxy)},
      {"regr_avgx", DUET_AGG(duet_q_agg_float8_regr_avgx)},
      {"regr_avgy", DUET_AGG(duet_q_agg_float8_regr_avgy)},
      {"regr_r2", DUET_AGG(duet_q_agg_float8_regr_r2)},
      {"regr_slope", DUET_AGG(duet_q_agg_float8_regr_slope)},
      {"regr_intercept", DUET_AGG(duet_q_agg_float8_regr_intercept)},
      {"covar_pop", DUET_AGG(duet_q_agg_float8_covar_pop)},
      {"covar_samp", DUET_AGG(duet_q_agg_float8_covar_samp)},
      {"corr", DUET_AGG(duet_q_agg_float8_corr)},
  };
  for (const auto& [name, final] : regressions)
    rows.push_back(stepped(name, {Float8, Float8}, name == "regr_count" ? Int8 : Float8,
                           DUET_AGG(duet_q_agg_float8_regr_accum), final, DUET_AGG(duet_q_agg_float8_regr_combine),
                           kRegrState));
  for (const BuiltinAggregate& a : rows) DUET_INVARIANT(a.stateSize <= kAggregateSlot, "a state fits its slot");
  return rows;
}

const std::vector<BuiltinAggregate> kBuiltinAggregates = makeAggregates();

}  // namespace

std::span<const BuiltinAggregate> builtinAggregates() { return kBuiltinAggregates; }

std::vector<const BuiltinAggregate*> builtinAggregatesNamed(std::string_view name) {
  std::vector<const BuiltinAggregate*> rows;
  for (const BuiltinAggregate& a : kBuiltinAggregates)
    if (a.name == name) rows.push_back(&a);
  return rows;
}

bool isBuiltinAggregate(std::string_view name) {
  for (const BuiltinAggregate& a : kBuiltinAggregates)
    if (a.name == name) return true;
  return false;
}

}  // namespace duet
