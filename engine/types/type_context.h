// Session settings that change how values are read and printed (PostgreSQL GUCs).
#pragma once
#include <cstdint>
#include <string_view>

namespace duet {

class NamedTimeZone;  // engine/types/time_zone.h
class CatalogLookup;  // engine/types/catalog_lookup.h

enum class ByteaOutput : uint8_t { Hex, Escape };  // the bytea_output setting

struct TypeContext {
  // TimeZone, resolved by resolveTimeZone (time_zone.h). A zone with daylight-saving or
  // historical changes is namedZone; otherwise namedZone is null and the zone is the fixed
  // offset timeZoneOffsetSeconds, in seconds east of UTC (ISO 8601 sign: UTC+02 is 7200),
  // which conversions use without a tz database lookup.
  int32_t timeZoneOffsetSeconds = 0;
  const NamedTimeZone* namedZone = nullptr;
  // A fixed zone's abbreviation for to_char's TZ (ResolvedTimeZone::abbreviation, interned
  // storage); empty: printed from the offset.
  std::string_view fixedZoneAbbreviation;
  // extra_float_digits: > 0 prints the shortest exact digits (PostgreSQL's default, 1);
  // <= 0 prints DBL_DIG/FLT_DIG + extra_float_digits significant digits.
  int extraFloatDigits = 1;
  // bytea_output: how bytea prints (bytea.h).
  ByteaOutput byteaOutput = ByteaOutput::Hex;
  // The session's catalog, for values that name catalog objects (regclass and the other
  // reg* types print and read names) and the functions that describe them; null outside a
  // session, where such values print and read as numbers.
  const CatalogLookup* catalog = nullptr;
};

// Reads the fixed-offset TimeZone settings that are not tz database names: POSIX offsets
// such as 'UTC+3', 'GMT-05:30' or 'UTC0' which, as in PostgreSQL, count hours WEST of
// Greenwich ('UTC+3' is three hours behind UTC). Returns false for anything else; names
// such as 'UTC' or 'Europe/Berlin' are resolved by resolveTimeZone (time_zone.h).
bool parseTimeZoneSetting(std::string_view text, int32_t* offsetSecondsEast);
// A numeric SET TIME ZONE 5.5 / INTERVAL '+05:30' form: hours east of UTC.
int32_t timeZoneFromHoursEast(double hours);

}  // namespace duet
