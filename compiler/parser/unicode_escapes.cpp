#include "compiler/parser/unicode_escapes.h"
#include "engine/types/strings.h"

#include <cstdint>

namespace duet::sql {

namespace {

// The value of `digits` hex digits at body[at], or -1 when there are not that many.
int64_t hexRun(std::string_view body, size_t at, int digits) {
  if (at + digits > body.size()) return -1;
  int64_t v = 0;
  for (int i = 0; i < digits; ++i) {
    int d = hexDigitValue(body[at + i]);
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

bool isHighSurrogate(int64_t cp) { return cp >= 0xD800 && cp <= 0xDBFF; }
bool isLowSurrogate(int64_t cp) { return cp >= 0xDC00 && cp <= 0xDFFF; }

}  // namespace

bool validUnicodeEscapeChar(std::string_view escape) {
  if (escape.size() != 1) return false;
  char c = escape[0];
  return hexDigitValue(c) < 0 && c != '+' && c != '\'' && c != '"' && c != ' ' && c != '\t' && c != '\n' && c != '\r' &&
         c != '\f' && c != '\v';
}

bool decodeUnicodeEscapes(std::string_view body, char escape, std::string* out, UnicodeEscapeError* error) {
  auto fail = [&](size_t at, const char* message) {
    *error = {at, message};
    return false;
  };
  constexpr const char* kBadPair = "invalid Unicode surrogate pair";
  out->clear();
  int64_t highSurrogate = 0;  // the first half of a pair, waiting for its second
  size_t i = 0;
  while (i < body.size()) {
    if (body[i] != escape) {
      if (highSurrogate) return fail(i, kBadPair);
      *out += body[i++];
      continue;
    }
    if (i + 1 < body.size() && body[i + 1] == escape) {
      if (highSurrogate) return fail(i, kBadPair);
      *out += escape;
      i += 2;
      continue;
    }
    int64_t cp = hexRun(body, i + 1, 4);
    size_t length = 5;
    if (cp < 0 && i + 1 < body.size() && body[i + 1] == '+') {
      cp = hexRun(body, i + 2, 6);
      length = 8;
    }
    if (cp < 0) return fail(i, "invalid Unicode escape");
    if (cp == 0 || cp > 0x10FFFF) return fail(i, "invalid Unicode escape value");
    if (highSurrogate) {
      if (!isLowSurrogate(cp)) return fail(i, kBadPair);
      cp = 0x10000 + ((highSurrogate - 0xD800) << 10) + (cp - 0xDC00);
      highSurrogate = 0;
    } else if (isLowSurrogate(cp)) {
      return fail(i, kBadPair);
    }
    if (isHighSurrogate(cp))
      highSurrogate = cp;
    else
      appendUtf8(*out, static_cast<uint32_t>(cp));
    i += length;
  }
  if (highSurrogate) return fail(i, kBadPair);
  return true;
}

}  // namespace duet::sql
