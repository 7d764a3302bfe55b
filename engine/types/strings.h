// String values (text, varchar, char) as PostgreSQL with the C collation and UTF-8
// handles them: byte-wise ordering, lengths and positions counted in characters, and
// ASCII-only case mapping (what lower()/upper() do under LC_CTYPE C).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/types/type_id.h"
#include "engine/types/value.h"

namespace duet {

// 22021 invalid byte sequence for encoding "UTF8": 0xff (the bytes of the bad character).
void checkUtf8(std::string_view s);
bool isValidUtf8(std::string_view s);

// Byte length of the UTF-8 character starting with `lead` (1 for an invalid lead byte, as
// pg_utf_mblen), and the byte offset of character number `n` (0-based, clamped to the end).
int utf8Len(unsigned char lead);
// Appends code point `cp` (at most 0x10FFFF) encoded as UTF-8.
void appendUtf8(std::string& out, uint32_t cp);
// The value of hexadecimal digit `c`, or -1 when it is not one.
int hexDigitValue(char c);
size_t offsetOfChar(std::string_view s, int64_t n);

int64_t charLength(std::string_view s);                     // characters
std::string_view bpcharTrim(std::string_view s);            // without trailing spaces
int textCompare(std::string_view a, std::string_view b);    // byte-wise, -1/0/1
int bpcharCompare(std::string_view a, std::string_view b);  // trailing spaces ignored
uint64_t textHash(std::string_view s);
uint64_t bpcharHash(std::string_view s);

// Coercion to char(n)/varchar(n)/text given as a SqlType (typmod -1: no length limit).
// Assignment: too many characters -> 22001 "value too long for type character varying(5)"
// unless the excess is spaces, which are cut. Explicit: truncated silently. char(n) is
// blank-padded to n characters. Returns `s` itself when nothing changes.
const VarString* coerceString(const VarString* s, SqlType target, bool explicitCast, Arena& arena);

std::string lowerAscii(std::string_view s);
std::string upperAscii(std::string_view s);
// substring(s from start for count), 1-based; 22011 for a negative count.
std::string_view substring(std::string_view s, int64_t start, int64_t count);
std::string_view substring(std::string_view s, int64_t start);  // to the end
int64_t position(std::string_view s, std::string_view sub);     // 1-based, 0 if absent
std::string_view leftChars(std::string_view s, int64_t n);      // n < 0: all but last -n
std::string_view rightChars(std::string_view s, int64_t n);     // n < 0: all but first -n
// btrim/ltrim/rtrim: strips any of the characters in `chars` (default " ").
std::string_view trimChars(std::string_view s, std::string_view chars, bool leading, bool trailing);
std::string replaceAll(std::string_view s, std::string_view from, std::string_view to);

// LIKE / ILIKE: % and _, `escape` empty for none or one character (default "\\");
// 22025 for a pattern ending in the escape character or a longer escape string.
bool likeMatch(std::string_view s, std::string_view pattern, std::string_view escape = "\\",
               bool caseInsensitive = false);

}  // namespace duet
