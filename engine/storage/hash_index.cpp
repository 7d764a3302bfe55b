// Unique hash index (see hash_index.h).
#include "engine/storage/hash_index.h"

#include <cassert>
#include <cstring>
#include <new>
#include <utility>

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
    packColumns_.push_back({l.offsets[c], physicalSize(l.types[c].id) * 8, 0});
    bits += packColumns_.back().bits;
  }
  if (bits > 128) packed_ = false;
  uint32_t after = 0;  // the first column ends up most significant
  for (size_t c = packColumns_.size(); c-- > 0;) {
    packColumns_[c].shift = after;
    after += packColumns_[c].bits;
  }
  narrow_ = packed_ && bits <= 64;
  clear();
}

HashIndex::~HashIndex() { freeKeyCopies(); }

void HashIndex::freeKeyCopies() {
  if (narrow_ || !slots_.get()) return;
  for (size_t i = 0; i <= mask_; ++i) std::free(slots<WideSlot>()[i].copy);
}

ZeroedBlock HashIndex::allocate(size_t capacity) const {
  return ZeroedBlock(capacity * (narrow_ ? sizeof(NarrowSlot) : sizeof(WideSlot)));
}

void HashIndex::clear() {
  ZeroedBlock fresh = allocate(kInitialCapacity);
  freeKeyCopies();
  slots_ = std::move(fresh);
  mask_ = kInitialCapacity - 1;
  count_ = 0;
}

// The columns' low bytes, zero-extended, side by side; the NULL flags are gathered in the
// same pass.
template <typename Word>
Word HashIndex::pack(const uint8_t* key, uint8_t& nulls) const {
  Word p = 0;
  for (size_t c = 0; c < packColumns_.size(); ++c) {
    const PackColumn& col = packColumns_[c];
    nulls |= key[c];
    uint64_t v;
    switch (col.bits) {
      case 8: v = key[col.offset]; break;
      case 16: {
        uint16_t x;
        std::memcpy(&x, key + col.offset, 2);
        v = x;
        break;
      }
      case 32: {
        uint32_t x;
        std::memcpy(&x, key + col.offset, 4);
        v = x;
        break;
      }
      default: std::memcpy(&v, key + col.offset, 8); break;
    }
    p |= Word{v} << col.shift;
  }
  return p;
}

bool HashIndex::lookupOf(const uint8_t* key, Lookup& out) const {
  const TupleLayout& l = keyLayout();
  if (!packed_) {
    if (tupleHasNull(l, key)) return false;
    out = {0, hashTuple(l, key), key};
    return true;
  }
  uint8_t nulls = 0;
  // Narrow keys pack in one machine word: no 128-bit shifts.
  Packed p = narrow_ ? pack<uint64_t>(key, nulls) : pack<Packed>(key, nulls);
  if (nulls) return false;
  out = {p, hashPacked(p), nullptr};
  return true;
}

bool HashIndex::matches(const WideSlot& s, const Lookup& k) const {
  if (packed_) return s.key == k.packed;
  return static_cast<uint64_t>(s.key) == k.hash &&
         compareTuples(keyLayout(), s.copy, k.key, static_cast<uint32_t>(keyLayout().types.size())) == 0;
}

void HashIndex::fill(NarrowSlot& s, const Lookup& k, RowId row) const {
  s = {static_cast<uint64_t>(k.packed), row + 1};
}

void HashIndex::fill(WideSlot& s, const Lookup& k, RowId row) const {
  uint8_t* copy = nullptr;
  if (!packed_) {
    copy = static_cast<uint8_t*>(std::malloc(keyLayout().size));
    if (!copy) throw std::bad_alloc();
    std::memcpy(copy, k.key, keyLayout().size);
  }
  s = {packed_ ? k.packed : k.hash, row + 1, copy};
}

template <typename Slot>
size_t HashIndex::probe(const Lookup& k) const {
  const Slot* s = slots<Slot>();
  for (size_t i = k.hash & mask_;; i = (i + 1) & mask_)
    if (s[i].ref == 0 || matches(s[i], k)) return i;
}

template <typename Slot>
size_t HashIndex::vacancy(uint64_t hash) const {
  const Slot* s = slots<Slot>();
  size_t i = hash & mask_;
  while (s[i].ref != 0) i = (i + 1) & mask_;
  return i;
}

size_t HashIndex::memoryBytes() const { return slots_.bytes() + (packed_ ? 0 : count_ * keyLayout().size); }

RowId HashIndex::find(const uint8_t* key) const {
  Lookup k;
  if (!lookupOf(key, k)) return kNoRow;
  return narrow_ ? findIn<NarrowSlot>(k) : findIn<WideSlot>(k);
}

void HashIndex::prefetchProbe(const uint8_t* key) const {
  Lookup k;
  if (!lookupOf(key, k)) return;
  size_t home = k.hash & mask_;
  if (narrow_)
    __builtin_prefetch(&slots<NarrowSlot>()[home]);
  else
    __builtin_prefetch(&slots<WideSlot>()[home]);
}

RowId HashIndex::findInteger(int64_t value) const {
  assert(narrow_ && singleInteger());
  uint32_t bits = packColumns_[0].bits;
  auto v = static_cast<uint64_t>(value);
  if (bits < 64) {
    // A value outside the column's range cannot be stored in it.
    int64_t lo = -(int64_t{1} << (bits - 1)), hi = (int64_t{1} << (bits - 1)) - 1;
    if (value < lo || value > hi) return kNoRow;
    v &= (uint64_t{1} << bits) - 1;
  }
  return findIn<NarrowSlot>(Lookup{v, mixHash64(v), nullptr});
}

template <typename Slot>
void HashIndex::grow() {
  size_t oldCap = mask_ + 1;
  ZeroedBlock old = allocate(oldCap * 2);
  std::swap(slots_, old);
  mask_ = oldCap * 2 - 1;
  const Slot* from = static_cast<const Slot*>(old.get());
  Slot* to = slots<Slot>();
  for (size_t i = 0; i < oldCap; ++i)
    if (from[i].ref != 0) to[vacancy<Slot>(slotHash(from[i]))] = from[i];
}

// insert() does not look for the key (the caller vouches that it is new) and takes the
// first empty slot; insertUnique() finds the key or the end of its run in one probe.
template <typename Slot>
bool HashIndex::enter(const Lookup& k, RowId row, bool checkUnique) {
  if ((count_ + 1) * 2 > mask_ + 1) grow<Slot>();  // load factor at most 1/2
  size_t i = checkUnique ? probe<Slot>(k) : vacancy<Slot>(k.hash);
  Slot& s = slots<Slot>()[i];
  if (s.ref != 0) return false;
  fill(s, k, row);
  ++count_;
  return true;
}

void HashIndex::insert(const uint8_t* key, RowId row) {
  Lookup k;
  if (!lookupOf(key, k)) return;
  narrow_ ? enter<NarrowSlot>(k, row, false) : enter<WideSlot>(k, row, false);
}

bool HashIndex::insertUnique(const uint8_t* key, RowId row) {
  Lookup k;
  if (!lookupOf(key, k)) return true;  // not entered: NULLs never match
  return narrow_ ? enter<NarrowSlot>(k, row, true) : enter<WideSlot>(k, row, true);
}

template <typename Slot>
void HashIndex::erase(const Lookup& k, RowId row) {
  Slot* s = slots<Slot>();
  size_t i = k.hash & mask_;
  while (s[i].ref != row + 1) {
    if (s[i].ref == 0) return;  // not present
    i = (i + 1) & mask_;
  }
  release(s[i]);
  // Backward-shift deletion: pull later members of the probe run into the hole when their
  // home slot does not lie cyclically in (hole, j].
  size_t hole = i;
  for (size_t j = (i + 1) & mask_; s[j].ref != 0; j = (j + 1) & mask_) {
    size_t home = slotHash(s[j]) & mask_;
    bool homeInRange = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
    if (!homeInRange) {
      s[hole] = s[j];
      hole = j;
    }
  }
  s[hole] = Slot{};
  --count_;
}

void HashIndex::remove(const uint8_t* key, RowId row) {
  Lookup k;
  if (!lookupOf(key, k)) return;
  narrow_ ? erase<NarrowSlot>(k, row) : erase<WideSlot>(k, row);
}

}  // namespace duet
