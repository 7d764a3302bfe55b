// The precompiled halves of the aggregates whose states generated code does not fold
// itself (compiler/functions/builtin_aggregates.h lists which aggregate uses which).
//
// Stepped aggregates keep a fixed state inside the aggregate's slot, all zero when empty:
// step(state, args...) folds one row whose arguments are not NULL, final(state, isNull)
// gives the result, combine(into, from) folds a parallel worker's state into another. The
// arithmetic is PostgreSQL's, step for step, so that results match to the last digit:
// float8_accum / float8_regr_accum (Youngs-Cramer) and their final functions in float.c,
// do_numeric_accum and numeric_stddev_internal in numeric.c.
//
// Collected aggregates (string_agg, array_agg, the ordered-set aggregates, and any
// aggregate with ORDER BY in its call) append their rows to a buffer of the query's
// context, created on the first row (the slot holds its pointer; a zeroed slot is an
// empty state), sorted before the final function reads it.
#pragma once
#include <cstdint>

#include "compiler/runtime/query_runtime.h"
#include "engine/types/interval.h"
#include "engine/types/value.h"

extern "C" {
// var_pop, var_samp, stddev_pop, stddev_samp (and variance, stddev) of float4/float8:
// the state is float8 N, Sx, Sxx.
void duet_q_agg_float8_accum(uint8_t* state, double x);
void duet_q_agg_float4_accum(uint8_t* state, float x);
void duet_q_agg_float8_combine(uint8_t* into, const uint8_t* from);
double duet_q_agg_float8_var_pop(const uint8_t* state, bool* isNull);
double duet_q_agg_float8_var_samp(const uint8_t* state, bool* isNull);
double duet_q_agg_float8_stddev_pop(const uint8_t* state, bool* isNull);
double duet_q_agg_float8_stddev_samp(const uint8_t* state, bool* isNull);

// corr, covar_pop, covar_samp and regr_* of (Y, X): float8 N, Sx, Sxx, Sy, Syy, Sxy.
void duet_q_agg_float8_regr_accum(uint8_t* state, double y, double x);
void duet_q_agg_float8_regr_combine(uint8_t* into, const uint8_t* from);
int64_t duet_q_agg_float8_regr_count(const uint8_t* state, bool* isNull);
double duet_q_agg_float8_regr_sxx(const uint8_t* state, bool* isNull);
double duet_q_agg_float8_regr_syy(const uint8_t* state, bool* isNull);
double duet_q_agg_float8_regr_sxy(const uint8_t* state, bool* isNull);
double duet_q_agg_float8_regr_avgx(const uint8_t* state, bool* isNull);
double duet_q_agg_float8_regr_avgy(const uint8_t* state, bool* isNull);
double duet_q_agg_float8_regr_r2(const uint8_t* state, bool* isNull);
double duet_q_agg_float8_regr_slope(const uint8_t* state, bool* isNull);
double duet_q_agg_float8_regr_intercept(const uint8_t* state, bool* isNull);
double duet_q_agg_float8_covar_pop(const uint8_t* state, bool* isNull);
double duet_q_agg_float8_covar_samp(const uint8_t* state, bool* isNull);
double duet_q_agg_float8_corr(const uint8_t* state, bool* isNull);

// The same four of smallint, integer, bigint and numeric, in numeric: int64 N, numeric
// sum of X and of X * X.
void duet_q_agg_numeric_accum(uint8_t* state, duet::NumericRep x);
void duet_q_agg_int2_accum(uint8_t* state, int16_t x);
void duet_q_agg_int4_accum(uint8_t* state, int32_t x);
void duet_q_agg_int8_accum(uint8_t* state, int64_t x);
void duet_q_agg_numeric_combine(uint8_t* into, const uint8_t* from);
duet::NumericRep duet_q_agg_numeric_var_pop(const uint8_t* state, bool* isNull);
duet::NumericRep duet_q_agg_numeric_var_samp(const uint8_t* state, bool* isNull);
duet::NumericRep duet_q_agg_numeric_stddev_pop(const uint8_t* state, bool* isNull);
duet::NumericRep duet_q_agg_numeric_stddev_samp(const uint8_t* state, bool* isNull);

// avg(interval): the interval sum and int64 N.
void duet_q_agg_interval_accum(uint8_t* state, duet::IntervalRep x);
void duet_q_agg_interval_combine(uint8_t* into, const uint8_t* from);
duet::IntervalRep duet_q_agg_interval_avg(const uint8_t* state, bool* isNull);

// Collected aggregates: appends `tuple` to the buffer in *slot, creating it (in the query's
// context, sorting by `keys`) on the first row.
void duet_q_agg_rows_add(duet::rt::QueryContext* ctx, duet::rt::TupleBuffer** slot, const duet::TupleLayout* layout,
                         const duet::rt::SortSpec* keys, uint32_t nkeys, const uint8_t* tuple);
// The buffer's rows sorted (by the keys it was made with), and how many there are; 0 for
// no buffer.
uint64_t duet_q_agg_rows_sorted(duet::rt::TupleBuffer* rows);

// Final functions of collected aggregates over their sorted, non-empty rows; `column` is
// the aggregate's first argument in them, the others following it.
// string_agg(value, delimiter): the values, each after the first preceded by its own
// delimiter (none for a NULL delimiter).
const duet::VarString* duet_q_agg_string_agg_final(duet::rt::TupleBuffer* rows, uint32_t column, bool* isNull);
// array_agg(value): the values, NULLs included, in order.
const duet::VarString* duet_q_agg_array_agg_final(duet::rt::TupleBuffer* rows, uint32_t column, bool* isNull);
// percentile_cont(fraction) WITHIN GROUP (ORDER BY value): the value at that fraction of
// the rows, interpolated linearly; the fraction (NULL: NULL; outside [0, 1]: 22003) follows
// the value in the rows.
double duet_q_agg_percentile_cont_float8_final(duet::rt::TupleBuffer* rows, uint32_t column, bool* isNull);
duet::IntervalRep duet_q_agg_percentile_cont_interval_final(duet::rt::TupleBuffer* rows, uint32_t column, bool* isNull);
// percentile_disc(fraction) and mode(): the row holding the result value, or null for NULL.
const uint8_t* duet_q_agg_percentile_disc_final(duet::rt::TupleBuffer* rows, uint32_t column, bool* isNull);
// percentile_cont and percentile_disc of a float8[] of fractions: an array of one value per
// fraction, NULL for a NULL fraction.
const duet::VarString* duet_q_agg_percentile_cont_float8_multi_final(duet::rt::TupleBuffer* rows, uint32_t column,
                                                                     bool* isNull);
const duet::VarString* duet_q_agg_percentile_cont_interval_multi_final(duet::rt::TupleBuffer* rows, uint32_t column,
                                                                       bool* isNull);
const duet::VarString* duet_q_agg_percentile_disc_multi_final(duet::rt::TupleBuffer* rows, uint32_t column,
                                                              bool* isNull);
const uint8_t* duet_q_agg_mode_final(duet::rt::TupleBuffer* rows, uint32_t column, bool* isNull);
}
