// Whole-tuple comparison, hashing and formatting for indexes, constraint messages and the
// query runtime's hash tables. Per-value semantics come from engine/types (compareValues,
// hashValue, formatText), so index order and SQL comparison cannot disagree.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>

#include "engine/storage/layout.h"

namespace duet {

// Tuples in one layout, over the first `columns` columns. NULL sorts after every value
// (PostgreSQL's default NULLS LAST for ascending indexes); two NULLs compare equal here.
int compareTuples(const TupleLayout& layout, const uint8_t* a, const uint8_t* b, uint32_t columns);
bool tupleHasNull(const TupleLayout& layout, const uint8_t* t);
// Consistent with compareTuples == 0 over all columns.
uint64_t hashTuple(const TupleLayout& layout, const uint8_t* t);
// Types stored as a signed integer of physicalSize bytes that orders as that integer (bool,
// int2/4/8, date, timestamp[tz]): index keys of these pack into machine words.
bool isIntegerLike(TypeId t);
// Inline: index key packing calls it per key column.
inline int64_t loadIntegerLike(TypeId t, const uint8_t* p) {
  switch (physicalSize(t)) {
    case 1: return static_cast<int8_t>(*p);
    case 2: {
      int16_t v;
      std::memcpy(&v, p, 2);
      return v;
    }
    case 4: {
      int32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    default: {
      int64_t v;
      std::memcpy(&v, p, 8);
      return v;
    }
  }
}
// A malloc'd copy of a tuple that owns copies of its strings and arrays too (one block,
// free() releases it): for keys that must outlive the rows they came from.
uint8_t* copyKeyDeep(const TupleLayout& layout, const uint8_t* t);
// "1, null, abc": the comma-separated values of a tuple, as in error details.
std::string formatTuple(const TupleLayout& layout, const uint8_t* t);

}  // namespace duet
