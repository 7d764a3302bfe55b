// The string functions of SQL (split_part, translate, lpad, ...) as PostgreSQL 15 computes
// them on UTF-8 text with the C locale: positions and lengths in characters, separators
// found byte-wise (UTF-8 never matches inside a character), case only for ASCII letters.
// The runtime functions generated code calls (engine/types/runtime.h) wrap these.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace duet {

// Field `field` of s split at non-overlapping occurrences of sep, counted from 1, or from
// the end when negative; empty when there is no such field. 22023 for field 0.
std::string_view splitPart(std::string_view s, std::string_view sep, int64_t field);
// Each character of s found in `from` becomes the character at the same position in `to`,
// or is dropped when `to` is shorter.
std::string translateChars(std::string_view s, std::string_view from, std::string_view to);
// lpad (leading) / rpad: s cut or filled with repetitions of `fill` to `length` characters;
// an empty fill does not pad. 54000 for a length PostgreSQL cannot allocate.
std::string padChars(std::string_view s, int64_t length, std::string_view fill, bool leading);
// s `count` times (none when count < 0); 54000 past PostgreSQL's allocation limit.
std::string repeatText(std::string_view s, int64_t count);
std::string reverseChars(std::string_view s);
// The first ASCII letter or digit after anything else upper case, the others lower case.
std::string initcapAscii(std::string_view s);
// ascii(): the code point of the first character, 0 for an empty string.
int32_t firstCodePoint(std::string_view s);
// chr(): the character of a code point; 22023 for a negative one, 54000 for 0, one past
// U+10FFFF or a surrogate.
std::string codePointChar(int64_t code);
// overlay(s PLACING r FROM start [FOR count]) as PostgreSQL's text_overlay: the characters
// before `start`, r, then those from start + count on (count defaults to r's length, and
// may be negative). 22011 for start < 1, 22003 when start + count overflows int4.
std::string overlayText(std::string_view s, std::string_view r, int32_t start, int32_t count);

// The values of "any" arguments as their output texts, none for NULL.
using TextArgs = std::span<const std::optional<std::string_view>>;
// concat (no separator) and concat_ws: the values that are not NULL, joined.
std::string concatValues(TextArgs values, std::string_view separator);
// format(): %s, %I, %L and %% with argument positions (%2$s), flags (-) and widths (%5s,
// %*s, %*2$s) as PostgreSQL's text_format; 22023 for a bad specifier or too few
// arguments, 22004 for a NULL %I. `args` are the arguments after the format string.
std::string formatText(std::string_view format, TextArgs args);
// quote_literal: in single quotes, quotes doubled; E'...' with backslashes doubled when
// there are any.
std::string quoteLiteral(std::string_view s);
// quote_ident: as is when it is a lower-case identifier and not a keyword that would
// need quoting, in double quotes otherwise (inner ones doubled).
std::string quoteIdent(std::string_view s);
// md5(): the digest in lower-case hex (OpenSSL's EVP).
std::string md5Hex(std::string_view s);
// to_hex(): the two's complement bits of `bits` in lower-case hex, no leading zeros.
std::string toHex(uint64_t bits);

}  // namespace duet
