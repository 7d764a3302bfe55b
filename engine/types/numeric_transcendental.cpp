// exp, ln, log and power of numerics as PostgreSQL 15's numeric.c computes them: the
// result scale comes from PostgreSQL's rules (numeric_exp, numeric_ln, log_var, power_var,
// power_var_int: NUMERIC_MIN_SIG_DIGITS significant digits, estimated from the arguments
// in double precision, and never fewer decimals than the arguments have), and the digits
// are PostgreSQL's. A 128-bit binary float (Boost's cpp_bin_float) computes the value
// first; when its error bound, plus a margin for PostgreSQL's own error, leaves no doubt
// which way the value rounds, that is PostgreSQL's result too. Otherwise, near a tie or for
// results of more than about 30 digits, numeric_series.h repeats numeric.c's own series on
// exact fixed-point numbers. Small integral powers are exact. A result that leaves
// NumericRep's range (about 35 digits, scale 255) raises 22003, where PostgreSQL's longer
// numerics would still hold it.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>

#include <boost/multiprecision/cpp_bin_float.hpp>
#include <boost/multiprecision/cpp_int.hpp>

#include "engine/error.h"
#include "engine/types/numeric.h"
#include "engine/types/numeric_series.h"
#include "engine/types/type_errors.h"

namespace duet {

namespace {

using boost::multiprecision::cpp_int;
// The fast type: 128 binary digits (about 38 decimal ones), a few microseconds per call.
using Binary =
    boost::multiprecision::number<boost::multiprecision::cpp_bin_float<128, boost::multiprecision::digit_base_2>,
                                  boost::multiprecision::et_off>;
using numeric_series::Fixed;

// PostgreSQL's NUMERIC_MIN_SIG_DIGITS, NUMERIC_MAX_DISPLAY_SCALE, NUMERIC_MAX_RESULT_SCALE.
constexpr int kMinSigDigits = 16;
constexpr int kMaxDisplayScale = 1000;
constexpr int kMaxResultScale = 2000;
// log10(e) as numeric.c writes it: its digits decide result scales.
constexpr double kLog10E = 0.434294481903252;

using u128 = unsigned __int128;
constexpr u128 kMaxMantissa = (u128(1) << 119) - 1;

// One unit in the last place of Binary, relative, and a generous bound on the error of
// Boost's exp and log in such units.
const double kBinaryUlp = std::ldexp(1.0, -127);
constexpr double kFunctionUlps = 64;
// PostgreSQL's results carry errors a few digits past the result scale (its series stop
// there, its mul_var and div_var_fast keep 8 guard digits): a value closer to a tie than
// this, in units of the result's last digit, may round either way there.
constexpr double kPostgresErrorMargin = 1e-4;

cpp_int toCppInt(u128 v) { return cpp_int(uint64_t(v >> 64)) << 64 | cpp_int(uint64_t(v)); }

cpp_int mantissaOf(NumericRep v) {
  __int128 m = numericMantissa(v);
  cpp_int r = toCppInt(m < 0 ? u128(0) - u128(m) : u128(m));
  return m < 0 ? cpp_int(-r) : r;
}

cpp_int pow10(int n) { return boost::multiprecision::pow(cpp_int(10), static_cast<unsigned>(n)); }

// a / b rounded half away from zero, b > 0.
cpp_int roundedQuotient(const cpp_int& a, const cpp_int& b) {
  cpp_int q = (2 * abs(a) + b) / (2 * b);
  return a < 0 ? cpp_int(-q) : q;
}

// mantissa * 10^-scale as NumericRep; 22003 when it does not fit.
NumericRep fromScaled(const cpp_int& mantissa, int scale) {
  if (scale > kNumericMaxScale || scale < 0) raiseNumericOverflow();
  cpp_int mag = abs(mantissa);
  if (mag > toCppInt(kMaxMantissa)) raiseNumericOverflow();
  u128 m = u128(static_cast<uint64_t>(mag >> 64)) << 64 | u128(static_cast<uint64_t>(mag & UINT64_MAX));
  return makeNumeric(mantissa < 0 ? -static_cast<__int128>(m) : static_cast<__int128>(m), scale);
}

NumericRep zeroAtScale(int scale) { return fromScaled(0, scale); }

// v as a Binary: the mantissa is exact, the division by 10^scale rounds once.
Binary toBinary(NumericRep v) {
  __int128 m = numericMantissa(v);
  u128 mag = m < 0 ? u128(0) - u128(m) : u128(m);
  Binary r = Binary(uint64_t(mag >> 64)) * boost::multiprecision::pow(Binary(2), 64) + Binary(uint64_t(mag));
  if (numericScale(v) > 0) r /= boost::multiprecision::pow(Binary(10), numericScale(v));
  return m < 0 ? Binary(-r) : r;
}

// v rounded half away from zero at `rscale` decimals, from a Binary whose relative error
// is at most `relError`; nothing when the rounding could go either way in PostgreSQL (or
// the mantissa is too long for a Binary to tell).
std::optional<NumericRep> roundBinary(const Binary& v, double relError, int rscale) {
  Binary scaled = abs(v) * boost::multiprecision::pow(Binary(10), rscale);
  relError += 8 * kBinaryUlp;  // the power of ten and the product
  if (!(relError < 1e-12) || scaled >= Binary(u128(1) << 112)) return std::nullopt;
  Binary whole = floor(scaled);
  double distance = std::fabs(static_cast<double>(scaled - whole) - 0.5);
  if (distance <= static_cast<double>(scaled) * relError * 2 + kPostgresErrorMargin) return std::nullopt;
  cpp_int m = static_cast<cpp_int>(scaled - whole > 0.5 ? Binary(whole + 1) : whole);
  return fromScaled(v < 0 ? cpp_int(-m) : m, rscale);
}

// The value from `fast` (a Binary, its relative error in *ulps of Binary's last place)
// when that settles PostgreSQL's rounding at `rscale`, else from `series`: numeric.c's
// computation, already at rscale.
template <typename Fast, typename Series>
NumericRep computeRounded(Fast fast, Series series, int rscale) {
  if (rscale > kNumericMaxScale) raiseNumericOverflow();
  double ulps = 0;
  Binary value = fast(&ulps);
  if (std::optional<NumericRep> r = roundBinary(value, ulps * kBinaryUlp, rscale)) return *r;
  Fixed exact = series();
  return fromScaled(exact.mantissa, exact.scale);
}

double toDouble(NumericRep v) { return numeric_series::toDouble(numeric_series::fromNumeric(v)); }

bool isIntegral(NumericRep v) {
  int s = numericScale(v);
  return s == 0 || mantissaOf(v) % pow10(s) == 0;
}

int floorDiv4(int x) { return x >= 0 ? x / 4 : -((-x + 3) / 4); }

// The first base-10000 digits of a non-zero |v| as PostgreSQL stores them: `weight` is
// the power of 10000 of the first digit, `ndigits` the count up to the last non-zero one.
struct NbaseDigits {
  int weight = 0;
  int ndigits = 0;
  int first = 0;
  int second = 0;
};

NbaseDigits nbaseDigits(NumericRep v) {
  std::string digits = cpp_int(abs(mantissaOf(v))).str();
  int scale = numericScale(v);
  while (digits.size() > 1 && digits.back() == '0') {  // trailing zeros are not stored
    digits.pop_back();
    --scale;
  }
  int leading = static_cast<int>(digits.size()) - 1 - scale;  // power of ten of digits[0]
  NbaseDigits r;
  r.weight = floorDiv4(leading);
  r.ndigits = r.weight - floorDiv4(-scale) + 1;
  auto group = [&](int index) {  // the base-10000 digit `index` places below the first
    int value = 0;
    for (int e = 4 * (r.weight - index) + 3; e >= 4 * (r.weight - index); --e) {
      int at = leading - e;
      value = value * 10 + (at >= 0 && at < static_cast<int>(digits.size()) ? digits[at] - '0' : 0);
    }
    return value;
  };
  r.first = group(0);
  r.second = r.ndigits > 1 ? group(1) : 0;
  return r;
}

// estimate_ln_dweight: the decimal weight of ln(v) for v > 0, from v - 1 near 1 and from
// v's first two base-10000 digits elsewhere, in double precision as PostgreSQL does.
int estimateLnDweight(NumericRep v) {
  if (numericCompare(v, makeNumeric(9, 1)) >= 0 && numericCompare(v, makeNumeric(11, 1)) <= 0) {
    NumericRep x = numericSub(v, makeNumeric(1, 0));
    if (numericMantissa(x) == 0) return 0;
    NbaseDigits d = nbaseDigits(x);
    return d.weight * 4 + static_cast<int>(std::log10(d.first));
  }
  NbaseDigits d = nbaseDigits(v);
  int digits = d.first;
  int dweight = d.weight * 4;
  if (d.ndigits > 1) {
    digits = digits * 10000 + d.second;
    dweight -= 4;
  }
  double lnValue = std::log(static_cast<double>(digits)) + dweight * 2.302585092994046;
  return static_cast<int>(std::log10(std::fabs(lnValue)));
}

int clampScale(int rscale) { return std::clamp(rscale, 0, kMaxDisplayScale); }

void checkLogArgument(NumericRep v) {
  if (numericMantissa(v) == 0) throw SqlError("2201E", "cannot take logarithm of zero");
  if (numericMantissa(v) < 0) throw SqlError("2201E", "cannot take logarithm of a negative number");
}

// ln(v) for v > 0, and in *ulps its absolute error in units of Binary's last place
// relative to 1: two from rounding v, the function's own relative to the result.
Binary lnWithError(NumericRep v, double* ulps) {
  Binary r = log(toBinary(v));
  *ulps = 2 + kFunctionUlps * std::fabs(static_cast<double>(r));
  return r;
}

// ln(v) for v > 0 at `rscale`: numeric_ln's value.
NumericRep lnAtScale(NumericRep v, int rscale) {
  if (numericCompare(v, makeNumeric(1, 0)) == 0) return zeroAtScale(rscale);
  return computeRounded(
      [&](double* ulps) {
        Binary r = lnWithError(v, ulps);
        *ulps /= std::fabs(static_cast<double>(r));  // relative to the result
        return r;
      },
      [&] { return numeric_series::lnVar(numeric_series::fromNumeric(v), rscale); }, rscale);
}

// exp(exponent * ln(base)) for base > 0: the error of the product's absolute value
// becomes the relative error of the power.
Binary powerWithError(NumericRep base, const Binary& exponent, double* ulps) {
  double lnUlps = 0;
  Binary lnBase = lnWithError(base, &lnUlps);
  Binary product = exponent * lnBase;
  double e = std::fabs(static_cast<double>(exponent));
  *ulps = e * lnUlps + 3 * std::fabs(static_cast<double>(product)) + kFunctionUlps;
  return exp(product);
}

// power_var's real computation: exp(exponent * ln(base)), ln(base) and the product at
// `lnScale`, for base > 0.
Fixed powerSeries(NumericRep base, const Fixed& exponent, int lnScale, int rscale) {
  Fixed lnBase = numeric_series::lnVar(numeric_series::fromNumeric(base), lnScale);
  return numeric_series::expVar(numeric_series::multiply(lnBase, exponent, lnScale), rscale);
}

// power_var_int: base^n for an exponent that fits an int, at `rscale`. Exact integer
// arithmetic while the exact power stays short (PostgreSQL's products carry enough guard
// digits to round as the exact value does); beyond that the result is either out of range,
// zero at rscale, or a base close to 1, computed as exp(n * ln|base|).
NumericRep powerInteger(NumericRep base, int n, int rscale) {
  if (n == 0) return fromScaled(pow10(rscale), rscale);  // 0^0 too, as PostgreSQL
  cpp_int m = mantissaOf(base);
  if (m == 0) return zeroAtScale(rscale);  // 0^-n raised 2201F before
  int scale = numericScale(base);
  while (m % 10 == 0) {  // 2.0^50 is 2^50, not 20^50 at scale 50
    m /= 10;
    --scale;
  }
  bool negative = m < 0 && (n % 2 != 0);
  cpp_int magnitude = abs(m);
  unsigned count = static_cast<unsigned>(n < 0 ? -static_cast<long>(n) : n);
  long exactDigits = static_cast<long>(magnitude.str().size()) * count;
  if (exactDigits <= 4000) {
    cpp_int p = boost::multiprecision::pow(magnitude, count);
    long pscale = static_cast<long>(scale) * count;  // |base|^|n| = p * 10^-pscale
    cpp_int scaled;
    if (n > 0) {
      long shift = rscale - pscale;
      scaled = shift >= 0 ? cpp_int(p * pow10(static_cast<int>(shift)))
                          : roundedQuotient(p, pow10(static_cast<int>(-shift)));
    } else {
      // 10^pscale / p at rscale: round(10^(pscale + rscale) / p).
      long shift = pscale + rscale;
      scaled = shift >= 0 ? roundedQuotient(pow10(static_cast<int>(shift)), p)
                          : roundedQuotient(1, p * pow10(static_cast<int>(-shift)));
    }
    return fromScaled(negative ? cpp_int(-scaled) : scaled, rscale);
  }
  double log10Result = n * std::log10(std::fabs(toDouble(base)));
  if (log10Result > 40) raiseNumericOverflow();
  if (log10Result < -rscale - 2) return zeroAtScale(rscale);
  // A base close to 1: as exp(n * ln|base|), with ten more digits for n's own.
  NumericRep absBase = numericAbs(base);
  int lnScale = std::max(rscale + static_cast<int>(log10Result), 0) - estimateLnDweight(absBase) + 18;
  return computeRounded(
      [&](double* ulps) {
        Binary r = powerWithError(absBase, Binary(n), ulps);
        return negative ? Binary(-r) : r;
      },
      [&] {
        Fixed r = powerSeries(absBase, {n, 0}, lnScale, rscale);
        if (negative) r.mantissa = -r.mantissa;
        return r;
      },
      rscale);
}

}  // namespace

NumericRep numericExp(NumericRep v) {
  double val = toDouble(v);
  if (val >= kMaxResultScale * 3) raiseNumericOverflow();  // exp_var's guard
  double weight = std::clamp(val * kLog10E, -double(kMaxResultScale), double(kMaxResultScale));
  int rscale = clampScale(std::max(kMinSigDigits - static_cast<int>(weight), numericScale(v)));
  if (weight > 40) raiseNumericOverflow();  // at least 10^40: beyond any mantissa
  return computeRounded(
      [&](double* ulps) {
        *ulps = 2 * std::fabs(val) + kFunctionUlps;
        return Binary(exp(toBinary(v)));
      },
      [&] { return numeric_series::expVar(numeric_series::fromNumeric(v), rscale); }, rscale);
}

NumericRep numericLn(NumericRep v) {
  checkLogArgument(v);
  int rscale = clampScale(std::max(kMinSigDigits - estimateLnDweight(v), numericScale(v)));
  return lnAtScale(v, rscale);
}

NumericRep numericLog(NumericRep base, NumericRep v) {
  checkLogArgument(base);
  checkLogArgument(v);
  int baseDweight = estimateLnDweight(base), numDweight = estimateLnDweight(v);
  int resultDweight = numDweight - baseDweight;
  int rscale = clampScale(std::max({kMinSigDigits - resultDweight, numericScale(base), numericScale(v)}));
  if (numericCompare(base, makeNumeric(1, 0)) == 0) raiseDivisionByZero();  // ln(1) = 0
  if (numericCompare(v, makeNumeric(1, 0)) == 0) return zeroAtScale(rscale);
  return computeRounded(
      [&](double* ulps) {
        double numUlps = 0, baseUlps = 0;
        Binary lnNum = lnWithError(v, &numUlps);
        Binary lnBase = lnWithError(base, &baseUlps);
        *ulps = numUlps / std::fabs(static_cast<double>(lnNum)) + baseUlps / std::fabs(static_cast<double>(lnBase)) + 2;
        return Binary(lnNum / lnBase);
      },
      [&] {
        // log_var: each logarithm with more significant digits than the quotient needs.
        int baseScale = std::max(rscale + resultDweight - baseDweight + 8, 0);
        int numScale = std::max(rscale + resultDweight - numDweight + 8, 0);
        Fixed lnBase = numeric_series::lnVar(numeric_series::fromNumeric(base), baseScale);
        Fixed lnNum = numeric_series::lnVar(numeric_series::fromNumeric(v), numScale);
        return numeric_series::divide(lnNum, lnBase, rscale);
      },
      rscale);
}

NumericRep numericPower(NumericRep base, NumericRep exponent) {
  bool baseZero = numericMantissa(base) == 0;
  if (baseZero && numericMantissa(exponent) < 0)
    throw SqlError("2201F", "zero raised to a negative power is undefined");
  bool integral = isIntegral(exponent);
  cpp_int integer = integral ? cpp_int(mantissaOf(exponent) / pow10(numericScale(exponent))) : cpp_int(0);
  if (integral && integer >= INT32_MIN && integer <= INT32_MAX)
    return powerInteger(base, static_cast<int>(integer), clampScale(std::max(kMinSigDigits, numericScale(base))));
  if (baseZero) return zeroAtScale(kMinSigDigits);  // 0 to a positive non-integral power
  bool negative = false;
  if (numericMantissa(base) < 0) {
    if (!integral) throw SqlError("2201F", "a negative number raised to a non-integer power yields a complex result");
    negative = integer % 2 != 0;
    base = numericAbs(base);
  }
  // power_var: the result's decimal weight from exp * ln(base) at about 8 significant
  // digits, the scale of the real computation from that.
  int lnDweight = estimateLnDweight(base);
  int estimateScale = std::max(8 - lnDweight, 0);
  Fixed exp = numeric_series::fromNumeric(exponent);
  Fixed lnBase = numeric_series::lnVar(numeric_series::fromNumeric(base), estimateScale);
  double val = numeric_series::toDouble(numeric_series::multiply(lnBase, exp, estimateScale));
  if (std::fabs(val) > kMaxResultScale * 3.01) {
    if (val > 0) raiseNumericOverflow();
    return zeroAtScale(kMaxDisplayScale);  // a zero with 1000 decimals: 22003 here
  }
  val *= kLog10E;
  int rscale =
      clampScale(std::max({kMinSigDigits - static_cast<int>(val), numericScale(base), numericScale(exponent)}));
  if (val > 40) raiseNumericOverflow();
  int lnScale = std::max(std::max(rscale + static_cast<int>(val), 0) - lnDweight + 8, 0);
  return computeRounded(
      [&](double* ulps) {
        Binary r = powerWithError(base, toBinary(exponent), ulps);
        return negative ? Binary(-r) : r;
      },
      [&] {
        Fixed r = powerSeries(base, exp, lnScale, rscale);
        if (negative) r.mantissa = -r.mantissa;
        return r;
      },
      rscale);
}

}  // namespace duet
