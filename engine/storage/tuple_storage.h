// Tuples made for one call or one row (a routine's frame, its arguments, its result): a
// zeroed, 16-byte aligned buffer on the stack when small, and a field copy between two
// layouts. Used on per-call paths, which should not allocate.
#pragma once
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>

#include "engine/storage/layout.h"

namespace duet {

class TupleStorage {
 public:
  explicit TupleStorage(uint32_t size) {
    if (size > sizeof local_) heap_.reset(new (std::align_val_t{16}) uint8_t[size]);
    data_ = heap_ ? heap_.get() : local_;
    std::memset(data_, 0, size);
  }
  TupleStorage(const TupleStorage&) = delete;
  TupleStorage& operator=(const TupleStorage&) = delete;
  uint8_t* data() { return data_; }

 private:
  struct AlignedDelete {
    void operator()(uint8_t* p) const { ::operator delete[](p, std::align_val_t{16}); }
  };
  alignas(16) uint8_t local_[256];
  std::unique_ptr<uint8_t[], AlignedDelete> heap_;
  uint8_t* data_;
};

// A value of w bytes (a physicalSize): constant-size copies, which compile to moves.
inline void copyValueBytes(uint8_t* to, const uint8_t* from, uint32_t w) {
  switch (w) {
    case 1: *to = *from; return;
    case 2: std::memcpy(to, from, 2); return;
    case 4: std::memcpy(to, from, 4); return;
    case 8: std::memcpy(to, from, 8); return;
    default: std::memcpy(to, from, 16); return;
  }
}

// Copies field `from` of one tuple into field `to` of another (same physical type), with
// its null flag. Strings are copied as references: the source must outlive the target.
inline void copyField(const TupleLayout& fromLayout, const uint8_t* fromTuple, size_t from, const TupleLayout& toLayout,
                      uint8_t* toTuple, size_t to) {
  copyValueBytes(toTuple + toLayout.offsets[to], fromTuple + fromLayout.offsets[from],
                 physicalSize(toLayout.types[to].id));
  toTuple[toLayout.nullOffset(to)] = fromTuple[fromLayout.nullOffset(from)];
}

}  // namespace duet
