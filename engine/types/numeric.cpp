#include "engine/types/numeric.h"

#include <algorithm>

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include <fmt/format.h>
#include <boost/multiprecision/cpp_int.hpp>

#include "engine/types/hash.h"
#include "engine/types/scalar_text.h"
#include "engine/types/type_errors.h"

namespace duet {

namespace {

using u128 = unsigned __int128;
using i128 = __int128;

constexpr u128 kMaxMantissa = (u128(1) << 119) - 1;

// 10^0 .. 10^38 (10^38 < 2^128).
struct Pow10Table {
  u128 v[39];
  constexpr Pow10Table() : v() {
    v[0] = 1;
    for (int i = 1; i < 39; ++i) v[i] = v[i - 1] * 10;
  }
};
constexpr Pow10Table kPow10;

u128 magnitude(i128 m) { return m < 0 ? u128(0) - u128(m) : u128(m); }

int digitCount(u128 m) {
  int n = 1;
  while (n < 39 && m >= kPow10.v[n]) ++n;
  return n;
}

NumericRep build(bool negative, u128 mag, int scale) {
  if (mag > kMaxMantissa) raiseNumericOverflow();
  if (scale > kNumericMaxScale) raiseNumericOverflow();
  i128 m = static_cast<i128>(mag);
  return makeNumeric(negative ? -m : m, scale);
}

// mag * 10^n, or false when it leaves 128 bits.
bool mulPow10(u128 mag, int n, u128* out) {
  if (mag == 0) {
    *out = 0;
    return true;
  }
  if (n > 38) return false;
  u128 r;
  if (__builtin_mul_overflow(mag, kPow10.v[n], &r)) return false;
  *out = r;
  return true;
}

// mag / 10^n rounded half away from zero (n >= 0).
u128 divPow10Round(u128 mag, int n) {
  if (n == 0) return mag;
  if (n > 38) return 0;  // 10^39 > 2 * any 128-bit magnitude
  u128 d = kPow10.v[n];
  u128 q = mag / d, r = mag % d;
  if (r >= d - r) ++q;  // r >= d/2 without overflow
  return q;
}

u128 divPow10Trunc(u128 mag, int n) { return n > 38 ? 0 : mag / kPow10.v[n]; }

// floor(a * 10^k / b) for b > 0; raises overflow once the quotient leaves the mantissa range.
u128 scaledQuotient(u128 a, u128 b, int k) {
  if (k < 0) {
    u128 d;
    if (!mulPow10(b, -k, &d)) return 0;
    return a / d;
  }
  u128 q = a / b, r = a % b;
  if (q > kMaxMantissa) raiseNumericOverflow();
  for (int i = 0; i < k; ++i) {
    r *= 10;  // r < b < 2^120, so no overflow
    q = q * 10 + r / b;
    r %= b;
    if (q > kMaxMantissa * 10) raiseNumericOverflow();
  }
  return q;
}

// Both magnitudes brought to scale max(sa, sb).
void align(NumericRep a, NumericRep b, u128* ma, u128* mb, int* scale) {
  int sa = numericScale(a), sb = numericScale(b);
  *scale = sa > sb ? sa : sb;
  if (!mulPow10(magnitude(numericMantissa(a)), *scale - sa, ma) ||
      !mulPow10(magnitude(numericMantissa(b)), *scale - sb, mb))
    raiseNumericOverflow();
}

bool equalsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = char(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = char(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

// A rounding/truncation to `scale` (which may be negative), result display scale max(scale,0).
NumericRep roundOrTrunc(NumericRep v, int scale, bool round) {
  // PostgreSQL clamps the scale to its NUMERIC_MAX_RESULT_SCALE first, which also keeps
  // `s - scale` below from overflowing for round(x, -2147483648).
  scale = std::clamp(scale, -2000, 2000);
  i128 m = numericMantissa(v);
  int s = numericScale(v);
  bool neg = m < 0;
  u128 mag = magnitude(m);
  if (scale >= s) {
    if (scale > kNumericMaxScale) raiseNumericOverflow();
    u128 r;
    if (!mulPow10(mag, scale - s, &r)) raiseNumericOverflow();
    return build(neg, r, scale);
  }
  int drop = s - scale;  // digits removed, > 0
  u128 q = round ? divPow10Round(mag, drop) : divPow10Trunc(mag, drop);
  if (scale >= 0) return build(neg && q != 0, q, scale);
  u128 r;
  if (!mulPow10(q, -scale, &r)) raiseNumericOverflow();
  return build(neg && r != 0, r, 0);
}

}  // namespace

NumericRep parseNumeric(std::string_view text) {
  size_t i = 0, n = text.size();
  while (i < n && scalarSpace(text[i])) ++i;
  size_t end = n;
  while (end > i && scalarSpace(text[end - 1])) --end;
  std::string_view body = text.substr(i, end - i);
  {
    std::string_view unsigned_body = body;
    if (!unsigned_body.empty() && (unsigned_body[0] == '+' || unsigned_body[0] == '-')) unsigned_body.remove_prefix(1);
    if (equalsIgnoreCase(body, "nan") || equalsIgnoreCase(unsigned_body, "infinity") ||
        equalsIgnoreCase(unsigned_body, "inf"))
      raiseNumericSpecialUnsupported();
  }
  bool neg = false;
  size_t p = 0;
  if (p < body.size() && (body[p] == '+' || body[p] == '-')) neg = body[p++] == '-';
  u128 mag = 0;
  bool overflow = false, anyDigit = false, seenPoint = false;
  long fracDigits = 0;
  for (; p < body.size(); ++p) {
    char c = body[p];
    if (c >= '0' && c <= '9') {
      anyDigit = true;
      if (seenPoint) ++fracDigits;
      if (mag > (kMaxMantissa - (c - '0')) / 10)
        overflow = true;
      else
        mag = mag * 10 + (c - '0');
    } else if (c == '.' && !seenPoint) {
      seenPoint = true;
    } else {
      break;
    }
  }
  if (!anyDigit) raiseInvalidInput("numeric", text);
  long exponent = 0;
  if (p < body.size() && (body[p] == 'e' || body[p] == 'E')) {
    ++p;
    bool expNeg = false;
    if (p < body.size() && (body[p] == '+' || body[p] == '-')) expNeg = body[p++] == '-';
    if (p >= body.size() || body[p] < '0' || body[p] > '9') raiseInvalidInput("numeric", text);
    for (; p < body.size() && body[p] >= '0' && body[p] <= '9'; ++p) {
      exponent = exponent * 10 + (body[p] - '0');
      if (exponent > 100000) raiseNumericOverflow();
    }
    if (expNeg) exponent = -exponent;
  }
  if (p != body.size()) raiseInvalidInput("numeric", text);
  if (overflow) raiseNumericOverflow();
  long scale = fracDigits - exponent;
  if (scale < 0) {
    if (!mulPow10(mag, static_cast<int>(-scale > 39 ? 39 : -scale), &mag)) raiseNumericOverflow();
    scale = 0;
  }
  if (scale > kNumericMaxScale) raiseNumericOverflow();
  return build(neg && mag != 0, mag, static_cast<int>(scale));
}

void formatNumeric(NumericRep v, std::string& out) {
  i128 m = numericMantissa(v);
  int s = numericScale(v);
  if (m < 0) out.push_back('-');
  char buf[48];
  int len = 0;
  // 128-bit division is a library call: only the digits above 64 bits take it.
  u128 mag = magnitude(m);
  while (mag > UINT64_MAX) {
    buf[len++] = char('0' + int(mag % 10));
    mag /= 10;
  }
  uint64_t low = static_cast<uint64_t>(mag);
  do {
    buf[len++] = char('0' + int(low % 10));
    low /= 10;
  } while (low != 0);
  // buf holds the digits least significant first.
  if (len <= s) {
    out.push_back('0');
  } else {
    for (int i = len - 1; i >= s; --i) out.push_back(buf[i]);
  }
  if (s == 0) return;
  out.push_back('.');
  for (int i = s - 1; i >= 0; --i) out.push_back(i < len ? buf[i] : '0');
}

std::string numericToString(NumericRep v) {
  std::string s;
  formatNumeric(v, s);
  return s;
}

NumericRep numericAddGeneral(NumericRep a, NumericRep b) {
  u128 ma, mb;
  int s;
  align(a, b, &ma, &mb, &s);
  bool na = numericMantissa(a) < 0, nb = numericMantissa(b) < 0;
  if (na == nb) return build(na, ma + mb, s);  // each < 2^128/8, no wrap
  if (ma >= mb) return build(na && ma != mb, ma - mb, s);
  return build(nb, mb - ma, s);
}

NumericRep numericSubGeneral(NumericRep a, NumericRep b) { return numericAddGeneral(a, numericNeg(b)); }

NumericRep numericMulGeneral(NumericRep a, NumericRep b) {
  u128 r;
  if (__builtin_mul_overflow(magnitude(numericMantissa(a)), magnitude(numericMantissa(b)), &r)) raiseNumericOverflow();
  bool neg = (numericMantissa(a) < 0) != (numericMantissa(b) < 0);
  return build(neg && r != 0, r, numericScale(a) + numericScale(b));
}

namespace {
// PostgreSQL's select_div_scale: at least NUMERIC_MIN_SIG_DIGITS (16) significant digits,
// estimated from the base-10000 weights and first digits of the operands, and never less
// than either operand's display scale.
int selectDivScale(NumericRep a, NumericRep b) {
  auto weightAndFirst = [](NumericRep v, int* weight, int* first) {
    u128 mag = magnitude(numericMantissa(v));
    int s = numericScale(v);
    if (mag == 0) {
      *weight = 0;
      *first = 0;
      return;
    }
    int e10 = digitCount(mag) - 1 - s;               // exponent of the leading decimal digit
    int w = e10 >= 0 ? e10 / 4 : -((-e10 + 3) / 4);  // floor(e10 / 4)
    int shift = s + 4 * w;                           // first digit = mag / 10^shift
    *weight = w;
    *first = shift >= 0 ? int(mag / kPow10.v[shift]) : int(mag * kPow10.v[-shift]);
  };
  int w1, f1, w2, f2;
  weightAndFirst(a, &w1, &f1);
  weightAndFirst(b, &w2, &f2);
  int qweight = w1 - w2;
  if (f1 <= f2) --qweight;
  int rscale = 16 - qweight * 4;
  if (rscale < numericScale(a)) rscale = numericScale(a);
  if (rscale < numericScale(b)) rscale = numericScale(b);
  if (rscale < 0) rscale = 0;
  if (rscale > 1000) rscale = 1000;
  return rscale;
}

// a / b rounded half away from zero at `rscale`.
NumericRep divideAtScale(NumericRep a, NumericRep b, int rscale) {
  u128 mb = magnitude(numericMantissa(b));
  if (mb == 0) raiseDivisionByZero();
  if (rscale > kNumericMaxScale) raiseNumericOverflow();
  u128 ma = magnitude(numericMantissa(a));
  int k = rscale - numericScale(a) + numericScale(b);
  u128 q = scaledQuotient(ma, mb, k + 1);  // one guard digit for rounding
  q = q / 10 + (q % 10 >= 5 ? 1 : 0);
  bool neg = (numericMantissa(a) < 0) != (numericMantissa(b) < 0);
  return build(neg && q != 0, q, rscale);
}
}  // namespace

NumericRep numericDiv(NumericRep a, NumericRep b) {
  if (numericMantissa(b) == 0) raiseDivisionByZero();
  return divideAtScale(a, b, selectDivScale(a, b));
}

int numericDivScale(NumericRep a, NumericRep b) { return selectDivScale(a, b); }

NumericRep numericDivAtScale(NumericRep a, NumericRep b, int rscale) { return divideAtScale(a, b, rscale); }

// round(sqrt(v) * 10^rscale) from the integer square root of v * 10^(2 rscale + 2), which
// has the one digit more that rounding needs (floor(sqrt(floor(y))) = floor(sqrt(y)), so
// truncating v's digits below that first loses nothing).
NumericRep numericSqrtAtScale(NumericRep v, int rscale) {
  using boost::multiprecision::cpp_int;
  if (rscale > kNumericMaxScale) raiseNumericOverflow();
  u128 mag = magnitude(numericMantissa(v));
  auto wide = [](u128 v) { return cpp_int(uint64_t(v >> 64)) << 64 | cpp_int(uint64_t(v)); };
  cpp_int scaled = wide(mag);
  int shift = 2 * rscale + 2 - numericScale(v);
  cpp_int ten = 10;
  if (shift >= 0)
    scaled *= boost::multiprecision::pow(ten, static_cast<unsigned>(shift));
  else
    scaled /= boost::multiprecision::pow(ten, static_cast<unsigned>(-shift));
  cpp_int root = (boost::multiprecision::sqrt(scaled) + 5) / 10;
  if (root > wide(kMaxMantissa)) raiseNumericOverflow();
  u128 r = u128(static_cast<uint64_t>(root >> 64)) << 64 | u128(static_cast<uint64_t>(root & UINT64_MAX));
  return build(false, r, rscale);
}

NumericRep numericMod(NumericRep a, NumericRep b) {
  if (numericMantissa(b) == 0) raiseDivisionByZero();
  u128 ma, mb;
  int s;
  align(a, b, &ma, &mb, &s);
  u128 r = ma % mb;
  return build(numericMantissa(a) < 0 && r != 0, r, s);
}

NumericRep numericDivTrunc(NumericRep a, NumericRep b) {
  if (numericMantissa(b) == 0) raiseDivisionByZero();
  u128 ma, mb;
  int s;
  align(a, b, &ma, &mb, &s);
  u128 q = ma / mb;
  return build((numericMantissa(a) < 0) != (numericMantissa(b) < 0) && q != 0, q, 0);
}

namespace {
// The integer part of v (negative: its sign), one further from zero when `awayFromZero`
// and a fraction was cut: floor of a negative value and ceil of a positive one.
NumericRep integralToward(NumericRep v, bool negative, bool awayFromZero) {
  u128 mag = magnitude(numericMantissa(v));
  int s = numericScale(v);
  u128 q = divPow10Trunc(mag, s);
  u128 back;
  if (awayFromZero && !(mulPow10(q, s, &back) && back == mag)) ++q;
  return build(negative && q != 0, q, 0);
}
}  // namespace

NumericRep numericFloor(NumericRep v) {
  bool negative = numericMantissa(v) < 0;
  return integralToward(v, negative, negative);
}

NumericRep numericCeil(NumericRep v) {
  bool negative = numericMantissa(v) < 0;
  return integralToward(v, negative, !negative);
}

NumericRep numericSign(NumericRep v) {
  i128 m = numericMantissa(v);
  return makeNumeric(m < 0 ? -1 : m > 0, 0);
}

NumericRep numericNeg(NumericRep a) { return makeNumeric(-numericMantissa(a), numericScale(a)); }

NumericRep numericAbs(NumericRep a) {
  i128 m = numericMantissa(a);
  return m < 0 ? makeNumeric(-m, numericScale(a)) : a;
}

int numericCompare(NumericRep a, NumericRep b) {
  i128 ma = numericMantissa(a), mb = numericMantissa(b);
  int sa = numericScale(a), sb = numericScale(b);
  if (sa == sb) return ma < mb ? -1 : ma > mb ? 1 : 0;
  int signA = ma < 0 ? -1 : ma > 0, signB = mb < 0 ? -1 : mb > 0;
  if (signA != signB) return signA < signB ? -1 : 1;
  if (signA == 0) return 0;
  u128 xa = magnitude(ma), xb = magnitude(mb);
  // Scale up the one with the smaller scale; if that leaves 128 bits it is the larger.
  int magCmp;
  if (sa < sb) {
    u128 t;
    magCmp = !mulPow10(xa, sb - sa, &t) ? 1 : (t < xb ? -1 : t > xb);
  } else {
    u128 t;
    magCmp = !mulPow10(xb, sa - sb, &t) ? -1 : (xa < t ? -1 : xa > t);
  }
  return signA > 0 ? magCmp : -magCmp;
}

uint64_t numericHash(NumericRep v) {
  i128 m = numericMantissa(v);
  int s = numericScale(v);
  if (m == 0) return hashMix64(0);
  while (s > 0 && m % 10 == 0) {
    m /= 10;
    --s;
  }
  u128 u = static_cast<u128>(m);
  return hashMix64(uint64_t(u) ^ hashMix64(uint64_t(u >> 64) ^ (uint64_t(s) << 56)));
}

NumericRep numericRound(NumericRep v, int scale) { return roundOrTrunc(v, scale, true); }
NumericRep numericTrunc(NumericRep v, int scale) { return roundOrTrunc(v, scale, false); }

NumericRep numericRescaleUp(NumericRep v, int scale) {
  int s = numericScale(v);
  u128 r;
  if (scale <= s || scale > kNumericMaxScale || !mulPow10(magnitude(numericMantissa(v)), scale - s, &r) ||
      r > kMaxMantissa)
    return v;
  i128 m = static_cast<i128>(r);
  return makeNumeric(numericMantissa(v) < 0 ? -m : m, scale);
}

NumericRep numericApplyTypmodGeneral(NumericRep v, int32_t typmod) {
  if (typmod < 4) return v;
  int precision = SqlType{TypeId::Numeric, typmod}.numericPrecision();
  int scale = SqlType{TypeId::Numeric, typmod}.numericScale();
  u128 mag = magnitude(numericMantissa(v));
  // Check the integer digits before scaling up, so numeric(5,2) reports a field overflow
  // rather than a format overflow for a value that is merely too large.
  int maxDigits = precision - scale;
  auto fieldOverflow = [&]() {
    throw SqlError(sqlstate::kNumericValueOutOfRange, "numeric field overflow",
                   maxDigits ? fmt::format("A field with precision {}, scale {} must round to an absolute "
                                           "value less than 10^{}.",
                                           precision, scale, maxDigits)
                             : fmt::format("A field with precision {}, scale {} must round to an absolute "
                                           "value less than 1.",
                                           precision, scale));
  };
  // digitCount(m) > k is m >= 10^k: one comparison where counting digits loops (this runs
  // on every store into a numeric(p,s) column or variable).
  auto moreDigitsThan = [](u128 m, int k) { return k < 0 || (k < 39 && m >= kPow10.v[k]); };
  if (mag != 0 && moreDigitsThan(mag, maxDigits + numericScale(v))) fieldOverflow();
  NumericRep r = numericScale(v) == scale ? v : numericRound(v, scale);
  u128 rmag = magnitude(numericMantissa(r));
  if (rmag != 0 && moreDigitsThan(rmag, precision)) fieldOverflow();  // rounded up a digit
  return r;
}

NumericRep numericFromInt64(int64_t v) { return makeNumeric(static_cast<i128>(v), 0); }

int64_t numericToInteger(NumericRep v, TypeId target) {
  i128 m = numericMantissa(numericRound(v, 0));
  i128 lo = target == TypeId::Int2 ? INT16_MIN : target == TypeId::Int4 ? INT32_MIN : INT64_MIN;
  i128 hi = target == TypeId::Int2 ? INT16_MAX : target == TypeId::Int4 ? INT32_MAX : INT64_MAX;
  if (m < lo || m > hi) raiseIntegerOutOfRange(target);
  return static_cast<int64_t>(m);
}

NumericRep numericFromDouble(double v) {
  if (std::isnan(v) || std::isinf(v)) raiseNumericSpecialUnsupported();
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", 15, v);
  return parseNumeric(buf);
}

NumericRep numericFromFloat(float v) {
  if (std::isnan(v) || std::isinf(v)) raiseNumericSpecialUnsupported();
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", 6, static_cast<double>(v));
  return parseNumeric(buf);
}

double numericToDouble(NumericRep v) { return parseFloat8(numericToString(v)); }
float numericToFloat(NumericRep v) { return parseFloat4(numericToString(v)); }

// numeric_sqrt: the result scale gives at least 16 significant digits and no fewer
// decimals than the argument has (PostgreSQL's NUMERIC_MIN_SIG_DIGITS rule, which counts
// the argument's weight in base-10000 digits); the root at that scale, rounded half up.
NumericRep numericSqrt(NumericRep v) {
  i128 m = numericMantissa(v);
  if (m < 0) throw SqlError("2201F", "cannot take square root of a negative number");
  int scale = numericScale(v);
  int weight = 0;  // PostgreSQL's weight: the base-10000 digit of the leading decimal digit
  if (m != 0) {
    int leading = digitCount(static_cast<u128>(m)) - scale - 1;  // power of ten of the first digit
    weight = leading >= 0 ? leading / 4 : -((-leading + 3) / 4);
  }
  int sweight = (weight + 1) * 4 / 2 - 1;
  return numericSqrtAtScale(v, std::clamp(std::max(16 - sweight, scale), 0, 1000));
}

}  // namespace duet
