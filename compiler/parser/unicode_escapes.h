// The body of a Unicode escape string, U&'d\0061t\+000061' [UESCAPE '!'], decoded as
// PostgreSQL 15's parser does after the lexer (str_udeescape in parser.c): the escape
// character followed by 4 hex digits, or by + and 6, is that code point (UTF-16 surrogate
// pairs as two escapes); the escape character twice is itself. The lexer calls it
// (lexer.cpp) and turns a failure into an Error token.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace duet::sql {

// Whether `escape` (UESCAPE's string) may be the escape character: one character, not a
// hex digit, +, a quote or white space.
bool validUnicodeEscapeChar(std::string_view escape);

struct UnicodeEscapeError {
  size_t at = 0;             // byte offset in the body of the bad escape
  const char* message = "";  // PostgreSQL's: "invalid Unicode escape", ...
};

// Decodes `body` (quotes already undoubled) into *out; false with *error set for an
// escape that is not one, a code point that is 0 or past U+10FFFF, or a surrogate
// without its pair.
bool decodeUnicodeEscapes(std::string_view body, char escape, std::string* out, UnicodeEscapeError* error);

}  // namespace duet::sql
