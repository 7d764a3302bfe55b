#include "engine/types/scalar_text.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>

#include <fmt/format.h>

#include "engine/types/type_errors.h"

namespace duet {

namespace {

bool startsWithIgnoreCase(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    char c = s[i];
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
    if (c != prefix[i]) return false;
  }
  return true;
}

// pg_strtoint16/32/64, in their order: digits beyond the range are out of range whatever
// follows them, characters after the number are invalid, and only then is max + 1 out of
// range.
int64_t parseInteger(std::string_view text, int64_t max, const char* typeName) {
  const char* p = text.data();
  const char* end = p + text.size();
  IntegerScan scan = scanInteger(p, end, max);
  auto outOfRange = [&] {
    throw SqlError(sqlstate::kNumericValueOutOfRange,
                   fmt::format("value \"{}\" is out of range for type {}", text, typeName));
  };
  if (scan.result == IntegerScan::NoDigits) raiseInvalidInput(typeName, text);
  if (scan.result == IntegerScan::OutOfRange) outOfRange();
  if (p != end) raiseInvalidInput(typeName, text);
  if (scan.result == IntegerScan::OneAboveMax) outOfRange();
  return scan.value;
}

// float8in / float4in. `single` selects strtof and the real type's messages.
double parseFloat(std::string_view text, bool single) {
  const char* typeName = single ? "real" : "double precision";
  std::string buf(text);  // strtod needs a terminated string
  const char* s = buf.c_str();
  while (scalarSpace(*s)) ++s;
  if (*s == '\0') raiseInvalidInput(typeName, text);
  errno = 0;
  char* end;
  double val = single ? static_cast<double>(std::strtof(s, &end)) : std::strtod(s, &end);
  if (end == s || errno != 0) {
    std::string_view rest(s);
    // strtod already knows "inf"/"infinity"/"nan"; these cover platforms where it does not.
    if (startsWithIgnoreCase(rest, "nan")) {
      val = std::numeric_limits<double>::quiet_NaN();
      end = const_cast<char*>(s) + 3;
    } else if (startsWithIgnoreCase(rest, "infinity") || startsWithIgnoreCase(rest, "+infinity")) {
      val = HUGE_VAL;
      end = const_cast<char*>(s) + (rest[0] == '+' ? 9 : 8);
    } else if (startsWithIgnoreCase(rest, "-infinity")) {
      val = -HUGE_VAL;
      end = const_cast<char*>(s) + 9;
    } else if (errno == ERANGE) {
      // Denormal results are accepted; only true overflow and underflow to 0 are errors.
      bool outOfRange = single ? (val == 0.0 || std::isinf(val)) : (val == 0.0 || val >= HUGE_VAL || val <= -HUGE_VAL);
      if (outOfRange)
        throw SqlError(sqlstate::kNumericValueOutOfRange,
                       fmt::format("\"{}\" is out of range for type {}", text, typeName));
    } else {
      raiseInvalidInput(typeName, text);
    }
  }
  while (scalarSpace(*end)) ++end;
  if (*end != '\0') raiseInvalidInput(typeName, text);
  return val;
}

// Shortest round-trip digits, printed as PostgreSQL's Ryu-based float8out does: plain
// notation for decimal exponents -4 .. maxFixedExp-1, otherwise "d.ddde+XX".
template <typename F>
void formatShortest(F v, int maxFixedExp, std::string& out) {
  char sci[64];
  auto res = std::to_chars(sci, sci + sizeof sci, v, std::chars_format::scientific);
  std::string_view text(sci, res.ptr - sci);
  size_t epos = text.find('e');
  int exp = std::atoi(std::string(text.substr(epos + 1)).c_str());
  if (exp < -4 || exp >= maxFixedExp) {
    out.append(text);
    return;
  }
  std::string digits;
  size_t i = 0;
  if (text[0] == '-') {
    out.push_back('-');
    i = 1;
  }
  for (; i < epos; ++i)
    if (text[i] != '.') digits.push_back(text[i]);
  int nd = static_cast<int>(digits.size());
  if (exp < 0) {
    out.append("0.");
    out.append(static_cast<size_t>(-exp - 1), '0');
    out.append(digits);
  } else if (nd <= exp + 1) {
    out.append(digits);
    out.append(static_cast<size_t>(exp + 1 - nd), '0');
  } else {
    out.append(digits, 0, static_cast<size_t>(exp + 1));
    out.push_back('.');
    out.append(digits, static_cast<size_t>(exp + 1));
  }
}

bool formatSpecial(double v, std::string& out) {
  if (std::isnan(v))
    out.append("NaN");
  else if (std::isinf(v))
    out.append(v > 0 ? "Infinity" : "-Infinity");
  else
    return false;
  return true;
}

}  // namespace

int16_t parseInt2(std::string_view t) { return static_cast<int16_t>(parseInteger(t, INT16_MAX, "smallint")); }
int32_t parseInt4(std::string_view t) { return static_cast<int32_t>(parseInteger(t, INT32_MAX, "integer")); }
int64_t parseInt8(std::string_view t) { return parseInteger(t, INT64_MAX, "bigint"); }

void formatInt(int64_t v, std::string& out) {
  char buf[24];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, res.ptr);
}

double parseFloat8(std::string_view text) { return parseFloat(text, false); }
float parseFloat4(std::string_view text) { return static_cast<float>(parseFloat(text, true)); }

void formatFloat8(double v, std::string& out, int extraFloatDigits) {
  if (formatSpecial(v, out)) return;
  if (extraFloatDigits > 0) return formatShortest(v, 15, out);
  char buf[64];
  int ndig = 15 + extraFloatDigits;
  std::snprintf(buf, sizeof buf, "%.*g", ndig < 1 ? 1 : ndig, v);
  out.append(buf);
}

void formatFloat4(float v, std::string& out, int extraFloatDigits) {
  if (formatSpecial(v, out)) return;
  if (extraFloatDigits > 0) return formatShortest(v, 6, out);
  char buf[64];
  int ndig = 6 + extraFloatDigits;
  std::snprintf(buf, sizeof buf, "%.*g", ndig < 1 ? 1 : ndig, static_cast<double>(v));
  out.append(buf);
}

bool parseBool(std::string_view text) {
  size_t b = 0, e = text.size();
  while (b < e && scalarSpace(text[b])) ++b;
  while (e > b && scalarSpace(text[e - 1])) --e;
  std::string_view v = text.substr(b, e - b);
  // Each keyword accepts any leading part of itself (PostgreSQL's parse_bool_with_len).
  auto prefixOf = [&](std::string_view word, size_t minLen) {
    return v.size() >= minLen && v.size() <= word.size() && startsWithIgnoreCase(v, word.substr(0, v.size()));
  };
  if (prefixOf("true", 1) || prefixOf("yes", 1) || prefixOf("on", 2) || v == "1") return true;
  if (prefixOf("false", 1) || prefixOf("no", 1) || prefixOf("off", 2) || v == "0") return false;
  throw SqlError(sqlstate::kInvalidTextRepresentation,
                 fmt::format("invalid input syntax for type boolean: \"{}\"", text));
}

double float8Checked(double result, bool infInputs, bool zeroInputs) {
  if (std::isinf(result) && !infInputs) raiseFloatOverflow();
  if (result == 0.0 && !zeroInputs) raiseFloatUnderflow();
  return result;
}

float float4Checked(float result, bool infInputs, bool zeroInputs) {
  if (std::isinf(result) && !infInputs) raiseFloatOverflow();
  if (result == 0.0f && !zeroInputs) raiseFloatUnderflow();
  return result;
}

double float8Div(double a, double b) {
  if (b == 0.0 && !std::isnan(a)) raiseDivisionByZero();
  return float8Checked(a / b, std::isinf(a) || std::isinf(b), a == 0.0 || std::isinf(b));
}

float float4Div(float a, float b) {
  if (b == 0.0f && !std::isnan(a)) raiseDivisionByZero();
  return float4Checked(a / b, std::isinf(a) || std::isinf(b), a == 0.0f || std::isinf(b));
}

double float8Pow(double a, double b) {
  if (std::isnan(a)) return (std::isnan(b) || b != 0.0) ? a : 1.0;
  if (std::isnan(b)) return a != 1.0 ? b : 1.0;
  if (a == 0.0 && b < 0.0) throw SqlError("2201F", "zero raised to a negative power is undefined");
  if (a < 0.0 && std::floor(b) != b)
    throw SqlError("2201F", "a negative number raised to a non-integer power yields a complex result");
  double r = std::pow(a, b);
  if (!std::isinf(a) && !std::isinf(b)) {
    if (std::isinf(r)) raiseFloatOverflow();
    if (r == 0.0 && a != 0.0) raiseFloatUnderflow();
  }
  return r;
}

int64_t floatToInteger(double v, TypeId target) {
  double r = std::rint(v);
  // Compare against powers of two, which doubles represent exactly (PG's FLOAT8_FITS_IN_*).
  double lim = target == TypeId::Int2 ? 32768.0 : target == TypeId::Int4 ? 2147483648.0 : 9223372036854775808.0;
  if (std::isnan(r) || r < -lim || r >= lim) raiseIntegerOutOfRange(target);
  return static_cast<int64_t>(r);
}

float float8ToFloat4(double v) {
  float r = static_cast<float>(v);
  if (std::isinf(r) && !std::isinf(v)) raiseFloatOverflow();
  if (r == 0.0f && v != 0.0) raiseFloatUnderflow();
  return r;
}

}  // namespace duet
