// The ordered index behind CREATE [UNIQUE] INDEX and composite keys: a B+-tree
// (bplus_tree.h) of entries in key order, then row order, so duplicates are allowed and
// each entry is found exactly for removal. NULL key columns sort last, as PostgreSQL's
// default ascending NULLS LAST order.
//
// Keys whose columns are all integer-like and fit in kPackedWords words, a NULL bit per
// column included, are packed into an order-preserving bit string compared a word at a
// time (TPC-C's keys); other keys keep a copy of the key tuple compared field by field,
// behind a packed prefix: their leading integer-like columns and the first bytes of a
// following string column (TPC-C's customer_by_name: warehouse, district, then the whole
// c_last). Entries whose prefixes differ are ordered by the prefix alone, without
// following a string pointer to a row that is likely not in cache; equal prefixes fall
// back to the field-by-field comparison.
// A unique index answers point lookups from a hash index of its keys while lookups
// outnumber changes (see hash_): indexes only ever scanned by range (TPC-C's order lines)
// or mostly inserted into never pay for hashing their inserts.
#pragma once
#include <array>
#include <memory>

#include "engine/storage/bplus_tree.h"

#include "engine/storage/hash_index.h"
#include "engine/storage/index.h"

namespace duet {

class OrderedIndex final : public Index {
 public:
  static constexpr size_t kPackedWords = 3;
  using Packed = std::array<uint64_t, kPackedWords>;  // most significant word first

  // No NULL mask: packed keys carry NULL bits, generic ones the key tuple's NULL flags.
  struct Entry {
    Packed packed;  // packed mode: the key; generic mode: the key's packed prefix
    uint8_t* key;   // generic mode: malloc'd copy of the key tuple; null otherwise
    RowId row;
  };
  // A bound over the first `columns` key columns; `after` places it after equal entries.
  struct Probe {
    Packed packed;
    const uint8_t* key;
    uint32_t columns;
    bool after;
  };
  struct Less {
    const OrderedIndex* index;
    using is_transparent = void;
    bool operator()(const Entry& a, const Entry& b) const;
    bool operator()(const Entry& a, const Probe& p) const;
    bool operator()(const Probe& p, const Entry& b) const;
    // Tree separators outlive the entries they come from: generic keys are deep-copied.
    Entry separator(const Entry& e) const;
    void release(const Entry& separator) const;
  };
  using Tree = BPlusTree<Entry, Less>;

  OrderedIndex(std::string name, std::vector<uint32_t> columns, TupleLayout keyLayout, bool unique);
  ~OrderedIndex() override;

  RowId find(const uint8_t* key) const override;
  // Through the hash while there is one (the tree's descent has no first line to ask for);
  // peek does not count as a find for the hash's upkeep.
  void prefetchProbe(const uint8_t* key) const override {
    if (hash_) hash_->prefetchProbe(key);
  }
  RowId peek(const uint8_t* key) const override { return hash_ ? hash_->find(key) : kNoRow; }
  size_t size() const override { return tree_.size(); }
  size_t memoryBytes() const override;
  void insert(const uint8_t* key, RowId row) override;
  // Checks in the tree, not the hash: the insert walks that path anyway, and keys that
  // grow (order numbers) keep it in cache where hash slots would miss.
  bool insertUnique(const uint8_t* key, RowId row) override;
  void remove(const uint8_t* key, RowId row) override;
  void clear() override;

  // First entry not before the bound (inclusive) or after it (exclusive); columns == 0
  // means the start of the index.
  Tree::Iterator lowerBound(const uint8_t* key, uint32_t columns, bool inclusive) const;
  // The first entry not before e itself (e, if it is still there).
  Tree::Iterator lowerBound(const Entry& e) const { return tree_.lowerBound(e); }
  bool same(const Entry& a, const Entry& b) const { return !Less{this}(a, b) && !Less{this}(b, a); }
  Tree::Iterator begin() const { return tree_.begin(); }
  Tree::Iterator end() const { return tree_.end(); }
  Tree::Iterator prev(Tree::Iterator it) const { return tree_.prev(it); }
  // Changes with every insert and remove, which move entries within the tree.
  uint64_t version() const { return tree_.version(); }
  // A range bound over the first `columns` columns of key tuple `key` (0: unbounded), ready
  // for comparisons; `key` must outlive it.
  struct Bound {
    Packed packed;
    const uint8_t* key;
    uint32_t columns;
    bool inclusive;
  };
  Bound bound(const uint8_t* key, uint32_t columns, bool inclusive) const;
  // Whether entry e lies beyond an upper bound / before a lower bound.
  bool beyond(const Entry& e, const Bound& upper) const;
  bool before(const Entry& e, const Bound& lower) const;
  // Whether one of the first `columns` key columns of e is NULL. Inline: every insert and
  // every step of a range scan asks.
  bool hasNull(const Entry& e, uint32_t columns) const {
    if (!packed_) return genericHasNull(e, columns);
    const Packed& nulls = nullMasks_[columns < nullMasks_.size() ? columns : nullMasks_.size() - 1];
    uint64_t any = 0;
    for (size_t w = 0; w < kPackedWords; ++w) any |= e.packed[w] & nulls[w];
    return any != 0;
  }
  // Whether exact-key finds currently go through the hash table (see hash_).
  bool hashCached() const { return hash_ != nullptr; }

 private:
  bool genericHasNull(const Entry& e, uint32_t columns) const;
  RowId findInTree(const uint8_t* key) const;
  // insert (checkUnique false) and insertUnique: the entry into the tree, then the hash.
  bool enter(const uint8_t* key, RowId row, bool checkUnique);
  Entry entryOf(const uint8_t* key, RowId row) const;
  Packed pack(const uint8_t* key, uint32_t columns) const;
  void unpack(const Entry& e, uint8_t* key) const;  // the key tuple back (packed or copied)
  // Entry key against a key tuple over its first `columns` columns (<0, 0, >0).
  int compareKey(const Entry& e, const Packed& packed, const uint8_t* key, uint32_t columns) const;

  // Where each packed key column goes in the bit string (its NULL bit at `pos`, its value
  // right after), and per prefix length c the mask of the first c packed columns' bits
  // and, in packed mode, that of their NULL bits.
  // In packed mode every key column is here; in generic mode the leading columns that
  // make the prefix, of which a string column can only be the last.
  enum class PackedKind : uint8_t { Integer, Text, Bpchar };
  struct PackedColumn {
    uint32_t offset;  // in the key tuple
    uint32_t size;    // Integer: bytes of the value; strings: bytes of the prefix kept
    uint32_t pos;
    PackedKind kind;
    // Integer: the NULL bit and value, as one number, shifted left by `shift` within the
    // 128 bits of words `word` and word + 1, land at pos (shift >= 64: all in `word`). signBit: the value's sign bit,
    // flipped so that negatives sort first.
    uint32_t word;
    uint32_t shift;
    uint64_t signBit;
  };
  bool packed_ = false;  // every key column packed, exactly
  std::vector<PackedColumn> packedColumns_;
  std::vector<Packed> prefixMasks_;
  std::vector<Packed> nullMasks_;
  // Unique indexes: every key in a hash table for exact-key lookups, kept while finds
  // outnumber changes. A random find costs the tree a few cache misses and the hash one,
  // but every insert and remove costs the hash a miss too: an index that mostly grows
  // (orders, new_order: a Delivery finds what a New-Order inserted) is better off with the
  // tree alone, one looked up at random (stock, customer) with the hash. Decided over
  // windows of events at least a quarter of the index's size, so that building the hash
  // (one pass over the tree) costs O(1) per event however the workload alternates.
  // A cache that find() fills, hence mutable.
  void countEvent(bool isFind) const;
  static constexpr uint64_t kMinWindow = 1024;
  mutable std::unique_ptr<HashIndex> hash_;
  mutable uint64_t windowFinds_ = 0;
  mutable uint64_t windowChanges_ = 0;
  mutable uint64_t windowLeft_ = kMinWindow;  // events until the window closes
  Tree tree_;
};

}  // namespace duet
