// Time zones from the tz database: resolving TimeZone settings and the offsets used by the
// timestamptz conversions. Expected values are PostgreSQL 15's on the same tzdata.
#include <catch2/catch.hpp>

#include <string>

#include "engine/error.h"
#include "engine/types/datetime.h"
#include "engine/types/time_zone.h"

using namespace duet;

namespace {

// The session context SET TimeZone = name gives.
TypeContext contextFor(const std::string& name) {
  std::optional<ResolvedTimeZone> zone = resolveTimeZone(name);
  REQUIRE(zone);
  TypeContext ctx;
  ctx.timeZoneOffsetSeconds = zone->fixedOffsetEast;
  ctx.namedZone = zone->zone;
  return ctx;
}

std::string showTz(int64_t ts, const TypeContext& ctx) {
  std::string out;
  formatTimestampTz(ts, out, ctx);
  return out;
}

// Reads a timestamptz in UTC and prints it in ctx's zone.
std::string inZone(const char* utcText, const TypeContext& ctx) {
  return showTz(parseTimestampTz(utcText, TypeContext{}), ctx);
}

}  // namespace

TEST_CASE("resolving TimeZone settings", "[types][datetime][timezone]") {
  auto name = [](const char* s) { return resolveTimeZone(s).value().name; };
  CHECK(name("america/new_york") == "America/New_York");
  CHECK(name("EST5EDT") == "EST5EDT");
  CHECK(name("posix/europe/berlin") == "posix/Europe/Berlin");
  CHECK(name("utc+3") == "UTC+3");
  CHECK(name("zulu") == "Zulu");
  // zones whose offset never changes take the fixed-offset path
  CHECK(resolveTimeZone("UTC")->zone == nullptr);
  CHECK(resolveTimeZone("Etc/GMT+5")->zone == nullptr);
  CHECK(resolveTimeZone("Etc/GMT+5")->fixedOffsetEast == -5 * 3600);
  CHECK(resolveTimeZone("UTC+3")->fixedOffsetEast == -3 * 3600);
  CHECK(resolveTimeZone("Europe/Berlin")->zone != nullptr);
  // every spelling shares the one loaded zone
  CHECK(resolveTimeZone("europe/berlin")->zone == resolveTimeZone("Europe/Berlin")->zone);
  CHECK_FALSE(resolveTimeZone("Foo/Bar"));
  CHECK_FALSE(resolveTimeZone("z"));
  CHECK_FALSE(resolveTimeZone(""));
  CHECK_FALSE(resolveTimeZone(" UTC"));
  try {
    resolveTimeZone("right/America/New_York");
    FAIL("leap-second zone accepted");
  } catch (const SqlError& e) {
    CHECK(e.code == "22023");
  }
}

TEST_CASE("the TimeZone setting's numbers of hours and fixed zones' abbreviations", "[types][datetime][timezone]") {
  auto setting = [](const char* s) { return resolveTimeZoneSetting(s); };
  CHECK(setting("5.5")->name == "<+05:30>-05:30");
  CHECK(setting("5.5")->fixedOffsetEast == 5 * 3600 + 1800);
  CHECK(setting("5.5")->abbreviation == "+05:30");
  CHECK(setting("-3")->name == "<-03>+03");
  CHECK(setting("-3")->abbreviation == "-03");
  CHECK(setting("5.123")->fixedOffsetEast == 18442);                     // truncated to whole seconds
  CHECK(setting("<+05:30>-05:30")->fixedOffsetEast == 5 * 3600 + 1800);  // the name reads back
  CHECK(setting("0x10")->fixedOffsetEast == 16 * 3600);                  // strtod's forms
  CHECK_FALSE(setting("168"));
  CHECK_FALSE(setting("nan"));
  CHECK_FALSE(setting("<+5>-5"));
  CHECK(setting("Europe/Berlin")->zone != nullptr);
  // AT TIME ZONE reads no numbers of hours.
  CHECK_FALSE(resolveTimeZone("5.5"));
  CHECK(resolveTimeZone("EST")->abbreviation == "EST");
  CHECK(resolveTimeZone("GMT")->abbreviation == "GMT");
  CHECK(resolveTimeZone("Etc/GMT+5")->abbreviation == "-05");
  CHECK(resolveTimeZone("utc+3")->abbreviation == "UTC");
}

TEST_CASE("timestamptz in tz database zones", "[types][datetime][timezone]") {
  TypeContext ny = contextFor("America/New_York");
  // set timezone='America/New_York'; select '2024-01-01 12:00:00+00'::timestamptz, ...
  CHECK(inZone("2024-01-01 12:00:00+00", ny) == "2024-01-01 07:00:00-05");
  CHECK(inZone("2024-07-01 12:00:00+00", ny) == "2024-07-01 08:00:00-04");
  CHECK(inZone("2024-11-03 05:30:00+00", ny) == "2024-11-03 01:30:00-04");
  CHECK(inZone("2024-11-03 06:30:00+00", ny) == "2024-11-03 01:30:00-05");
  // local mean time before the first transition; the POSIX footer rule after 2037
  CHECK(inZone("1800-01-01 04:56:02+00", ny) == "1800-01-01 00:00:00-04:56:02");
  CHECK(inZone("2100-07-01 04:00:00+00", ny) == "2100-07-01 00:00:00-04");
  CHECK(inZone("294276-07-01 04:00:00+00", ny) == "294276-07-01 00:00:00-04");
  // skipped wall time: the offset before the transition; repeated: the offset after
  CHECK(showTz(parseTimestampTz("2024-03-10 02:30", ny), ny) == "2024-03-10 03:30:00-04");
  CHECK(showTz(parseTimestampTz("2024-11-03 01:30", ny), ny) == "2024-11-03 01:30:00-05");
  // casts
  CHECK(showTz(timestampToTimestampTz(parseTimestamp("2024-03-10 02:30"), ny), ny) == "2024-03-10 03:30:00-04");
  std::string local;
  formatTimestamp(timestampTzToTimestamp(parseTimestampTz("2024-11-03 06:30+00", ny), ny), local);
  CHECK(local == "2024-11-03 01:30:00");
  CHECK(showTz(dateToTimestampTz(parseDate("2024-11-03"), ny), ny) == "2024-11-03 00:00:00-04");
  CHECK(timestampTzToDate(parseTimestampTz("2024-07-01 03:00+00", ny), ny) == parseDate("2024-06-30"));

  TypeContext kolkata = contextFor("Asia/Kolkata");
  CHECK(inZone("2024-01-01 12:00:00+00", kolkata) == "2024-01-01 17:30:00+05:30");
  TypeContext lordHowe = contextFor("Australia/Lord_Howe");
  CHECK(inZone("2024-07-01 12:00:00+00", lordHowe) == "2024-07-01 22:30:00+10:30");
  TypeContext berlin = contextFor("Europe/Berlin");
  CHECK(showTz(parseTimestampTz("2024-10-27 02:30", berlin), berlin) == "2024-10-27 02:30:00+01");
  // Moscow 2014: both sides of the transition are "standard" time
  TypeContext moscow = contextFor("Europe/Moscow");
  CHECK(showTz(parseTimestampTz("2014-10-26 01:30", moscow), moscow) == "2014-10-26 01:30:00+03");
}
