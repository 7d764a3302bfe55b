// interval: PostgreSQL's representation (months, days and microseconds, kept apart because
// a month and a day have no fixed length), its text input (the postgres style, SQL
// standard 'Y-M' and 'D H:M:S' fields and ISO 8601 'P1Y2M3DT4H'), output in IntervalStyle
// postgres, the typmod (fields and precision), ordering and arithmetic.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/types/value.h"

namespace duet {

struct Interval {
  int32_t months = 0;
  int32_t days = 0;
  int64_t usecs = 0;
  bool operator==(const Interval&) const = default;
};

// The physical value: one __int128 (an LLVM i128, as numeric), microseconds in the low 64
// bits, then days, then months in the top 32 bits, so generated code carries an interval in
// a register and storage copies it as 16 bytes.
using IntervalRep = __int128;
inline IntervalRep packInterval(const Interval& v) {
  auto u = static_cast<unsigned __int128>(static_cast<uint64_t>(v.usecs));
  u |= static_cast<unsigned __int128>(static_cast<uint32_t>(v.days)) << 64;
  u |= static_cast<unsigned __int128>(static_cast<uint32_t>(v.months)) << 96;
  return static_cast<IntervalRep>(u);
}
inline Interval unpackInterval(IntervalRep r) {
  auto u = static_cast<unsigned __int128>(r);
  return {static_cast<int32_t>(static_cast<uint32_t>(u >> 96)), static_cast<int32_t>(static_cast<uint32_t>(u >> 64)),
          static_cast<int64_t>(static_cast<uint64_t>(u))};
}

// The interval typmod, as PostgreSQL encodes it: (range mask << 16) | precision, where
// the range mask has a bit per field (INTERVAL_MASK) and 0x7FFF is every field, 0xFFFF no
// precision.
namespace interval_field {
inline constexpr int kMonth = 1 << 1, kYear = 1 << 2, kDay = 1 << 3, kHour = 1 << 10, kMinute = 1 << 11,
                     kSecond = 1 << 12, kFullRange = 0x7FFF, kFullPrecision = 0xFFFF;
}
inline int32_t intervalTypmod(int range, int precision) { return (range << 16) | (precision & 0xFFFF); }
// " day to second(3)" and the like, as intervaltypmodout; "" for -1.
std::string intervalTypmodText(int32_t typmod);

// interval_in: 22007 invalid input syntax, 22015 interval field value out of range,
// 22008 interval out of range; the typmod's fields decide what a bare number means
// (interval '90' day) and its fields and precision are applied.
Interval parseInterval(std::string_view text, int32_t typmod = -1);
// AdjustIntervalForTypmod: zero the fields below the typmod's range, round the seconds.
Interval intervalApplyTypmod(Interval v, int32_t typmod);
// interval_out, IntervalStyle postgres: "1 year 2 mons 3 days 04:05:06.5".
void formatInterval(const Interval& v, std::string& out);

// interval_cmp: the total with 30-day months and 24-hour days, so '1 mon' = '30 days'.
__int128 intervalSpan(const Interval& v);
int intervalCompare(const Interval& a, const Interval& b);
uint64_t intervalHash(const Interval& v);

// Arithmetic with PostgreSQL's errors (22008 interval out of range, 22012 division by zero).
Interval intervalAdd(const Interval& a, const Interval& b);
Interval intervalSub(const Interval& a, const Interval& b);
Interval intervalNegate(const Interval& a);
Interval intervalMul(const Interval& a, double factor);
Interval intervalDiv(const Interval& a, double factor);
Interval justifyHours(const Interval& a);
Interval justifyDays(const Interval& a);
Interval justifyInterval(const Interval& a);

[[noreturn]] void raiseIntervalOutOfRange();

}  // namespace duet
