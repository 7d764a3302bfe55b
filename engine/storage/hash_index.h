// The unique hash index behind PRIMARY KEY and UNIQUE constraints: open addressing with
// linear probing and backward-shift deletion (no tombstones, so a steady insert/delete
// workload does not degrade it). Keys whose columns are all integer-like and fit in 128
// bits are packed into one integer and compared without touching key bytes (pgbench and
// TPC-C keys); other keys keep a copy of the key tuple and compare field by field.
// Rows with a NULL key column are not entered: NULLs never conflict and never match.
#pragma once
#include <memory>

#include "engine/storage/index.h"

namespace duet {

class HashIndex final : public Index {
 public:
  HashIndex(std::string name, std::vector<uint32_t> columns, TupleLayout keyLayout);
  ~HashIndex() override;

  RowId find(const uint8_t* key) const override;
  size_t size() const override { return count_; }
  void insert(const uint8_t* key, RowId row) override;
  bool insertUnique(const uint8_t* key, RowId row) override;
  void remove(const uint8_t* key, RowId row) override;
  void clear() override;

  // Whether keys are packed integers; and then, for a single-column key, the lookup of one
  // integer value without building a key tuple.
  bool packed() const { return packed_; }
  bool singleInteger() const { return packed_ && keyLayout().types.size() == 1; }
  RowId findInteger(int64_t value) const;

 private:
  using Packed = unsigned __int128;
  struct Slot {
    Packed packed;  // packed mode: the key; generic mode: the hash in the low 64 bits
    RowId row;      // kNoRow: empty
    uint8_t* key;   // generic mode: malloc'd copy of the key tuple
  };

  Packed pack(const uint8_t* key) const;
  static uint64_t hashPacked(Packed p) {
    return mixHash64(static_cast<uint64_t>(p) ^ mixHash64(static_cast<uint64_t>(p >> 64)));
  }
  static uint64_t mixHash64(uint64_t x);
  uint64_t slotHash(const Slot& s) const;
  RowId findPacked(Packed p) const;
  void grow();
  void place(const Slot& s);
  // The slot holding key (packed: p; generic: hash h and tuple key), or the empty slot
  // that ends its probe run.
  size_t probe(Packed p, uint64_t h, const uint8_t* key) const;
  Slot makeSlot(const uint8_t* key, RowId row) const;

  bool packed_ = false;
  struct PackColumn {
    uint32_t offset;  // in the key tuple
    uint32_t bits;    // 8, 16, 32 or 64
  };
  std::vector<PackColumn> packColumns_;  // packed mode: each column's bits, in key order
  std::unique_ptr<Slot[]> slots_;
  size_t mask_ = 0;  // capacity - 1; capacity is a power of two
  size_t count_ = 0;
};

}  // namespace duet
