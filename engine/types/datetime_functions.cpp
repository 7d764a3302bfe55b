// Date/time arithmetic with intervals and the SQL date/time functions, transcribed from
// PostgreSQL 15's timestamp.c and date.c (timestamp_pl_interval, timestamp_age,
// timestamp_part_common, extract_date, interval_part_common, timestamp_trunc,
// interval_trunc, make_date, make_timestamp_internal).
#include "engine/types/datetime_functions.h"

#include <cmath>
#include <string>

#include <fmt/format.h>
#include <fmt/printf.h>

#include "engine/error.h"
#include "engine/types/datetime.h"
#include "engine/types/numeric.h"
#include "engine/types/time_zone.h"

namespace duet {

namespace {

constexpr int kPostgresEpochJulian = 2451545;  // date2j(2000, 1, 1)
constexpr int kUnixEpochJulian = 2440588;      // date2j(1970, 1, 1)
constexpr int64_t kUsecsPerSec = 1000000;
constexpr int64_t kUsecsPerHour = 3600 * kUsecsPerSec;
constexpr int64_t kUsecsPerMinute = 60 * kUsecsPerSec;
constexpr int64_t kEpochTimestamp = int64_t(kUnixEpochJulian - kPostgresEpochJulian) * kUsecsPerDay;

// struct pg_tm, as timestamp2tm fills it: year in PostgreSQL's numbering (0 = 1 BC).
struct Tm {
  int year = 0, mon = 0, mday = 0, hour = 0, min = 0, sec = 0;
  int64_t fsec = 0;
};

bool isLeap(int y) { return (y % 4 == 0) && ((y % 100 != 0) || (y % 400 == 0)); }
int daysIn(int y, int m) {
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && isLeap(y) ? 29 : kDays[m - 1];
}
int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
// j2day: 0 = Sunday.
int julianDay(int julian) {
  julian += 1;
  julian %= 7;
  return julian < 0 ? julian + 7 : julian;
}

[[noreturn]] void timestampOutOfRange() { throw SqlError(sqlstate::kDatetimeFieldOverflow, "timestamp out of range"); }

bool isInfinite(int64_t ts) { return ts == kTimestampPosInfinity || ts == kTimestampNegInfinity; }

Tm toTm(int64_t local) {
  if (isInfinite(local)) timestampOutOfRange();
  Tm tm;
  int64_t days = floorDiv(local, kUsecsPerDay);
  int64_t time = local - days * kUsecsPerDay;
  julianToDate(static_cast<int>(days + kPostgresEpochJulian), &tm.year, &tm.mon, &tm.mday);
  tm.hour = static_cast<int>(time / kUsecsPerHour);
  time -= tm.hour * kUsecsPerHour;
  tm.min = static_cast<int>(time / kUsecsPerMinute);
  time -= tm.min * kUsecsPerMinute;
  tm.sec = static_cast<int>(time / kUsecsPerSec);
  tm.fsec = time - tm.sec * kUsecsPerSec;
  return tm;
}

// tm2timestamp: 22008 timestamp out of range outside PostgreSQL's range.
int64_t fromTm(const Tm& tm) {
  // IS_VALID_JULIAN, so the Julian day arithmetic cannot overflow.
  if (tm.year < -4713 || (tm.year == -4713 && tm.mon < 11) || tm.year > 5874898 || (tm.year == 5874898 && tm.mon > 6))
    timestampOutOfRange();
  __int128 date = dateToJulian(tm.year, tm.mon, tm.mday) - kPostgresEpochJulian;
  __int128 time =
      ((static_cast<__int128>(tm.hour) * 60 + tm.min) * 60 + tm.sec) * kUsecsPerSec + static_cast<__int128>(tm.fsec);
  __int128 r = date * kUsecsPerDay + time;
  if (r > INT64_MAX || r < INT64_MIN) timestampOutOfRange();
  return checkTimestampRange(static_cast<int64_t>(r));
}

int64_t toLocal(int64_t ts, const TypeContext& ctx, int32_t* zoneEast = nullptr) {
  int32_t zone = sessionOffsetAt(ctx, ts);
  if (zoneEast) *zoneEast = zone;
  return ts + int64_t(zone) * kUsecsPerSec;
}

int64_t fromLocal(int64_t local, const TypeContext& ctx) {
  return checkTimestampRange(local - int64_t(sessionOffsetForLocal(ctx, local)) * kUsecsPerSec);
}

// The month and day steps of timestamp_pl_interval, on a local (wall-clock) time.
int64_t addMonthsDays(int64_t local, const Interval& span, const TypeContext* ctx) {
  if (span.months != 0) {
    Tm tm = toTm(local);
    int64_t mon = int64_t(tm.mon) + span.months;
    int64_t year = tm.year;
    if (mon > 12) {
      year += (mon - 1) / 12;
      mon = (mon - 1) % 12 + 1;
    } else if (mon < 1) {
      year += mon / 12 - 1;
      mon = mon % 12 + 12;
    }
    if (year > INT32_MAX || year < INT32_MIN) timestampOutOfRange();
    tm.year = static_cast<int>(year);
    tm.mon = static_cast<int>(mon);
    if (tm.mday > daysIn(tm.year, tm.mon)) tm.mday = daysIn(tm.year, tm.mon);
    local = fromTm(tm);
    if (ctx) local = toLocal(fromLocal(local, *ctx), *ctx);
  }
  if (span.days != 0) {
    Tm tm = toTm(local);
    int64_t julian = int64_t(dateToJulian(tm.year, tm.mon, tm.mday)) + span.days;
    if (julian < 0 || julian > INT32_MAX) timestampOutOfRange();
    julianToDate(static_cast<int>(julian), &tm.year, &tm.mon, &tm.mday);
    local = fromTm(tm);
  }
  return local;
}

int64_t addTime(int64_t ts, int64_t usecs) {
  int64_t r;
  if (__builtin_add_overflow(ts, usecs, &r)) timestampOutOfRange();
  return checkTimestampRange(r);
}

// ---- units -----------------------------------------------------------------------------

enum class Field {
  Unknown,
  Unsupported,  // a reserved word or unit that no type extracts (PostgreSQL: "not supported")
  Microsec,
  Millisec,
  Second,
  Minute,
  Hour,
  Day,
  Week,
  Month,
  Quarter,
  Year,
  Decade,
  Century,
  Millennium,
  Julian,
  IsoYear,
  Dow,
  IsoDow,
  Doy,
  Epoch,
  Tz,
  TzHour,
  TzMinute,
};

struct FieldName {
  const char* name;
  Field field;
};
// deltatktbl's units and datetktbl's units and reserved words (DecodeUnits, DecodeSpecial).
constexpr FieldName kFields[] = {
    {"c", Field::Century},
    {"cent", Field::Century},
    {"centuries", Field::Century},
    {"century", Field::Century},
    {"d", Field::Day},
    {"day", Field::Day},
    {"days", Field::Day},
    {"dec", Field::Decade},
    {"decade", Field::Decade},
    {"decades", Field::Decade},
    {"decs", Field::Decade},
    {"h", Field::Hour},
    {"hour", Field::Hour},
    {"hours", Field::Hour},
    {"hr", Field::Hour},
    {"hrs", Field::Hour},
    {"invalid", Field::Unsupported},
    {"m", Field::Minute},
    {"microsecon", Field::Microsec},
    {"mil", Field::Millennium},
    {"millennia", Field::Millennium},
    {"millennium", Field::Millennium},
    {"millisecon", Field::Millisec},
    {"mils", Field::Millennium},
    {"min", Field::Minute},
    {"mins", Field::Minute},
    {"minute", Field::Minute},
    {"minutes", Field::Minute},
    {"mon", Field::Month},
    {"mons", Field::Month},
    {"month", Field::Month},
    {"months", Field::Month},
    {"ms", Field::Millisec},
    {"msec", Field::Millisec},
    {"msecond", Field::Millisec},
    {"mseconds", Field::Millisec},
    {"msecs", Field::Millisec},
    {"qtr", Field::Quarter},
    {"quarter", Field::Quarter},
    {"s", Field::Second},
    {"sec", Field::Second},
    {"second", Field::Second},
    {"seconds", Field::Second},
    {"secs", Field::Second},
    {"timezone", Field::Tz},
    {"timezone_h", Field::TzHour},
    {"timezone_m", Field::TzMinute},
    {"us", Field::Microsec},
    {"usec", Field::Microsec},
    {"usecond", Field::Microsec},
    {"useconds", Field::Microsec},
    {"usecs", Field::Microsec},
    {"w", Field::Week},
    {"week", Field::Week},
    {"weeks", Field::Week},
    {"y", Field::Year},
    {"year", Field::Year},
    {"years", Field::Year},
    {"yr", Field::Year},
    {"yrs", Field::Year},
    {"dow", Field::Dow},
    {"doy", Field::Doy},
    {"isodow", Field::IsoDow},
    {"isoyear", Field::IsoYear},
    {"j", Field::Julian},
    {"jd", Field::Julian},
    {"julian", Field::Julian},
    {"epoch", Field::Epoch},
    {"infinity", Field::Unsupported},
    {"-infinity", Field::Unsupported},
    {"now", Field::Unsupported},
    {"today", Field::Unsupported},
    {"tomorrow", Field::Unsupported},
    {"yesterday", Field::Unsupported},
    {"allballs", Field::Unsupported},
};

std::string lowerUnit(std::string_view unit) {
  std::string s(unit);
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

Field findField(const std::string& lowered) {
  std::string_view key = lowered;
  // DecodeUnits compares at most TOKMAXLEN (10) characters.
  if (key.size() > 10) key = key.substr(0, 10);
  for (const FieldName& f : kFields)
    if (key == f.name) return f.field;
  return Field::Unknown;
}

const char* kindTypeName(DatetimeKind k) {
  switch (k) {
    case DatetimeKind::Date: return "date";
    case DatetimeKind::Timestamp: return "timestamp without time zone";
    case DatetimeKind::TimestampTz: return "timestamp with time zone";
    case DatetimeKind::Interval: return "interval";
  }
  return "";
}

[[noreturn]] void unitNotSupported(const std::string& unit, DatetimeKind k, const char* detail = "") {
  throw SqlError(sqlstate::kFeatureNotSupported,
                 fmt::format("unit \"{}\" not supported for type {}", unit, kindTypeName(k)), detail);
}
[[noreturn]] void unitNotRecognized(const std::string& unit, DatetimeKind k) {
  throw SqlError(sqlstate::kInvalidParameterValue,
                 fmt::format("unit \"{}\" not recognized for type {}", unit, kindTypeName(k)));
}

}  // namespace

IsoWeek isoWeekOf(int year, int mon, int mday) {
  int dayn = dateToJulian(year, mon, mday);
  // The Monday of week 1 of `y`.
  auto weekOneStart = [](int y) {
    int day4 = dateToJulian(y, 1, 4);
    return day4 - julianDay(day4 - 1);
  };
  int start = weekOneStart(year);
  if (dayn < start) start = weekOneStart(--year);
  int week = (dayn - start) / 7 + 1;
  if (week >= 52 && dayn >= weekOneStart(year + 1)) return {year + 1, 1};
  return {year, week};
}
namespace {

int isoWeek(int year, int mon, int mday) { return isoWeekOf(year, mon, mday).week; }
int isoYear(int year, int mon, int mday) { return isoWeekOf(year, mon, mday).year; }

DatetimePart integerPart(int64_t v) { return {makeNumeric(v, 0), static_cast<double>(v)}; }

// The date fields every kind but interval shares (the switch of timestamp_part_common
// and extract_date); nullopt-like false when the field is not one of them.
bool dateField(Field f, int year, int mon, int mday, int64_t* out) {
  switch (f) {
    case Field::Day: *out = mday; return true;
    case Field::Month: *out = mon; return true;
    case Field::Quarter: *out = (mon - 1) / 3 + 1; return true;
    case Field::Week: *out = isoWeek(year, mon, mday); return true;
    case Field::Year: *out = year > 0 ? year : year - 1; return true;
    case Field::Decade: *out = year >= 0 ? year / 10 : -((8 - (year - 1)) / 10); return true;
    case Field::Century: *out = year > 0 ? (year + 99) / 100 : -((99 - (year - 1)) / 100); return true;
    case Field::Millennium: *out = year > 0 ? (year + 999) / 1000 : -((999 - (year - 1)) / 1000); return true;
    case Field::IsoYear: {
      int64_t y = isoYear(year, mon, mday);
      *out = y <= 0 ? y - 1 : y;
      return true;
    }
    case Field::Dow:
    case Field::IsoDow: {
      int d = julianDay(dateToJulian(year, mon, mday));
      *out = f == Field::IsoDow && d == 0 ? 7 : d;
      return true;
    }
    case Field::Doy: *out = dateToJulian(year, mon, mday) - dateToJulian(year, 1, 1) + 1; return true;
    default: return false;
  }
}

DatetimePart timestampPart(Field f, const std::string& unit, DatetimeKind kind, int64_t ts, const TypeContext& ctx) {
  if (isInfinite(ts))
    throw SqlError(sqlstate::kFeatureNotSupported, fmt::format("{} of an infinite timestamp is not supported", unit));
  int32_t zone = 0;
  Tm tm = toTm(kind == DatetimeKind::TimestampTz ? toLocal(ts, ctx, &zone) : ts);
  int64_t secUsecs = tm.sec * kUsecsPerSec + tm.fsec;
  int64_t v;
  switch (f) {
    case Field::Microsec: return integerPart(secUsecs);
    case Field::Millisec: return {makeNumeric(secUsecs, 3), tm.sec * 1000.0 + static_cast<double>(tm.fsec) / 1000.0};
    case Field::Second: return {makeNumeric(secUsecs, 6), tm.sec + static_cast<double>(tm.fsec) / 1000000.0};
    case Field::Minute: return integerPart(tm.min);
    case Field::Hour: return integerPart(tm.hour);
    case Field::Julian: {
      int64_t j = dateToJulian(tm.year, tm.mon, tm.mday);
      int64_t dayUsecs = ((tm.hour * 60 + tm.min) * 60) * kUsecsPerSec + secUsecs;
      NumericRep n = numericAdd(makeNumeric(j, 0), numericDiv(makeNumeric(dayUsecs, 0), makeNumeric(kUsecsPerDay, 0)));
      double d = static_cast<double>(j) +
                 (((tm.hour * 60) + tm.min) * 60 + tm.sec + static_cast<double>(tm.fsec) / 1000000.0) / 86400.0;
      return {n, d};
    }
    case Field::Epoch: {
      int64_t since = ts - kEpochTimestamp;
      return {makeNumeric(since, 6), static_cast<double>(since) / 1000000.0};
    }
    case Field::Tz:
    case Field::TzHour:
    case Field::TzMinute:
      if (kind != DatetimeKind::TimestampTz) unitNotSupported(unit, kind);
      return integerPart(f == Field::Tz ? zone : f == Field::TzHour ? zone / 3600 : (zone / 60) % 60);
    default:
      if (dateField(f, tm.year, tm.mon, tm.mday, &v)) return integerPart(v);
      unitNotSupported(unit, kind);
  }
}

DatetimePart datePart(Field f, const std::string& unit, int32_t date) {
  if (date == kDatePosInfinity || date == kDateNegInfinity)
    throw SqlError(sqlstate::kFeatureNotSupported, fmt::format("{} of an infinite date is not supported", unit));
  int julian = date + kPostgresEpochJulian;
  if (f == Field::Epoch) return integerPart(int64_t(julian - kUnixEpochJulian) * 86400);
  if (f == Field::Julian) return integerPart(julian);
  int year, mon, mday;
  julianToDate(julian, &year, &mon, &mday);
  int64_t v;
  if (dateField(f, year, mon, mday, &v)) return integerPart(v);
  unitNotSupported(unit, DatetimeKind::Date);
}

// interval2itm
struct Itm {
  int64_t year, mon, mday, hour, min, sec, usec;
};
Itm toItm(const Interval& v) {
  Itm t;
  t.year = v.months / 12;
  t.mon = v.months % 12;
  t.mday = v.days;
  int64_t time = v.usecs;
  t.hour = time / kUsecsPerHour;
  time -= t.hour * kUsecsPerHour;
  t.min = time / kUsecsPerMinute;
  time -= t.min * kUsecsPerMinute;
  t.sec = time / kUsecsPerSec;
  t.usec = time - t.sec * kUsecsPerSec;
  return t;
}

// itm2interval: 22008 interval out of range.
Interval fromItm(const Itm& t) {
  int64_t months = t.year * 12 + t.mon;
  if (months > INT32_MAX || months < INT32_MIN) raiseIntervalOutOfRange();
  __int128 time = ((static_cast<__int128>(t.hour) * 60 + t.min) * 60 + t.sec) * kUsecsPerSec + t.usec;
  if (time > INT64_MAX || time < INT64_MIN) raiseIntervalOutOfRange();
  return {static_cast<int32_t>(months), static_cast<int32_t>(t.mday), static_cast<int64_t>(time)};
}

DatetimePart intervalPart(Field f, const std::string& unit, const Interval& iv) {
  Itm t = toItm(iv);
  int64_t secUsecs = t.sec * kUsecsPerSec + t.usec;
  switch (f) {
    case Field::Microsec: return integerPart(secUsecs);
    case Field::Millisec: return {makeNumeric(secUsecs, 3), t.sec * 1000.0 + static_cast<double>(t.usec) / 1000.0};
    case Field::Second:
      return {makeNumeric(secUsecs, 6), static_cast<double>(t.sec) + static_cast<double>(t.usec) / 1000000.0};
    case Field::Minute: return integerPart(t.min);
    case Field::Hour: return integerPart(t.hour);
    case Field::Day: return integerPart(t.mday);
    case Field::Month: return integerPart(t.mon);
    case Field::Quarter: return integerPart(t.mon / 3 + 1);
    case Field::Year: return integerPart(t.year);
    case Field::Decade: return integerPart(t.year / 10);
    case Field::Century: return integerPart(t.year / 100);
    case Field::Millennium: return integerPart(t.year / 1000);
    case Field::Epoch: {
      int64_t secsFromDayMonth =
          int64_t(31557600) * (iv.months / 12) + int64_t(2592000) * (iv.months % 12) + int64_t(86400) * iv.days;
      __int128 total = static_cast<__int128>(secsFromDayMonth) * kUsecsPerSec + iv.usecs;
      double d = static_cast<double>(iv.usecs) / 1000000.0;
      d += (365.25 * 86400) * (iv.months / 12);
      d += (30.0 * 86400) * (iv.months % 12);
      d += 86400.0 * iv.days;
      return {makeNumeric(total, 6), d};
    }
    default: unitNotSupported(unit, DatetimeKind::Interval);
  }
}

// Which unit a date_trunc names, with the errors of an unknown one.
Field truncField(std::string_view unit, DatetimeKind kind, std::string* lowered) {
  *lowered = lowerUnit(unit);
  Field f = findField(*lowered);
  // DecodeUnits alone: the units of deltatktbl; its reserved word "invalid" and the words
  // of datetktbl (epoch, julian, dow, ...) are not units here.
  if (f == Field::Unknown || f == Field::Unsupported || f == Field::Epoch || f == Field::Julian ||
      f == Field::IsoYear || f == Field::Dow || f == Field::IsoDow || f == Field::Doy)
    unitNotRecognized(*lowered, kind);
  return f;
}

// The truncation of timestamp_trunc on broken-down local fields; false for units it lacks.
bool truncTm(Field f, Tm& tm) {
  switch (f) {
    case Field::Week: {
      int woy = isoWeek(tm.year, tm.mon, tm.mday);
      if (woy >= 52 && tm.mon == 1) --tm.year;
      if (woy <= 1 && tm.mon == 12) ++tm.year;
      int day4 = dateToJulian(tm.year, 1, 4);
      int day0 = julianDay(day4 - 1);
      julianToDate((woy - 1) * 7 + (day4 - day0), &tm.year, &tm.mon, &tm.mday);
      tm.hour = tm.min = tm.sec = 0;
      tm.fsec = 0;
      return true;
    }
    case Field::Millennium:
    case Field::Century:
    case Field::Decade:
    case Field::Year:
    case Field::Quarter:
    case Field::Month:
    case Field::Day:
    case Field::Hour:
    case Field::Minute:
    case Field::Second: break;
    case Field::Millisec: tm.fsec = (tm.fsec / 1000) * 1000; return true;
    case Field::Microsec: return true;
    default: return false;
  }
  // The fall-through chain of timestamp_trunc, from the largest unit down.
  int level = f == Field::Millennium ? 0
              : f == Field::Century  ? 1
              : f == Field::Decade   ? 2
              : f == Field::Year     ? 3
              : f == Field::Quarter  ? 4
              : f == Field::Month    ? 5
              : f == Field::Day      ? 6
              : f == Field::Hour     ? 7
              : f == Field::Minute   ? 8
                                     : 9;
  if (level == 0)
    tm.year = tm.year > 0 ? ((tm.year + 999) / 1000) * 1000 - 999 : -((999 - (tm.year - 1)) / 1000) * 1000 + 1;
  if (level <= 1) tm.year = tm.year > 0 ? ((tm.year + 99) / 100) * 100 - 99 : -((99 - (tm.year - 1)) / 100) * 100 + 1;
  if (level == 2) tm.year = tm.year > 0 ? (tm.year / 10) * 10 : -((8 - (tm.year - 1)) / 10) * 10;
  if (level <= 3) tm.mon = 1;
  if (level <= 4) tm.mon = 3 * ((tm.mon - 1) / 3) + 1;
  if (level <= 5) tm.mday = 1;
  if (level <= 6) tm.hour = 0;
  if (level <= 7) tm.min = 0;
  if (level <= 8) tm.sec = 0;
  tm.fsec = 0;
  return true;
}

}  // namespace

int64_t timestampPlusInterval(int64_t ts, const Interval& span) {
  if (isInfinite(ts)) return ts;
  return addTime(addMonthsDays(ts, span, nullptr), span.usecs);
}

int64_t timestampTzPlusInterval(int64_t ts, const Interval& span, const TypeContext& ctx) {
  if (isInfinite(ts)) return ts;
  if (span.months != 0 || span.days != 0) ts = fromLocal(addMonthsDays(toLocal(ts, ctx), span, &ctx), ctx);
  return addTime(ts, span.usecs);
}

int64_t timestampBin(const Interval& stride, int64_t source, int64_t origin) {
  if (isInfinite(source)) return source;
  if (isInfinite(origin)) throw SqlError(sqlstate::kDatetimeFieldOverflow, "origin out of range");
  if (stride.months != 0)
    throw SqlError(sqlstate::kFeatureNotSupported,
                   "timestamps cannot be binned into intervals containing months or years");
  int64_t strideUsecs = 0;
  if (__builtin_mul_overflow(int64_t(stride.days), kUsecsPerDay, &strideUsecs) ||
      __builtin_add_overflow(strideUsecs, stride.usecs, &strideUsecs))
    raiseIntervalOutOfRange();
  if (strideUsecs <= 0) throw SqlError(sqlstate::kDatetimeFieldOverflow, "stride must be greater than zero");
  int64_t diff = 0;
  if (__builtin_sub_overflow(source, origin, &diff)) raiseIntervalOutOfRange();
  int64_t modulo = diff % strideUsecs;
  int64_t result = origin + (diff - modulo);  // between origin and source: no overflow
  // Toward -infinity for a source before the origin, which may leave the range.
  if (modulo < 0 && __builtin_sub_overflow(result, strideUsecs, &result)) timestampOutOfRange();
  return modulo < 0 ? checkTimestampRange(result) : result;
}

Interval timestampDifference(int64_t a, int64_t b) {
  if (isInfinite(a) || isInfinite(b))
    throw SqlError(sqlstate::kDatetimeFieldOverflow, "cannot subtract infinite timestamps");
  int64_t d;
  if (__builtin_sub_overflow(a, b, &d)) raiseIntervalOutOfRange();
  return justifyHours({0, 0, d});
}

namespace {

Interval ageOfFields(const Tm& tm1, const Tm& tm2, bool before) {
  Itm t{};
  int64_t fsec = tm1.fsec - tm2.fsec;
  t.sec = tm1.sec - tm2.sec;
  t.min = tm1.min - tm2.min;
  t.hour = tm1.hour - tm2.hour;
  t.mday = tm1.mday - tm2.mday;
  t.mon = tm1.mon - tm2.mon;
  t.year = int64_t(tm1.year) - tm2.year;
  // As PostgreSQL: the later minus the earlier, borrowing from the larger fields, then the
  // sign back.
  auto negate = [&] {
    fsec = -fsec;
    t.sec = -t.sec;
    t.min = -t.min;
    t.hour = -t.hour;
    t.mday = -t.mday;
    t.mon = -t.mon;
    t.year = -t.year;
  };
  if (before) negate();
  while (fsec < 0) fsec += kUsecsPerSec, t.sec--;
  while (t.sec < 0) t.sec += 60, t.min--;
  while (t.min < 0) t.min += 60, t.hour--;
  while (t.hour < 0) t.hour += 24, t.mday--;
  while (t.mday < 0) {
    const Tm& ref = before ? tm1 : tm2;
    t.mday += daysIn(ref.year, ref.mon);
    t.mon--;
  }
  while (t.mon < 0) t.mon += 12, t.year--;
  if (before) negate();
  t.usec = fsec;
  // tm2interval
  double months = static_cast<double>(t.year) * 12 + static_cast<double>(t.mon);
  if (months > INT32_MAX || months < INT32_MIN) raiseIntervalOutOfRange();
  Interval r;
  r.months = static_cast<int32_t>(months);
  r.days = static_cast<int32_t>(t.mday);
  r.usecs = (((t.hour * 60) + t.min) * 60 + t.sec) * kUsecsPerSec + t.usec;
  return r;
}

}  // namespace

Interval timestampAge(int64_t a, int64_t b) { return ageOfFields(toTm(a), toTm(b), a < b); }

Interval timestampTzAge(int64_t a, int64_t b, const TypeContext& ctx) {
  if (isInfinite(a) || isInfinite(b)) timestampOutOfRange();
  return ageOfFields(toTm(toLocal(a, ctx)), toTm(toLocal(b, ctx)), a < b);
}

DatetimePart datetimePart(std::string_view unit, DatetimeKind kind, int64_t value, const Interval& interval,
                          const TypeContext& ctx) {
  std::string lowered = lowerUnit(unit);
  Field f = findField(lowered);
  if (f == Field::Unknown) unitNotRecognized(lowered, kind);
  if (f == Field::Unsupported) unitNotSupported(lowered, kind);
  switch (kind) {
    case DatetimeKind::Date: return datePart(f, lowered, static_cast<int32_t>(value));
    case DatetimeKind::Interval: return intervalPart(f, lowered, interval);
    default: return timestampPart(f, lowered, kind, value, ctx);
  }
}

int64_t timestampTrunc(std::string_view unit, int64_t ts) {
  if (isInfinite(ts)) return ts;
  std::string lowered;
  Field f = truncField(unit, DatetimeKind::Timestamp, &lowered);
  Tm tm = toTm(ts);
  if (!truncTm(f, tm)) unitNotSupported(lowered, DatetimeKind::Timestamp);
  return fromTm(tm);
}

int64_t timestampTzTrunc(std::string_view unit, int64_t ts, const TypeContext& ctx) {
  if (isInfinite(ts)) return ts;
  std::string lowered;
  Field f = truncField(unit, DatetimeKind::TimestampTz, &lowered);
  int32_t zone;
  Tm tm = toTm(toLocal(ts, ctx, &zone));
  if (!truncTm(f, tm)) unitNotSupported(lowered, DatetimeKind::TimestampTz);
  int64_t local = fromTm(tm);
  // Units of a day and more find the zone anew (midnight may have another offset); the
  // smaller ones keep the instant's offset, as timestamptz_trunc_internal.
  bool redoZone =
      f != Field::Hour && f != Field::Minute && f != Field::Second && f != Field::Millisec && f != Field::Microsec;
  if (redoZone) return fromLocal(local, ctx);
  return checkTimestampRange(local - int64_t(zone) * kUsecsPerSec);
}

Interval intervalTrunc(std::string_view unit, const Interval& v) {
  std::string lowered;
  Field f = truncField(unit, DatetimeKind::Interval, &lowered);
  Itm t = toItm(v);
  int level;
  switch (f) {
    case Field::Millennium: level = 0; break;
    case Field::Century: level = 1; break;
    case Field::Decade: level = 2; break;
    case Field::Year: level = 3; break;
    case Field::Quarter: level = 4; break;
    case Field::Month: level = 5; break;
    case Field::Day: level = 6; break;
    case Field::Hour: level = 7; break;
    case Field::Minute: level = 8; break;
    case Field::Second: level = 9; break;
    case Field::Millisec: t.usec = (t.usec / 1000) * 1000; return fromItm(t);
    case Field::Microsec: return fromItm(t);
    default:
      unitNotSupported(lowered, DatetimeKind::Interval,
                       f == Field::Week ? "Months usually have fractional weeks." : "");
  }
  if (level == 0) t.year = (t.year / 1000) * 1000;
  if (level <= 1) t.year = (t.year / 100) * 100;
  if (level <= 2) t.year = (t.year / 10) * 10;
  if (level <= 3) t.mon = 0;
  if (level <= 4) t.mon = 3 * (t.mon / 3);
  if (level <= 5) t.mday = 0;
  if (level <= 6) t.hour = 0;
  if (level <= 7) t.min = 0;
  if (level <= 8) t.sec = 0;
  t.usec = 0;
  return fromItm(t);
}

namespace {

// ValidateDate for make_date/make_timestamp: year (BC when negative), month, day; false
// when a field is out of range. The year comes back in PostgreSQL's numbering.
bool validateDate(int& year, int mon, int mday) {
  if (year < 0) {
    year = -year;
    year = -(year - 1);
  } else if (year == 0) {
    return false;
  }
  if (mon < 1 || mon > 12) return false;
  if (mday < 1 || mday > 31) return false;
  return mday <= daysIn(year, mon);
}

bool validJulian(int y, int m, int d) {
  return (y > -4713 || (y == -4713 && m >= 11)) &&
         (y < 5874898 || (y == 5874898 && m < 6) || (y == 5874898 && m == 6 && d < 3));
}

}  // namespace

int32_t makeDate(int32_t year, int32_t month, int32_t day) {
  int y = year;
  if (!validateDate(y, month, day)) {
    // PostgreSQL prints the year after ValidateDate's BC adjustment of its positive form.
    int shown = year < 0 ? -year : year;
    if (year < 0 && shown > 0) shown = -(shown - 1);
    throw SqlError(sqlstate::kDatetimeFieldOverflow,
                   fmt::format("date field value out of range: {}-{:02}-{:02}", shown, month, day));
  }
  if (!validJulian(y, month, day))
    throw SqlError(sqlstate::kDatetimeFieldOverflow, fmt::format("date out of range: {}-{:02}-{:02}", y, month, day));
  int64_t date = int64_t(dateToJulian(y, month, day)) - kPostgresEpochJulian;
  if (date + kPostgresEpochJulian < 0 || date + kPostgresEpochJulian >= 2147483494)
    throw SqlError(sqlstate::kDatetimeFieldOverflow, fmt::format("date out of range: {}-{:02}-{:02}", y, month, day));
  return static_cast<int32_t>(date);
}

int64_t makeTimestamp(int32_t year, int32_t month, int32_t day, int32_t hour, int32_t min, double sec) {
  int y = year;
  if (!validateDate(y, month, day))
    throw SqlError(sqlstate::kDatetimeFieldOverflow,
                   fmt::format("date field value out of range: {}-{:02}-{:02}", year, month, day));
  if (!validJulian(y, month, day))
    throw SqlError(sqlstate::kDatetimeFieldOverflow,
                   fmt::format("date out of range: {}-{:02}-{:02}", year, month, day));
  int64_t date = int64_t(dateToJulian(y, month, day)) - kPostgresEpochJulian;
  // float_time_overflows
  bool bad = hour < 0 || hour > 24 || min < 0 || min >= 60 || std::isnan(sec);
  double usec = bad ? 0 : std::rint(sec * 1000000.0);
  if (!bad && (usec < 0 || usec > 60.0 * 1000000.0)) bad = true;
  if (!bad && ((int64_t(hour) * 60 + min) * 60) * kUsecsPerSec + static_cast<int64_t>(usec) > kUsecsPerDay) bad = true;
  if (bad)
    throw SqlError(sqlstate::kDatetimeFieldOverflow,
                   fmt::sprintf("time field value out of range: %d:%02d:%02g", hour, min, sec));
  int64_t time = ((int64_t(hour) * 60 + min) * 60) * kUsecsPerSec + static_cast<int64_t>(usec);
  __int128 r = static_cast<__int128>(date) * kUsecsPerDay + time;
  if (r > INT64_MAX || r < INT64_MIN || (r < 0 && date > 0) || (r > 0 && date < -1))
    throw SqlError(
        sqlstate::kDatetimeFieldOverflow,
        fmt::sprintf("timestamp out of range: \"%d-%02d-%02d %d:%02d:%02g\"", year, month, day, hour, min, sec));
  try {
    return checkTimestampRange(static_cast<int64_t>(r));
  } catch (const SqlError&) {
    throw SqlError(
        sqlstate::kDatetimeFieldOverflow,
        fmt::sprintf("timestamp out of range: \"%d-%02d-%02d %d:%02d:%02g\"", year, month, day, hour, min, sec));
  }
}

namespace {

// A bare POSIX offset, +h, +hh, +hh:mm or +hh:mm:ss: as in 'UTC+5', the sign counts
// west of Greenwich ('+05' is five hours behind UTC), as PostgreSQL's pg_tzset reads it.
bool numericZone(std::string_view s, int32_t* east) {
  if (s.size() < 2 || (s[0] != '+' && s[0] != '-')) return false;
  std::string_view rest = s.substr(1);
  int h = 0, m = 0, sec = 0;
  auto digits = [](std::string_view d, int* out) {
    if (d.empty() || d.size() > 2) return false;
    *out = 0;
    for (char c : d) {
      if (c < '0' || c > '9') return false;
      *out = *out * 10 + (c - '0');
    }
    return true;
  };
  size_t colon = rest.find(':');
  if (colon != std::string_view::npos) {
    std::string_view after = rest.substr(colon + 1);
    size_t colon2 = after.find(':');
    if (!digits(rest.substr(0, colon), &h)) return false;
    if (colon2 != std::string_view::npos) {
      if (!digits(after.substr(0, colon2), &m) || !digits(after.substr(colon2 + 1), &sec)) return false;
    } else if (!digits(after, &m)) {
      return false;
    }
  } else if (!digits(rest, &h)) {
    return false;
  }
  if (h > 24 || m > 59 || sec > 59) return false;
  int32_t total = h * 3600 + m * 60 + sec;
  *east = s[0] == '-' ? total : -total;
  return true;
}

// DecodeTimezone's numeric offsets, east of UTC: +h, +hh, +hhmm, +hhmmss, +hh:mm, +hh:mm:ss;
// 22023 past 15 hours (parse_sane_timezone's message).
bool isoNumericZone(std::string_view s, int32_t* east) {
  if (s.size() < 2 || (s[0] != '+' && s[0] != '-')) return false;
  std::string_view rest = s.substr(1);
  auto number = [](std::string_view d, int* out) {
    if (d.empty()) return false;
    *out = 0;
    for (char c : d) {
      if (c < '0' || c > '9' || *out > 100000) return false;
      *out = *out * 10 + (c - '0');
    }
    return true;
  };
  int h = 0, m = 0, sec = 0;
  size_t colon = rest.find(':');
  if (colon != std::string_view::npos) {
    std::string_view after = rest.substr(colon + 1);
    size_t colon2 = after.find(':');
    if (!number(rest.substr(0, colon), &h)) return false;
    if (colon2 != std::string_view::npos) {
      if (!number(after.substr(0, colon2), &m) || !number(after.substr(colon2 + 1), &sec)) return false;
    } else if (!number(after, &m)) {
      return false;
    }
  } else {
    int all = 0;
    if (!number(rest, &all)) return false;
    if (rest.size() > 4) {
      h = all / 10000;
      m = all / 100 % 100;
      sec = all % 100;
    } else if (rest.size() > 2) {
      h = all / 100;
      m = all % 100;
    } else {
      h = all;
    }
  }
  if (h > 15) throw SqlError(sqlstate::kInvalidParameterValue, fmt::format("numeric time zone \"{}\" out of range", s));
  if (m > 59 || sec > 59) return false;
  int32_t total = h * 3600 + m * 60 + sec;
  *east = s[0] == '-' ? -total : total;
  return true;
}

// AT TIME ZONE's zone: a bare POSIX offset, else an abbreviation or zone name.
ZoneReference resolveAtZone(std::string_view name) {
  ZoneReference z;
  if (numericZone(name, &z.fixedOffsetEast)) return z;
  std::optional<ZoneReference> r = resolveZoneReference(name);
  if (!r) throw SqlError(sqlstate::kInvalidParameterValue, fmt::format("time zone \"{}\" not recognized", name));
  return *r;
}

int64_t unixSeconds(int64_t ts) {
  return floorDiv(ts, kUsecsPerSec) + (kPostgresEpochJulian - kUnixEpochJulian) * 86400LL;
}

int64_t shiftChecked(int64_t ts, int64_t seconds) {
  int64_t r;
  if (__builtin_add_overflow(ts, seconds * kUsecsPerSec, &r)) timestampOutOfRange();
  return checkTimestampRange(r);
}

int64_t intervalZoneSeconds(const Interval& zone) {
  if (zone.months != 0 || zone.days != 0) {
    std::string text;
    formatInterval(zone, text);
    throw SqlError(sqlstate::kInvalidParameterValue,
                   fmt::format("interval time zone \"{}\" must not include months or days", text));
  }
  return zone.usecs / kUsecsPerSec;
}

}  // namespace

int64_t timestampTzAtZone(int64_t ts, std::string_view zone) {
  ZoneReference z = resolveAtZone(zone);
  if (isInfinite(ts)) return ts;
  return shiftChecked(ts, zoneOffsetAt(z, unixSeconds(ts)));
}

int64_t timestampAtZone(int64_t ts, std::string_view zone) {
  ZoneReference z = resolveAtZone(zone);
  if (isInfinite(ts)) return ts;
  return shiftChecked(ts, -int64_t(zoneOffsetForLocal(z, unixSeconds(ts))));
}

int64_t timestampTzAtIntervalZone(int64_t ts, const Interval& zone) {
  int64_t east = intervalZoneSeconds(zone);
  if (isInfinite(ts)) return ts;
  return shiftChecked(ts, east);
}

int64_t timestampAtIntervalZone(int64_t ts, const Interval& zone) {
  int64_t east = intervalZoneSeconds(zone);
  if (isInfinite(ts)) return ts;
  return shiftChecked(ts, -east);
}

Interval makeInterval(int32_t years, int32_t months, int32_t weeks, int32_t days, int32_t hours, int32_t mins,
                      double secs) {
  if (std::isinf(secs) || std::isnan(secs)) raiseIntervalOutOfRange();
  // PostgreSQL 15 adds the fields in int32 and int64 arithmetic without overflow checks:
  // they wrap, as here. Seconds beyond the int64 range (undefined in C) are 22008 here.
  Interval v;
  v.months = static_cast<int32_t>(static_cast<uint32_t>(years) * 12u + static_cast<uint32_t>(months));
  v.days = static_cast<int32_t>(static_cast<uint32_t>(weeks) * 7u + static_cast<uint32_t>(days));
  double usecs = std::rint(secs * static_cast<double>(kUsecsPerSec));
  if (!(usecs >= -9223372036854775808.0 && usecs < 9223372036854775808.0)) raiseIntervalOutOfRange();
  v.usecs = static_cast<int64_t>(static_cast<uint64_t>(int64_t(hours) * kUsecsPerHour) +
                                 static_cast<uint64_t>(int64_t(mins) * kUsecsPerMinute) +
                                 static_cast<uint64_t>(static_cast<int64_t>(usecs)));
  return v;
}

int64_t makeTimestampTz(int32_t year, int32_t month, int32_t day, int32_t hour, int32_t min, double sec,
                        const TypeContext& ctx) {
  return timestampToTimestampTz(makeTimestamp(year, month, day, hour, min, sec), ctx);
}

int64_t makeTimestampTzAt(int32_t year, int32_t month, int32_t day, int32_t hour, int32_t min, double sec,
                          std::string_view zone) {
  int64_t local = makeTimestamp(year, month, day, hour, min, sec);
  if (!zone.empty() && zone[0] >= '0' && zone[0] <= '9')
    throw SqlError(sqlstate::kInvalidParameterValue,
                   fmt::format("invalid input syntax for type numeric time zone: \"{}\"", zone), {},
                   "Numeric time zones must have \"-\" or \"+\" as first character.");
  int32_t east = 0;
  if (isoNumericZone(zone, &east)) return shiftChecked(local, -int64_t(east));
  return timestampAtZone(local, zone);
}

}  // namespace duet
