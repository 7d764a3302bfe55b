#include "engine/storage/key_ops.h"

#include <cstdlib>
#include <cstring>
#include <new>

#include "engine/types/hash.h"
#include "engine/types/type_context.h"
#include "engine/types/value_io.h"

namespace duet {

int compareTuples(const TupleLayout& layout, const uint8_t* a, const uint8_t* b, uint32_t columns) {
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

uint8_t* copyKeyDeep(const TupleLayout& layout, const uint8_t* t) {
  auto varlena = [&](size_t c) -> const VarString* {
    if (t[c] || !isVarlenaType(layout.types[c].id)) return nullptr;
    const VarString* s;
    std::memcpy(&s, t + layout.offsets[c], sizeof s);
    return s;
  };
  auto padded = [](size_t n) { return (n + 15) & ~size_t{15}; };
  size_t bytes = layout.size;
  for (size_t c = 0; c < layout.types.size(); ++c)
    if (const VarString* s = varlena(c)) bytes += padded(sizeof(VarString) + s->len);
  auto* copy = static_cast<uint8_t*>(std::malloc(bytes));
  if (!copy) throw std::bad_alloc();
  std::memcpy(copy, t, layout.size);
  size_t at = layout.size;
  for (size_t c = 0; c < layout.types.size(); ++c) {
    const VarString* s = varlena(c);
    if (!s) continue;
    size_t n = sizeof(VarString) + s->len;
    std::memcpy(copy + at, s, n);
    const auto* moved = reinterpret_cast<const VarString*>(copy + at);
    std::memcpy(copy + layout.offsets[c], &moved, sizeof moved);
    at += padded(n);
  }
  return copy;
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
