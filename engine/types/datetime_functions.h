// Date/time arithmetic with intervals and the date/time functions of SQL, following
// PostgreSQL 15's timestamp.c and date.c: timestamp +/- interval (month arithmetic clamps
// to the month's last day; timestamptz in the session's zone), timestamp - timestamp,
// age, extract/date_part, date_trunc, make_date, make_timestamp.
#pragma once
#include <cstdint>
#include <string_view>

#include "engine/types/interval.h"
#include "engine/types/type_context.h"

namespace duet {

// timestamp_pl_interval / timestamptz_pl_interval (and _mi_, which adds the negation);
// infinities are returned unchanged; 22008 timestamp out of range.
int64_t timestampPlusInterval(int64_t ts, const Interval& span);
int64_t timestampTzPlusInterval(int64_t ts, const Interval& span, const TypeContext& ctx);
// timestamp_mi: the difference as justify_hours leaves it; 22008 for infinities.
Interval timestampDifference(int64_t a, int64_t b);
// age(a, b): the symbolic difference in years, months, days and time.
Interval timestampAge(int64_t a, int64_t b);
Interval timestampTzAge(int64_t a, int64_t b, const TypeContext& ctx);

// date_bin(stride, source, origin) as PostgreSQL 15's timestamp_bin (timestamptz_bin is the
// same arithmetic): the start of the stride-wide bin, counted from origin, that holds
// source, rounding toward -infinity. An infinite source is returned as it is; 22008 for an
// infinite origin, a stride of zero or less ("stride must be greater than zero") or an
// overflow, 0A000 for a stride with months.
int64_t timestampBin(const Interval& stride, int64_t source, int64_t origin);

// The value kinds extract, date_part and date_trunc take.
enum class DatetimeKind { Date, Timestamp, TimestampTz, Interval };

// A field of a value: the numeric extract returns and the double precision date_part
// returns. Units are matched case-insensitively; 22023 unit "x" not recognized, 0A000 unit
// "x" not supported for type <type>. Infinite timestamps and dates raise 0A000 (PostgreSQL
// returns NULL or a numeric infinity, which DuetDB's strict functions and numeric lack).
struct DatetimePart {
  NumericRep numeric = 0;
  double asDouble = 0;
};
// `value` holds an int32 date, an int64 timestamp or an Interval (as `interval`).
DatetimePart datetimePart(std::string_view unit, DatetimeKind kind, int64_t value, const Interval& interval,
                          const TypeContext& ctx);

// date_trunc(unit, value); infinite timestamps are returned unchanged.
int64_t timestampTrunc(std::string_view unit, int64_t ts);
int64_t timestampTzTrunc(std::string_view unit, int64_t ts, const TypeContext& ctx);
Interval intervalTrunc(std::string_view unit, const Interval& v);

// AT TIME ZONE and timezone(zone, value), as PostgreSQL's timestamptz_zone and its kin:
// the zone is a tz database name or a POSIX offset ('UTC+3' is three hours west), read as
// the TimeZone setting is (time_zone.h), or a numeric offset ('+05', '-03:30', ISO sign);
// 22023 time zone "x" not recognized. Infinite timestamps are returned unchanged.
// timestamptz -> the wall-clock timestamp in the zone:
int64_t timestampTzAtZone(int64_t ts, std::string_view zone);
// timestamp (a wall-clock time in the zone) -> timestamptz:
int64_t timestampAtZone(int64_t ts, std::string_view zone);
// The interval forms: an offset east of UTC; 22023 when it has months or days.
int64_t timestampTzAtIntervalZone(int64_t ts, const Interval& zone);
int64_t timestampAtIntervalZone(int64_t ts, const Interval& zone);

// The ISO 8601 week of a date and the year that week belongs to (weeks start on Monday;
// week 1 holds January 4th), as PostgreSQL's date2isoweek and date2isoyear.
struct IsoWeek {
  int year;
  int week;
};
IsoWeek isoWeekOf(int year, int mon, int mday);

// make_interval(years, months, weeks, days, hours, mins, secs); 22008 interval out of range.
Interval makeInterval(int32_t years, int32_t months, int32_t weeks, int32_t days, int32_t hours, int32_t mins,
                      double secs);
// make_timestamptz: the fields as a wall-clock time in the session's zone, or in `zone`
// (a tz database name, a POSIX offset, or a numeric offset east of UTC such as '+05:30',
// as PostgreSQL's parse_sane_timezone reads it).
int64_t makeTimestampTz(int32_t year, int32_t month, int32_t day, int32_t hour, int32_t min, double sec,
                        const TypeContext& ctx);
int64_t makeTimestampTzAt(int32_t year, int32_t month, int32_t day, int32_t hour, int32_t min, double sec,
                          std::string_view zone);

// make_date and make_timestamp: a negative year is BC; 22008 for fields out of range.
int32_t makeDate(int32_t year, int32_t month, int32_t day);
int64_t makeTimestamp(int32_t year, int32_t month, int32_t day, int32_t hour, int32_t min, double sec);

}  // namespace duet
