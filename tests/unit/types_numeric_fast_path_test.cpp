// numericAdd / numericSub / numericMul / numericApplyTypmod take an inline fast path for the
// common cases and the general one otherwise: over many values, boundaries and overflows
// included, both must give the same representation (so the same display scale) or the
// same error. formatNumeric prints the digits above 64 bits apart from the rest.
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

#include "engine/error.h"
#include "engine/types/numeric.h"
#include "engine/types/type_id.h"

using namespace duet;

namespace {

constexpr __int128 kMaxMantissa = (static_cast<__int128>(1) << 119) - 1;

// The result as text and its display scale, or "SQLSTATE: message / detail".
template <typename F>
std::string outcome(F&& f) {
  try {
    NumericRep r = f();
    return numericToString(r) + " scale " + std::to_string(numericScale(r));
  } catch (const SqlError& e) {
    return e.code + ": " + e.what() + " / " + e.detail;
  }
}

// Mantissas around the limits each path has: zero, small amounts, int64 and the int64
// product limit, and the format's own limit of 2^119 - 1.
std::vector<__int128> edgeMantissas() {
  std::vector<__int128> out;
  const __int128 bases[] = {0,
                            1,
                            99,
                            12345,
                            (static_cast<__int128>(1) << 31),
                            3037000499,  // floor(sqrt(2^63 - 1))
                            3037000500,
                            (static_cast<__int128>(1) << 62),
                            INT64_MAX,
                            static_cast<__int128>(INT64_MAX) + 1,
                            static_cast<__int128>(1000000000000000000) * 10,
                            kMaxMantissa / 2,
                            kMaxMantissa - 1,
                            kMaxMantissa};
  for (__int128 b : bases) {
    for (__int128 m : {b - 1, b, b + 1}) {
      if (m < 0 || m > kMaxMantissa) continue;
      out.push_back(m);
      out.push_back(-m);
    }
  }
  return out;
}

// Mostly small values at a few scales, as money amounts are, with some anywhere in range.
NumericRep randomNumeric(std::mt19937_64& rng) {
  static const int kScales[] = {0, 0, 1, 2, 2, 2, 4, 6, 18, 254, 255};
  int scale = kScales[rng() % std::size(kScales)];
  __int128 m;
  switch (rng() % 4) {
    case 0: m = static_cast<__int128>(rng() % 100000); break;
    case 1: m = static_cast<__int128>(rng() >> (rng() % 64)); break;
    case 2: m = (static_cast<__int128>(rng()) << 64 | rng()) >> (9 + rng() % 100); break;
    default: m = edgeMantissas()[rng() % edgeMantissas().size()]; break;
  }
  if (m > kMaxMantissa) m = kMaxMantissa;
  return makeNumeric(rng() % 2 ? -m : m, scale);
}

std::vector<NumericRep> edgeValues() {
  std::vector<NumericRep> out;
  for (__int128 m : edgeMantissas()) {
    for (int scale : {0, 2, 4, 200, 255}) out.push_back(makeNumeric(m, scale));
  }
  return out;
}

}  // namespace

TEST_CASE("numeric fast paths agree with the general arithmetic", "[types][numeric]") {
  auto check = [](NumericRep a, NumericRep b) {
    INFO(numericToString(a) << " (scale " << numericScale(a) << ") and " << numericToString(b) << " (scale "
                            << numericScale(b) << ")");
    CHECK(outcome([&] { return numericAdd(a, b); }) == outcome([&] { return numericAddGeneral(a, b); }));
    CHECK(outcome([&] { return numericSub(a, b); }) == outcome([&] { return numericSubGeneral(a, b); }));
    CHECK(outcome([&] { return numericMul(a, b); }) == outcome([&] { return numericMulGeneral(a, b); }));
  };
  std::vector<NumericRep> edges = edgeValues();
  for (NumericRep a : edges) {
    for (NumericRep b : edges) check(a, b);
  }
  std::mt19937_64 rng(11);
  for (int i = 0; i < 100000; ++i) check(randomNumeric(rng), randomNumeric(rng));
}

TEST_CASE("numeric fast paths raise PostgreSQL's overflow", "[types][numeric]") {
  NumericRep max = makeNumeric(kMaxMantissa, 2), one = makeNumeric(1, 2);
  const std::string overflow = "22003: value overflows numeric format / ";
  CHECK(outcome([&] { return numericAdd(max, one); }) == overflow);
  CHECK(outcome([&] { return numericSub(numericNeg(max), one); }) == overflow);
  CHECK(outcome([&] { return numericAdd(numericNeg(max), numericNeg(one)); }) == overflow);
  CHECK(outcome([&] { return numericSub(max, numericNeg(max)); }) == overflow);
  CHECK(outcome([&] { return numericMul(makeNumeric(1, 200), makeNumeric(1, 56)); }) == overflow);
  CHECK(outcome([&] { return numericMul(max, makeNumeric(2, 0)); }) == overflow);
  // The largest sums that still fit.
  CHECK(numericAdd(makeNumeric(kMaxMantissa - 1, 2), one) == max);
  CHECK(numericSub(makeNumeric(1 - kMaxMantissa, 2), one) == numericNeg(max));
  CHECK(numericMul(makeNumeric(INT64_MAX, 1), makeNumeric(-1, 1)) == makeNumeric(-static_cast<__int128>(INT64_MAX), 2));
  CHECK(numericMul(makeNumeric(INT64_MAX, 0), makeNumeric(2, 0)) ==
        makeNumeric(static_cast<__int128>(INT64_MAX) * 2, 0));
  // A zero product and sum are plain zeros at the result's scale.
  CHECK(numericToString(numericMul(makeNumeric(-5, 2), makeNumeric(0, 1))) == "0.000");
  CHECK(numericToString(numericAdd(makeNumeric(-5, 2), makeNumeric(5, 2))) == "0.00");
}

TEST_CASE("numeric typmod fast path agrees with the general coercion", "[types][numeric]") {
  std::vector<int32_t> typmods;
  for (int precision : {1, 2, 5, 6, 12, 17, 18, 19, 20, 38, 39, 1000}) {
    for (int scale : {0, 1, 2, 4, 18, 19, 255}) {
      if (scale <= precision) typmods.push_back(SqlType::numeric(precision, scale).typmod);
    }
  }
  typmods.push_back(-1);
  auto check = [](NumericRep v, int32_t typmod) {
    INFO(numericToString(v) << " (scale " << numericScale(v) << ") typmod " << typmod);
    CHECK(outcome([&] { return numericApplyTypmod(v, typmod); }) ==
          outcome([&] { return numericApplyTypmodGeneral(v, typmod); }));
  };
  for (NumericRep v : edgeValues()) {
    for (int32_t t : typmods) check(v, t);
  }
  // Either side of 10^precision at the target scale, where the fast path's check lies.
  for (int precision = 1; precision <= 20; ++precision) {
    for (int scale : {0, 2}) {
      if (scale > precision) continue;
      __int128 limit = 1;
      for (int i = 0; i < precision; ++i) limit *= 10;
      for (__int128 m : {limit - 1, limit, limit + 1}) {
        for (__int128 signed_m : {m, -m})
          check(makeNumeric(signed_m, scale), SqlType::numeric(precision, scale).typmod);
      }
    }
  }
  std::mt19937_64 rng(12);
  for (int i = 0; i < 100000; ++i) check(randomNumeric(rng), typmods[rng() % typmods.size()]);
}

TEST_CASE("formatNumeric prints values either side of 64 bits", "[types][numeric]") {
  CHECK(numericToString(makeNumeric(static_cast<__int128>(UINT64_MAX), 0)) == "18446744073709551615");
  CHECK(numericToString(makeNumeric(static_cast<__int128>(UINT64_MAX) + 1, 0)) == "18446744073709551616");
  CHECK(numericToString(makeNumeric(-static_cast<__int128>(UINT64_MAX) - 1, 3)) == "-18446744073709551.616");
  CHECK(numericToString(makeNumeric(kMaxMantissa, 0)) == "664613997892457936451903530140172287");
  CHECK(numericToString(makeNumeric(-kMaxMantissa, 40)) == "-0.0000664613997892457936451903530140172287");
  CHECK(numericToString(makeNumeric(0, 2)) == "0.00");
  CHECK(numericToString(makeNumeric(-7, 3)) == "-0.007");
  std::mt19937_64 rng(13);
  for (int i = 0; i < 100000; ++i) {
    NumericRep v = randomNumeric(rng);
    INFO(numericToString(v));
    CHECK(parseNumeric(numericToString(v)) == v);
  }
}

TEST_CASE("numericRescaleUp writes a value with more decimals, or leaves it", "[types][numeric]") {
  CHECK(numericRescaleUp(makeNumeric(24, 0), 2) == makeNumeric(2400, 2));
  CHECK(numericRescaleUp(makeNumeric(-15, 1), 4) == makeNumeric(-15000, 4));
  CHECK(numericRescaleUp(makeNumeric(0, 0), 3) == makeNumeric(0, 3));
  // Already as many decimals or more, or no room left in the mantissa: unchanged.
  CHECK(numericRescaleUp(makeNumeric(125, 3), 2) == makeNumeric(125, 3));
  CHECK(numericRescaleUp(makeNumeric(125, 2), 2) == makeNumeric(125, 2));
  CHECK(numericRescaleUp(makeNumeric(kMaxMantissa, 0), 1) == makeNumeric(kMaxMantissa, 0));
  CHECK(numericRescaleUp(makeNumeric(-kMaxMantissa / 10, 0), 1) == makeNumeric(-(kMaxMantissa / 10) * 10, 1));
  CHECK(numericRescaleUp(makeNumeric(1, 0), 40) == makeNumeric(1, 0));   // 10^40 leaves 128 bits
  CHECK(numericRescaleUp(makeNumeric(1, 0), 300) == makeNumeric(1, 0));  // past the scale limit
  std::mt19937_64 rng(17);
  for (int i = 0; i < 100000; ++i) {
    NumericRep v = randomNumeric(rng);
    int scale = static_cast<int>(rng() % 40);
    NumericRep r = numericRescaleUp(v, scale);
    INFO(numericToString(v) << " to scale " << scale);
    CHECK(numericCompare(r, v) == 0);
    CHECK((r == v || numericScale(r) == scale));
  }
}
