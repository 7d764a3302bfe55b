// Ordered index (see ordered_index.h).
#include "engine/storage/ordered_index.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "engine/storage/key_ops.h"
#include "engine/types/strings.h"

namespace duet {
namespace {

constexpr uint32_t kPackedBits = OrderedIndex::kPackedWords * 64;

uint64_t lowBits(uint32_t n) { return n >= 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1; }

// Ors the n (<= 64) bits of v into the bit string at bit position pos (from the most
// significant end); the string is zero there.
inline void placeBits(OrderedIndex::Packed& out, uint32_t pos, uint64_t v, uint32_t n) {
  uint32_t word = pos / 64, room = 64 - pos % 64;
  if (n <= room) {
    out[word] |= v << (room - n);
  } else {
    out[word] |= v >> (n - room);
    out[word + 1] |= v << (64 - (n - room));
  }
}

// The n bits at bit position pos, advancing pos.
uint64_t getBits(const OrderedIndex::Packed& in, uint32_t& pos, uint32_t n) {
  uint64_t v = 0;
  while (n) {
    uint32_t word = pos / 64, room = 64 - pos % 64, take = std::min(room, n);
    v = (take == 64 ? 0 : v << take) | ((in[word] >> (room - take)) & lowBits(take));
    pos += take;
    n -= take;
  }
  return v;
}

// Bit strings compared as unsigned numbers, a's bits masked first (b is zero outside the
// mask already). Three words, unrolled: this is the comparison every tree step makes.
inline int compareMasked(const OrderedIndex::Packed& a, const OrderedIndex::Packed& mask,
                         const OrderedIndex::Packed& b) {
  for (size_t w = 0; w < OrderedIndex::kPackedWords; ++w) {
    uint64_t x = a[w] & mask[w], y = b[w];
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

inline int compareWords(const OrderedIndex::Packed& a, const OrderedIndex::Packed& b) {
  for (size_t w = 0; w < OrderedIndex::kPackedWords; ++w)
    if (a[w] != b[w]) return a[w] < b[w] ? -1 : 1;
  return 0;
}

// Where a string column's bytes start after its NULL bit at `pos`: a byte boundary.
constexpr uint32_t stringStart(uint32_t pos) { return (pos + 1 + 7) / 8 * 8; }

}  // namespace

bool OrderedIndex::Less::operator()(const Entry& a, const Entry& b) const {
  // Entries are zero past their key bits: whole words compare. A generic key's prefix
  // decides when it differs; equal prefixes say nothing about the rest.
  int c = compareWords(a.packed, b.packed);
  if (c == 0 && !index->packed_)
    c = compareTuples(index->keyLayout(), a.key, b.key, static_cast<uint32_t>(index->keyLayout().types.size()));
  return c ? c < 0 : a.row < b.row;
}

bool OrderedIndex::Less::operator()(const Entry& a, const Probe& p) const {
  int c = index->compareKey(a, p.packed, p.key, p.columns);
  return c ? c < 0 : p.after;  // equal prefix: the entry precedes an "after" probe
}

bool OrderedIndex::Less::operator()(const Probe& p, const Entry& b) const {
  int c = index->compareKey(b, p.packed, p.key, p.columns);
  return c ? c > 0 : !p.after;
}

OrderedIndex::Entry OrderedIndex::Less::separator(const Entry& e) const {
  Entry sep = e;
  if (e.key) sep.key = copyKeyDeep(index->keyLayout(), e.key);
  return sep;
}

void OrderedIndex::Less::release(const Entry& separator) const { std::free(separator.key); }

OrderedIndex::OrderedIndex(std::string name, std::vector<uint32_t> columns, TupleLayout keyLayout, bool unique)
    : Index(std::move(name), IndexKind::Ordered, std::move(columns), std::move(keyLayout), unique), tree_(Less{this}) {
  // Per column a NULL bit (set sorts last) and the value: an integer with its sign bit
  // flipped, so that unsigned order of the bit string is key order; a string's first bytes
  // (byte order is text order; bpchar without its trailing blanks), zero-padded, which sorts
  // a shorter string first as text comparison does (no text holds a zero byte).
  uint32_t bits = 0;
  packed_ = true;
  const TupleLayout& l = this->keyLayout();
  for (size_t c = 0; c < l.types.size(); ++c) {
    TypeId t = l.types[c].id;
    if (isIntegerLike(t) && bits + 1 + physicalSize(t) * 8 <= kPackedBits) {
      packedColumns_.push_back({l.offsets[c], physicalSize(t), bits, PackedKind::Integer, bits / 64,
                                128 - bits % 64 - (1 + physicalSize(t) * 8), uint64_t{1} << (physicalSize(t) * 8 - 1)});
      bits += 1 + physicalSize(t) * 8;
      continue;
    }
    packed_ = false;
    // A string ends the prefix: its bytes past the prefix are unknown to the bit string.
    bool text = t == TypeId::Text || t == TypeId::Varchar;
    if ((text || t == TypeId::Char) && stringStart(bits) + 64 <= kPackedBits)
      packedColumns_.push_back({l.offsets[c], (kPackedBits - stringStart(bits)) / 8, bits,
                                text ? PackedKind::Text : PackedKind::Bpchar, 0, 0, 0});
    break;
  }
  prefixMasks_.push_back(Packed{});
  nullMasks_.push_back(Packed{});
  for (const PackedColumn& col : packedColumns_) {
    Packed mask = prefixMasks_.back(), nulls = nullMasks_.back();
    placeBits(mask, col.pos, 1, 1);  // the NULL bit
    placeBits(nulls, col.pos, 1, 1);
    nullMasks_.push_back(nulls);
    if (col.kind == PackedKind::Integer) {
      placeBits(mask, col.pos + 1, lowBits(col.size * 8), col.size * 8);
    } else {
      for (uint32_t i = 0; i < col.size; ++i) placeBits(mask, stringStart(col.pos) + 8 * i, 0xff, 8);
    }
    prefixMasks_.push_back(mask);
  }
}

OrderedIndex::~OrderedIndex() { clear(); }

void OrderedIndex::clear() {
  tree_.forEach([](const Entry& e) { std::free(e.key); });
  tree_.clear();
  hash_.reset();
}

OrderedIndex::Packed OrderedIndex::pack(const uint8_t* key, uint32_t columns) const {
  Packed out{};
  columns = std::min(columns, static_cast<uint32_t>(packedColumns_.size()));
  for (uint32_t c = 0; c < columns; ++c) {
    const PackedColumn& col = packedColumns_[c];
    if (key[c]) {
      placeBits(out, col.pos, 1, 1);  // NULL: the NULL bit set, sorting last
      continue;
    }
    if (col.kind != PackedKind::Integer) {
      const VarString* s;
      std::memcpy(&s, key + col.offset, sizeof s);
      std::string_view v = col.kind == PackedKind::Bpchar ? bpcharTrim(s->view()) : s->view();
      size_t n = std::min<size_t>(v.size(), col.size);
      for (size_t i = 0; i < n; ++i)
        placeBits(out, stringStart(col.pos) + 8 * static_cast<uint32_t>(i), static_cast<uint8_t>(v[i]), 8);
      continue;
    }
    uint64_t v;  // the field's bytes, zero-extended
    switch (col.size) {
      case 1: v = key[col.offset]; break;
      case 2: {
        uint16_t x;
        std::memcpy(&x, key + col.offset, 2);
        v = x;
        break;
      }
      case 4: {
        uint32_t x;
        std::memcpy(&x, key + col.offset, 4);
        v = x;
        break;
      }
      default: std::memcpy(&v, key + col.offset, 8); break;
    }
    // A 0 NULL bit and the value with its sign bit flipped, placed as one number: in one
    // word, or split over two (then a next word exists: the field crosses into it).
    v ^= col.signBit;
    if (col.shift >= 64) {
      out[col.word] |= v << (col.shift - 64);
    } else {
      out[col.word + 1] |= v << col.shift;
      if (col.shift) out[col.word] |= v >> (64 - col.shift);
    }
  }
  return out;
}

void OrderedIndex::unpack(const Entry& e, uint8_t* key) const {
  const TupleLayout& l = keyLayout();
  if (!packed_) {
    std::memcpy(key, e.key, l.size);
    return;
  }
  std::memset(key, 0, l.size);
  uint32_t pos = 0;
  for (size_t c = 0; c < l.types.size(); ++c) {
    uint32_t size = physicalSize(l.types[c].id), width = size * 8;
    key[c] = static_cast<uint8_t>(getBits(e.packed, pos, 1));
    uint64_t v = getBits(e.packed, pos, width) ^ (uint64_t{1} << (width - 1));
    // Little-endian: the low `size` bytes of the (two's complement) value are the field.
    if (!key[c]) std::memcpy(key + l.offsets[c], &v, size);
  }
}

int OrderedIndex::compareKey(const Entry& e, const Packed& packed, const uint8_t* key, uint32_t columns) const {
  if (packed_) return compareMasked(e.packed, prefixMasks_[columns], packed);
  // `packed` covers the same prefix columns (pack() stops at `columns`).
  uint32_t prefix = std::min(columns, static_cast<uint32_t>(packedColumns_.size()));
  if (prefix) {
    int c = compareMasked(e.packed, prefixMasks_[prefix], packed);
    if (c) return c;
  }
  return compareTuples(keyLayout(), e.key, key, columns);
}

bool OrderedIndex::genericHasNull(const Entry& e, uint32_t columns) const {
  uint32_t n = std::min(columns, static_cast<uint32_t>(keyLayout().types.size()));
  for (uint32_t c = 0; c < n; ++c)
    if (e.key[c]) return true;
  return false;
}

OrderedIndex::Entry OrderedIndex::entryOf(const uint8_t* key, RowId row) const {
  const TupleLayout& l = keyLayout();
  Entry e{pack(key, static_cast<uint32_t>(l.types.size())), nullptr, row};
  if (!packed_) {
    e.key = static_cast<uint8_t*>(std::malloc(l.size));
    if (!e.key) throw std::bad_alloc();
    std::memcpy(e.key, key, l.size);
  }
  return e;
}

void OrderedIndex::countEvent(bool isFind) const {
  ++(isFind ? windowFinds_ : windowChanges_);
  if (--windowLeft_ > 0) return;
  // Two to one either way: a workload near the balance keeps what it has.
  if (!hash_ && windowFinds_ >= 2 * windowChanges_) {
    auto hash = std::make_unique<HashIndex>(name(), columns(), keyLayout());
    std::vector<uint8_t> key(keyLayout().size);
    tree_.forEach([&](const Entry& e) {
      unpack(e, key.data());
      hash->insert(key.data(), e.row);
    });
    hash_ = std::move(hash);
  } else if (hash_ && windowChanges_ >= 2 * windowFinds_) {
    hash_.reset();
  }
  windowFinds_ = windowChanges_ = 0;
  windowLeft_ = std::max<uint64_t>(kMinWindow, tree_.size() / 4);
}

size_t OrderedIndex::memoryBytes() const {
  return tree_.nodeBytes() + (packed_ ? 0 : tree_.size() * keyLayout().size) + (hash_ ? hash_->memoryBytes() : 0);
}

RowId OrderedIndex::find(const uint8_t* key) const {
  if (!unique()) return findInTree(key);
  countEvent(true);
  return hash_ ? hash_->find(key) : findInTree(key);
}

RowId OrderedIndex::findInTree(const uint8_t* key) const {
  const TupleLayout& l = keyLayout();
  if (tupleHasNull(l, key)) return kNoRow;
  auto n = static_cast<uint32_t>(l.types.size());
  Probe probe{pack(key, n), key, n, false};
  auto it = tree_.lowerBound(probe);
  if (it == tree_.end() || compareKey(*it, probe.packed, key, n) != 0) return kNoRow;
  return it->row;
}

void OrderedIndex::insert(const uint8_t* key, RowId row) { enter(key, row, false); }

bool OrderedIndex::insertUnique(const uint8_t* key, RowId row) { return enter(key, row, unique()); }

bool OrderedIndex::enter(const uint8_t* key, RowId row, bool checkUnique) {
  if (unique()) countEvent(false);
  Entry e = entryOf(key, row);
  auto n = static_cast<uint32_t>(keyLayout().types.size());
  bool inserted = true;
  try {
    if (!checkUnique || hasNull(e, n)) {  // NULLs never conflict
      tree_.insert(e);
    } else {
      inserted =
          tree_.insertUnlessNeighbour(e, [&](const Entry& other) { return compareKey(other, e.packed, key, n) == 0; });
    }
    if (inserted && hash_) hash_->insert(key, row);
  } catch (...) {
    Entry removed;
    tree_.erase(e, &removed);
    std::free(e.key);
    throw;
  }
  if (!inserted) std::free(e.key);
  return inserted;
}

void OrderedIndex::remove(const uint8_t* key, RowId row) {
  if (unique()) countEvent(false);
  if (hash_) hash_->remove(key, row);
  const TupleLayout& l = keyLayout();
  // The exact (key, row) entry; a generic-mode lookup compares against the given key bytes.
  Entry probe{pack(key, static_cast<uint32_t>(l.types.size())), packed_ ? nullptr : const_cast<uint8_t*>(key), row};
  Entry removed;
  if (tree_.erase(probe, &removed)) std::free(removed.key);
}

OrderedIndex::Tree::Iterator OrderedIndex::lowerBound(const uint8_t* key, uint32_t columns, bool inclusive) const {
  if (columns == 0) return tree_.begin();
  return tree_.lowerBound(Probe{pack(key, columns), key, columns, !inclusive});
}

OrderedIndex::Bound OrderedIndex::bound(const uint8_t* key, uint32_t columns, bool inclusive) const {
  return Bound{pack(key, columns), key, columns, inclusive};
}

bool OrderedIndex::beyond(const Entry& e, const Bound& upper) const {
  if (upper.columns == 0) return false;
  int c = compareKey(e, upper.packed, upper.key, upper.columns);
  return upper.inclusive ? c > 0 : c >= 0;
}

bool OrderedIndex::before(const Entry& e, const Bound& lower) const {
  if (lower.columns == 0) return false;
  int c = compareKey(e, lower.packed, lower.key, lower.columns);
  return lower.inclusive ? c < 0 : c <= 0;
}

}  // namespace duet
