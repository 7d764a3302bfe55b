// Storage's minimal value comparison/hash/format on physical representations (see key_ops.h
// for why this exists and what should replace it).
#include "engine/storage/key_ops.h"

#include <fmt/format.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <string_view>

#include "engine/types/value.h"

namespace duet {
namespace {

template <typename T>
T load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

template <typename T>
int cmp3(T a, T b) {
  return a < b ? -1 : (a > b ? 1 : 0);
}

// PostgreSQL float order: NaN equals NaN and sorts above everything; -0 equals 0.
template <typename F>
int compareFloat(F a, F b) {
  bool an = std::isnan(a), bn = std::isnan(b);
  if (an || bn) return an == bn ? 0 : (an ? 1 : -1);
  return cmp3(a, b);
}

std::string_view stringOf(TypeId t, const uint8_t* p) {
  auto* s = load<const VarString*>(p);
  std::string_view v = s->view();
  if (t == TypeId::Char) {  // bpchar comparisons ignore trailing blanks
    while (!v.empty() && v.back() == ' ') v.remove_suffix(1);
  }
  return v;
}

// numeric with trailing zeros of the mantissa removed, so equal values have equal reps.
void normalizeNumeric(NumericRep v, __int128& mantissa, int& scale) {
  mantissa = numericMantissa(v);
  scale = numericScale(v);
  if (mantissa == 0) {
    scale = 0;
    return;
  }
  while (scale > 0 && mantissa % 10 == 0) {
    mantissa /= 10;
    --scale;
  }
}

int compareNumeric(NumericRep a, NumericRep b) {
  __int128 ma, mb;
  int sa, sb;
  normalizeNumeric(a, ma, sa);
  normalizeNumeric(b, mb, sb);
  // Bring the smaller scale up to the larger; if that overflows, its magnitude exceeds
  // anything the other side can hold, so its sign decides.
  bool swapped = false;
  if (sa > sb) {
    std::swap(ma, mb);
    std::swap(sa, sb);
    swapped = true;
  }
  int r;
  __int128 scaled = ma;
  bool overflow = false;
  for (int i = sa; i < sb && !overflow; ++i) overflow = __builtin_mul_overflow(scaled, 10, &scaled);
  if (overflow) r = ma < 0 ? -1 : 1;
  else r = cmp3(scaled, mb);
  return swapped ? -r : r;
}

// days since 2000-01-01 -> civil date (Howard Hinnant's algorithm, days from 1970).
void civilFromDays(int64_t z, int64_t& y, unsigned& m, unsigned& d) {
  z += 10957 + 719468;
  int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  unsigned doe = static_cast<unsigned>(z - era * 146097);
  unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  y = static_cast<int64_t>(yoe) + era * 400;
  unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  unsigned mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp < 10 ? mp + 3 : mp - 9;
  if (m <= 2) ++y;
}

std::string formatDate(int64_t days) {
  int64_t y;
  unsigned m, d;
  civilFromDays(days, y, m, d);
  if (y <= 0) return fmt::format("{:04}-{:02}-{:02} BC", 1 - y, m, d);
  return fmt::format("{:04}-{:02}-{:02}", y, m, d);
}

std::string formatTimestamp(int64_t us) {
  int64_t day = us >= 0 ? us / 86400000000 : -((-us + 86399999999) / 86400000000);
  int64_t rem = us - day * 86400000000;
  std::string date = formatDate(day);
  std::string bc;
  if (date.size() > 3 && date.compare(date.size() - 3, 3, " BC") == 0) {
    bc = " BC";
    date.resize(date.size() - 3);
  }
  int64_t secs = rem / 1000000, frac = rem % 1000000;
  std::string out = fmt::format("{} {:02}:{:02}:{:02}", date, secs / 3600, secs / 60 % 60, secs % 60);
  if (frac) {
    std::string f = fmt::format("{:06}", frac);
    while (f.back() == '0') f.pop_back();
    out += "." + f;
  }
  return out + bc;
}

std::string formatInt128(__int128 v) {
  if (v == 0) return "0";
  bool neg = v < 0;
  unsigned __int128 u = neg ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  std::string s;
  while (u) {
    s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  }
  return neg ? "-" + s : s;
}

std::string formatNumeric(NumericRep v) {
  __int128 m = numericMantissa(v);
  int scale = numericScale(v);
  std::string digits = formatInt128(m < 0 ? -m : m);
  if (scale > 0) {
    if (digits.size() <= static_cast<size_t>(scale)) digits.insert(0, scale + 1 - digits.size(), '0');
    digits.insert(digits.size() - scale, ".");
  }
  return m < 0 ? "-" + digits : digits;
}

template <typename F>
std::string formatFloat(F v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  return fmt::format("{}", v);
}

}  // namespace

uint64_t mixHash(uint64_t x) {  // murmur3 finalizer
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

int compareField(TypeId t, const uint8_t* a, const uint8_t* b) {
  switch (t) {
    case TypeId::Bool: return cmp3(load<uint8_t>(a), load<uint8_t>(b));
    case TypeId::Int2: return cmp3(load<int16_t>(a), load<int16_t>(b));
    case TypeId::Int4:
    case TypeId::Date: return cmp3(load<int32_t>(a), load<int32_t>(b));
    case TypeId::Int8:
    case TypeId::Timestamp:
    case TypeId::TimestampTz: return cmp3(load<int64_t>(a), load<int64_t>(b));
    case TypeId::Float4: return compareFloat(load<float>(a), load<float>(b));
    case TypeId::Float8: return compareFloat(load<double>(a), load<double>(b));
    case TypeId::Numeric: return compareNumeric(load<NumericRep>(a), load<NumericRep>(b));
    case TypeId::Char:
    case TypeId::Varchar:
    case TypeId::Text:
    case TypeId::Unknown: {
      int c = stringOf(t, a).compare(stringOf(t, b));  // bytewise (C collation)
      return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
  }
  return 0;
}

uint64_t hashField(TypeId t, const uint8_t* v) {
  switch (t) {
    case TypeId::Bool: return mixHash(load<uint8_t>(v));
    case TypeId::Int2: return mixHash(static_cast<uint64_t>(load<int16_t>(v)));
    case TypeId::Int4:
    case TypeId::Date: return mixHash(static_cast<uint64_t>(load<int32_t>(v)));
    case TypeId::Int8:
    case TypeId::Timestamp:
    case TypeId::TimestampTz: return mixHash(static_cast<uint64_t>(load<int64_t>(v)));
    case TypeId::Float4:
    case TypeId::Float8: {
      double d = t == TypeId::Float4 ? load<float>(v) : load<double>(v);
      if (std::isnan(d)) return mixHash(0x7ff8000000000000ULL);
      if (d == 0) d = 0;  // -0.0 hashes as 0.0
      return mixHash(std::bit_cast<uint64_t>(d));
    }
    case TypeId::Numeric: {
      __int128 m;
      int s;
      normalizeNumeric(load<NumericRep>(v), m, s);
      auto u = static_cast<unsigned __int128>(m);
      return mixHash(static_cast<uint64_t>(u) ^ mixHash(static_cast<uint64_t>(u >> 64) + s));
    }
    case TypeId::Char:
    case TypeId::Varchar:
    case TypeId::Text:
    case TypeId::Unknown: {
      std::string_view s = stringOf(t, v);
      uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a, finished with the mixer
      for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ULL;
      return mixHash(h ^ s.size());
    }
  }
  return 0;
}

std::string formatField(TypeId t, const uint8_t* v) {
  switch (t) {
    case TypeId::Bool: return load<uint8_t>(v) ? "t" : "f";
    case TypeId::Int2: return std::to_string(load<int16_t>(v));
    case TypeId::Int4: return std::to_string(load<int32_t>(v));
    case TypeId::Int8: return std::to_string(load<int64_t>(v));
    case TypeId::Float4: return formatFloat(load<float>(v));
    case TypeId::Float8: return formatFloat(load<double>(v));
    case TypeId::Numeric: return formatNumeric(load<NumericRep>(v));
    case TypeId::Date: return formatDate(load<int32_t>(v));
    case TypeId::Timestamp: return formatTimestamp(load<int64_t>(v));
    case TypeId::TimestampTz: return formatTimestamp(load<int64_t>(v)) + "+00";
    case TypeId::Char:
    case TypeId::Varchar:
    case TypeId::Text:
    case TypeId::Unknown: return std::string(load<const VarString*>(v)->view());
  }
  return {};
}

int compareTuples(const TupleLayout& layout, const uint8_t* a, const uint8_t* b,
                  uint32_t columns) {
  for (uint32_t c = 0; c < columns; ++c) {
    bool an = a[c] != 0, bn = b[c] != 0;
    if (an || bn) {
      if (an != bn) return an ? 1 : -1;
      continue;
    }
    uint32_t off = layout.offsets[c];
    int r = compareField(layout.types[c].id, a + off, b + off);
    if (r) return r;
  }
  return 0;
}

bool tupleHasNull(const TupleLayout& layout, const uint8_t* t) {
  for (size_t c = 0; c < layout.types.size(); ++c)
    if (t[c]) return true;
  return false;
}

uint64_t hashTuple(const TupleLayout& layout, const uint8_t* t) {
  uint64_t h = 0x9e3779b97f4a7c15ULL;
  for (size_t c = 0; c < layout.types.size(); ++c) {
    uint64_t f = t[c] ? 0x5bd1e995ULL : hashField(layout.types[c].id, t + layout.offsets[c]);
    h = mixHash(h ^ f) + c;
  }
  return h;
}

std::string formatTuple(const TupleLayout& layout, const uint8_t* t) {
  std::string out;
  for (size_t c = 0; c < layout.types.size(); ++c) {
    if (c) out += ", ";
    out += t[c] ? "null" : formatField(layout.types[c].id, t + layout.offsets[c]);
  }
  return out;
}

}  // namespace duet
