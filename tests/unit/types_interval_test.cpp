// interval (engine/types/interval.h) and the date/time functions over it
// (datetime_functions.h). Expected values are PostgreSQL 15's (TimeZone UTC), from the query
// in the comment above each.
#include <catch2/catch.hpp>

#include <string>

#include "engine/error.h"
#include "engine/types/datetime.h"
#include "engine/types/datetime_functions.h"
#include "engine/types/interval.h"
#include "engine/types/numeric.h"
#include "engine/types/value_io.h"

using namespace duet;

namespace {

std::string roundTrip(const char* text, int32_t typmod = -1) {
  std::string out;
  formatInterval(parseInterval(text, typmod), out);
  return out;
}

std::string show(const Interval& v) {
  std::string out;
  formatInterval(v, out);
  return out;
}

std::string codeOf(const char* text) {
  try {
    parseInterval(text);
  } catch (const SqlError& e) {
    return e.code;
  }
  return "none";
}

}  // namespace

TEST_CASE("interval: input styles and postgres output", "[types][interval]") {
  // SELECT interval '1 year 2 mons 3 days 04:05:06.5', interval '-1 days +02:00:00', ...
  CHECK(roundTrip("1 year 2 mons 3 days 04:05:06.5") == "1 year 2 mons 3 days 04:05:06.5");
  CHECK(roundTrip("-1 days +02:00:00") == "-1 days +02:00:00");
  CHECK(roundTrip("3 days") == "3 days");
  CHECK(roundTrip("P1Y2M") == "1 year 2 mons");
  CHECK(roundTrip("P1Y2M3DT4H5M6S") == "1 year 2 mons 3 days 04:05:06");
  CHECK(roundTrip("1-2") == "1 year 2 mons");
  CHECK(roundTrip("1 2:03:04") == "1 day 02:03:04");
  CHECK(roundTrip("-1 2:03:04") == "-1 days +02:03:04");
  CHECK(roundTrip("@ 1 hour ago") == "-01:00:00");
  CHECK(roundTrip("1.5 years") == "1 year 6 mons");
  CHECK(roundTrip("1.5 days") == "1 day 12:00:00");
  CHECK(roundTrip("-2 hours -3 minutes") == "-02:03:00");
  CHECK(roundTrip("0") == "00:00:00");
}

TEST_CASE("interval: typmod fields decide a bare number and truncate", "[types][interval]") {
  using namespace interval_field;
  // SELECT interval '90' day, interval '1' month, interval '1 day 02:03' day
  CHECK(roundTrip("90", intervalTypmod(kDay, kFullPrecision)) == "90 days");
  CHECK(roundTrip("1", intervalTypmod(kMonth, kFullPrecision)) == "1 mon");
  CHECK(roundTrip("1 day 02:03", intervalTypmod(kDay, kFullPrecision)) == "1 day");
  CHECK(roundTrip("1.23456 seconds", intervalTypmod(kFullRange, 2)) == "00:00:01.23");
  CHECK(intervalTypmodText(intervalTypmod(kDay | kHour | kMinute | kSecond, 3)) == " day to second(3)");
}

TEST_CASE("interval: input errors", "[types][interval]") {
  CHECK(codeOf("abc") == "22007");
  CHECK(codeOf("1 dayz") == "22007");
  CHECK(codeOf("1 day 1 day") == "22007");
  CHECK(codeOf("2147483648 days") == "22015");
  CHECK(codeOf("1:60") == "22015");
}

TEST_CASE("interval: ordering by the 30-day-month total and the packed form", "[types][interval]") {
  Interval month = parseInterval("1 mon"), days30 = parseInterval("30 days"), year = parseInterval("1 year");
  CHECK(intervalCompare(month, days30) == 0);
  CHECK(intervalHash(month) == intervalHash(days30));
  CHECK(intervalCompare(year, parseInterval("359 days")) > 0);
  Interval v{-3, 2147483647, -5};
  CHECK(unpackInterval(packInterval(v)) == v);
  IntervalRep rep = packInterval(parseInterval("1 day 02:00"));
  std::string text;
  formatText({TypeId::Interval, -1}, &rep, text, TypeContext{});
  CHECK(text == "1 day 02:00:00");
}

TEST_CASE("interval: arithmetic and justification", "[types][interval]") {
  // SELECT interval '1 month' * 1.5, interval '1 year' / 7, interval '1 mon 1 day' * 0.1
  CHECK(show(intervalMul(parseInterval("1 month"), 1.5)) == "1 mon 15 days");
  CHECK(show(intervalDiv(parseInterval("1 year"), 7)) == "1 mon 21 days 10:17:08.5344");
  CHECK(show(intervalMul(parseInterval("1 mon 1 day"), 0.1)) == "3 days 02:24:00");
  CHECK(show(justifyInterval(parseInterval("1 mon -1 hour"))) == "29 days 23:00:00");
  CHECK(show(justifyDays(parseInterval("-35 days"))) == "-1 mons -5 days");
  CHECK_THROWS_AS(intervalAdd(parseInterval("2147483647 days"), parseInterval("1 day")), SqlError);
  CHECK_THROWS_AS(intervalDiv(parseInterval("1 day"), 0), SqlError);
}

TEST_CASE("interval: timestamps, extract and date_trunc", "[types][interval]") {
  TypeContext utc;
  // SELECT timestamp '2001-01-31' + interval '1 month'
  std::string out;
  formatTimestamp(timestampPlusInterval(parseTimestamp("2001-01-31"), parseInterval("1 month")), out);
  CHECK(out == "2001-02-28 00:00:00");
  // SELECT timestamp '2001-02-03 04:05:06' - timestamp '2001-01-01'
  CHECK(show(timestampDifference(parseTimestamp("2001-02-03 04:05:06"), parseTimestamp("2001-01-01"))) ==
        "33 days 04:05:06");
  // SELECT age(timestamp '2001-04-10', timestamp '1957-06-13')
  CHECK(show(timestampAge(parseTimestamp("2001-04-10"), parseTimestamp("1957-06-13"))) == "43 years 9 mons 27 days");
  // SELECT extract(second from timestamp '2001-02-16 20:38:40.12'), extract(epoch from interval '1 year')
  CHECK(
      numericToString(
          datetimePart("second", DatetimeKind::Timestamp, parseTimestamp("2001-02-16 20:38:40.12"), {}, utc).numeric) ==
      "40.120000");
  CHECK(numericToString(datetimePart("epoch", DatetimeKind::Interval, 0, parseInterval("1 year"), utc).numeric) ==
        "31557600.000000");
  CHECK_THROWS_AS(datetimePart("foo", DatetimeKind::Timestamp, 0, {}, utc), SqlError);
  out.clear();
  formatTimestamp(timestampTrunc("week", parseTimestamp("2005-01-01")), out);
  CHECK(out == "2004-12-27 00:00:00");
  CHECK(show(intervalTrunc("hour", parseInterval("3 days 04:05:06"))) == "3 days 04:00:00");
}
