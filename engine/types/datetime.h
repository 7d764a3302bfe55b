// date, timestamp and timestamptz: PostgreSQL's representation (days / microseconds since
// 2000-01-01, infinities at the extremes of the integer type), ISO input, and output in
// DateStyle ISO, MDY in the session's time zone (fixed offset or tz database zone).
#pragma once
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "engine/types/type_context.h"

namespace duet {

inline constexpr int32_t kDateNegInfinity = std::numeric_limits<int32_t>::min();
inline constexpr int32_t kDatePosInfinity = std::numeric_limits<int32_t>::max();
inline constexpr int64_t kTimestampNegInfinity = std::numeric_limits<int64_t>::min();
inline constexpr int64_t kTimestampPosInfinity = std::numeric_limits<int64_t>::max();
inline constexpr int64_t kUsecsPerDay = 86400LL * 1000000;

// Julian day numbers (PostgreSQL's date2j / j2date); year 0 is 1 BC.
int dateToJulian(int year, int month, int day);
void julianToDate(int julian, int* year, int* month, int* day);

// Input: 'YYYY-MM-DD', optionally followed by ' ' or 'T' and 'HH:MM[:SS[.ffffff]]', a zone
// ('Z', 'UTC', 'GMT', '+HH', '-HH:MM', '+HHMM', '+HH:MM:SS') and 'BC'/'AD'; or the words
// 'epoch', 'infinity', '-infinity'. Errors as PostgreSQL (22007, 22008, 22009).
int32_t parseDate(std::string_view text);
int64_t parseTimestamp(std::string_view text);  // a zone in the input is ignored
int64_t parseTimestampTz(std::string_view text, const TypeContext& ctx);

void formatDate(int32_t days, std::string& out);
void formatTimestamp(int64_t usecs, std::string& out);
void formatTimestampTz(int64_t usecs, std::string& out, const TypeContext& ctx);

// Casts, with PostgreSQL's range errors; infinities map to infinities.
int64_t dateToTimestamp(int32_t days);
int64_t dateToTimestampTz(int32_t days, const TypeContext& ctx);
int32_t timestampToDate(int64_t ts);
int32_t timestampTzToDate(int64_t ts, const TypeContext& ctx);
int64_t timestampToTimestampTz(int64_t ts, const TypeContext& ctx);
int64_t timestampTzToTimestamp(int64_t ts, const TypeContext& ctx);

// Binary input (date_recv, timestamp_recv): the value if it is an infinity or in the range
// text input accepts, else 22008 "date out of range" / "timestamp out of range", so that
// every stored value reads back from its text (archives, the redo log).
int32_t checkDateRange(int32_t days);
int64_t checkTimestampRange(int64_t usecs);

// date + integer (finite dates; infinite dates are returned unchanged) and date - date.
int32_t dateAddDays(int32_t days, int64_t n);
int32_t dateDiff(int32_t a, int32_t b);

}  // namespace duet
