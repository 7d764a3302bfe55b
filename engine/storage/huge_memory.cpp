#include "engine/storage/huge_memory.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <new>

namespace duet {
namespace {

constexpr size_t kExtentBytes = size_t{16} << 20;

size_t roundUpToHugePage(size_t bytes) { return (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes; }

// A 2 MiB-aligned private anonymous mapping of `bytes` (a multiple of 2 MiB): map a huge
// page more, then unmap the unaligned head and tail.
void* mapHuge(size_t bytes) {
  size_t padded = bytes + kHugePageBytes;
  void* raw = ::mmap(nullptr, padded, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  auto start = reinterpret_cast<uintptr_t>(raw);
  uintptr_t aligned = (start + kHugePageBytes - 1) & ~(uintptr_t{kHugePageBytes} - 1);
  if (aligned > start) ::munmap(raw, aligned - start);
  size_t tail = start + padded - (aligned + bytes);
  if (tail > 0) ::munmap(reinterpret_cast<void*>(aligned + bytes), tail);
  // Advice only: without THP the mapping works the same on 4 KiB pages.
  ::madvise(reinterpret_cast<void*>(aligned), bytes, MADV_HUGEPAGE);
  return reinterpret_cast<void*>(aligned);
}

}  // namespace

void* allocateZeroed(size_t bytes) {
  if (bytes >= kHugePageBytes) return mapHuge(roundUpToHugePage(bytes));
  void* p = std::calloc(1, bytes ? bytes : 1);
  if (!p) throw std::bad_alloc();
  return p;
}

void freeZeroed(void* p, size_t bytes) {
  if (!p) return;
  if (bytes >= kHugePageBytes) {
    ::munmap(p, roundUpToHugePage(bytes));
  } else {
    std::free(p);
  }
}

ChunkExtents::~ChunkExtents() {
  for (auto [p, bytes] : extents_) ::munmap(p, bytes);
}

uint8_t* ChunkExtents::allocate(size_t bytes) {
  bytes = (bytes + 63) / 64 * 64;
  if (next_ == nullptr || static_cast<size_t>(end_ - next_) < bytes) {
    size_t size = roundUpToHugePage(std::max(bytes, kExtentBytes));
    extents_.reserve(extents_.size() + 1);  // so the push below cannot throw and leak
    void* p = mapHuge(size);
    extents_.emplace_back(p, size);
    next_ = static_cast<uint8_t*>(p);
    end_ = next_ + size;
  }
  uint8_t* p = next_;
  next_ += bytes;
  return p;
}

}  // namespace duet
