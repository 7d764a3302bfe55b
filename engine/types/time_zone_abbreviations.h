// Time zone abbreviations as PostgreSQL reads them in timestamptz input, AT TIME ZONE and
// timezone() (not in the TimeZone setting): its timezone_abbreviations set "Default".
#pragma once
#include <cstdint>
#include <string_view>

namespace duet {

struct TimeZoneAbbreviation {
  std::string_view name;  // upper case
  int32_t offsetEast;     // seconds east of UTC; 0 for a dynamic abbreviation
  bool daylight;          // a daylight-saving offset (PostgreSQL's DTZ)
  // A dynamic abbreviation's zone (tz database name): its meaning is the offset that zone
  // had under this abbreviation at the time in question (time_zone.h). Empty for fixed ones.
  std::string_view zone;
};

// The abbreviation, compared case-insensitively, or null.
const TimeZoneAbbreviation* findTimeZoneAbbreviation(std::string_view name);

}  // namespace duet
