// Ordered index (see ordered_index.h).
#include "engine/storage/ordered_index.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "engine/storage/key_ops.h"

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

// The first `bits` bits of two bit strings compared as unsigned numbers.
int comparePrefix(const OrderedIndex::Packed& a, const OrderedIndex::Packed& b, uint32_t bits) {
  for (size_t w = 0; bits; ++w) {
    uint32_t n = std::min(bits, 64u);
    uint64_t mask = ~lowBits(64 - n);
    uint64_t x = a[w] & mask, y = b[w] & mask;
    if (x != y) return x < y ? -1 : 1;
    bits -= n;
  }
  return 0;
}

uint64_t nullMask(const TupleLayout& l, const uint8_t* key) {
  uint64_t m = 0;
  for (size_t c = 0; c < l.types.size() && c < 64; ++c)
    if (key[c]) m |= uint64_t{1} << c;
  return m;
}

}  // namespace

bool OrderedIndex::Less::operator()(const Entry& a, const Entry& b) const {
  int c = index->packed_ ? comparePrefix(a.packed, b.packed, kPackedBits)
                         : compareTuples(index->keyLayout(), a.key, b.key,
                                         static_cast<uint32_t>(index->keyLayout().types.size()));
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

OrderedIndex::OrderedIndex(std::string name, std::vector<uint32_t> columns,
                           TupleLayout keyLayout, bool unique)
    : Index(std::move(name), IndexKind::Ordered, std::move(columns), std::move(keyLayout),
            unique),
      tree_(Less{this}) {
  // Packed: per column a NULL bit (set sorts last) and the value with its sign bit flipped,
  // so that unsigned order of the bit string is key order.
  uint32_t bits = 0;
  packed_ = true;
  prefixBits_.push_back(0);
  for (const SqlType& t : this->keyLayout().types) {
    if (!isIntegerLike(t.id)) packed_ = false;
    bits += 1 + physicalSize(t.id) * 8;
    prefixBits_.push_back(bits);
  }
  if (bits > kPackedBits) packed_ = false;
}

OrderedIndex::~OrderedIndex() { clear(); }

void OrderedIndex::clear() {
  tree_.forEach([](const Entry& e) { std::free(e.key); });
  tree_.clear();
  hash_.reset();
}

OrderedIndex::Packed OrderedIndex::pack(const uint8_t* key, uint32_t columns) const {
  const TupleLayout& l = keyLayout();
  Packed out{};
  for (uint32_t c = 0; c < columns; ++c) {
    // prefixBits_[c] is where column c starts: its NULL bit, then its value bits.
    uint32_t pos = prefixBits_[c];
    if (key[c]) {
      placeBits(out, pos, 1, 1);
      continue;
    }
    uint32_t width = physicalSize(l.types[c].id) * 8;
    auto v = static_cast<uint64_t>(loadIntegerLike(l.types[c].id, key + l.offsets[c]));
    v ^= uint64_t{1} << (width - 1);
    // The NULL bit is 0: the value goes right after it.
    placeBits(out, pos + 1, width == 64 ? v : v & lowBits(width), width);
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

int OrderedIndex::compareKey(const Entry& e, const Packed& packed, const uint8_t* key,
                             uint32_t columns) const {
  if (packed_) return comparePrefix(e.packed, packed, prefixBits_[columns]);
  return compareTuples(keyLayout(), e.key, key, columns);
}

OrderedIndex::Entry OrderedIndex::entryOf(const uint8_t* key, RowId row) const {
  const TupleLayout& l = keyLayout();
  Entry e{{}, nullptr, row, nullMask(l, key)};
  if (packed_) {
    e.packed = pack(key, static_cast<uint32_t>(l.types.size()));
  } else {
    e.key = static_cast<uint8_t*>(std::malloc(l.size));
    if (!e.key) throw std::bad_alloc();
    std::memcpy(e.key, key, l.size);
  }
  return e;
}

RowId OrderedIndex::find(const uint8_t* key) const {
  if (!unique()) return findInTree(key);
  if (!hash_) {
    auto hash = std::make_unique<HashIndex>(name(), columns(), keyLayout());
    std::vector<uint8_t> key(keyLayout().size);
    tree_.forEach([&](const Entry& e) {
      unpack(e, key.data());
      hash->insert(key.data(), e.row);
    });
    hash_ = std::move(hash);
  }
  return hash_->find(key);
}

RowId OrderedIndex::findInTree(const uint8_t* key) const {
  const TupleLayout& l = keyLayout();
  if (tupleHasNull(l, key)) return kNoRow;
  auto n = static_cast<uint32_t>(l.types.size());
  Probe probe{packed_ ? pack(key, n) : Packed{}, key, n, false};
  auto it = tree_.lowerBound(probe);
  if (it == tree_.end() || compareKey(*it, probe.packed, key, n) != 0) return kNoRow;
  return it->row;
}

void OrderedIndex::insert(const uint8_t* key, RowId row) {
  Entry e = entryOf(key, row);
  try {
    tree_.insert(e);
    if (hash_) hash_->insert(key, row);
  } catch (...) {
    Entry removed;
    tree_.erase(e, &removed);
    std::free(e.key);
    throw;
  }
}

void OrderedIndex::remove(const uint8_t* key, RowId row) {
  if (hash_) hash_->remove(key, row);
  const TupleLayout& l = keyLayout();
  // The exact (key, row) entry; a generic-mode lookup compares against the given key bytes.
  Entry probe{packed_ ? pack(key, static_cast<uint32_t>(l.types.size())) : Packed{},
              packed_ ? nullptr : const_cast<uint8_t*>(key), row, 0};
  Entry removed;
  if (tree_.erase(probe, &removed)) std::free(removed.key);
}

OrderedIndex::Tree::Iterator OrderedIndex::lowerBound(const uint8_t* key, uint32_t columns,
                                                      bool inclusive) const {
  if (columns == 0) return tree_.begin();
  return tree_.lowerBound(Probe{packed_ ? pack(key, columns) : Packed{}, key, columns, !inclusive});
}

OrderedIndex::Bound OrderedIndex::bound(const uint8_t* key, uint32_t columns,
                                        bool inclusive) const {
  return Bound{packed_ && columns ? pack(key, columns) : Packed{}, key, columns, inclusive};
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
