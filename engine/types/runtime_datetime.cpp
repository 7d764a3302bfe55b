// The runtime functions of interval and the date/time functions (runtime.h), over
// interval.h and datetime_functions.h.
#include "engine/types/datetime.h"
#include "engine/types/datetime_functions.h"
#include "engine/types/runtime.h"

using namespace duet;

namespace {

const TypeContext& contextOf(const TypeContext* ctx) {
  static const TypeContext kDefault;
  return ctx ? *ctx : kDefault;
}

Interval in(IntervalRep v) { return unpackInterval(v); }
IntervalRep out(const Interval& v) { return packInterval(v); }

DatetimePart part(const VarString* unit, DatetimeKind kind, int64_t value, const Interval& v,
                  const TypeContext* ctx = nullptr) {
  return datetimePart(unit->view(), kind, value, v, contextOf(ctx));
}

}  // namespace

extern "C" {

int32_t duet_rt_interval_cmp(IntervalRep a, IntervalRep b) { return intervalCompare(in(a), in(b)); }
IntervalRep duet_rt_interval_add(IntervalRep a, IntervalRep b) { return out(intervalAdd(in(a), in(b))); }
IntervalRep duet_rt_interval_sub(IntervalRep a, IntervalRep b) { return out(intervalSub(in(a), in(b))); }
IntervalRep duet_rt_interval_neg(IntervalRep a) { return out(intervalNegate(in(a))); }
IntervalRep duet_rt_interval_mul(IntervalRep a, double factor) { return out(intervalMul(in(a), factor)); }
IntervalRep duet_rt_interval_div(IntervalRep a, double factor) { return out(intervalDiv(in(a), factor)); }
IntervalRep duet_rt_interval_apply_typmod(IntervalRep a, int32_t typmod) {
  return out(intervalApplyTypmod(in(a), typmod));
}
IntervalRep duet_rt_justify_days(IntervalRep a) { return out(justifyDays(in(a))); }
IntervalRep duet_rt_justify_hours(IntervalRep a) { return out(justifyHours(in(a))); }
IntervalRep duet_rt_justify_interval(IntervalRep a) { return out(justifyInterval(in(a))); }

int64_t duet_rt_timestamp_pl_interval(int64_t ts, IntervalRep span) { return timestampPlusInterval(ts, in(span)); }
int64_t duet_rt_timestamp_mi_interval(int64_t ts, IntervalRep span) {
  return timestampPlusInterval(ts, intervalNegate(in(span)));
}
int64_t duet_rt_timestamptz_pl_interval(int64_t ts, IntervalRep span, const TypeContext* ctx) {
  return timestampTzPlusInterval(ts, in(span), contextOf(ctx));
}
int64_t duet_rt_timestamptz_mi_interval(int64_t ts, IntervalRep span, const TypeContext* ctx) {
  return timestampTzPlusInterval(ts, intervalNegate(in(span)), contextOf(ctx));
}
IntervalRep duet_rt_timestamp_mi(int64_t a, int64_t b) { return out(timestampDifference(a, b)); }
IntervalRep duet_rt_timestamp_age(int64_t a, int64_t b) { return out(timestampAge(a, b)); }
int64_t duet_rt_date_bin(IntervalRep stride, int64_t source, int64_t origin) {
  return timestampBin(in(stride), source, origin);
}
bool duet_rt_date_isfinite(int32_t date) { return date != kDateNegInfinity && date != kDatePosInfinity; }
bool duet_rt_timestamp_isfinite(int64_t ts) { return ts != kTimestampNegInfinity && ts != kTimestampPosInfinity; }
bool duet_rt_interval_isfinite(IntervalRep) { return true; }
IntervalRep duet_rt_timestamptz_age(int64_t a, int64_t b, const TypeContext* ctx) {
  return out(timestampTzAge(a, b, contextOf(ctx)));
}

NumericRep duet_rt_extract_date(const VarString* unit, int32_t date) {
  return part(unit, DatetimeKind::Date, date, {}).numeric;
}
NumericRep duet_rt_extract_timestamp(const VarString* unit, int64_t ts) {
  return part(unit, DatetimeKind::Timestamp, ts, {}).numeric;
}
NumericRep duet_rt_extract_interval(const VarString* unit, IntervalRep v) {
  return part(unit, DatetimeKind::Interval, 0, in(v)).numeric;
}
NumericRep duet_rt_extract_timestamptz(const VarString* unit, int64_t ts, const TypeContext* ctx) {
  return part(unit, DatetimeKind::TimestampTz, ts, {}, ctx).numeric;
}
double duet_rt_date_part_date(const VarString* unit, int32_t date) {
  // date_part(text, date) is date_part(text, date::timestamp), an SQL function in PostgreSQL.
  return part(unit, DatetimeKind::Timestamp, dateToTimestamp(date), {}).asDouble;
}
double duet_rt_date_part_timestamp(const VarString* unit, int64_t ts) {
  return part(unit, DatetimeKind::Timestamp, ts, {}).asDouble;
}
double duet_rt_date_part_interval(const VarString* unit, IntervalRep v) {
  return part(unit, DatetimeKind::Interval, 0, in(v)).asDouble;
}
double duet_rt_date_part_timestamptz(const VarString* unit, int64_t ts, const TypeContext* ctx) {
  return part(unit, DatetimeKind::TimestampTz, ts, {}, ctx).asDouble;
}
int64_t duet_rt_date_trunc_timestamp(const VarString* unit, int64_t ts) { return timestampTrunc(unit->view(), ts); }
int64_t duet_rt_date_trunc_timestamptz(const VarString* unit, int64_t ts, const TypeContext* ctx) {
  return timestampTzTrunc(unit->view(), ts, contextOf(ctx));
}
IntervalRep duet_rt_date_trunc_interval(const VarString* unit, IntervalRep v) {
  return out(intervalTrunc(unit->view(), in(v)));
}
int32_t duet_rt_make_date(int32_t year, int32_t month, int32_t day) { return makeDate(year, month, day); }
int64_t duet_rt_make_timestamp(int32_t year, int32_t month, int32_t day, int32_t hour, int32_t min, double sec) {
  return makeTimestamp(year, month, day, hour, min, sec);
}

int64_t duet_rt_timezone_timestamptz(const VarString* zone, int64_t ts) { return timestampTzAtZone(ts, zone->view()); }
int64_t duet_rt_timezone_timestamp(const VarString* zone, int64_t ts) { return timestampAtZone(ts, zone->view()); }
int64_t duet_rt_timezone_interval_timestamptz(IntervalRep zone, int64_t ts) {
  return timestampTzAtIntervalZone(ts, in(zone));
}
int64_t duet_rt_timezone_interval_timestamp(IntervalRep zone, int64_t ts) {
  return timestampAtIntervalZone(ts, in(zone));
}

IntervalRep duet_rt_make_interval(int32_t years, int32_t months, int32_t weeks, int32_t days, int32_t hours,
                                  int32_t mins, double secs) {
  return out(makeInterval(years, months, weeks, days, hours, mins, secs));
}
int64_t duet_rt_make_timestamptz_at(int32_t year, int32_t month, int32_t day, int32_t hour, int32_t min, double sec,
                                    const VarString* zone) {
  return makeTimestampTzAt(year, month, day, hour, min, sec, zone->view());
}

}  // extern "C"
