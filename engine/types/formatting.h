// to_char, to_date, to_timestamp and to_number: PostgreSQL 15's template patterns
// (formatting.c) for date/time values (YYYY, MM, DD, HH24, Month, Day, IW, TZ, ... with the
// FM, TH/th and TM modifiers and "quoted" text) and for numbers (9, 0, ., D, G, ',', S, MI,
// PL, SG, PR, FM, V, EEEE, RN, TH), in the C locale: '.' and ',' as the decimal point and
// group separator, English month and day names.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "engine/types/interval.h"
#include "engine/types/type_context.h"
#include "engine/types/value.h"

namespace duet {

// to_char of a date/time value; nullopt where PostgreSQL returns NULL (an empty template,
// an infinite timestamp). Interval templates reject the calendar fields (Month, Day, TZ,
// ...) with 22007 "invalid format specification for an interval value".
std::optional<std::string> toCharTimestamp(int64_t ts, std::string_view format);
std::optional<std::string> toCharTimestampTz(int64_t ts, std::string_view format, const TypeContext& ctx);
std::optional<std::string> toCharInterval(const Interval& v, std::string_view format);

// to_char of a number; an empty template gives ''. Digits that do not fit the template
// print as '#'.
std::string toCharNumeric(NumericRep v, std::string_view format);
std::string toCharInt4(int32_t v, std::string_view format);
std::string toCharInt8(int64_t v, std::string_view format);
std::string toCharFloat8(double v, std::string_view format);

// to_date(text, template) and to_timestamp(text, template) (the latter in the session's
// time zone unless TZH/TZM give the offset); 22007 for input that does not match,
// 22008 for fields out of range.
int32_t toDate(std::string_view text, std::string_view format);
int64_t toTimestamp(std::string_view text, std::string_view format, const TypeContext& ctx);
// to_timestamp(seconds since 1970-01-01 UTC); infinities stay infinite.
int64_t toTimestampFromEpoch(double seconds);
// to_number(text, template): numeric(digits in the template, decimals read).
NumericRep toNumber(std::string_view text, std::string_view format);

}  // namespace duet
