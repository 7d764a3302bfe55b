// The date/time functions that read the query's context: the session's time zone, and
// the transaction's start for age() of one argument.
#include "compiler/runtime/query_runtime.h"
#include "engine/types/datetime.h"
#include "engine/types/datetime_functions.h"
#include "engine/types/runtime.h"

using duet::rt::QueryContext;

extern "C" {

duet::NumericRep duet_q_extract_timestamptz(QueryContext* ctx, const duet::VarString* unit, int64_t ts) {
  return duet_rt_extract_timestamptz(unit, ts, ctx->typeContext);
}
double duet_q_date_part_timestamptz(QueryContext* ctx, const duet::VarString* unit, int64_t ts) {
  return duet_rt_date_part_timestamptz(unit, ts, ctx->typeContext);
}
int64_t duet_q_date_trunc_timestamptz(QueryContext* ctx, const duet::VarString* unit, int64_t ts) {
  return duet_rt_date_trunc_timestamptz(unit, ts, ctx->typeContext);
}
const duet::VarString* duet_q_to_char_timestamptz(QueryContext* ctx, int64_t ts, const duet::VarString* format) {
  return duet_rt_to_char_timestamptz(ts, format, ctx->typeContext);
}
int64_t duet_q_to_timestamp(QueryContext* ctx, const duet::VarString* text, const duet::VarString* format) {
  return duet_rt_to_timestamp(text, format, ctx->typeContext);
}
int64_t duet_q_make_timestamptz(QueryContext* ctx, int32_t year, int32_t month, int32_t day, int32_t hour, int32_t min,
                                double sec) {
  static const duet::TypeContext kUtc;
  return duet::makeTimestampTz(year, month, day, hour, min, sec, ctx->typeContext ? *ctx->typeContext : kUtc);
}
__int128 duet_q_timestamptz_age(QueryContext* ctx, int64_t a, int64_t b) {
  return duet_rt_timestamptz_age(a, b, ctx->typeContext);
}

// age(x) is age(current_date::timestamp, x) / age(current_date::timestamptz, x).
__int128 duet_q_age_timestamp(QueryContext* ctx, int64_t ts) {
  static const duet::TypeContext kUtc;
  const duet::TypeContext& tc = ctx->typeContext ? *ctx->typeContext : kUtc;
  int32_t today = duet::timestampTzToDate(ctx->transactionTimestamp, tc);
  return duet_rt_timestamp_age(duet::dateToTimestamp(today), ts);
}
__int128 duet_q_age_timestamptz(QueryContext* ctx, int64_t ts) {
  static const duet::TypeContext kUtc;
  const duet::TypeContext& tc = ctx->typeContext ? *ctx->typeContext : kUtc;
  int32_t today = duet::timestampTzToDate(ctx->transactionTimestamp, tc);
  return duet_rt_timestamptz_age(duet::dateToTimestampTz(today, tc), ts, ctx->typeContext);
}

}  // extern "C"
