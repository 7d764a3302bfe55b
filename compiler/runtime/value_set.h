// The values of a list that stays the same for a whole execution - `x IN (c1, ..., cN)`
// over constants or parameters, `x = ANY (array)` over a constant or parameter array, the
// arms of `CASE x WHEN c1 THEN ...` - as data: built once per execution, sorted with the
// type's comparison (value_io.h's compareValues, SQL equality), then each probe is a
// binary search instead of a comparison per item.
#pragma once
#include <cstdint>

#include "engine/limits/statement_memory.h"
#include "engine/types/type_id.h"
#include "engine/types/value.h"

namespace duet::rt {

class ValueSet {
 public:
  explicit ValueSet(SqlType type) : type_(type) {}
  // Starts over (the set is refilled for each execution of its statement).
  void clear();
  // Item number `position` (the order of the list): `value` is its physical
  // representation (value.h); a string's bytes are copied. Items are added in order.
  void add(const void* value);
  void addNull();
  // Sorts; among equal items the first one's position is kept.
  void finish();
  // The position of the first item equal to `value`, or -1.
  int64_t find(const void* value) const;
  // x IN (items) / x = ANY (items) with PostgreSQL's NULLs: 1 (true) when x equals an item;
  // 0 (false) when it equals none and no item is NULL, or when there are no items at all;
  // 2 (NULL) otherwise (x NULL, or not found among items of which one is NULL).
  int32_t probe(const void* value, bool valueNull) const;
  // After finish: the distinct items other than NULL, in sorted order (an index probes
  // each, for `key = ANY (array)`).
  int64_t distinctCount() const { return static_cast<int64_t>(entries_.size()); }
  const void* distinctValue(int64_t i) const { return entries_[static_cast<size_t>(i)].value; }

 private:
  struct Entry {
    alignas(16) unsigned char value[16];
    int64_t position;
  };
  SqlType type_;
  StatementVector<Entry> entries_;
  int64_t items_ = 0;
  bool hasNull_ = false;
  Arena strings_;
};

}  // namespace duet::rt
