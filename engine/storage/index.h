// Secondary structures over a table's rows, keyed by some of its columns. The Table keeps
// every index in step with its rows (insert/update/erase/undo); callers only look up.
// Keys are tuples in the TupleLayout of the key columns (keyLayout()). Key copies held by an
// index point at the table's own strings, which outlive the index entries that use them.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "engine/storage/layout.h"

namespace duet {

enum class IndexKind : uint8_t {
  Hash,     // PRIMARY KEY / UNIQUE constraints: unique, point lookups only
  Ordered,  // CREATE [UNIQUE] INDEX: range and prefix scans, duplicates unless unique
};

class Index {
 public:
  Index(std::string name, IndexKind kind, std::vector<uint32_t> columns, TupleLayout keyLayout, bool unique)
      : name_(std::move(name)),
        kind_(kind),
        columns_(std::move(columns)),
        keyLayout_(std::move(keyLayout)),
        unique_(unique) {}
  Index(const Index&) = delete;
  Index& operator=(const Index&) = delete;
  virtual ~Index() = default;

  const std::string& name() const { return name_; }
  void setName(std::string name) { name_ = std::move(name); }  // ALTER INDEX RENAME
  IndexKind kind() const { return kind_; }
  bool unique() const { return unique_; }
  const std::vector<uint32_t>& columns() const { return columns_; }  // table column numbers
  const TupleLayout& keyLayout() const { return keyLayout_; }

  // A row whose key equals key (the first in index order for an ordered index), or kNoRow.
  // A key containing NULL matches nothing.
  virtual RowId find(const uint8_t* key) const = 0;
  virtual size_t size() const = 0;
  // The bytes the index holds: its slots or nodes and its copies of keys
  // (pg_relation_size of an index).
  virtual size_t memoryBytes() const = 0;

  // Hints ahead of a find(key) that is coming soon, in two steps, so that the cache misses
  // of several finds overlap (a routine's loop over order lines): prefetchProbe asks for the
  // memory find() starts with; once that has arrived, peek() answers as find() would where
  // that is cheap and changes nothing (a hash probe), else kNoRow. Neither affects results.
  virtual void prefetchProbe(const uint8_t* /*key*/) const {}
  virtual RowId peek(const uint8_t* /*key*/) const { return kNoRow; }

  // Maintenance, for Table only. insert() does not check uniqueness; insertUnique() enters
  // the row unless the index is unique and already holds the key (a key with a NULL never
  // conflicts): then it returns false and changes nothing. One lookup serves the check and
  // the insert. remove() takes the exact key bytes the entry was inserted with.
  virtual void insert(const uint8_t* key, RowId row) = 0;
  virtual bool insertUnique(const uint8_t* key, RowId row) = 0;
  virtual void remove(const uint8_t* key, RowId row) = 0;
  virtual void clear() = 0;

  // Where each key column comes from in a row of the table, and goes in the key tuple:
  // set once by the table (setRowLayout), read by Table::keyOf for every key it builds.
  struct KeyField {
    uint32_t column;  // the row's NULL flag; the key's is the field's position
    uint32_t rowOffset;
    uint32_t keyOffset;
    uint32_t size;
  };
  void setRowLayout(const TupleLayout& row) {
    keyFields_.clear();
    for (size_t i = 0; i < columns_.size(); ++i)
      keyFields_.push_back(
          {columns_[i], row.offsets[columns_[i]], keyLayout_.offsets[i], physicalSize(keyLayout_.types[i].id)});
  }
  const std::vector<KeyField>& keyFields() const { return keyFields_; }

 private:
  std::string name_;
  IndexKind kind_;
  std::vector<uint32_t> columns_;
  TupleLayout keyLayout_;
  bool unique_;
  std::vector<KeyField> keyFields_;
};

}  // namespace duet
