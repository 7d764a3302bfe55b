#include "engine/types/numeric_series.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

namespace duet::numeric_series {

namespace {

using boost::multiprecision::cpp_int;

cpp_int pow10(int n) { return boost::multiprecision::pow(cpp_int(10), static_cast<unsigned>(n)); }

// a / b rounded half away from zero, b > 0.
cpp_int roundedQuotient(const cpp_int& a, const cpp_int& b) {
  cpp_int q = (2 * abs(a) + b) / (2 * b);
  return a < 0 ? cpp_int(-q) : q;
}

Fixed integer(int v) { return {cpp_int(v), 0}; }

// Both at the larger scale, exactly.
std::pair<cpp_int, cpp_int> aligned(const Fixed& a, const Fixed& b, int* scale) {
  *scale = std::max(a.scale, b.scale);
  return {a.mantissa * pow10(*scale - a.scale), b.mantissa * pow10(*scale - b.scale)};
}

Fixed add(const Fixed& a, const Fixed& b) {
  int scale;
  auto [x, y] = aligned(a, b, &scale);
  return {x + y, scale};
}

Fixed subtract(const Fixed& a, const Fixed& b) {
  int scale;
  auto [x, y] = aligned(a, b, &scale);
  return {x - y, scale};
}

int compare(const Fixed& a, const Fixed& b) {
  int scale;
  auto [x, y] = aligned(a, b, &scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

// PostgreSQL's weight: the power of 10000 of the first base-10000 digit (0 for zero).
int weight(const Fixed& v) {
  if (v.mantissa == 0) return 0;
  int leading = static_cast<int>(cpp_int(abs(v.mantissa)).str().size()) - 1 - v.scale;
  return leading >= 0 ? leading / 4 : -((-leading + 3) / 4);
}

// sqrt_var: the square root of x >= 0 at `rscale` (which may be negative), rounded.
Fixed squareRoot(const Fixed& x, int rscale) {
  // floor(x * 10^(2 rscale + 2)): its integer root has the one digit more that rounding
  // needs (flooring x first changes no digit of the root).
  int shift = 2 * rscale + 2 - x.scale;
  cpp_int scaled = shift >= 0 ? cpp_int(x.mantissa * pow10(shift)) : cpp_int(x.mantissa / pow10(-shift));
  cpp_int root = boost::multiprecision::sqrt(scaled);
  return {(root + 5) / 10, rscale};
}

}  // namespace

Fixed fromNumeric(NumericRep v) {
  __int128 m = numericMantissa(v);
  unsigned __int128 mag = m < 0 ? 0 - static_cast<unsigned __int128>(m) : static_cast<unsigned __int128>(m);
  cpp_int r = cpp_int(static_cast<uint64_t>(mag >> 64)) << 64 | cpp_int(static_cast<uint64_t>(mag));
  return {m < 0 ? cpp_int(-r) : r, numericScale(v)};
}

Fixed roundTo(const Fixed& v, int scale) {
  if (scale >= v.scale) return {v.mantissa * pow10(scale - v.scale), scale};
  return {roundedQuotient(v.mantissa, pow10(v.scale - scale)), scale};
}

Fixed multiply(const Fixed& a, const Fixed& b, int rscale) {
  return roundTo({a.mantissa * b.mantissa, a.scale + b.scale}, rscale);
}

Fixed divide(const Fixed& a, const Fixed& b, int rscale) {
  // a / b * 10^rscale = a.m * 10^(rscale - a.scale + b.scale) / b.m
  cpp_int numerator = b.mantissa < 0 ? cpp_int(-a.mantissa) : a.mantissa;
  cpp_int denominator = abs(b.mantissa);
  int shift = rscale - a.scale + b.scale;
  if (shift >= 0) return {roundedQuotient(numerator * pow10(shift), denominator), rscale};
  return {roundedQuotient(numerator, denominator * pow10(-shift)), rscale};
}

double toDouble(const Fixed& v) {
  std::string digits = cpp_int(abs(v.mantissa)).str();
  if (v.scale < 0) {
    digits.append(-v.scale, '0');
  } else if (v.scale > 0) {
    if (static_cast<int>(digits.size()) <= v.scale) digits.insert(0, v.scale + 1 - digits.size(), '0');
    digits.insert(digits.size() - v.scale, ".");
  }
  if (v.mantissa < 0) digits.insert(0, "-");
  return std::strtod(digits.c_str(), nullptr);
}

Fixed lnVar(const Fixed& arg, int rscale) {
  Fixed x = arg;
  Fixed fact = integer(2);
  // Square roots until 0.9 < x < 1.1, each keeping about rscale + 8 significant digits.
  int nsqrt = 0;
  const Fixed nineTenths{9, 1}, elevenTenths{11, 1};
  while (compare(x, nineTenths) <= 0 || compare(x, elevenTenths) >= 0) {
    x = squareRoot(x, rscale - weight(x) * 4 / 2 + 8);
    fact = multiply(fact, integer(2), 0);
    ++nsqrt;
  }
  // z + z^3/3 + z^5/5 + ... with z = (x - 1) / (x + 1), times 2^(nsqrt + 1).
  int local = rscale + static_cast<int>((nsqrt + 1) * 0.301029995663981) + 8;
  Fixed result = divide(subtract(x, integer(1)), add(x, integer(1)), local);
  Fixed power = result;
  Fixed square = multiply(result, result, local);
  for (int n = 3;; n += 2) {
    power = multiply(power, square, local);
    Fixed term = divide(power, integer(n), local);
    if (term.mantissa == 0) break;
    result = add(result, term);
    if (weight(term) < weight(result) - local * 2 / 4) break;
  }
  return multiply(result, fact, rscale);
}

Fixed expVar(const Fixed& arg, int rscale) {
  Fixed x = arg;
  double val = toDouble(x);
  int dweight = static_cast<int>(val * 0.434294481903252);
  // Halve x until |x| <= 0.01, square the result as often afterwards.
  int ndiv2 = 0;
  if (std::fabs(val) > 0.01) {
    ndiv2 = 1;
    val /= 2;
    while (std::fabs(val) > 0.01) {
      ++ndiv2;
      val /= 2;
    }
    x = divide(x, integer(1 << ndiv2), x.scale + ndiv2);
  }
  int sigDigits = std::max(1 + dweight + rscale + static_cast<int>(ndiv2 * 0.301029995663981), 0) + 8;
  int local = sigDigits - 1;
  // 1 + x + x^2/2! + ... until a term rounds to zero at `local`.
  Fixed result = add(integer(1), x);
  Fixed term = divide(multiply(x, x, local), integer(2), local);
  for (int n = 3; term.mantissa != 0; ++n) {
    result = add(result, term);
    term = divide(multiply(term, x, local), integer(n), local);
  }
  while (ndiv2-- > 0) result = multiply(result, result, std::max(sigDigits - weight(result) * 2 * 4, 0));
  return roundTo(result, rscale);
}

}  // namespace duet::numeric_series
