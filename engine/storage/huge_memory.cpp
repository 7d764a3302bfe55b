#include "engine/storage/huge_memory.h"

#include <fcntl.h>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <iterator>
#include <map>
#include <mutex>
#include <new>

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25  // Linux 6.1; older kernels answer EINVAL, and nothing changes
#endif

namespace duet {
namespace {

constexpr size_t kExtentBytes = size_t{16} << 20;

// Every huge mapping by address, for collapseHugeMappings; the mutex also keeps a mapping
// from going while it is being collapsed.
std::mutex& registryMutex() {
  static std::mutex m;
  return m;
}
std::map<uintptr_t, size_t>& registry() {
  static std::map<uintptr_t, size_t> r;
  return r;
}

std::atomic<uint64_t> forks{0};
const bool forkCounterInstalled = [] {
  ::pthread_atfork([] { forks.fetch_add(1, std::memory_order_relaxed); }, nullptr, nullptr);
  return true;
}();

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
  std::lock_guard lock(registryMutex());
  registry().emplace(aligned, bytes);
  return reinterpret_cast<void*>(aligned);
}

void unmapHuge(void* p, size_t bytes) {
  std::lock_guard lock(registryMutex());
  registry().erase(reinterpret_cast<uintptr_t>(p));
  ::munmap(p, bytes);
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
    unmapHuge(p, roundUpToHugePage(bytes));
  } else {
    std::free(p);
  }
}

uint64_t forksSoFar() {
  (void)forkCounterInstalled;
  return forks.load(std::memory_order_relaxed);
}

namespace {

constexpr size_t kPageBytes = 4096;
constexpr size_t kPagesPerHugePage = kHugePageBytes / kPageBytes;

// Whether at least `minOwnPages` pages of the 2 MiB range at `start` are this process's
// alone: present and exclusively mapped (bit 56 of a pagemap entry), or not present.
bool mostlyOwn(int pagemap, uintptr_t start, size_t minOwnPages) {
  uint64_t entries[kPagesPerHugePage];
  if (pagemap < 0 ||
      ::pread(pagemap, entries, sizeof entries, static_cast<off_t>(start / kPageBytes * sizeof(uint64_t))) !=
          static_cast<ssize_t>(sizeof entries))
    return true;  // no pagemap to ask: join, as when no child is alive
  size_t own = 0;
  for (uint64_t e : entries) own += !((e >> 63) & 1) || ((e >> 56) & 1);
  return own >= minOwnPages;
}

}  // namespace

CollapseResult collapseHugeMappings(uint64_t forksAtStart, unsigned minOwnPercent) {
  CollapseResult result;
  size_t minOwnPages = (kPagesPerHugePage * std::min(minOwnPercent, 100u) + 99) / 100;
  int pagemap = minOwnPages > 0 ? ::open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC) : -1;
  uintptr_t next = 0;
  for (;;) {
    if (forksSoFar() != forksAtStart) {
      result.interrupted = true;
      break;
    }
    std::lock_guard lock(registryMutex());
    auto it = registry().upper_bound(next);  // the mapping holding `next`, or the one after
    if (it != registry().begin() && std::prev(it)->first + std::prev(it)->second > next) --it;
    if (it == registry().end()) break;
    uintptr_t range = std::max(next, it->first);
    if (minOwnPages == 0 || mostlyOwn(pagemap, range, minOwnPages)) {
      ::madvise(reinterpret_cast<void*>(range), kHugePageBytes, MADV_COLLAPSE);
      result.advised += kHugePageBytes;
    } else {
      result.shared += kHugePageBytes;
    }
    next = range + kHugePageBytes;
  }
  if (pagemap >= 0) ::close(pagemap);
  return result;
}

ChunkExtents::~ChunkExtents() {
  for (auto [p, bytes] : extents_) unmapHuge(p, bytes);
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
