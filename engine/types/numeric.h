// numeric arithmetic on NumericRep with PostgreSQL's result scales and rounding.
// A value is mantissa * 10^-scale; the mantissa must stay within +-(2^119 - 1) (about 35
// decimal digits) and the scale within 0..255, else 22003 "value overflows numeric format".
// NaN and Infinity have no representation: inputs that would produce them raise 0A000.
#pragma once
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

NumericRep numericAdd(NumericRep a, NumericRep b);  // scale max(sa, sb)
NumericRep numericSub(NumericRep a, NumericRep b);
NumericRep numericMul(NumericRep a, NumericRep b);  // scale sa + sb
NumericRep numericDiv(NumericRep a, NumericRep b);  // scale from PG's select_div_scale
NumericRep numericMod(NumericRep a, NumericRep b);  // sign of a, scale max(sa, sb)
NumericRep numericNeg(NumericRep a);
NumericRep numericAbs(NumericRep a);
// Integral exponents only (0A000 otherwise); scale max(16, scale of base) as PG 15.
NumericRep numericPower(NumericRep base, NumericRep exponent);

int numericCompare(NumericRep a, NumericRep b);  // -1/0/1 by value: 1.0 = 1.00
uint64_t numericHash(NumericRep v);              // equal values hash equal

// round(x, n) / trunc(x, n): n may be negative (round(1234.5, -2) = 1200); the result
// has display scale max(n, 0). Rounding is half away from zero.
NumericRep numericRound(NumericRep v, int scale);
NumericRep numericTrunc(NumericRep v, int scale);
// Coerce to numeric(p, s) given as a PostgreSQL typmod (-1: unchanged).
NumericRep numericApplyTypmod(NumericRep v, int32_t typmod);

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
