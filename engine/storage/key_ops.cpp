#include "engine/storage/key_ops.h"

#include <cstring>

#include "engine/types/hash.h"
#include "engine/types/type_context.h"
#include "engine/types/value_io.h"

namespace duet {

int compareTuples(const TupleLayout& layout, const uint8_t* a, const uint8_t* b,
                  uint32_t columns) {
  for (uint32_t c = 0; c < columns; ++c) {
    bool an = a[c] != 0, bn = b[c] != 0;
    if (an || bn) {
      if (an != bn) return an ? 1 : -1;
      continue;
    }
    uint32_t off = layout.offsets[c];
    int r = compareValues(layout.types[c], a + off, b + off);
    if (r) return r < 0 ? -1 : 1;
  }
  return 0;
}

bool isIntegerLike(TypeId t) {
  switch (t) {
    case TypeId::Bool:
    case TypeId::Int2:
    case TypeId::Int4:
    case TypeId::Int8:
    case TypeId::Date:
    case TypeId::Timestamp:
    case TypeId::TimestampTz: return true;
    default: return false;
  }
}

int64_t loadIntegerLike(TypeId t, const uint8_t* p) {
  switch (physicalSize(t)) {
    case 1: return static_cast<int8_t>(*p);
    case 2: { int16_t v; std::memcpy(&v, p, 2); return v; }
    case 4: { int32_t v; std::memcpy(&v, p, 4); return v; }
    default: { int64_t v; std::memcpy(&v, p, 8); return v; }
  }
}

bool tupleHasNull(const TupleLayout& layout, const uint8_t* t) {
  for (size_t c = 0; c < layout.types.size(); ++c)
    if (t[c]) return true;
  return false;
}

uint64_t hashTuple(const TupleLayout& layout, const uint8_t* t) {
  uint64_t h = 0x9e3779b97f4a7c15ULL;
  for (size_t c = 0; c < layout.types.size(); ++c) {
    uint64_t f = t[c] ? 0x5bd1e995ULL : hashValue(layout.types[c], t + layout.offsets[c]);
    h = hashMix64(h ^ f) + c;
  }
  return h;
}

std::string formatTuple(const TupleLayout& layout, const uint8_t* t) {
  // Error details print timestamptz in UTC: storage does not know the session's zone.
  static const TypeContext utc;
  std::string out;
  for (size_t c = 0; c < layout.types.size(); ++c) {
    if (c) out += ", ";
    if (t[c]) {
      out += "null";
    } else {
      formatText(layout.types[c], t + layout.offsets[c], out, utc);
    }
  }
  return out;
}

}  // namespace duet
