// Session settings that change how values are read and printed (PostgreSQL GUCs).
#pragma once
#include <cstdint>
#include <string_view>

namespace duet {

struct TypeContext {
  // TimeZone as a fixed offset, in seconds east of UTC (ISO 8601 sign: UTC+02 is 7200).
  // Only fixed offsets are supported: no daylight-saving rules.
  int32_t timeZoneOffsetSeconds = 0;
  // extra_float_digits: > 0 prints the shortest exact digits (PostgreSQL's default, 1);
  // <= 0 prints DBL_DIG/FLT_DIG + extra_float_digits significant digits.
  int extraFloatDigits = 1;
};

// Reads a TimeZone setting as SET TIME ZONE / SET TimeZone accept it for fixed zones:
// 'UTC', 'GMT', 'Z', 'Etc/UTC', 'Etc/GMT', and POSIX offsets such as 'UTC+3' or '+03:30'
// which, as in PostgreSQL, count hours WEST of Greenwich ('+3' is three hours behind UTC).
// Returns false for anything else (named zones with DST rules are not supported).
bool parseTimeZoneSetting(std::string_view text, int32_t* offsetSecondsEast);
// A numeric SET TIME ZONE 5.5 / INTERVAL '+05:30' form: hours east of UTC.
int32_t timeZoneFromHoursEast(double hours);

}  // namespace duet
