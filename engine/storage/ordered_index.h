// The ordered index behind CREATE [UNIQUE] INDEX: a balanced tree (std::set) of
// (key copy, row) entries in key order, then row order, so duplicates are allowed and each
// entry is found exactly for removal. NULL key columns sort last, as PostgreSQL's default
// ascending NULLS LAST order.
#pragma once
#include <set>

#include "engine/storage/index.h"

namespace duet {

class OrderedIndex final : public Index {
 public:
  struct Entry {
    uint8_t* key;  // malloc'd key tuple
    RowId row;
  };
  // A bound over the first `columns` key columns; `after` places it after equal entries.
  struct Probe {
    const uint8_t* key;
    uint32_t columns;
    bool after;
  };
  struct Less {
    const TupleLayout* layout;
    using is_transparent = void;
    bool operator()(const Entry& a, const Entry& b) const;
    bool operator()(const Entry& a, const Probe& p) const;
    bool operator()(const Probe& p, const Entry& b) const;
  };
  using Tree = std::set<Entry, Less>;

  OrderedIndex(std::string name, std::vector<uint32_t> columns, TupleLayout keyLayout,
               bool unique);
  ~OrderedIndex() override;

  RowId find(const uint8_t* key) const override;
  size_t size() const override { return tree_.size(); }
  void insert(const uint8_t* key, RowId row) override;
  void remove(const uint8_t* key, RowId row) override;
  void clear() override;

  // First entry not before the bound (inclusive) or after it (exclusive); columns == 0
  // means the start of the index.
  Tree::const_iterator lowerBound(const uint8_t* key, uint32_t columns, bool inclusive) const;
  Tree::const_iterator begin() const { return tree_.begin(); }
  Tree::const_iterator end() const { return tree_.end(); }
  // Whether entry e lies beyond an upper bound / before a lower bound over `columns` key
  // columns (never, when columns == 0).
  bool beyond(const Entry& e, const uint8_t* key, uint32_t columns, bool inclusive) const;
  bool before(const Entry& e, const uint8_t* key, uint32_t columns, bool inclusive) const;

 private:
  Tree tree_;
};

}  // namespace duet
