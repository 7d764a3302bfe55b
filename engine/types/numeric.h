// numeric arithmetic on NumericRep with PostgreSQL's result scales and rounding.
// A value is mantissa * 10^-scale; the mantissa must stay within +-(2^119 - 1) (about 35
// decimal digits) and the scale within 0..255, else 22003 "value overflows numeric format".
// NaN and Infinity have no representation: inputs that would produce them raise 0A000.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/types/value.h"

namespace duet {

inline constexpr int kNumericMaxScale = 255;

// numeric_in: surrounding whitespace, sign, digits, '.', exponent ("-1.5e3").
NumericRep parseNumeric(std::string_view text);
void formatNumeric(NumericRep v, std::string& out);  // appends, keeping the display scale
std::string numericToString(NumericRep v);

// The general arithmetic behind numericAdd / numericSub / numericMul / numericApplyTypmod,
// which inline a fast path for the common cases (below) and call these for the rest. Tests
// compare the two.
NumericRep numericAddGeneral(NumericRep a, NumericRep b);
NumericRep numericSubGeneral(NumericRep a, NumericRep b);
NumericRep numericMulGeneral(NumericRep a, NumericRep b);
NumericRep numericApplyTypmodGeneral(NumericRep v, int32_t typmod);

// The lowest valid representation: mantissa -(2^119 - 1), scale 0. A sum of valid values
// that did not overflow __int128 is valid when it is at least this (its mantissa is not
// -2^119, the one the format excludes).
inline constexpr NumericRep kNumericLowestRep =
    -static_cast<NumericRep>(((static_cast<unsigned __int128>(1) << 119) - 1) << 8);

// The operand of the smaller scale brought to the other's (1 - l_discount: scales 0 and
// 2) when its mantissa and the result fit 64 bits, 18 digits at most apart: one machine
// multiplication. False for the rest, which the general path aligns.
inline bool numericAlignFast(NumericRep& a, NumericRep& b) {
  static constexpr std::array<int64_t, 19> kPow10 = [] {
    std::array<int64_t, 19> p{};
    p[0] = 1;
    for (size_t i = 1; i < p.size(); ++i) p[i] = p[i - 1] * 10;
    return p;
  }();
  int sa = numericScale(a), sb = numericScale(b);
  if (sa == sb) return true;
  NumericRep& low = sa < sb ? a : b;
  int to = sa < sb ? sb : sa;
  int shift = to - numericScale(low);
  __int128 m = numericMantissa(low);
  int64_t scaled;
  if (shift > 18 || m != static_cast<int64_t>(m) ||
      __builtin_mul_overflow(static_cast<int64_t>(m), kPow10[shift], &scaled))
    return false;
  low = makeNumeric(scaled, to);
  return true;
}

// Equal scales, the common case of money amounts: the mantissas add in place (b's scale
// byte cleared so the scale is not added twice). Anything else, overflow included, takes
// the general path, which raises it.
inline NumericRep numericAdd(NumericRep a, NumericRep b) {  // scale max(sa, sb)
  NumericRep r;
  NumericRep x = a, y = b;
  if (numericAlignFast(x, y) && !__builtin_add_overflow(x, y & ~NumericRep(0xff), &r) && r >= kNumericLowestRep)
    return r;
  return numericAddGeneral(a, b);
}

inline NumericRep numericSub(NumericRep a, NumericRep b) {
  NumericRep r;
  NumericRep x = a, y = b;
  if (numericAlignFast(x, y) && !__builtin_sub_overflow(x, y & ~NumericRep(0xff), &r) && r >= kNumericLowestRep)
    return r;
  return numericSubGeneral(a, b);
}

// Mantissas within 64 bits whose product is too: one machine multiplication, and a product
// below 2^63 is far inside the mantissa range.
inline NumericRep numericMul(NumericRep a, NumericRep b) {  // scale sa + sb
  __int128 ma = numericMantissa(a), mb = numericMantissa(b);
  int scale = numericScale(a) + numericScale(b);
  int64_t product;
  if (ma == static_cast<int64_t>(ma) && mb == static_cast<int64_t>(mb) && scale <= kNumericMaxScale &&
      !__builtin_mul_overflow(static_cast<int64_t>(ma), static_cast<int64_t>(mb), &product))
    return makeNumeric(product, scale);
  return numericMulGeneral(a, b);
}

NumericRep numericDiv(NumericRep a, NumericRep b);                     // scale from PG's select_div_scale
int numericDivScale(NumericRep a, NumericRep b);                       // that scale (select_div_scale)
NumericRep numericDivAtScale(NumericRep a, NumericRep b, int rscale);  // rounded half away from zero
// The square root of v (not negative) rounded half away from zero at `rscale`, as
// PostgreSQL's sqrt_var with a given result scale (the stddev aggregates).
NumericRep numericSqrtAtScale(NumericRep v, int rscale);
NumericRep numericMod(NumericRep a, NumericRep b);       // sign of a, scale max(sa, sb)
NumericRep numericDivTrunc(NumericRep a, NumericRep b);  // div(): a / b toward zero, scale 0
NumericRep numericFloor(NumericRep v);                   // scale 0
NumericRep numericCeil(NumericRep v);                    // scale 0
NumericRep numericSign(NumericRep v);                    // -1, 0 or 1, scale 0
NumericRep numericNeg(NumericRep a);
NumericRep numericAbs(NumericRep a);
// numeric_transcendental.cpp: PostgreSQL 15's numeric_power, numeric_exp, numeric_ln and
// numeric_log, with their result scales (at least 16 significant digits, no fewer decimals
// than the arguments), rounded half away from zero; 2201F / 2201E for the arguments they
// reject, 22003 for results beyond NumericRep.
NumericRep numericPower(NumericRep base, NumericRep exponent);
NumericRep numericExp(NumericRep v);
NumericRep numericLn(NumericRep v);
NumericRep numericLog(NumericRep base, NumericRep v);  // log(base, v)

// sqrt(numeric) as PostgreSQL 15: scale max(16 significant digits, the argument's scale),
// rounded; 2201F for a negative argument, 22003 when the root does not fit.
NumericRep numericSqrt(NumericRep v);

int numericCompare(NumericRep a, NumericRep b);  // -1/0/1 by value: 1.0 = 1.00
uint64_t numericHash(NumericRep v);              // equal values hash equal

// round(x, n) / trunc(x, n): n may be negative (round(1234.5, -2) = 1200); the result
// has display scale max(n, 0). Rounding is half away from zero.
NumericRep numericRound(NumericRep v, int scale);
NumericRep numericTrunc(NumericRep v, int scale);
// The same value written with `scale` decimals when it has fewer and that fits the format
// (24 as 24.00); otherwise `v` unchanged (never an error).
NumericRep numericRescaleUp(NumericRep v, int scale);
// 10^0 .. 10^18, the powers of ten within int64.
inline constexpr int64_t kNumericPow10[19] = {1,
                                              10,
                                              100,
                                              1000,
                                              10000,
                                              100000,
                                              1000000,
                                              10000000,
                                              100000000,
                                              1000000000,
                                              10000000000,
                                              100000000000,
                                              1000000000000,
                                              10000000000000,
                                              100000000000000,
                                              1000000000000000,
                                              10000000000000000,
                                              100000000000000000,
                                              1000000000000000000};

// Coerce to numeric(p, s) given as a PostgreSQL typmod (-1: unchanged). Every store into a
// numeric(p,s) column or variable does this, and the value nearly always has scale s
// already and fewer than p digits: then it stays as it is.
inline NumericRep numericApplyTypmod(NumericRep v, int32_t typmod) {
  if (typmod < 4) return v;
  int precision = SqlType{TypeId::Numeric, typmod}.numericPrecision();
  int scale = SqlType{TypeId::Numeric, typmod}.numericScale();
  __int128 m = numericMantissa(v);
  if (numericScale(v) == scale && precision <= 18 && m < kNumericPow10[precision] && m > -kNumericPow10[precision])
    return v;
  return numericApplyTypmodGeneral(v, typmod);
}

NumericRep numericFromInt64(int64_t v);
// Rounds half away from zero, then checks the range of the target integer type
// (TypeId::Int2/Int4/Int8) and raises "smallint/integer/bigint out of range".
int64_t numericToInteger(NumericRep v, TypeId target);
// As PostgreSQL: the float is printed with DBL_DIG (FLT_DIG) digits and read back.
NumericRep numericFromDouble(double v);
NumericRep numericFromFloat(float v);
double numericToDouble(NumericRep v);
float numericToFloat(NumericRep v);

}  // namespace duet
