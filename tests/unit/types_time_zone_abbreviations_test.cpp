// Zone abbreviations (PostgreSQL's "Default" set) and the zone references built on them:
// case-insensitive lookup, fixed offsets, and dynamic abbreviations read through their zone.
#include <catch2/catch.hpp>

#include "engine/types/time_zone.h"
#include "engine/types/time_zone_abbreviations.h"

using namespace duet;

TEST_CASE("time zone abbreviations are found in any case", "[types][time_zone]") {
  const TimeZoneAbbreviation* pst = findTimeZoneAbbreviation("pst");
  REQUIRE(pst);
  CHECK(pst->name == "PST");
  CHECK(pst->offsetEast == -28800);
  CHECK_FALSE(pst->daylight);
  REQUIRE(findTimeZoneAbbreviation("CeSt"));
  CHECK(findTimeZoneAbbreviation("CeSt")->daylight);
  CHECK(findTimeZoneAbbreviation("CEST")->offsetEast == 7200);
  // The first and last rows, and names next to others that share a prefix.
  CHECK(findTimeZoneAbbreviation("ACDT"));
  CHECK(findTimeZoneAbbreviation("zulu"));
  CHECK(findTimeZoneAbbreviation("EET")->offsetEast == 7200);
  CHECK(findTimeZoneAbbreviation("EETDST")->offsetEast == 10800);
  CHECK(findTimeZoneAbbreviation("MSK")->zone == "Europe/Moscow");
  CHECK_FALSE(findTimeZoneAbbreviation("XYZ"));
  CHECK_FALSE(findTimeZoneAbbreviation("PS"));
  CHECK_FALSE(findTimeZoneAbbreviation(""));
}

TEST_CASE("zone references: abbreviations before zone names", "[types][time_zone]") {
  constexpr int64_t kJuly2021 = 1625400000;  // 2021-07-04 12:00 UTC
  // CET the abbreviation is +1 all year, unlike the tz database's CET zone.
  std::optional<ZoneReference> cet = resolveZoneReference("cet");
  REQUIRE(cet);
  CHECK(zoneOffsetAt(*cet, kJuly2021) == 3600);
  std::optional<ZoneReference> paris = resolveZoneReference("Europe/Paris");
  REQUIRE(paris);
  CHECK(zoneOffsetAt(*paris, kJuly2021) == 7200);
  CHECK_FALSE(resolveZoneReference("Nowhere"));
}

TEST_CASE("dynamic abbreviations take their zone's offset under that name", "[types][time_zone]") {
  std::optional<ZoneReference> msk = resolveZoneReference("MSK");
  REQUIRE(msk);
  CHECK(msk->abbreviation == "MSK");
  CHECK(zoneOffsetAt(*msk, 1625400000) == 3 * 3600);  // 2021: MSK is +3
  CHECK(zoneOffsetAt(*msk, 1341403200) == 4 * 3600);  // 2012-07-04: MSK was +4
  // 1995-07-04, under MSD (+4): the latest MSK before it, the winter's +3.
  CHECK(zoneOffsetAt(*msk, 804859200) == 3 * 3600);
  // A name the zone no longer uses (tzdata writes "+08"): the zone's own offset.
  std::optional<ZoneReference> irkt = resolveZoneReference("IRKT");
  REQUIRE(irkt);
  CHECK(zoneOffsetAt(*irkt, 1625400000) == 8 * 3600);
  // Wall-clock times: 1995-07-04 12:00 read as MSK.
  CHECK(zoneOffsetForLocal(*msk, 804859200) == 3 * 3600);
}
