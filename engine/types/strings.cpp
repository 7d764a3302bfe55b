#include "engine/types/strings.h"

#include <algorithm>
#include <cstring>
#include <optional>

#include <fmt/format.h>

#include "engine/error.h"
#include "engine/types/hash.h"

namespace duet {

int utf8Len(unsigned char c) {
  if (c < 0x80) return 1;
  if ((c & 0xe0) == 0xc0) return 2;
  if ((c & 0xf0) == 0xe0) return 3;
  if ((c & 0xf8) == 0xf0) return 4;
  return 1;
}

namespace {

// Length of a valid character at s[i], or 0 (PostgreSQL's pg_utf8_islegal rules).
int validCharAt(std::string_view s, size_t i) {
  auto c = static_cast<unsigned char>(s[i]);
  if (c < 0x80) return c == 0 ? 0 : 1;  // NUL is not allowed in text
  int len = utf8Len(c);
  if (len == 1 || i + len > s.size()) return 0;
  auto b1 = static_cast<unsigned char>(s[i + 1]);
  switch (len) {
    case 2:
      if (c < 0xc2 || b1 < 0x80 || b1 > 0xbf) return 0;
      break;
    case 3:
      if ((c == 0xe0 && (b1 < 0xa0 || b1 > 0xbf)) || (c == 0xed && (b1 < 0x80 || b1 > 0x9f)) ||
          (c != 0xe0 && c != 0xed && (b1 < 0x80 || b1 > 0xbf)))
        return 0;
      break;
    case 4:
      if (c > 0xf4 || (c == 0xf0 && (b1 < 0x90 || b1 > 0xbf)) || (c == 0xf4 && (b1 < 0x80 || b1 > 0x8f)) ||
          (c != 0xf0 && c != 0xf4 && (b1 < 0x80 || b1 > 0xbf)))
        return 0;
      break;
  }
  for (int k = 2; k < len; ++k) {
    auto b = static_cast<unsigned char>(s[i + k]);
    if (b < 0x80 || b > 0xbf) return 0;
  }
  return len;
}

size_t nextChar(std::string_view s, size_t i) {
  size_t n = i + utf8Len(static_cast<unsigned char>(s[i]));
  return n > s.size() ? s.size() : n;
}

// Whether every byte is below 0x80: ASCII bytes are one character each.
bool isAscii(std::string_view s) {
  uint64_t high = 0;
  size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    high |= w;
  }
  for (; i < s.size(); ++i) high |= static_cast<unsigned char>(s[i]);
  return (high & 0x8080808080808080ull) == 0;
}

}  // namespace

size_t offsetOfChar(std::string_view s, int64_t n) {
  // A character is at least one byte: a string of at most n bytes has at most n characters.
  // And n ASCII bytes are n characters: checked eight bytes at a time, this is every
  // varchar(n) / char(n) store of ASCII text, however long.
  if (n < 0) return 0;
  if (s.size() <= static_cast<uint64_t>(n)) return s.size();
  if (isAscii(s.substr(0, static_cast<size_t>(n)))) return static_cast<size_t>(n);
  size_t i = 0;
  for (int64_t k = 0; k < n && i < s.size(); ++k) i = nextChar(s, i);
  return i;
}

namespace {

char lowerChar(char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; }

// PostgreSQL's MatchText (like_match.c): the same recursion on % and _.
enum Match { kTrue, kFalse, kAbort };

Match matchText(std::string_view t, std::string_view p, int esc) {
  size_t ti = 0, pi = 0;
  while (ti < t.size() && pi < p.size()) {
    char pc = p[pi];
    if (esc >= 0 && static_cast<unsigned char>(pc) == esc) {
      ++pi;
      if (pi >= p.size()) throw SqlError("22025", "LIKE pattern must not end with escape character");
      size_t pn = nextChar(p, pi), tn = nextChar(t, ti);
      if (p.substr(pi, pn - pi) != t.substr(ti, tn - ti)) return kFalse;
      pi = pn;
      ti = tn;
    } else if (pc == '%') {
      // Collapse runs of % and _ ; each _ consumes one text character.
      while (pi < p.size() && (p[pi] == '%' || p[pi] == '_')) {
        if (p[pi] == '_') {
          if (ti >= t.size()) return kAbort;
          ti = nextChar(t, ti);
        }
        ++pi;
      }
      if (pi >= p.size()) return kTrue;
      // The next pattern character (if literal) must match where the rest begins.
      std::string_view lit;
      if (esc >= 0 && static_cast<unsigned char>(p[pi]) == esc) {
        if (pi + 1 >= p.size()) throw SqlError("22025", "LIKE pattern must not end with escape character");
        lit = p.substr(pi + 1, nextChar(p, pi + 1) - pi - 1);
      } else {
        lit = p.substr(pi, nextChar(p, pi) - pi);
      }
      while (ti < t.size()) {
        if (t.compare(ti, lit.size(), lit) == 0) {
          Match m = matchText(t.substr(ti), p.substr(pi), esc);
          if (m != kFalse) return m;
        }
        ti = nextChar(t, ti);
      }
      return kAbort;
    } else if (pc == '_') {
      ti = nextChar(t, ti);
      ++pi;
    } else {
      size_t pn = nextChar(p, pi), tn = nextChar(t, ti);
      if (p.substr(pi, pn - pi) != t.substr(ti, tn - ti)) return kFalse;
      pi = pn;
      ti = tn;
    }
  }
  if (ti < t.size()) return kFalse;
  while (pi < p.size() && p[pi] == '%') ++pi;
  return pi >= p.size() ? kTrue : kAbort;
}

}  // namespace

bool isValidUtf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    int n = validCharAt(s, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

void checkUtf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    // Most text is ASCII: eight bytes at a time while none has its high bit set or is NUL.
    constexpr uint64_t kOnes = 0x0101010101010101ULL, kHighBits = 0x8080808080808080ULL;
    uint64_t eight;
    while (i + 8 <= s.size() && (std::memcpy(&eight, s.data() + i, 8), ((eight | (eight - kOnes)) & kHighBits) == 0))
      i += 8;
    if (i >= s.size()) break;
    int n = validCharAt(s, i);
    if (n != 0) {
      i += n;
      continue;
    }
    if (s[i] == 0)
      throw SqlError(sqlstate::kCharacterNotInRepertoire, "invalid byte sequence for encoding \"UTF8\": 0x00");
    size_t shown = utf8Len(static_cast<unsigned char>(s[i]));
    if (shown > s.size() - i) shown = s.size() - i;
    std::string bytes;
    for (size_t k = 0; k < shown; ++k)
      fmt::format_to(std::back_inserter(bytes), "{}0x{:02x}", k ? " " : "", static_cast<unsigned char>(s[i + k]));
    throw SqlError(sqlstate::kCharacterNotInRepertoire,
                   fmt::format("invalid byte sequence for encoding \"UTF8\": {}", bytes));
  }
}

int64_t charLength(std::string_view s) {
  int64_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xc0) != 0x80;
  return n;
}

std::string_view bpcharTrim(std::string_view s) {
  size_t n = s.size();
  while (n > 0 && s[n - 1] == ' ') --n;
  return s.substr(0, n);
}

int textCompare(std::string_view a, std::string_view b) {
  int c = a.compare(b);  // char_traits<char>::compare is memcmp: unsigned bytes
  return c < 0 ? -1 : c > 0;
}

int bpcharCompare(std::string_view a, std::string_view b) { return textCompare(bpcharTrim(a), bpcharTrim(b)); }

uint64_t textHash(std::string_view s) { return hashBytes(s.data(), s.size()); }
uint64_t bpcharHash(std::string_view s) { return textHash(bpcharTrim(s)); }

const VarString* coerceString(const VarString* s, SqlType target, bool explicitCast, Arena& arena) {
  int maxLen = target.charLength();
  if (target.id == TypeId::Text || target.id == TypeId::Unknown || maxLen < 0) return s;
  std::string_view v = s->view();
  size_t cut = offsetOfChar(v, maxLen);  // bytes of the first maxLen characters
  if (cut < v.size()) {
    if (!explicitCast) {
      for (size_t i = cut; i < v.size(); ++i)
        if (v[i] != ' ')
          throw SqlError(sqlstate::kStringDataRightTruncation,
                         fmt::format("value too long for type {}", typeName(target)));
    }
    v = v.substr(0, cut);
  }
  if (target.id == TypeId::Char) {
    int64_t have = charLength(v);
    if (have < maxLen) {
      VarString* r = arena.makeString(v.size() + size_t(maxLen - have));
      std::memcpy(r->data, v.data(), v.size());
      std::memset(r->data + v.size(), ' ', size_t(maxLen - have));
      return r;
    }
  }
  return v.size() == s->len ? s : arena.makeString(v);
}

std::string lowerAscii(std::string_view s) {
  std::string r(s);
  for (char& c : r) c = lowerChar(c);
  return r;
}

std::string upperAscii(std::string_view s) {
  std::string r(s);
  for (char& c : r)
    if (c >= 'a' && c <= 'z') c = char(c - 'a' + 'A');
  return r;
}

std::string_view substring(std::string_view s, int64_t start, int64_t count) {
  if (count < 0) throw SqlError("22011", "negative substring length not allowed");
  // Characters start .. start+count-1, clipped to 1 .. length (text_substring).
  int64_t end = start > INT64_MAX - count ? INT64_MAX : start + count;  // exclusive
  int64_t from = start < 1 ? 1 : start;
  if (end <= from) return s.substr(0, 0);
  size_t b = offsetOfChar(s, from - 1);
  size_t e = offsetOfChar(s.substr(b), end - from) + b;
  return s.substr(b, e - b);
}

std::string_view substring(std::string_view s, int64_t start) {
  return s.substr(offsetOfChar(s, start < 1 ? 0 : start - 1));
}

int64_t position(std::string_view s, std::string_view sub) {
  size_t at = s.find(sub);
  if (at == std::string_view::npos) return 0;
  return charLength(s.substr(0, at)) + 1;
}

std::string_view leftChars(std::string_view s, int64_t n) {
  if (n < 0) {
    int64_t len = charLength(s);
    n = len + n < 0 ? 0 : len + n;
  }
  return s.substr(0, offsetOfChar(s, n));
}

std::string_view rightChars(std::string_view s, int64_t n) {
  int64_t len = charLength(s);
  // PostgreSQL negates n in 32 bits: -2147483648 stays negative and skips nothing.
  int64_t skip = n == INT32_MIN ? 0 : n < 0 ? -n : (len - n < 0 ? 0 : len - n);
  return s.substr(offsetOfChar(s, skip));
}

std::string_view trimChars(std::string_view s, std::string_view chars, bool leading, bool trailing) {
  auto inSet = [&](std::string_view ch) {
    for (size_t i = 0; i < chars.size(); i = nextChar(chars, i))
      if (chars.substr(i, nextChar(chars, i) - i) == ch) return true;
    return false;
  };
  size_t b = 0, e = s.size();
  if (leading) {
    while (b < e) {
      size_t n = nextChar(s, b);
      if (!inSet(s.substr(b, n - b))) break;
      b = n;
    }
  }
  if (trailing) {
    while (e > b) {
      size_t start = e - 1;  // back to the lead byte of the last character
      while (start > b && (static_cast<unsigned char>(s[start]) & 0xc0) == 0x80) --start;
      if (!inSet(s.substr(start, e - start))) break;
      e = start;
    }
  }
  return s.substr(b, e - b);
}

std::string replaceAll(std::string_view s, std::string_view from, std::string_view to) {
  if (from.empty()) return std::string(s);
  std::string r;
  size_t i = 0;
  for (size_t at; (at = s.find(from, i)) != std::string_view::npos; i = at + from.size()) {
    r.append(s, i, at - i);
    r.append(to);
  }
  r.append(s, i);
  return r;
}

namespace {

// likeMatch's answer for a pattern of literal parts and %s only; nothing for another. An
// anchored first or last part must begin or end the text; the others are found leftmost,
// in order, which decides such a pattern.
std::optional<bool> plainLikeMatch(std::string_view s, std::string_view p, int esc) {
  constexpr size_t npos = std::string_view::npos;
  if (p.find('_') != npos || (esc >= 0 && p.find(static_cast<char>(esc)) != npos)) return std::nullopt;
  if (p.empty()) return s.empty();
  size_t pos = 0;                    // in s: where the next part may begin
  size_t begin = 0, end = p.size();  // in p: the parts found by search
  if (p.front() != '%') {
    size_t cut = p.find('%');
    if (cut == npos) return s == p;
    if (!s.starts_with(p.substr(0, cut))) return false;
    pos = cut;
    begin = cut;
  }
  if (p.back() != '%') {
    size_t cut = p.rfind('%');
    std::string_view tail = p.substr(cut + 1);
    if (!s.ends_with(tail) || s.size() - tail.size() < pos) return false;
    s = s.substr(0, s.size() - tail.size());
    end = cut;
  }
  for (size_t at = begin; at < end;) {
    size_t stop = std::min(p.find('%', at), end);
    if (stop > at) {
      size_t found = s.find(p.substr(at, stop - at), pos);
      if (found == npos) return false;
      pos = found + (stop - at);
    }
    at = stop + 1;
  }
  return true;
}

}  // namespace

bool likeMatch(std::string_view s, std::string_view pattern, std::string_view escape, bool caseInsensitive) {
  int esc = -1;
  if (!escape.empty()) {
    if (charLength(escape) != 1)
      throw SqlError("22025", "invalid escape string", "", "Escape string must be empty or one character.");
    if (escape.size() != 1)
      throw SqlError(sqlstate::kFeatureNotSupported, "a multi-byte LIKE escape character is not supported");
    esc = static_cast<unsigned char>(escape[0]);
  }
  if (caseInsensitive) {
    std::string ls = lowerAscii(s), lp = lowerAscii(pattern);
    return matchText(ls, lp, esc) == kTrue;
  }
  // Patterns of literal parts and % only ('lit', 'lit%', '%lit%', '%special%requests%'; no _
  // or escape character) as comparisons and leftmost substring searches, which decide them
  // (byte-wise is character-wise in UTF-8).
  if (std::optional<bool> plain = plainLikeMatch(s, pattern, esc)) return *plain;
  return matchText(s, pattern, esc) == kTrue;
}

void appendUtf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

int hexDigitValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace duet
