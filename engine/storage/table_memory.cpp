// Table memory (see table_memory.h).
#include "engine/storage/table_memory.h"

#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

namespace duet {
namespace {

constexpr size_t kHugePage = size_t{2} << 20;
constexpr size_t kPage = 4096;

size_t roundUp(size_t n, size_t to) { return (n + to - 1) / to * to; }

bool hugePagesWanted() {
  static const bool wanted = [] {
    const char* v = std::getenv("DUET_TABLE_HUGE_PAGES");
    return !v || std::strcmp(v, "0") != 0;
  }();
  return wanted;
}

size_t mappedSize(size_t bytes) { return bytes < kHugePage ? roundUp(bytes, kPage) : roundUp(bytes, kHugePage); }

}  // namespace

void* allocateTableMemory(size_t bytes) {
  size_t size = mappedSize(bytes);
  if (size < kHugePage) {
    // A small table's chunk: 4 KiB pages, so that its few rows do not take 2 MiB.
    void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    return p;
  }
  // Map one huge page more and trim, so the block starts on a 2 MiB boundary: only
  // aligned 2 MiB ranges can be backed by huge pages.
  void* raw = mmap(nullptr, size + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  auto start = reinterpret_cast<uintptr_t>(raw);
  uintptr_t aligned = roundUp(start, kHugePage);
  if (aligned > start) munmap(raw, aligned - start);
  uintptr_t end = start + size + kHugePage;
  if (end > aligned + size) munmap(reinterpret_cast<void*>(aligned + size), end - (aligned + size));
  return reinterpret_cast<void*>(aligned);
}

void adviseHugePages(void* p, size_t bytes) {
  // Advice: a kernel without THP ignores it, and failure changes nothing.
  if (p && mappedSize(bytes) >= kHugePage && hugePagesWanted()) madvise(p, mappedSize(bytes), MADV_HUGEPAGE);
}

void releaseTableMemory(void* p, size_t bytes) {
  if (p) munmap(p, mappedSize(bytes));
}

}  // namespace duet
