// Ordered index (see ordered_index.h).
#include "engine/storage/ordered_index.h"

#include <cstdlib>
#include <cstring>

#include "engine/storage/key_ops.h"

namespace duet {

bool OrderedIndex::Less::operator()(const Entry& a, const Entry& b) const {
  int c = compareTuples(*layout, a.key, b.key, static_cast<uint32_t>(layout->types.size()));
  return c ? c < 0 : a.row < b.row;
}

bool OrderedIndex::Less::operator()(const Entry& a, const Probe& p) const {
  int c = compareTuples(*layout, a.key, p.key, p.columns);
  return c ? c < 0 : p.after;  // equal prefix: the entry precedes an "after" probe
}

bool OrderedIndex::Less::operator()(const Probe& p, const Entry& b) const {
  int c = compareTuples(*layout, p.key, b.key, p.columns);
  return c ? c < 0 : !p.after;
}

OrderedIndex::OrderedIndex(std::string name, std::vector<uint32_t> columns,
                           TupleLayout keyLayout, bool unique)
    : Index(std::move(name), IndexKind::Ordered, std::move(columns), std::move(keyLayout),
            unique),
      tree_(Less{&this->keyLayout()}) {}

OrderedIndex::~OrderedIndex() { clear(); }

void OrderedIndex::clear() {
  for (const Entry& e : tree_) std::free(e.key);
  tree_.clear();
}

RowId OrderedIndex::find(const uint8_t* key) const {
  const TupleLayout& l = keyLayout();
  if (tupleHasNull(l, key)) return kNoRow;
  auto n = static_cast<uint32_t>(l.types.size());
  auto it = tree_.lower_bound(Probe{key, n, false});
  if (it == tree_.end() || compareTuples(l, it->key, key, n) != 0) return kNoRow;
  return it->row;
}

void OrderedIndex::insert(const uint8_t* key, RowId row) {
  uint32_t size = keyLayout().size;
  auto* copy = static_cast<uint8_t*>(std::malloc(size));
  if (!copy) throw std::bad_alloc();
  std::memcpy(copy, key, size);
  try {
    tree_.insert(Entry{copy, row});
  } catch (...) {
    std::free(copy);
    throw;
  }
}

void OrderedIndex::remove(const uint8_t* key, RowId row) {
  auto it = tree_.find(Entry{const_cast<uint8_t*>(key), row});
  if (it == tree_.end()) return;
  uint8_t* copy = it->key;
  tree_.erase(it);
  std::free(copy);
}

OrderedIndex::Tree::const_iterator OrderedIndex::lowerBound(const uint8_t* key,
                                                            uint32_t columns,
                                                            bool inclusive) const {
  if (columns == 0) return tree_.begin();
  return tree_.lower_bound(Probe{key, columns, !inclusive});
}

bool OrderedIndex::beyond(const Entry& e, const uint8_t* key, uint32_t columns,
                          bool inclusive) const {
  if (columns == 0) return false;
  int c = compareTuples(keyLayout(), e.key, key, columns);
  return inclusive ? c > 0 : c >= 0;
}

bool OrderedIndex::before(const Entry& e, const uint8_t* key, uint32_t columns,
                          bool inclusive) const {
  if (columns == 0) return false;
  int c = compareTuples(keyLayout(), e.key, key, columns);
  return inclusive ? c < 0 : c <= 0;
}

}  // namespace duet
