// Unique hash index (see hash_index.h).
#include "engine/storage/hash_index.h"

#include <cstdlib>
#include <cstring>

#include "engine/storage/key_ops.h"
#include "engine/types/hash.h"

namespace duet {
namespace {

constexpr size_t kInitialCapacity = 16;

}  // namespace

uint64_t HashIndex::mixHash64(uint64_t x) { return hashMix64(x); }

HashIndex::HashIndex(std::string name, std::vector<uint32_t> columns, TupleLayout keyLayout)
    : Index(std::move(name), IndexKind::Hash, std::move(columns), std::move(keyLayout), true) {
  uint32_t bits = 0;
  packed_ = true;
  const TupleLayout& l = this->keyLayout();
  for (size_t c = 0; c < l.types.size(); ++c) {
    if (!isIntegerLike(l.types[c].id)) packed_ = false;
    packColumns_.push_back({l.offsets[c], physicalSize(l.types[c].id) * 8});
    bits += packColumns_.back().bits;
  }
  if (bits > 128) packed_ = false;
  clear();
}

HashIndex::~HashIndex() {
  for (size_t i = 0; i <= mask_; ++i) std::free(slots_[i].key);
}

void HashIndex::clear() {
  if (slots_) {
    for (size_t i = 0; i <= mask_; ++i) std::free(slots_[i].key);
  }
  slots_.reset(new Slot[kInitialCapacity]);
  mask_ = kInitialCapacity - 1;
  for (size_t i = 0; i <= mask_; ++i) slots_[i] = Slot{0, kNoRow, nullptr};
  count_ = 0;
}

HashIndex::Packed HashIndex::pack(const uint8_t* key) const {
  Packed p = 0;
  for (const PackColumn& c : packColumns_) {
    uint64_t v;
    switch (c.bits) {  // the field's low bytes, zero-extended
      case 8: v = key[c.offset]; break;
      case 16: { uint16_t x; std::memcpy(&x, key + c.offset, 2); v = x; break; }
      case 32: { uint32_t x; std::memcpy(&x, key + c.offset, 4); v = x; break; }
      default: std::memcpy(&v, key + c.offset, 8); break;
    }
    p = (p << c.bits) | v;
  }
  return p;
}

uint64_t HashIndex::slotHash(const Slot& s) const {
  return packed_ ? hashPacked(s.packed) : static_cast<uint64_t>(s.packed);
}

// An empty slot's row is kNoRow: the end of a probe run answers "not there" by itself.
RowId HashIndex::findPacked(Packed p) const { return slots_[probe(p, hashPacked(p), nullptr)].row; }

RowId HashIndex::findInteger(int64_t value) const {
  uint32_t bits = packColumns_[0].bits;
  auto v = static_cast<uint64_t>(value);
  if (bits < 64) {
    // A value outside the column's range cannot be stored in it.
    int64_t lo = -(int64_t{1} << (bits - 1)), hi = (int64_t{1} << (bits - 1)) - 1;
    if (value < lo || value > hi) return kNoRow;
    v &= (uint64_t{1} << bits) - 1;
  }
  return findPacked(v);
}

size_t HashIndex::probe(Packed p, uint64_t h, const uint8_t* key) const {
  uint32_t n = static_cast<uint32_t>(keyLayout().types.size());
  for (size_t i = h & mask_;; i = (i + 1) & mask_) {
    const Slot& s = slots_[i];
    if (s.row == kNoRow) return i;
    if (packed_ ? s.packed == p
                : static_cast<uint64_t>(s.packed) == h && compareTuples(keyLayout(), s.key, key, n) == 0)
      return i;
  }
}

RowId HashIndex::find(const uint8_t* key) const {
  const TupleLayout& l = keyLayout();
  if (tupleHasNull(l, key)) return kNoRow;
  if (packed_) return findPacked(pack(key));
  return slots_[probe(0, hashTuple(l, key), key)].row;  // kNoRow when the run ends
}

void HashIndex::place(const Slot& s) {
  size_t i = slotHash(s) & mask_;
  while (slots_[i].row != kNoRow) i = (i + 1) & mask_;
  slots_[i] = s;
}

void HashIndex::grow() {
  std::unique_ptr<Slot[]> old = std::move(slots_);
  size_t oldCap = mask_ + 1;
  mask_ = oldCap * 2 - 1;
  slots_.reset(new Slot[oldCap * 2]);
  for (size_t i = 0; i <= mask_; ++i) slots_[i] = Slot{0, kNoRow, nullptr};
  for (size_t i = 0; i < oldCap; ++i)
    if (old[i].row != kNoRow) place(old[i]);
}

HashIndex::Slot HashIndex::makeSlot(const uint8_t* key, RowId row) const {
  const TupleLayout& l = keyLayout();
  Slot s{0, row, nullptr};
  if (packed_) {
    s.packed = pack(key);
  } else {
    s.packed = hashTuple(l, key);
    s.key = static_cast<uint8_t*>(std::malloc(l.size));
    if (!s.key) throw std::bad_alloc();
    std::memcpy(s.key, key, l.size);
  }
  return s;
}

void HashIndex::insert(const uint8_t* key, RowId row) {
  if (tupleHasNull(keyLayout(), key)) return;
  if ((count_ + 1) * 2 > mask_ + 1) grow();  // load factor at most 1/2
  place(makeSlot(key, row));
  ++count_;
}

bool HashIndex::insertUnique(const uint8_t* key, RowId row) {
  if (tupleHasNull(keyLayout(), key)) return true;  // not entered: NULLs never match
  if ((count_ + 1) * 2 > mask_ + 1) grow();
  Slot s = makeSlot(key, row);
  size_t i = probe(s.packed, slotHash(s), key);
  if (slots_[i].row != kNoRow) {
    std::free(s.key);
    return false;
  }
  slots_[i] = s;
  ++count_;
  return true;
}

void HashIndex::remove(const uint8_t* key, RowId row) {
  const TupleLayout& l = keyLayout();
  if (tupleHasNull(l, key)) return;
  uint64_t h = packed_ ? hashPacked(pack(key)) : hashTuple(l, key);
  size_t i = h & mask_;
  while (slots_[i].row != row) {
    if (slots_[i].row == kNoRow) return;  // not present
    i = (i + 1) & mask_;
  }
  std::free(slots_[i].key);
  // Backward-shift deletion: pull later members of the probe run into the hole when their
  // home slot does not lie cyclically in (hole, j].
  size_t hole = i;
  for (size_t j = (i + 1) & mask_; slots_[j].row != kNoRow; j = (j + 1) & mask_) {
    size_t home = slotHash(slots_[j]) & mask_;
    bool homeInRange = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
    if (!homeInRange) {
      slots_[hole] = slots_[j];
      hole = j;
    }
  }
  slots_[hole] = Slot{0, kNoRow, nullptr};
  --count_;
}

}  // namespace duet
