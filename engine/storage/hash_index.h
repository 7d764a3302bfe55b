// The unique hash index behind PRIMARY KEY and UNIQUE constraints: open addressing with
// linear probing and backward-shift deletion (no tombstones, so a steady insert/delete
// workload does not degrade it). Keys whose columns are all integer-like and fit in 128
// bits are packed into one integer and compared without touching key bytes (pgbench and
// TPC-C keys); other keys keep a copy of the key tuple and compare field by field.
// Packed keys of up to 64 bits (single integer keys, TPC-C's stock and district keys) use
// 16-byte slots, wider ones and generic keys 32-byte slots: a lookup's one cache miss is
// likelier to hit in a table half the size.
// Rows with a NULL key column are not entered: NULLs never conflict and never match.
#pragma once
#include <cstdlib>
#include <memory>

#include "engine/storage/huge_memory.h"
#include "engine/storage/index.h"

namespace duet {

class HashIndex final : public Index {
 public:
  HashIndex(std::string name, std::vector<uint32_t> columns, TupleLayout keyLayout);
  ~HashIndex() override;

  RowId find(const uint8_t* key) const override;
  void prefetchProbe(const uint8_t* key) const override;
  RowId peek(const uint8_t* key) const override { return find(key); }
  size_t size() const override { return count_; }
  size_t memoryBytes() const override;
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
  // Slots hold row + 1 (`ref`): all-zero memory is an empty table, so a fresh table comes
  // zeroed from calloc, and an empty slot's ref - 1 is kNoRow, which answers a lookup that
  // reaches the end of its probe run by itself.
  struct NarrowSlot {  // packed keys of up to 64 bits
    uint64_t key;
    RowId ref;
  };
  struct WideSlot {
    Packed key;  // packed mode: the key; generic mode: the hash in the low 64 bits
    RowId ref;
    uint8_t* copy;  // generic mode: malloc'd copy of the key tuple
  };
  // A key ready for probing: packed (packed mode), its hash, and the tuple (generic mode).
  struct Lookup {
    Packed packed;
    uint64_t hash;
    const uint8_t* key;
  };

  // False when a key column is NULL: such a key is never entered.
  bool lookupOf(const uint8_t* key, Lookup& out) const;
  // Packed mode: the key in a Word (uint64_t when narrow_, else Packed); ors the key's
  // NULL flags into `nulls`.
  template <typename Word>
  Word pack(const uint8_t* key, uint8_t& nulls) const;
  uint64_t hashPacked(Packed p) const {
    auto low = static_cast<uint64_t>(p);
    return narrow_ ? mixHash64(low) : mixHash64(low ^ mixHash64(static_cast<uint64_t>(p >> 64)));
  }
  static uint64_t mixHash64(uint64_t x);
  uint64_t slotHash(const NarrowSlot& s) const { return mixHash64(s.key); }
  uint64_t slotHash(const WideSlot& s) const { return packed_ ? hashPacked(s.key) : static_cast<uint64_t>(s.key); }
  bool matches(const NarrowSlot& s, const Lookup& k) const { return s.key == static_cast<uint64_t>(k.packed); }
  bool matches(const WideSlot& s, const Lookup& k) const;
  void fill(NarrowSlot& s, const Lookup& k, RowId row) const;
  void fill(WideSlot& s, const Lookup& k, RowId row) const;  // copies a generic key
  static void release(NarrowSlot&) {}
  static void release(WideSlot& s) { std::free(s.copy); }
  // The operations below are written once for both slot layouts; narrow_ picks which.
  template <typename Slot>
  Slot* slots() const {
    return static_cast<Slot*>(slots_.get());
  }
  // The slot holding k, or the empty slot that ends its probe run.
  template <typename Slot>
  size_t probe(const Lookup& k) const;
  // The first empty slot from a hash's home slot on.
  template <typename Slot>
  size_t vacancy(uint64_t hash) const;
  template <typename Slot>
  RowId findIn(const Lookup& k) const {
    return slots<Slot>()[probe<Slot>(k)].ref - 1;
  }
  template <typename Slot>
  bool enter(const Lookup& k, RowId row, bool checkUnique);
  template <typename Slot>
  void erase(const Lookup& k, RowId row);
  template <typename Slot>
  void grow();
  void freeKeyCopies();
  ZeroedBlock allocate(size_t capacity) const;  // zeroed: all slots empty

  bool packed_ = false;
  bool narrow_ = false;  // packed into at most 64 bits: NarrowSlot, else WideSlot
  struct PackColumn {
    uint32_t offset;  // in the key tuple
    uint32_t bits;    // 8, 16, 32 or 64
    uint32_t shift;   // where the column's bits start in the packed key: later columns' bits
  };
  std::vector<PackColumn> packColumns_;  // packed mode: each column's bits, in key order
  ZeroedBlock slots_;                    // huge pages once it is large (huge_memory.h)
  size_t mask_ = 0;                      // capacity - 1; capacity is a power of two
  size_t count_ = 0;
};

}  // namespace duet
