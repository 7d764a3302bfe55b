#include "compiler/runtime/aggregate_runtime.h"

#include <cmath>
#include <cstring>
#include <limits>

#include <fmt/format.h>

#include "engine/error.h"
#include "engine/types/array.h"
#include "engine/types/numeric.h"
#include "engine/types/runtime.h"
#include "engine/types/scalar_text.h"
#include "engine/types/type_errors.h"
#include "engine/types/value_io.h"

using duet::IntervalRep;
using duet::NumericRep;
using duet::TupleLayout;
using duet::VarString;
using duet::rt::TupleBuffer;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// float8_accum's transition values.
struct FloatAccum {
  double n, sx, sxx;
};
// float8_regr_accum's.
struct RegrAccum {
  double n, sx, sxx, sy, syy, sxy;
};
// The numeric sums of do_numeric_accum (NaN and infinities have no representation).
struct NumericAccum {
  int64_t n;
  int64_t unused;
  NumericRep sumX, sumX2;
};
struct IntervalAccum {
  IntervalRep sum;
  int64_t n;
};
static_assert(sizeof(RegrAccum) == 48 && sizeof(NumericAccum) == 48 && sizeof(IntervalAccum) == 32);

template <class T>
T* as(uint8_t* state) {
  return reinterpret_cast<T*>(state);
}
template <class T>
const T* as(const uint8_t* state) {
  return reinterpret_cast<const T*>(state);
}

// float8_pl: an infinite sum of finite values overflows.
double addChecked(double a, double b) {
  double r = a + b;
  if (std::isinf(r) && !std::isinf(a) && !std::isinf(b)) duet::raiseFloatOverflow();
  return r;
}

// A NULL result: sets the flag, returns a zero of the result type.
template <class T>
T null(bool* isNull) {
  *isNull = true;
  return T{};
}

bool nullAt(const TupleLayout& l, const uint8_t* row, size_t c) { return row[l.nullOffset(c)] != 0; }
template <class T>
T fieldAt(const TupleLayout& l, const uint8_t* row, size_t c) {
  T v;
  std::memcpy(&v, row + l.offsets[c], sizeof v);
  return v;
}

// percentile_cont's and percentile_disc's argument check.
void checkFraction(double f) {
  if (f < 0 || f > 1 || std::isnan(f)) {
    std::string text;
    duet::formatFloat8(f, text);
    throw duet::SqlError(duet::sqlstate::kNumericValueOutOfRange,
                         fmt::format("percentile value {} is not between 0 and 1", text));
  }
}

// Where percentile_cont's fraction `f` of `count` sorted values falls: the two rows
// (0-based) around it and the weight of the second.
struct Interpolation {
  uint64_t first, second;
  double proportion;
};
Interpolation interpolate(double f, uint64_t count) {
  double position = f * static_cast<double>(count - 1);
  auto first = static_cast<uint64_t>(std::floor(position));
  auto second = static_cast<uint64_t>(std::ceil(position));
  return {first, second, position - static_cast<double>(first)};
}

double lerp(double lo, double hi, double proportion) { return lo + (hi - lo) * proportion; }

// percentile_cont of the sorted values in `column`.
double continuousFloat8(const TupleBuffer& rows, uint32_t column, double f) {
  checkFraction(f);
  const TupleLayout& l = rows.layout();
  Interpolation at = interpolate(f, rows.size());
  double first = fieldAt<double>(l, rows.at(at.first), column);
  if (at.second == at.first) return first;
  return lerp(first, fieldAt<double>(l, rows.at(at.second), column), at.proportion);
}

IntervalRep continuousInterval(const TupleBuffer& rows, uint32_t column, double f) {
  checkFraction(f);
  const TupleLayout& l = rows.layout();
  Interpolation at = interpolate(f, rows.size());
  auto first = fieldAt<IntervalRep>(l, rows.at(at.first), column);
  if (at.second == at.first) return first;
  auto second = fieldAt<IntervalRep>(l, rows.at(at.second), column);
  // interval_lerp: lo + (hi - lo) * proportion
  return duet_rt_interval_add(first, duet_rt_interval_mul(duet_rt_interval_sub(second, first), at.proportion));
}

// percentile_disc: the first row whose position among the sorted rows is at least f of them.
const uint8_t* discreteRow(const TupleBuffer& rows, double f) {
  checkFraction(f);
  auto row = static_cast<uint64_t>(std::ceil(f * static_cast<double>(rows.size())));
  return rows.at(row > 1 ? row - 1 : 0);
}

// The array forms: one result per element of the float8[] of fractions after the value,
// NULL for a NULL fraction. `value(f, scratch)` points at the result's physical bytes.
template <class Value>
const VarString* perFraction(const TupleBuffer& rows, uint32_t column, bool* isNull, duet::TypeId element,
                             const Value& value) {
  const TupleLayout& l = rows.layout();
  if (nullAt(l, rows.at(0), column + 1)) return null<const VarString*>(isNull);
  duet::ArrayView fractions(fieldAt<const VarString*>(l, rows.at(0), column + 1));
  duet::ArrayBuilder builder(element);
  for (uint32_t i = 0; i < fractions.size(); ++i) {
    if (fractions.isNull(i)) {
      builder.appendNull();
      continue;
    }
    alignas(16) uint8_t scratch[16];  // an element as ArrayView::load writes it, or a result
    fractions.load(i, scratch);
    double f;
    std::memcpy(&f, scratch, sizeof f);
    builder.append(value(f, scratch));
  }
  return builder.finish(duet::statementArena());
}

NumericRep numericVariance(const uint8_t* state, bool* isNull, bool sample, bool root) {
  // numeric_stddev_internal: (N * sumX2 - sumX * sumX) / (N * (N - 1)) (or N * N), at
  // select_div_scale's scale, its square root at the same scale.
  const auto* s = as<NumericAccum>(state);
  if (s->n == 0 || (sample && s->n <= 1)) return null<NumericRep>(isNull);
  NumericRep n = duet::numericFromInt64(s->n);
  NumericRep numerator = duet::numericSub(duet::numericMul(n, s->sumX2), duet::numericMul(s->sumX, s->sumX));
  if (duet::numericMantissa(numerator) <= 0) return duet::makeNumeric(0, 0);  // roundoff below zero
  NumericRep denominator = duet::numericMul(n, sample ? duet::numericFromInt64(s->n - 1) : n);
  int rscale = duet::numericDivScale(numerator, denominator);
  NumericRep variance = duet::numericDivAtScale(numerator, denominator, rscale);
  return root ? duet::numericSqrtAtScale(variance, rscale) : variance;
}

}  // namespace

extern "C" {

void duet_q_agg_float8_accum(uint8_t* state, double x) {
  auto* s = as<FloatAccum>(state);
  double n = s->n + 1.0, sx = s->sx + x, sxx = s->sxx;
  if (s->n > 0.0) {
    double tmp = x * n - sx;
    sxx += tmp * tmp / (n * s->n);
    // Overflow only when finite inputs give an infinite result; an infinite input makes
    // Sxx NaN rather than infinite.
    if (std::isinf(sx) || std::isinf(sxx)) {
      if (!std::isinf(s->sx) && !std::isinf(x)) duet::raiseFloatOverflow();
      sxx = kNaN;
    }
  } else if (std::isnan(x) || std::isinf(x)) {
    sxx = kNaN;  // else one infinite input would give a variance of zero
  }
  *s = {n, sx, sxx};
}

void duet_q_agg_float4_accum(uint8_t* state, float x) { duet_q_agg_float8_accum(state, x); }

void duet_q_agg_float8_combine(uint8_t* into, const uint8_t* from) {
  auto* a = as<FloatAccum>(into);
  const auto* b = as<FloatAccum>(from);
  if (b->n == 0.0) return;
  if (a->n == 0.0) {
    *a = *b;
    return;
  }
  double n = a->n + b->n;
  double sx = addChecked(a->sx, b->sx);
  double tmp = a->sx / a->n - b->sx / b->n;
  double sxx = a->sxx + b->sxx + a->n * b->n * tmp * tmp / n;
  if (std::isinf(sxx) && !std::isinf(a->sxx) && !std::isinf(b->sxx)) duet::raiseFloatOverflow();
  *a = {n, sx, sxx};
}

double duet_q_agg_float8_var_pop(const uint8_t* state, bool* isNull) {
  const auto* s = as<FloatAccum>(state);
  if (s->n == 0.0) return null<double>(isNull);
  return s->sxx / s->n;
}
double duet_q_agg_float8_var_samp(const uint8_t* state, bool* isNull) {
  const auto* s = as<FloatAccum>(state);
  if (s->n <= 1.0) return null<double>(isNull);
  return s->sxx / (s->n - 1.0);
}
double duet_q_agg_float8_stddev_pop(const uint8_t* state, bool* isNull) {
  const auto* s = as<FloatAccum>(state);
  if (s->n == 0.0) return null<double>(isNull);
  return std::sqrt(s->sxx / s->n);
}
double duet_q_agg_float8_stddev_samp(const uint8_t* state, bool* isNull) {
  const auto* s = as<FloatAccum>(state);
  if (s->n <= 1.0) return null<double>(isNull);
  return std::sqrt(s->sxx / (s->n - 1.0));
}

void duet_q_agg_float8_regr_accum(uint8_t* state, double y, double x) {
  auto* s = as<RegrAccum>(state);
  RegrAccum r = *s;
  r.n += 1.0;
  r.sx += x;
  r.sy += y;
  if (s->n > 0.0) {
    double tmpX = x * r.n - r.sx, tmpY = y * r.n - r.sy;
    double scale = 1.0 / (r.n * s->n);
    r.sxx += tmpX * tmpX * scale;
    r.syy += tmpY * tmpY * scale;
    r.sxy += tmpX * tmpY * scale;
    if (std::isinf(r.sx) || std::isinf(r.sxx)) {
      if (!std::isinf(s->sx) && !std::isinf(x)) duet::raiseFloatOverflow();
      r.sxx = kNaN;
    }
    if (std::isinf(r.sy) || std::isinf(r.syy)) {
      if (!std::isinf(s->sy) && !std::isinf(y)) duet::raiseFloatOverflow();
      r.syy = kNaN;
    }
    if (std::isinf(r.sxy)) {
      if (!std::isinf(s->sx) && !std::isinf(x) && !std::isinf(s->sy) && !std::isinf(y)) duet::raiseFloatOverflow();
      r.sxy = kNaN;
    }
  } else {
    if (std::isnan(x) || std::isinf(x)) r.sxx = r.sxy = kNaN;
    if (std::isnan(y) || std::isinf(y)) r.syy = r.sxy = kNaN;
  }
  *s = r;
}

void duet_q_agg_float8_regr_combine(uint8_t* into, const uint8_t* from) {
  auto* a = as<RegrAccum>(into);
  const auto* b = as<RegrAccum>(from);
  if (b->n == 0.0) return;
  if (a->n == 0.0) {
    *a = *b;
    return;
  }
  RegrAccum r;
  r.n = a->n + b->n;
  r.sx = addChecked(a->sx, b->sx);
  double tmp1 = a->sx / a->n - b->sx / b->n;
  r.sxx = a->sxx + b->sxx + a->n * b->n * tmp1 * tmp1 / r.n;
  if (std::isinf(r.sxx) && !std::isinf(a->sxx) && !std::isinf(b->sxx)) duet::raiseFloatOverflow();
  r.sy = addChecked(a->sy, b->sy);
  double tmp2 = a->sy / a->n - b->sy / b->n;
  r.syy = a->syy + b->syy + a->n * b->n * tmp2 * tmp2 / r.n;
  if (std::isinf(r.syy) && !std::isinf(a->syy) && !std::isinf(b->syy)) duet::raiseFloatOverflow();
  r.sxy = a->sxy + b->sxy + a->n * b->n * tmp1 * tmp2 / r.n;
  if (std::isinf(r.sxy) && !std::isinf(a->sxy) && !std::isinf(b->sxy)) duet::raiseFloatOverflow();
  *a = r;
}

int64_t duet_q_agg_float8_regr_count(const uint8_t* state, bool*) {
  return static_cast<int64_t>(as<RegrAccum>(state)->n);
}
double duet_q_agg_float8_regr_sxx(const uint8_t* state, bool* isNull) {
  const auto* s = as<RegrAccum>(state);
  return s->n < 1.0 ? null<double>(isNull) : s->sxx;
}
double duet_q_agg_float8_regr_syy(const uint8_t* state, bool* isNull) {
  const auto* s = as<RegrAccum>(state);
  return s->n < 1.0 ? null<double>(isNull) : s->syy;
}
double duet_q_agg_float8_regr_sxy(const uint8_t* state, bool* isNull) {
  const auto* s = as<RegrAccum>(state);
  return s->n < 1.0 ? null<double>(isNull) : s->sxy;
}
double duet_q_agg_float8_regr_avgx(const uint8_t* state, bool* isNull) {
  const auto* s = as<RegrAccum>(state);
  return s->n < 1.0 ? null<double>(isNull) : s->sx / s->n;
}
double duet_q_agg_float8_regr_avgy(const uint8_t* state, bool* isNull) {
  const auto* s = as<RegrAccum>(state);
  return s->n < 1.0 ? null<double>(isNull) : s->sy / s->n;
}
double duet_q_agg_float8_regr_r2(const uint8_t* state, bool* isNull) {
  const auto* s = as<RegrAccum>(state);
  if (s->n < 1.0 || s->sxx == 0) return null<double>(isNull);  // a vertical line: undefined
  if (s->syy == 0) return 1.0;                                 // a horizontal one fits exactly
  return (s->sxy * s->sxy) / (s->sxx * s->syy);
}
double duet_q_agg_float8_regr_slope(const uint8_t* state, bool* isNull) {
  const auto* s = as<RegrAccum>(state);
  if (s->n < 1.0 || s->sxx == 0) return null<double>(isNull);
  return s->sxy / s->sxx;
}
double duet_q_agg_float8_regr_intercept(const uint8_t* state, bool* isNull) {
  const auto* s = as<RegrAccum>(state);
  if (s->n < 1.0 || s->sxx == 0) return null<double>(isNull);
  return (s->sy - s->sx * s->sxy / s->sxx) / s->n;
}
double duet_q_agg_float8_covar_pop(const uint8_t* state, bool* isNull) {
  const auto* s = as<RegrAccum>(state);
  return s->n < 1.0 ? null<double>(isNull) : s->sxy / s->n;
}
double duet_q_agg_float8_covar_samp(const uint8_t* state, bool* isNull) {
  const auto* s = as<RegrAccum>(state);
  return s->n < 2.0 ? null<double>(isNull) : s->sxy / (s->n - 1.0);
}
double duet_q_agg_float8_corr(const uint8_t* state, bool* isNull) {
  const auto* s = as<RegrAccum>(state);
  if (s->n < 1.0 || s->sxx == 0 || s->syy == 0) return null<double>(isNull);  // horizontal or vertical
  return s->sxy / std::sqrt(s->sxx * s->syy);
}

void duet_q_agg_numeric_accum(uint8_t* state, NumericRep x) {
  auto* s = as<NumericAccum>(state);
  NumericRep square = duet::numericMul(x, x);  // at scale 2 * scale(x), as PostgreSQL
  if (s->n == 0) {
    s->sumX = x;
    s->sumX2 = square;
  } else {
    s->sumX = duet::numericAdd(s->sumX, x);
    s->sumX2 = duet::numericAdd(s->sumX2, square);
  }
  ++s->n;
}
void duet_q_agg_int2_accum(uint8_t* state, int16_t x) { duet_q_agg_numeric_accum(state, duet::numericFromInt64(x)); }
void duet_q_agg_int4_accum(uint8_t* state, int32_t x) { duet_q_agg_numeric_accum(state, duet::numericFromInt64(x)); }
void duet_q_agg_int8_accum(uint8_t* state, int64_t x) { duet_q_agg_numeric_accum(state, duet::numericFromInt64(x)); }

void duet_q_agg_numeric_combine(uint8_t* into, const uint8_t* from) {
  auto* a = as<NumericAccum>(into);
  const auto* b = as<NumericAccum>(from);
  if (b->n == 0) return;
  if (a->n == 0) {
    *a = *b;
    return;
  }
  a->n += b->n;
  a->sumX = duet::numericAdd(a->sumX, b->sumX);
  a->sumX2 = duet::numericAdd(a->sumX2, b->sumX2);
}

NumericRep duet_q_agg_numeric_var_pop(const uint8_t* state, bool* isNull) {
  return numericVariance(state, isNull, false, false);
}
NumericRep duet_q_agg_numeric_var_samp(const uint8_t* state, bool* isNull) {
  return numericVariance(state, isNull, true, false);
}
NumericRep duet_q_agg_numeric_stddev_pop(const uint8_t* state, bool* isNull) {
  return numericVariance(state, isNull, false, true);
}
NumericRep duet_q_agg_numeric_stddev_samp(const uint8_t* state, bool* isNull) {
  return numericVariance(state, isNull, true, true);
}

void duet_q_agg_interval_accum(uint8_t* state, IntervalRep x) {
  auto* s = as<IntervalAccum>(state);
  s->sum = s->n == 0 ? x : duet_rt_interval_add(s->sum, x);
  ++s->n;
}
void duet_q_agg_interval_combine(uint8_t* into, const uint8_t* from) {
  auto* a = as<IntervalAccum>(into);
  const auto* b = as<IntervalAccum>(from);
  if (b->n == 0) return;
  a->sum = a->n == 0 ? b->sum : duet_rt_interval_add(a->sum, b->sum);
  a->n += b->n;
}
IntervalRep duet_q_agg_interval_avg(const uint8_t* state, bool* isNull) {
  const auto* s = as<IntervalAccum>(state);
  if (s->n == 0) return null<IntervalRep>(isNull);
  return duet_rt_interval_div(s->sum, static_cast<double>(s->n));
}

void duet_q_agg_rows_add(duet::rt::QueryContext* ctx, TupleBuffer** slot, const TupleLayout* layout,
                         const duet::rt::SortSpec* keys, uint32_t nkeys, const uint8_t* tuple) {
  if (!*slot) *slot = duet_q_sorter_new(ctx, layout, keys, nkeys);
  (*slot)->append(tuple);
}

uint64_t duet_q_agg_rows_sorted(TupleBuffer* rows) {
  if (!rows) return 0;
  static_cast<duet::rt::Sorter*>(rows)->sort();
  return rows->size();
}

const VarString* duet_q_agg_string_agg_final(TupleBuffer* rows, uint32_t column, bool*) {
  const TupleLayout& l = rows->layout();
  std::string out;
  for (size_t i = 0; i < rows->size(); ++i) {
    const uint8_t* row = rows->at(i);
    if (i > 0 && !nullAt(l, row, column + 1)) out.append(fieldAt<const VarString*>(l, row, column + 1)->view());
    out.append(fieldAt<const VarString*>(l, row, column)->view());
  }
  return duet::statementArena().makeString(out);
}

const VarString* duet_q_agg_array_agg_final(TupleBuffer* rows, uint32_t column, bool*) {
  const TupleLayout& l = rows->layout();
  duet::ArrayBuilder builder(l.types[column].id);
  builder.reserve(rows->size());
  for (size_t i = 0; i < rows->size(); ++i) {
    const uint8_t* row = rows->at(i);
    if (nullAt(l, row, column))
      builder.appendNull();
    else
      builder.append(row + l.offsets[column]);
  }
  return builder.finish(duet::statementArena());
}

double duet_q_agg_percentile_cont_float8_final(TupleBuffer* rows, uint32_t column, bool* isNull) {
  const TupleLayout& l = rows->layout();
  if (nullAt(l, rows->at(0), column + 1)) return null<double>(isNull);
  return continuousFloat8(*rows, column, fieldAt<double>(l, rows->at(0), column + 1));
}

IntervalRep duet_q_agg_percentile_cont_interval_final(TupleBuffer* rows, uint32_t column, bool* isNull) {
  const TupleLayout& l = rows->layout();
  if (nullAt(l, rows->at(0), column + 1)) return null<IntervalRep>(isNull);
  return continuousInterval(*rows, column, fieldAt<double>(l, rows->at(0), column + 1));
}

const uint8_t* duet_q_agg_percentile_disc_final(TupleBuffer* rows, uint32_t column, bool* isNull) {
  const TupleLayout& l = rows->layout();
  if (nullAt(l, rows->at(0), column + 1)) return null<const uint8_t*>(isNull);
  return discreteRow(*rows, fieldAt<double>(l, rows->at(0), column + 1));
}

const VarString* duet_q_agg_percentile_cont_float8_multi_final(TupleBuffer* rows, uint32_t column, bool* isNull) {
  return perFraction(*rows, column, isNull, duet::TypeId::Float8, [&](double f, uint8_t* out) {
    double v = continuousFloat8(*rows, column, f);
    std::memcpy(out, &v, sizeof v);
    return out;
  });
}

const VarString* duet_q_agg_percentile_cont_interval_multi_final(TupleBuffer* rows, uint32_t column, bool* isNull) {
  return perFraction(*rows, column, isNull, duet::TypeId::Interval, [&](double f, uint8_t* out) {
    IntervalRep v = continuousInterval(*rows, column, f);
    std::memcpy(out, &v, sizeof v);
    return out;
  });
}

const VarString* duet_q_agg_percentile_disc_multi_final(TupleBuffer* rows, uint32_t column, bool* isNull) {
  const TupleLayout& l = rows->layout();
  return perFraction(*rows, column, isNull, l.types[column].id,
                     [&](double f, uint8_t*) { return discreteRow(*rows, f) + l.offsets[column]; });
}

const uint8_t* duet_q_agg_mode_final(TupleBuffer* rows, uint32_t column, bool*) {
  // The most frequent value; of equally frequent ones, the first in sort order.
  const TupleLayout& l = rows->layout();
  duet::SqlType type = l.types[column];
  const uint8_t* best = nullptr;
  uint64_t bestCount = 0, runCount = 0;
  const uint8_t* run = nullptr;
  for (size_t i = 0; i < rows->size(); ++i) {
    const uint8_t* row = rows->at(i);
    if (run && duet::compareValues(type, run + l.offsets[column], row + l.offsets[column]) == 0) {
      ++runCount;
    } else {
      run = row;
      runCount = 1;
    }
    if (runCount > bestCount) {
      best = run;
      bestCount = runCount;
    }
  }
  return best;
}

}  // extern "C"
