// Large blocks of table memory (row-store chunks): private anonymous mappings, so fork()
// snapshots see them copy-on-write. Blocks of 2 MiB or more are laid out on 2 MiB
// boundaries, so that they can be offered to the kernel for transparent huge pages
// (MADV_HUGEPAGE; THP is "madvise" on common distributions).
// Huge pages matter for random row access: a table of tens of MiB spans thousands of 4 KiB
// pages, more than the TLB holds, so every row lookup would also walk the page table; and
// a growing table takes one page fault per 2 MiB instead of per 4 KiB.
// DUET_TABLE_HUGE_PAGES=0 in the environment keeps 4 KiB pages (for comparisons).
#pragma once
#include <cstddef>

namespace duet {

// Zeroed memory of at least `bytes`; throws std::bad_alloc. Release with the same size.
void* allocateTableMemory(size_t bytes);
// Asks for huge pages on a block from allocateTableMemory (none below 2 MiB). Once asked,
// touching one byte commits 2 MiB: the caller decides when that pays.
void adviseHugePages(void* p, size_t bytes);
void releaseTableMemory(void* p, size_t bytes);

}  // namespace duet
