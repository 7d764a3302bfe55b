// Time zones for the TimeZone setting: zones of the system tz database
// (/usr/share/zoneinfo, read through Howard Hinnant's date library) with their
// daylight-saving rules, and the fixed offsets PostgreSQL also accepts ('UTC+3').
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "engine/types/type_context.h"

namespace duet {

// A tz database zone whose UTC offset changes over time; defined in time_zone.cpp.
// Instances are created once per zone and never freed, so pointers stay valid.
class NamedTimeZone;

struct ResolvedTimeZone {
  std::string name;                     // the spelling SHOW TimeZone prints
  int32_t fixedOffsetEast = 0;          // the offset when zone is null
  const NamedTimeZone* zone = nullptr;  // null when the offset never changes (UTC, EST)
  // A fixed zone's abbreviation, as to_char's TZ prints it: the tz database's ("EST",
  // "GMT", "-05" for Etc/GMT+5), the POSIX name's letters ("UTC" for 'UTC+3'), or the
  // offset east of a numeric setting ("+05:30"). Interned: valid for the process's life.
  std::string_view abbreviation;
};

// Resolves a TimeZone setting as PostgreSQL's check_timezone does: tz database names,
// compared case-insensitively and printed in the database's spelling; failing that the
// POSIX fixed forms of parseTimeZoneSetting, printed in upper case. Returns nullopt for
// unknown names; throws 22023 for the leap-second "right/" zones, which PostgreSQL refuses.
// Results are cached, so calling it for every settings change is cheap.
std::optional<ResolvedTimeZone> resolveTimeZone(std::string_view setting);
// The TimeZone setting: also, as check_timezone, a value that is wholly a number of hours
// east ('+05', '5.5', '-3', strtod's forms) under 168, shown as PostgreSQL's pg_tzset_offset
// names it ('<+05:30>-05:30'); offsets are truncated to whole seconds. Not for AT TIME ZONE,
// where PostgreSQL reads no such numbers.
std::optional<ResolvedTimeZone> resolveTimeZoneSetting(std::string_view value);

// A zone as AT TIME ZONE, timezone() and timestamptz input name it (PostgreSQL's
// DecodeTimezoneAbbrev, then pg_tzset): an abbreviation of PostgreSQL's "Default" set
// first (time_zone_abbreviations.h: 'PST', 'CEST'), case-insensitively, else what
// resolveTimeZone accepts. A dynamic abbreviation ('MSK') keeps its zone and name: its
// offset is the one the zone had under that abbreviation at the time in question.
struct ZoneReference {
  int32_t fixedOffsetEast = 0;          // the offset when zone is null
  const NamedTimeZone* zone = nullptr;  // null when the offset never changes
  std::string_view abbreviation;        // a dynamic abbreviation's name (upper case), else empty
};
std::optional<ZoneReference> resolveZoneReference(std::string_view name);
// Its offset east of UTC at a UTC instant, and for a wall-clock time (seconds since 1970).
int32_t zoneOffsetAt(const ZoneReference& zone, int64_t unixSeconds);
int32_t zoneOffsetForLocal(const ZoneReference& zone, int64_t localUnixSeconds);

// Offset east of UTC, in seconds, in effect at a UTC instant (seconds since 1970).
int32_t utcOffsetAt(const NamedTimeZone& zone, int64_t unixSeconds);
// Offset east of UTC to apply to a wall-clock time (seconds since 1970 as if it were UTC),
// with PostgreSQL's choice for times a transition skips (the offset before it, so
// 02:30 on a spring-forward night in New York is 03:30 EDT) or repeats (the offset after
// it, so 01:30 on the fall-back night is 01:30 EST).
int32_t utcOffsetForLocal(const NamedTimeZone& zone, int64_t localUnixSeconds);

// The session zone's offsets for timestamps in PostgreSQL's representation (microseconds
// since 2000-01-01): a UTC instant, or a local wall-clock time to be converted to UTC.
int32_t sessionOffsetAt(const TypeContext& ctx, int64_t utcMicros);
int32_t sessionOffsetForLocal(const TypeContext& ctx, int64_t localMicros);
// The session zone's abbreviation at a UTC instant, as to_char's TZ prints it ("EST",
// "CEST"); for a fixed zone its ResolvedTimeZone::abbreviation (TypeContext keeps it), or
// without one "UTC" for offset 0 and "+05" or "-03:30" otherwise.
std::string sessionZoneAbbreviation(const TypeContext& ctx, int64_t utcMicros);

}  // namespace duet
