// Expected values are PostgreSQL 15's (server started with --locale=C -E UTF8, TimeZone UTC,
// extra_float_digits 1); the query that produced each is in the comment above it.
#include <catch2/catch.hpp>

#include <fmt/format.h>
#include <random>

#include <cstring>

#include "engine/error.h"
#include "engine/types/datetime.h"
#include "engine/types/numeric.h"
#include "engine/types/runtime.h"
#include "engine/types/scalar_text.h"
#include "engine/types/strings.h"
#include "engine/types/value_io.h"

using namespace duet;

namespace {
NumericRep N(const char* s) { return parseNumeric(s); }
std::string S(NumericRep v) { return numericToString(v); }

// Runs f and returns "SQLSTATE: message" of the SqlError it throws.
template <typename F>
std::string errorOf(F&& f) {
  try {
    f();
  } catch (const SqlError& e) {
    return e.code + ": " + e.what();
  }
  return "no error";
}

std::string f8(double v) {
  std::string s;
  formatFloat8(v, s);
  return s;
}
std::string f4(float v) {
  std::string s;
  formatFloat4(v, s);
  return s;
}

std::string textOf(SqlType t, std::string_view in, const TypeContext& ctx = {}) {
  Arena arena;
  alignas(16) unsigned char buf[16];
  parseText(t, in, buf, arena, ctx);
  std::string out;
  formatText(t, buf, out, ctx);
  return out;
}

std::string hex(std::string_view s) {
  std::string r;
  for (unsigned char c : s) r += fmt::format("{:02x}", c);
  return r;
}
}  // namespace

TEST_CASE("numeric text input and output", "[types][numeric]") {
  // select 1.50::numeric, '-1e3'::numeric, ' 7 '::numeric, '+12.50'::numeric, 1.5e-3
  CHECK(S(N("1.50")) == "1.50");
  CHECK(S(N("-1e3")) == "-1000");
  CHECK(S(N(" 7 ")) == "7");
  CHECK(S(N("+12.50")) == "12.50");
  CHECK(S(N("1.5e-3")) == "0.0015");
  CHECK(S(N("-0.00")) == "0.00");
  // select 'abc'::numeric
  CHECK(errorOf([] { N("abc"); }) == "22P02: invalid input syntax for type numeric: \"abc\"");
  CHECK(errorOf([] { N("1e40"); }) == "22003: value overflows numeric format");
  CHECK(errorOf([] { N("NaN"); }).substr(0, 5) == "0A000");  // PG accepts; we reject
}

TEST_CASE("numeric arithmetic scales", "[types][numeric]") {
  // select 1.5+2.25, 1.50*2.0, 10::numeric % 3.5, -7.5 % 2
  CHECK(S(numericAdd(N("1.5"), N("2.25"))) == "3.75");
  CHECK(S(numericMul(N("1.50"), N("2.0"))) == "3.000");
  CHECK(S(numericMod(N("10"), N("3.5"))) == "3.0");
  CHECK(S(numericMod(N("-7.5"), N("2"))) == "-1.5");
  CHECK(S(numericSub(N("1"), N("1.00"))) == "0.00");
  // select 1/3::numeric, 10.0/3, 2.0/3, 100::numeric/7, 12345678901234567890::numeric/0.001
  CHECK(S(numericDiv(N("1"), N("3"))) == "0.33333333333333333333");
  CHECK(S(numericDiv(N("10.0"), N("3"))) == "3.3333333333333333");
  CHECK(S(numericDiv(N("2.0"), N("3"))) == "0.66666666666666666667");
  CHECK(S(numericDiv(N("100"), N("7"))) == "14.2857142857142857");
  CHECK(S(numericDiv(N("12345678901234567890"), N("0.001"))) == "12345678901234567890000.000");
  // select avg(x) from (values (1),(2)) t(x)  -- sum 3 / count 2
  CHECK(S(numericDiv(N("3"), N("2"))) == "1.5000000000000000");
  // select 1.0/0
  CHECK(errorOf([] { numericDiv(N("1.0"), N("0")); }) == "22012: division by zero");
  CHECK(errorOf([] { numericMod(N("1"), N("0")); }) == "22012: division by zero");
  // select 2::numeric^10, 1.5::numeric^2, 2::numeric^(-2), 3::numeric^40, 0.1::numeric^20
  CHECK(S(numericPower(N("2"), N("10"))) == "1024.0000000000000000");
  CHECK(S(numericPower(N("1.5"), N("2"))) == "2.2500000000000000");
  CHECK(S(numericPower(N("2"), N("-2"))) == "0.2500000000000000");
  CHECK(S(numericPower(N("3"), N("40"))) == "12157665459056928801.0000000000000000");
  CHECK(S(numericPower(N("0.1"), N("20"))) == "0.0000000000000000");
  CHECK(S(numericPower(N("1.123456789012345678"), N("2"))) == "1.262155156777930193");
  // select 0::numeric ^ (-1)
  CHECK(errorOf([] { numericPower(N("0"), N("-1")); }) == "2201F: zero raised to a negative power is undefined");
  CHECK(S(numericNeg(N("1.50"))) == "-1.50");
  CHECK(S(numericAbs(N("-0.5"))) == "0.5");
}

TEST_CASE("numeric compare, hash, rounding, typmod", "[types][numeric]") {
  // select 1.00 = 1.0
  CHECK(numericCompare(N("1.0"), N("1.00")) == 0);
  CHECK(numericHash(N("1.0")) == numericHash(N("1.00")));
  CHECK(numericHash(N("100")) == numericHash(N("100.000")));
  CHECK(numericHash(N("0")) == numericHash(N("0.00")));
  CHECK(numericCompare(N("-2"), N("1.5")) == -1);
  CHECK(numericCompare(N("12345678901234567890123456789012"), N("0.5")) == 1);
  CHECK(numericCompare(N("-1.01"), N("-1.1")) == 1);
  // select round(1234.5678, 2), round(1234.5, -2), trunc(-1.99, 1), round(2.5), round(-2.5)
  CHECK(S(numericRound(N("1234.5678"), 2)) == "1234.57");
  CHECK(S(numericRound(N("1234.5"), -2)) == "1200");
  CHECK(S(numericTrunc(N("-1.99"), 1)) == "-1.9");
  CHECK(S(numericRound(N("2.5"), 0)) == "3");
  CHECK(S(numericRound(N("-2.5"), 0)) == "-3");
  CHECK(S(numericRound(N("1.5"), 3)) == "1.500");
  // select 123.456::numeric(5,2), 0.5::numeric(2,2)
  CHECK(S(numericApplyTypmod(N("123.456"), SqlType::numeric(5, 2).typmod)) == "123.46");
  CHECK(S(numericApplyTypmod(N("0.5"), SqlType::numeric(2, 2).typmod)) == "0.50");
  // select 12345.678::numeric(5,2) / select 999.995::numeric(5,2)
  for (const char* v : {"12345.678", "999.995"}) {
    try {
      numericApplyTypmod(N(v), SqlType::numeric(5, 2).typmod);
      FAIL("no error");
    } catch (const SqlError& e) {
      CHECK(e.code == "22003");
      CHECK(std::string(e.what()) == "numeric field overflow");
      CHECK(e.detail == "A field with precision 5, scale 2 must round to an absolute value less than 10^3.");
    }
  }
}

TEST_CASE("numeric typmod overflow matches counting the rounded value's digits", "[types][numeric]") {
  // Reference: round to the scale, then count the digits before the point in the text.
  std::mt19937_64 rng(3);
  for (int i = 0; i < 20000; ++i) {
    int digits = 1 + static_cast<int>(rng() % 16), valueScale = static_cast<int>(rng() % 12);
    std::string text;
    for (int d = 0; d < digits; ++d) text += static_cast<char>('0' + rng() % 10);
    if (rng() % 3 == 0) text = std::string(static_cast<size_t>(rng() % 5), '9') + text;  // round-ups
    if (valueScale > 0 && valueScale < static_cast<int>(text.size()))
      text.insert(text.size() - static_cast<size_t>(valueScale), ".");
    if (rng() % 2) text = "-" + text;
    int precision = 1 + static_cast<int>(rng() % 20), scale = static_cast<int>(rng() % (precision + 1));
    NumericRep v = N(text.c_str());
    if (errorOf([&] { numericRound(v, scale); }) != "no error") continue;  // beyond 38 digits
    std::string rounded = S(numericRound(v, scale));
    std::string integer = rounded.substr(rounded[0] == '-', rounded.find('.') == std::string::npos
                                                                ? std::string::npos
                                                                : rounded.find('.') - (rounded[0] == '-'));
    integer.erase(0, std::min(integer.find_first_not_of('0'), integer.size()));
    bool overflows = static_cast<int>(integer.size()) > precision - scale;
    INFO(text << " numeric(" << precision << "," << scale << ") -> " << rounded);
    std::string got = errorOf([&] { numericApplyTypmod(v, SqlType::numeric(precision, scale).typmod); });
    CHECK((got != "no error") == overflows);
    if (!overflows) CHECK(S(numericApplyTypmod(v, SqlType::numeric(precision, scale).typmod)) == rounded);
  }
}

TEST_CASE("numeric conversions", "[types][numeric]") {
  // select 2.5::numeric::int, (-2.5)::numeric::int, 2.5::float8::int
  CHECK(numericToInteger(N("2.5"), TypeId::Int4) == 3);
  CHECK(numericToInteger(N("-2.5"), TypeId::Int4) == -3);
  CHECK(floatToInteger(2.5, TypeId::Int4) == 2);
  // select 40000::numeric::int2
  CHECK(errorOf([] { numericToInteger(N("40000"), TypeId::Int2); }) == "22003: smallint out of range");
  CHECK(errorOf([] { numericToInteger(N("1e19"), TypeId::Int8); }) == "22003: bigint out of range");
  // select 0.1::float8::numeric, (1.0/3)::float8::numeric
  CHECK(S(numericFromDouble(0.1)) == "0.1");
  CHECK(S(numericFromDouble(1.0 / 3)) == "0.333333333333333");
  CHECK(numericToDouble(N("0.1")) == 0.1);
  CHECK(S(numericFromInt64(INT64_MIN)) == "-9223372036854775808");
}

TEST_CASE("integer, float and bool text", "[types][scalar]") {
  CHECK(parseInt4(" -42 ") == -42);
  CHECK(parseInt2("-32768") == -32768);
  CHECK(parseInt8("9223372036854775807") == INT64_MAX);
  // select 'abc'::int ; select '99999999999'::int
  CHECK(errorOf([] { parseInt4("abc"); }) == "22P02: invalid input syntax for type integer: \"abc\"");
  CHECK(errorOf([] { parseInt4("99999999999"); }) == "22003: value \"99999999999\" is out of range for type integer");
  CHECK(errorOf([] { parseInt2(""); }) == "22P02: invalid input syntax for type smallint: \"\"");
  // pg_strtoint32's order: digits past the range are out of range whatever follows them;
  // only 2147483648 itself is checked after the trailing characters.
  // select '2147483649x'::int4 ; select '2147483648x'::int4 ; select '-2147483648x'::int4 ; ...
  CHECK(errorOf([] { parseInt4("2147483649x"); }) == "22003: value \"2147483649x\" is out of range for type integer");
  CHECK(errorOf([] { parseInt4("2147483648x"); }) == "22P02: invalid input syntax for type integer: \"2147483648x\"");
  CHECK(errorOf([] { parseInt4("-2147483648x"); }) == "22P02: invalid input syntax for type integer: \"-2147483648x\"");
  CHECK(errorOf([] { parseInt4("2147483648"); }) == "22003: value \"2147483648\" is out of range for type integer");
  CHECK(errorOf([] { parseInt4("-2147483649 "); }) == "22003: value \"-2147483649 \" is out of range for type integer");
  CHECK(parseInt4(" -2147483648 ") == INT32_MIN);
  CHECK(errorOf([] { parseInt2("32768"); }) == "22003: value \"32768\" is out of range for type smallint");
  CHECK(errorOf([] { parseInt2("-32769"); }) == "22003: value \"-32769\" is out of range for type smallint");
  CHECK(parseInt2("-0") == 0);
  CHECK(parseInt8("-9223372036854775808") == INT64_MIN);
  CHECK(errorOf([] { parseInt8("9223372036854775808"); }) ==
        "22003: value \"9223372036854775808\" is out of range for type bigint");
  CHECK(errorOf([] { parseInt8("18446744073709551616"); }) ==
        "22003: value \"18446744073709551616\" is out of range for type bigint");
  CHECK(errorOf([] { parseInt8("184467440737095516160000x"); }) ==
        "22003: value \"184467440737095516160000x\" is out of range for type bigint");
  CHECK(errorOf([] { parseInt4(" + 1"); }) == "22P02: invalid input syntax for type integer: \" + 1\"");
  CHECK(errorOf([] { parseInt4("1_000"); }) == "22P02: invalid input syntax for type integer: \"1_000\"");
  // Past eighteen digits the scan checks the range per digit: leading zeros are fine.
  CHECK(parseInt8("0000000000000000000000042") == 42);
  CHECK(parseInt8("-00000000000000000009223372036854775808") == INT64_MIN);
  CHECK(parseInt4("000000000000000000002147483647") == INT32_MAX);
  CHECK(errorOf([] { parseInt8("99999999999999999999"); }) ==
        "22003: value \"99999999999999999999\" is out of range for type bigint");
  CHECK(errorOf([] { parseInt8("999999999999999999 "); }) == "no error");
  CHECK(errorOf([] { parseInt4("0000000000000000004294967296x"); }) ==
        "22003: value \"0000000000000000004294967296x\" is out of range for type integer");
  // C-locale isspace: \t \n \v \f \r and ' ', nothing else.
  CHECK(parseInt4("\v\f7\t\r\n") == 7);
  CHECK(errorOf([] {
          parseInt4(
              "\x0e"
              "7");
        }) ==
        "22P02: invalid input syntax for type integer: \"\x0e"
        "7\"");
  CHECK(errorOf([] { parseInt4("7\x08"); }) == "22P02: invalid input syntax for type integer: \"7\x08\"");
  // select 1e20::float8, 1e15::float8, 123456789012345::float8, 1.2345678901234568e+17::float8,
  //   0.0001::float8, 0.00001::float8, 1.0/3::float8, -0.0::float8, 1e100::float8,
  //   1.5e-300::float8, 4.9e-324::float8, 1.7976931348623157e308::float8, 1e-320::float8
  CHECK(f8(1e20) == "1e+20");
  CHECK(f8(1e15) == "1e+15");
  CHECK(f8(123456789012345.0) == "123456789012345");
  CHECK(f8(1.2345678901234568e+17) == "1.2345678901234568e+17");
  CHECK(f8(0.0001) == "0.0001");
  CHECK(f8(0.00001) == "1e-05");
  CHECK(f8(1.0 / 3) == "0.3333333333333333");
  CHECK(f8(-0.0) == "-0");
  CHECK(f8(1e100) == "1e+100");
  CHECK(f8(1.5e-300) == "1.5e-300");
  CHECK(f8(4.9e-324) == "5e-324");
  CHECK(f8(1.7976931348623157e308) == "1.7976931348623157e+308");
  CHECK(f8(1e-320) == "1e-320");
  CHECK(f8(100) == "100");
  // select 1e-5::float4, 1e6::float4, 123456::float4, 1234567::float4, 0.1::float4,
  //   3.14159::float4, 12345678.9::float4
  CHECK(f4(1e-5f) == "1e-05");
  CHECK(f4(1e6f) == "1e+06");
  CHECK(f4(123456.0f) == "123456");
  CHECK(f4(1234567.0f) == "1.234567e+06");
  CHECK(f4(0.1f) == "0.1");
  CHECK(f4(3.14159f) == "3.14159");
  CHECK(f4(12345678.9f) == "1.2345679e+07");
  // select 'inf'::float8, '-Infinity'::float4, 'nan'::float8
  CHECK(f8(parseFloat8("inf")) == "Infinity");
  CHECK(f4(parseFloat4("-Infinity")) == "-Infinity");
  CHECK(f8(parseFloat8(" NaN ")) == "NaN");
  // select '1e400'::float8 ; select '1e-400'::float8 ; select '1e-50'::float4
  CHECK(errorOf([] { parseFloat8("1e400"); }) == "22003: \"1e400\" is out of range for type double precision");
  CHECK(errorOf([] { parseFloat8("1e-400"); }) == "22003: \"1e-400\" is out of range for type double precision");
  CHECK(errorOf([] { parseFloat4("1e-50"); }) == "22003: \"1e-50\" is out of range for type real");
  CHECK(errorOf([] { parseFloat8("x1"); }) == "22P02: invalid input syntax for type double precision: \"x1\"");
  // select 1e308::float8*10 ; select 1e-300::float8 * 1e-300::float8 ; 1e300::float8::float4
  CHECK(errorOf([] { duet_rt_float8_mul(1e308, 10); }) == "22003: value out of range: overflow");
  CHECK(errorOf([] { duet_rt_float8_mul(1e-300, 1e-300); }) == "22003: value out of range: underflow");
  CHECK(errorOf([] { float8ToFloat4(1e300); }) == "22003: value out of range: overflow");
  CHECK(errorOf([] { duet_rt_float8_div(1, 0); }) == "22012: division by zero");
  // select 0::float8 ^ (-1) ; select (-8)::float8 ^ 0.5
  CHECK(errorOf([] { float8Pow(0, -1); }) == "2201F: zero raised to a negative power is undefined");
  CHECK(errorOf([] { float8Pow(-8, 0.5); }).substr(0, 5) == "2201F");
  // select ' yes'::bool, 'of'::bool, 'tr'::bool, 'n'::bool ; select 'o'::bool
  CHECK(parseBool(" yes"));
  CHECK(!parseBool("of"));
  CHECK(parseBool("tr"));
  CHECK(!parseBool("N"));
  CHECK(parseBool("1"));
  CHECK(errorOf([] { parseBool("o"); }) == "22P02: invalid input syntax for type boolean: \"o\"");
}

TEST_CASE("date and timestamp text", "[types][datetime]") {
  TypeContext utc;
  // select '2024-01-02 03:04:05.123456+05:30'::timestamptz, '0001-01-01 BC'::date,
  //  '2024-01-02 03:04:05.120'::timestamp, '2024-01-02T03:04:05Z'::timestamptz, 'epoch'::date,
  //  'infinity'::timestamp, ' 2024-01-02 '::date, '2024-01-02 03:04:05'::date, '2024-1-2'::date,
  //  '2024-01-02 24:00:00'::timestamp, '2024-01-02 03:04:05 +02'::timestamp,
  //  '2024-01-02 03:04:05.1234567'::timestamp, '12024-01-02'::date,
  //  '2024-01-02 03:04:05-0330'::timestamptz, '2024-01-01 00:00:60'::timestamp,
  //  'EPOCH'::timestamptz, '-infinity'::timestamptz
  SqlType ts{TypeId::Timestamp}, tz{TypeId::TimestampTz}, date{TypeId::Date};
  CHECK(textOf(tz, "2024-01-02 03:04:05.123456+05:30") == "2024-01-01 21:34:05.123456+00");
  CHECK(textOf(date, "0001-01-01 BC") == "0001-01-01 BC");
  CHECK(textOf(ts, "2024-01-02 03:04:05.120") == "2024-01-02 03:04:05.12");
  CHECK(textOf(tz, "2024-01-02T03:04:05Z") == "2024-01-02 03:04:05+00");
  CHECK(textOf(date, "epoch") == "1970-01-01");
  CHECK(textOf(ts, "infinity") == "infinity");
  CHECK(textOf(date, " 2024-01-02 ") == "2024-01-02");
  CHECK(textOf(date, "2024-01-02 03:04:05") == "2024-01-02");
  CHECK(textOf(date, "2024-1-2") == "2024-01-02");
  CHECK(textOf(ts, "2024-01-02 24:00:00") == "2024-01-03 00:00:00");
  CHECK(textOf(ts, "2024-01-02 03:04:05 +02") == "2024-01-02 03:04:05");
  CHECK(textOf(ts, "2024-01-02 03:04:05.1234567") == "2024-01-02 03:04:05.123457");
  CHECK(textOf(date, "12024-01-02") == "12024-01-02");
  CHECK(textOf(tz, "2024-01-02 03:04:05-0330") == "2024-01-02 06:34:05+00");
  CHECK(textOf(ts, "2024-01-01 00:00:60") == "2024-01-01 00:01:00");
  CHECK(textOf(tz, "EPOCH") == "1970-01-01 00:00:00+00");
  CHECK(textOf(tz, "-infinity") == "-infinity");
  // select '2024-01-02 03:04:05+02:30:15'::timestamptz, '2024-01-02 3:4:5'::timestamp
  CHECK(textOf(tz, "2024-01-02 03:04:05+02:30:15") == "2024-01-02 00:33:50+00");
  CHECK(textOf(ts, "2024-01-02 3:4:5") == "2024-01-02 03:04:05");
  // set timezone=5.5; select '2024-01-02 00:00:00+00'::timestamptz
  TypeContext ist;
  ist.timeZoneOffsetSeconds = timeZoneFromHoursEast(5.5);
  CHECK(textOf(tz, "2024-01-02 00:00:00+00", ist) == "2024-01-02 05:30:00+05:30");
  // set timezone='-05:30' (shown as +05:30); select '2024-01-02 03:04:05'::timestamptz,
  //   '2024-01-02'::date::timestamptz, '2024-01-02 03:00:00+00'::timestamptz::date
  CHECK(textOf(tz, "2024-01-02 03:04:05", ist) == "2024-01-02 03:04:05+05:30");
  int64_t midnight = dateToTimestampTz(parseDate("2024-01-02"), ist);
  std::string out;
  formatTimestampTz(midnight, out, ist);
  CHECK(out == "2024-01-02 00:00:00+05:30");
  CHECK(timestampTzToDate(parseTimestampTz("2024-01-02 03:00:00+00", utc), ist) == parseDate("2024-01-02"));
  // set timezone='UTC+3'; -> three hours west
  int32_t off = 0;
  CHECK(parseTimeZoneSetting("UTC+3", &off));
  CHECK(off == -3 * 3600);
  // Errors: select '2024-13-01'::date ; 'x'::date ; '2024-02-30'::date ;
  //   '2024-01-02 25:00'::timestamp ; 'x'::timestamptz ; '5874898-01-01'::date ;
  //   '294277-01-01'::timestamp ; '2024-01-02 03:04:05+16'::timestamptz ; '4714-11-23 BC'::date
  CHECK(errorOf([] { parseDate("2024-13-01"); }) == "22008: date/time field value out of range: \"2024-13-01\"");
  CHECK(errorOf([] { parseDate("x"); }) == "22007: invalid input syntax for type date: \"x\"");
  CHECK(errorOf([] { parseDate("2024-02-30"); }) == "22008: date/time field value out of range: \"2024-02-30\"");
  CHECK(errorOf([] { parseTimestamp("2024-01-02 25:00"); }) ==
        "22008: date/time field value out of range: \"2024-01-02 25:00\"");
  CHECK(errorOf([&] { parseTimestampTz("x", utc); }) ==
        "22007: invalid input syntax for type timestamp with time zone: \"x\"");
  CHECK(errorOf([] { parseDate("5874898-01-01"); }) == "22008: date out of range: \"5874898-01-01\"");
  CHECK(errorOf([] { parseTimestamp("294277-01-01"); }) == "22008: timestamp out of range: \"294277-01-01\"");
  CHECK(errorOf([&] { parseTimestampTz("2024-01-02 03:04:05+16", utc); }) ==
        "22009: time zone displacement out of range: \"2024-01-02 03:04:05+16\"");
  CHECK(errorOf([] { parseDate("4714-11-23 BC"); }) == "22008: date out of range: \"4714-11-23 BC\"");
  CHECK(textOf(date, "4714-11-24 BC") == "4714-11-24 BC");
  // A timestamptz at either limit, printed in a zone far from UTC, reads back (the redo log
  // stores binary parameters as such text). select '294277-01-01 13:59:59+14'::timestamptz,
  //   '4714-11-23 19:00:00-05 BC'::timestamptz; set timezone='UTC-14';
  //   select '294277-01-01 13:59:59'::timestamptz; errors: '294277-01-01 14:00:00+14',
  //   '4714-11-23 18:59:59-05 BC'
  CHECK(textOf(tz, "294277-01-01 13:59:59+14") == "294276-12-31 23:59:59+00");
  CHECK(textOf(tz, "4714-11-23 19:00:00-05 BC") == "4714-11-24 00:00:00+00 BC");
  TypeContext east14;
  east14.timeZoneOffsetSeconds = 14 * 3600;
  CHECK(textOf(tz, "294277-01-01 13:59:59", east14) == "294277-01-01 13:59:59+14");
  CHECK(errorOf([&] { parseTimestampTz("294277-01-01 14:00:00+14", utc); }) ==
        "22008: timestamp out of range: \"294277-01-01 14:00:00+14\"");
  CHECK(errorOf([&] { parseTimestampTz("4714-11-23 18:59:59-05 BC", utc); }) ==
        "22008: timestamp out of range: \"4714-11-23 18:59:59-05 BC\"");
  // select '2024-03-01'::date - '2024-02-01'::date, '2024-02-28'::date + 2
  CHECK(dateDiff(parseDate("2024-03-01"), parseDate("2024-02-01")) == 29);
  CHECK(dateAddDays(parseDate("2024-02-28"), 2) == parseDate("2024-03-01"));
  // Arithmetic never leaves the range input accepts (archives store values as text):
  // select '5874897-12-31'::date + 1 ; '4714-11-24 BC'::date - 1 ;
  //   'infinity'::date - '-infinity'::date ; 'infinity'::date - '2000-01-01'::date ;
  //   'infinity'::date + 1 ; '2000-01-01'::date + 2147483647 ; '2000-01-01'::date - (-2147483647)
  CHECK(errorOf([] { duet_rt_date_add_days(parseDate("5874897-12-31"), 1); }) == "22008: date out of range");
  CHECK(errorOf([] { duet_rt_date_sub_days(parseDate("4714-11-24 BC"), 1); }) == "22008: date out of range");
  CHECK(errorOf([] { duet_rt_date_diff(kDatePosInfinity, kDateNegInfinity); }) ==
        "22008: cannot subtract infinite dates");
  CHECK(errorOf([] { duet_rt_date_diff(kDatePosInfinity, parseDate("2000-01-01")); }) ==
        "22008: cannot subtract infinite dates");
  CHECK(duet_rt_date_add_days(kDatePosInfinity, 1) == kDatePosInfinity);
  CHECK(errorOf([] { duet_rt_date_add_days(parseDate("2000-01-01"), 2147483647); }) == "22008: date out of range");
  CHECK(errorOf([] { duet_rt_date_sub_days(parseDate("2000-01-01"), -2147483647); }) == "22008: date out of range");
  CHECK(errorOf([] { duet_rt_date_sub_days(parseDate("2000-01-01"), -2147483647 - 1); }) == "22008: date out of range");
  // select '5874897-12-31'::date - '4714-11-24 BC'::date
  CHECK(duet_rt_date_diff(parseDate("5874897-12-31"), parseDate("4714-11-24 BC")) == 2147483493);
}

TEST_CASE("strings", "[types][strings]") {
  // select length('héllo'), lower('ÀBC'), upper('abc'), substr('hello', 2, 3),
  //   substring('hello' from -1 for 3), position('l' in 'hello'), left('hello', -2),
  //   right('hello', 2), btrim('xxhixx', 'x'), ltrim('  hi'), replace('abcabc','b','X')
  CHECK(charLength("héllo") == 5);
  CHECK(lowerAscii("ÀBC") == "Àbc");
  CHECK(upperAscii("abc") == "ABC");
  CHECK(substring("hello", 2, 3) == "ell");
  CHECK(substring("hello", -1, 3) == "h");
  CHECK(substring("héllo", 2) == "éllo");
  CHECK(position("hello", "l") == 3);
  CHECK(leftChars("hello", -2) == "hel");
  CHECK(rightChars("hello", 2) == "lo");
  CHECK(trimChars("xxhixx", "x", true, true) == "hi");
  CHECK(trimChars("  hi", " ", true, false) == "hi");
  CHECK(replaceAll("abcabc", "b", "X") == "aXcaXc");
  // select substr('abc', 1, -1)
  CHECK(errorOf([] { substring("abc", 1, -1); }) == "22011: negative substring length not allowed");
  // select 'abc' like 'a%', 'abc' like 'a_c', 'a%c' like 'a\%c', 'ABC' ilike 'a%',
  //   'abc' like 'a#%' escape '#', 'a%' like 'a#%' escape '#'
  CHECK(likeMatch("abc", "a%"));
  CHECK(likeMatch("abc", "a_c"));
  CHECK(likeMatch("a%c", "a\\%c"));
  CHECK(likeMatch("ABC", "a%", "\\", true));
  CHECK(!likeMatch("abc", "a#%", "#"));
  CHECK(likeMatch("a%", "a#%", "#"));
  CHECK(likeMatch("héllo", "h_llo"));
  CHECK(!likeMatch("abc", "%b"));
  CHECK(likeMatch("abcbc", "%b_"));
  // select 'abc' like 'a\'
  CHECK(errorOf([] { likeMatch("abc", "a\\"); }) == "22025: LIKE pattern must not end with escape character");
  // The plain patterns' comparisons and substring searches (likeMatch's fast path):
  // select '' like '', 'a' like '', '' like '%', 'x' like '%%', 'forest green' like '%green%',
  //   'greenish' like 'green%', 'evergreen' like '%green', 'green' like 'green',
  //   'gree' like '%green%', 'agreen' like 'green%', 'greena' like '%green', 'green!' like 'green',
  //   'grün' like '%ün%', '50%' like '%50\%', 'a#b' like '%#b' escape '#', 'a_b' like '%#_b' escape '#'
  CHECK(likeMatch("", ""));
  CHECK(!likeMatch("a", ""));
  CHECK(likeMatch("", "%"));
  CHECK(likeMatch("x", "%%"));
  CHECK(likeMatch("forest green", "%green%"));
  CHECK(likeMatch("greenish", "green%"));
  CHECK(likeMatch("evergreen", "%green"));
  CHECK(likeMatch("green", "green"));
  CHECK(!likeMatch("gree", "%green%"));
  CHECK(!likeMatch("agreen", "green%"));
  CHECK(!likeMatch("greena", "%green"));
  CHECK(!likeMatch("green!", "green"));
  CHECK(likeMatch("grün", "%ün%"));
  CHECK(likeMatch("50%", "%50\\%"));
  CHECK(likeMatch("a#b", "%#b", "#"));
  CHECK(likeMatch("a_b", "%#_b", "#"));
  // select 'no special requests' like '%special%requests%', 'requests special' like
  //   '%special%requests%', 'a' like 'a%a', 'aa' like 'a%a', 'abcab' like 'ab%c%b', 'ab' like 'ab%b',
  //   'xy' like 'x%%y', 'special' like '%special%requests%'
  CHECK(likeMatch("no special requests", "%special%requests%"));
  CHECK(!likeMatch("requests special", "%special%requests%"));
  CHECK(!likeMatch("a", "a%a"));
  CHECK(likeMatch("aa", "a%a"));
  CHECK(likeMatch("abcab", "ab%c%b"));
  CHECK(!likeMatch("ab", "ab%b"));
  CHECK(likeMatch("xy", "x%%y"));
  CHECK(!likeMatch("special", "%special%requests%"));
  // select 'ab  '::char(5) = 'ab'
  CHECK(bpcharCompare("ab  ", "ab") == 0);
  CHECK(bpcharHash("ab  ") == bpcharHash("ab"));
  CHECK(textCompare("ab", "ab ") == -1);
  // select convert_from('\xff'::bytea, 'UTF8')
  CHECK(errorOf([] { checkUtf8("a\xff"); }) == "22021: invalid byte sequence for encoding \"UTF8\": 0xff");
  Arena arena;
  // create temp table t(v varchar(5), c char(3)); insert into t values ('abc   ', 'ab ');
  // insert into t values ('abcdef','x')
  CHECK(coerceString(arena.makeString("abc   "), SqlType::varchar(5), false, arena)->view() == "abc  ");
  CHECK(errorOf([&] { coerceString(arena.makeString("abcdef"), SqlType::varchar(5), false, arena); }) ==
        "22001: value too long for type character varying(5)");
  // select 'abcdef'::varchar(3)
  CHECK(coerceString(arena.makeString("abcdef"), SqlType::varchar(3), true, arena)->view() == "abc");
  CHECK(coerceString(arena.makeString("ab"), SqlType::bpchar(5), false, arena)->view() == "ab   ");
}

TEST_CASE("generic I/O, binary formats, casts", "[types][io]") {
  TypeContext ctx;
  Arena arena;
  // select numeric_send(12.50), numeric_send(-0.0012), numeric_send(0.00),
  //   numeric_send(123456789), numeric_send(10000)
  auto send = [](const char* v) {
    NumericRep n = parseNumeric(v);
    std::string out;
    formatBinary({TypeId::Numeric}, &n, out);
    return hex(out);
  };
  CHECK(send("12.50") == "0002000000000002000c1388");
  CHECK(send("-0.0012") == "0001ffff40000004000c");
  CHECK(send("0.00") == "0000000000000002");
  CHECK(send("123456789") == "0003000200000000000109291a85");
  CHECK(send("10000") == "00010001000000000001");
  // Round trips text -> binary -> text.
  for (auto [type, text] :
       std::vector<std::pair<SqlType, const char*>>{{{TypeId::Numeric}, "-123456.000789"},
                                                    {{TypeId::Numeric}, "0.0000001"},
                                                    {{TypeId::Numeric}, "99990000"},
                                                    {{TypeId::Int8}, "-9223372036854775808"},
                                                    {{TypeId::Float8}, "1.2345678901234568e+17"},
                                                    {{TypeId::Float4}, "3.14159"},
                                                    {{TypeId::Bool}, "t"},
                                                    {{TypeId::Date}, "2024-01-02"},
                                                    {{TypeId::Timestamp}, "2024-01-02 03:04:05"},
                                                    {{TypeId::TimestampTz}, "2024-01-02 03:04:05.5+00"},
                                                    {{TypeId::Text}, "héllo"}}) {
    alignas(16) unsigned char a[16], b[16];
    parseText(type, text, a, arena, ctx);
    std::string bin, back;
    formatBinary(type, a, bin);
    parseBinary(type, bin, b, arena);
    formatText(type, b, back, ctx);
    CHECK(back == text);
    CHECK(compareValues(type, a, b) == 0);
    CHECK(hashValue(type, a) == hashValue(type, b));
  }
  // select date_send('2024-01-02'), timestamp_send('2024-01-02 03:04:05')
  int32_t d = parseDate("2024-01-02");
  std::string bin;
  formatBinary({TypeId::Date}, &d, bin);
  CHECK(hex(bin) == "0000223f");
  int64_t t = parseTimestamp("2024-01-02 03:04:05");
  bin.clear();
  formatBinary({TypeId::Timestamp}, &t, bin);
  CHECK(hex(bin) == "0002b0ec8515f340");
  int32_t i4;
  CHECK(errorOf([&] { parseBinary({TypeId::Int4}, "abc", &i4, arena); }) == "22P03: incorrect binary data format");
  // Binary input takes only what text input would read back (date_recv, timestamp_recv):
  // a date one past the last, and timestamps one microsecond outside, are refused.
  auto recv = [&](SqlType type, const std::string& bytes) {
    alignas(16) unsigned char v[16];
    parseBinary(type, bytes, v, arena);
    std::string out;
    formatText(type, v, out, ctx);
    return out;
  };
  auto be = [](uint64_t v, int n) {
    std::string out;
    for (int i = n - 1; i >= 0; --i) out.push_back(static_cast<char>(v >> (8 * i)));
    return out;
  };
  const int32_t lastDate = parseDate("5874897-12-31"), firstDate = parseDate("4714-11-24 BC");
  CHECK(recv({TypeId::Date}, be(uint32_t(lastDate), 4)) == "5874897-12-31");
  CHECK(recv({TypeId::Date}, be(uint32_t(kDatePosInfinity), 4)) == "infinity");
  CHECK(errorOf([&] { recv({TypeId::Date}, be(uint32_t(lastDate + 1), 4)); }) == "22008: date out of range");
  CHECK(errorOf([&] { recv({TypeId::Date}, be(uint32_t(firstDate - 1), 4)); }) == "22008: date out of range");
  const int64_t lastTs = parseTimestamp("294276-12-31 23:59:59.999999");
  const int64_t firstTs = parseTimestamp("4714-11-24 00:00:00 BC");
  CHECK(recv({TypeId::Timestamp}, be(uint64_t(lastTs), 8)) == "294276-12-31 23:59:59.999999");
  CHECK(recv({TypeId::TimestampTz}, be(uint64_t(firstTs), 8)) == "4714-11-24 00:00:00+00 BC");
  CHECK(recv({TypeId::TimestampTz}, be(uint64_t(kTimestampNegInfinity), 8)) == "-infinity");
  CHECK(errorOf([&] { recv({TypeId::Timestamp}, be(uint64_t(lastTs + 1), 8)); }) == "22008: timestamp out of range");
  CHECK(errorOf([&] { recv({TypeId::TimestampTz}, be(uint64_t(firstTs - 1), 8)); }) == "22008: timestamp out of range");
  // The largest mantissa at the largest scale: its last base-10000 group is padded with a
  // zero past dscale, which must not count against the mantissa's limit.
  const std::string big = "664613997892457936451903530140172287";  // 2^119 - 1
  const std::string tiny = "0." + std::string(255 - big.size(), '0') + big;
  for (const std::string& text : {tiny, "-" + tiny, big, "-" + big, std::string("0.5")}) {
    NumericRep n = parseNumeric(text);
    bin.clear();
    formatBinary({TypeId::Numeric}, &n, bin);
    CHECK(recv({TypeId::Numeric}, bin) == text);
  }
  // select numeric_recv of 1.23456 sent with dscale 3: 1.234 (truncated, as numeric_recv)
  CHECK(recv({TypeId::Numeric}, be(3, 2) + be(0, 2) + be(0, 2) + be(3, 2) + be(1, 2) + be(2345, 2) + be(6000, 2)) ==
        "1.234");

  // Casts. select true::text, 5::bool, true::int, 'ab'::char(5)::text, 2.5::float8::int
  auto cast = [&](SqlType from, std::string_view in, SqlType to, bool ex) {
    alignas(16) unsigned char a[16], b[16];
    parseText(from, in, a, arena, ctx);
    castValue(from, a, to, b, ex, arena, ctx);
    std::string out;
    formatText(to, b, out, ctx);
    return out;
  };
  CHECK(cast({TypeId::Bool}, "t", {TypeId::Text}, true) == "true");
  CHECK(cast({TypeId::Int4}, "5", {TypeId::Bool}, true) == "t");
  CHECK(cast({TypeId::Bool}, "t", {TypeId::Int4}, true) == "1");
  CHECK(cast(SqlType::bpchar(5), "ab", {TypeId::Text}, true) == "ab");
  CHECK(cast({TypeId::Float8}, "2.5", {TypeId::Int4}, true) == "2");
  CHECK(cast({TypeId::Text}, "12.345", SqlType::numeric(4, 2), true) == "12.35");
  CHECK(cast({TypeId::Text}, "abcdef", SqlType::varchar(3), true) == "abc");
  CHECK(cast({TypeId::Int8}, "123", {TypeId::Float4}, false) == "123");
  CHECK(cast({TypeId::Timestamp}, "2024-01-02 23:00:00", {TypeId::Date}, false) == "2024-01-02");
  CHECK(cast({TypeId::Date}, "2024-01-02", {TypeId::TimestampTz}, false) == "2024-01-02 00:00:00+00");
  // select 3000000000::bigint::int
  CHECK(errorOf([&] { cast({TypeId::Int8}, "3000000000", {TypeId::Int4}, false); }) == "22003: integer out of range");
  CHECK(errorOf([&] { cast({TypeId::Date}, "2024-01-02", {TypeId::Int4}, true); }) ==
        "42846: cannot cast type date to integer");
}

TEST_CASE("runtime symbols and casts", "[types][runtime]") {
  auto syms = runtimeSymbols();
  CHECK(syms.size() > 100);
  const RuntimeSymbol* c = findCast(TypeId::Int4, TypeId::Numeric);
  REQUIRE(c != nullptr);
  CHECK(std::string(c->name) == "duet_rt_cast_int4_to_numeric");
  CHECK(findCast(TypeId::Date, TypeId::Int4) == nullptr);
  CHECK(findCast(TypeId::Int4, TypeId::Int4) == nullptr);
  CHECK(findCast(TypeId::Numeric, TypeId::Numeric) != nullptr);
  TypeContext ctx;
  auto fn = reinterpret_cast<NumericRep (*)(int32_t, int32_t, bool, const TypeContext*)>(c->address);
  CHECK(numericToString(fn(42, SqlType::numeric(5, 2).typmod, false, &ctx)) == "42.00");
  auto toText = reinterpret_cast<const VarString* (*)(double, int32_t, bool, const TypeContext*)>(
      findCast(TypeId::Float8, TypeId::Text)->address);
  CHECK(toText(1e20, -1, false, &ctx)->view() == "1e+20");
  VarString* a = statementArena().makeString("ab");
  VarString* b = statementArena().makeString("cd");
  CHECK(duet_rt_text_concat(a, b)->view() == "abcd");
  CHECK(errorOf([] { duet_rt_raise_int_overflow(static_cast<int32_t>(TypeId::Int2)); }) ==
        "22003: smallint out of range");
  CHECK(duet_rt_numeric_eq(parseNumeric("1.0"), parseNumeric("1.00")));
}

TEST_CASE("LIKE's plain patterns decide as the general matcher does", "[types][strings]") {
  // ILIKE of lowercase text and patterns always takes the general matcher (PostgreSQL's
  // MatchText); LIKE takes the comparisons and substring searches for patterns of literal
  // parts and %s. Random short texts and patterns over a small alphabet must agree.
  std::mt19937 random(20261128);
  auto draw = [&](std::string_view alphabet, size_t maxLength) {
    std::string out(random() % (maxLength + 1), ' ');
    for (char& c : out) c = alphabet[random() % alphabet.size()];
    return out;
  };
  for (int i = 0; i < 200000; ++i) {
    std::string text = draw("ab", 7), pattern = draw("ab%", 6);
    INFO(text << " LIKE " << pattern);
    REQUIRE(likeMatch(text, pattern) == likeMatch(text, pattern, "\\", true));
  }
}
