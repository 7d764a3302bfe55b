// PostgreSQL 15's ln_var and exp_var (numeric.c) on exact decimal fixed-point numbers: the
// same range reductions, Taylor series and working scales, each step rounded half away
// from zero where numeric.c rounds (its mul_var, div_var and sqrt_var round at the scale
// they are given; they are taken as exact before that rounding). Their results carry
// PostgreSQL's own errors a few digits past the result scale, so rounding them at the
// result scale gives PostgreSQL's last digit even where the exact value is within those
// errors of a tie (power(1.0000000000000000000353, 1.5) is ...0529 there, not the
// correctly rounded ...0530). numeric_transcendental.cpp uses them when a faster
// computation cannot tell which way PostgreSQL rounds.
#pragma once
#include <boost/multiprecision/cpp_int.hpp>

#include "engine/types/value.h"

namespace duet::numeric_series {

// mantissa * 10^-scale; the scale may be negative (ln_var rounds before the decimal point
// while it reduces a large argument).
struct Fixed {
  boost::multiprecision::cpp_int mantissa;
  int scale = 0;
};

Fixed fromNumeric(NumericRep v);
// Half away from zero at `scale` decimals.
Fixed roundTo(const Fixed& v, int scale);
Fixed multiply(const Fixed& a, const Fixed& b, int rscale);
Fixed divide(const Fixed& a, const Fixed& b, int rscale);  // b not zero
// The value as numericvar_to_double_no_overflow reads it (printed, then strtod).
double toDouble(const Fixed& v);

// ln_var for x > 0 and exp_var, at `rscale`. exp_var's argument must be below 6000 in
// magnitude (its callers check numeric.c's overflow guards first).
Fixed lnVar(const Fixed& x, int rscale);
Fixed expVar(const Fixed& x, int rscale);

}  // namespace duet::numeric_series
