// Memory for the bulk of table data laid out so that fork() stays cheap as data grow.
//
// fork() copies the parent's page tables: one entry per 4 KiB page, but one per 2 MiB where
// the memory is on a transparent huge page. glibc's malloc puts large blocks on huge pages
// only in part (its per-thread heaps grow 4 KiB at a time), so at W = 10 most of TPC-C sat
// on 4 KiB pages and a fork took 30 ms. Chunks past a table's first, and large index
// arrays, come from here instead: private anonymous mappings (copy-on-write across fork,
// never MAP_SHARED), aligned to 2 MiB and advised MADV_HUGEPAGE, which the kernel honours
// with THP set to "madvise" or "always". A first write after a fork still copies 4 KiB:
// the kernel splits a shared huge page's mapping rather than copy 2 MiB, and the split
// stays after the child is gone, so under steady writes forks cost what they cost on
// 4 KiB pages again; collapseHugeMappings() joins split pages back.
#pragma once
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace duet {

inline constexpr size_t kHugePageBytes = size_t{2} << 20;

// Zeroed memory: a block of at least a huge page is a mapping of its own (2 MiB aligned,
// MADV_HUGEPAGE); a smaller one comes from calloc. Throws std::bad_alloc.
void* allocateZeroed(size_t bytes);
void freeZeroed(void* p, size_t bytes);  // bytes as allocated

// One block from allocateZeroed, owned (hash index slot arrays).
class ZeroedBlock {
 public:
  ZeroedBlock() = default;
  explicit ZeroedBlock(size_t bytes) : p_(allocateZeroed(bytes)), bytes_(bytes) {}
  ZeroedBlock(ZeroedBlock&& o) noexcept : p_(std::exchange(o.p_, nullptr)), bytes_(o.bytes_) {}
  ZeroedBlock& operator=(ZeroedBlock&& o) noexcept {
    std::swap(p_, o.p_);
    std::swap(bytes_, o.bytes_);
    return *this;
  }
  ~ZeroedBlock() {
    if (p_) freeZeroed(p_, bytes_);
  }
  void* get() const { return p_; }
  size_t bytes() const { return p_ ? bytes_ : 0; }

 private:
  void* p_ = nullptr;
  size_t bytes_ = 0;
};

// fork()s of this process so far (counted by a pthread_atfork handler): a fork after a
// collapse began may share the pages it would join, so the collapse stops.
uint64_t forksSoFar();

struct CollapseResult {
  size_t advised = 0;        // bytes of 2 MiB ranges advised (already huge ones cost almost nothing)
  size_t shared = 0;         // bytes of ranges left alone: a live child still shares their pages
  bool interrupted = false;  // a fork came
};
// For each 2 MiB range of every mapping allocateZeroed and ChunkExtents made, one at a time:
// MADV_COLLAPSE, which copies a split range into a fresh huge page (a range still mapped
// huge costs almost nothing). With minOwnPercent > 0, only ranges at least that share of
// whose pages are this process's alone (/proc/self/pagemap: mapped only here, or not yet
// touched): a page a live forked child still shares would be copied for a second time (the
// child keeps its own), so such ranges are left alone. With no child alive, every page is
// the process's alone, and 0 saves asking. Any thread. Stops before the next range once
// forksSoFar() is no longer `forksAtStart`.
CollapseResult collapseHugeMappings(uint64_t forksAtStart, unsigned minOwnPercent = 0);

// The chunks of one table after its first: bump-allocated, zeroed, from huge-page extents
// of 16 MiB or more, all freed together with the table (or its truncated chunk set). A
// table's first chunk stays on calloc, so the many small tables pay no 2 MiB page each.
class ChunkExtents {
 public:
  ChunkExtents() = default;
  ChunkExtents(const ChunkExtents&) = delete;
  ChunkExtents& operator=(const ChunkExtents&) = delete;
  ~ChunkExtents();
  uint8_t* allocate(size_t bytes);  // 64-byte aligned

 private:
  std::vector<std::pair<void*, size_t>> extents_;
  uint8_t* next_ = nullptr;
  uint8_t* end_ = nullptr;
};

}  // namespace duet
