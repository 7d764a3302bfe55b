#include "engine/types/text_functions.h"

#include <vector>

#include <fmt/format.h>
#include <openssl/evp.h>

#include "engine/error.h"
#include "engine/types/strings.h"

namespace duet {

namespace {

// PostgreSQL's MaxAllocSize: no value may be larger, header (4 bytes) included.
constexpr int64_t kMaxAllocSize = 0x3fffffff;

[[noreturn]] void raiseLengthTooLarge() {
  throw SqlError(sqlstate::kProgramLimitExceeded, "requested length too large");
}

// The character at byte i, clipped to the end of s.
std::string_view charAt(std::string_view s, size_t i) { return s.substr(i, utf8Len(static_cast<unsigned char>(s[i]))); }

bool isAsciiAlnum(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

}  // namespace

std::string_view splitPart(std::string_view s, std::string_view sep, int64_t field) {
  if (field == 0) throw SqlError(sqlstate::kInvalidParameterValue, "field position must not be zero");
  if (s.empty()) return {};
  if (sep.empty()) return field == 1 || field == -1 ? s : std::string_view();
  std::vector<size_t> at;  // where each separator starts
  for (size_t i = s.find(sep); i != std::string_view::npos; i = s.find(sep, i + sep.size())) at.push_back(i);
  auto fields = static_cast<int64_t>(at.size()) + 1;
  if (field < 0) field += fields + 1;
  if (field < 1 || field > fields) return {};
  size_t begin = field == 1 ? 0 : at[field - 2] + sep.size();
  size_t end = field == fields ? s.size() : at[field - 1];
  return s.substr(begin, end - begin);
}

std::string translateChars(std::string_view s, std::string_view from, std::string_view to) {
  std::string r;
  r.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    std::string_view c = charAt(s, i);
    i += c.size();
    size_t index = 0, f = 0;
    while (f < from.size() && charAt(from, f) != c) {
      f += charAt(from, f).size();
      ++index;
    }
    if (f == from.size()) {
      r.append(c);
      continue;
    }
    size_t t = offsetOfChar(to, static_cast<int64_t>(index));
    if (t < to.size()) r.append(charAt(to, t));
  }
  return r;
}

std::string padChars(std::string_view s, int64_t length, std::string_view fill, bool leading) {
  int64_t len = length < 0 ? 0 : length;
  int64_t have = charLength(s);
  if (have > len) {
    s = s.substr(0, offsetOfChar(s, len));
    have = len;
  }
  if (fill.empty()) len = have;
  // PostgreSQL allocates the longest UTF-8 character (4 bytes) for each character first.
  if (len * 4 + 4 > kMaxAllocSize) raiseLengthTooLarge();
  std::string padding;
  for (size_t f = 0; have < len; ++have) {
    std::string_view c = charAt(fill, f);
    padding.append(c);
    f += c.size();
    if (f == fill.size()) f = 0;
  }
  return leading ? padding.append(s) : std::string(s).append(padding);
}

std::string repeatText(std::string_view s, int64_t count) {
  if (count < 0) count = 0;
  if (!s.empty() && count > (kMaxAllocSize - 4) / static_cast<int64_t>(s.size())) raiseLengthTooLarge();
  std::string r;
  r.reserve(s.size() * static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) r.append(s);
  return r;
}

std::string reverseChars(std::string_view s) {
  std::string r(s.size(), '\0');
  size_t out = s.size();
  for (size_t i = 0; i < s.size();) {
    std::string_view c = charAt(s, i);
    out -= c.size();
    r.replace(out, c.size(), c);
    i += c.size();
  }
  return r;
}

std::string initcapAscii(std::string_view s) {
  std::string r(s);
  bool inWord = false;
  for (char& c : r) {
    if (inWord && c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
    if (!inWord && c >= 'a' && c <= 'z') c = char(c - 'a' + 'A');
    inWord = isAsciiAlnum(c);
  }
  return r;
}

int32_t firstCodePoint(std::string_view s) {
  if (s.empty()) return 0;
  auto lead = static_cast<unsigned char>(s[0]);
  int len = utf8Len(lead);
  if (len == 1 || s.size() < static_cast<size_t>(len)) return lead;
  int32_t code = lead & (0x7f >> len);
  for (int k = 1; k < len; ++k) code = (code << 6) | (static_cast<unsigned char>(s[k]) & 0x3f);
  return code;
}

std::string codePointChar(int64_t code) {
  if (code < 0) throw SqlError(sqlstate::kInvalidParameterValue, "character number must be positive");
  if (code == 0) throw SqlError(sqlstate::kProgramLimitExceeded, "null character not permitted");
  if (code > 0x10ffff)
    throw SqlError(sqlstate::kProgramLimitExceeded,
                   fmt::format("requested character too large for encoding: {}", code));
  if (code >= 0xd800 && code <= 0xdfff)
    throw SqlError(sqlstate::kProgramLimitExceeded,
                   fmt::format("requested character not valid for encoding: {}", code));
  auto byte = [](int64_t v) { return static_cast<char>(v); };
  if (code < 0x80) return std::string(1, byte(code));
  if (code < 0x800) return {byte(0xc0 | (code >> 6)), byte(0x80 | (code & 0x3f))};
  if (code < 0x10000) return {byte(0xe0 | (code >> 12)), byte(0x80 | ((code >> 6) & 0x3f)), byte(0x80 | (code & 0x3f))};
  return {byte(0xf0 | (code >> 18)), byte(0x80 | ((code >> 12) & 0x3f)), byte(0x80 | ((code >> 6) & 0x3f)),
          byte(0x80 | (code & 0x3f))};
}

std::string md5Hex(std::string_view s) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (!EVP_Digest(s.data(), s.size(), digest, &size, EVP_md5(), nullptr))
    throw SqlError(sqlstate::kInternalError, "could not compute MD5 hash");
  std::string out;
  out.reserve(2 * size);
  static const char kHex[] = "0123456789abcdef";
  for (unsigned int i = 0; i < size; ++i) {
    out += kHex[digest[i] >> 4];
    out += kHex[digest[i] & 15];
  }
  return out;
}

std::string overlayText(std::string_view s, std::string_view r, int32_t start, int32_t count) {
  // A start before 1 is a negative length of the part before it, as the standard defines
  // OVERLAY by SUBSTRING.
  if (start <= 0) throw SqlError("22011", "negative substring length not allowed");
  int32_t after = 0;
  if (__builtin_add_overflow(start, count, &after))
    throw SqlError(sqlstate::kNumericValueOutOfRange, "integer out of range");
  std::string out(substring(s, 1, start - 1));
  out += r;
  out += substring(s, after);
  return out;
}

std::string toHex(uint64_t bits) { return fmt::format("{:x}", bits); }

}  // namespace duet
