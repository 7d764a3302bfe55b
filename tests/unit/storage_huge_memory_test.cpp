// Huge-page table memory (engine/storage/huge_memory.h): aligned, zeroed blocks, and tables
// whose chunks past the first come from extents, in both storage kinds, through TRUNCATE
// and its rollback; collapsing split huge pages back keeps their contents.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>

#include "engine/storage/huge_memory.h"
#include "engine/storage/table.h"
#include "tests/unit/storage_test_util.h"

using namespace duet;
using duet::test::TupleBuf;

namespace {

void fill(Table& t, UndoLog& undo, uint32_t n, int64_t base) {
  for (uint32_t i = 0; i < n; ++i) {
    TupleBuf b(t.layout());
    b.set<int64_t>(0, base + i).str(1, "row").set<int32_t>(2, static_cast<int32_t>(i % 7));
    t.insert(b.data(), undo);
  }
}

// The sum of column 0 over live rows, read through the chunk directory as scans do.
int64_t sumOfFirstColumn(Table& t) {
  int64_t sum = 0;
  std::vector<uint8_t> out(t.layout().size);
  for (uint32_t c = 0; c < t.directory().count; ++c) {
    const Chunk* chunk = t.directory().chunks[c];
    for (uint32_t s = 0; s < chunk->used; ++s) {
      RowId row = (RowId{c} << kChunkShift) | s;
      if (!t.isLive(row)) continue;
      t.read(row, out.data());
      sum += test::field<int64_t>(t.layout(), out.data(), 0);
    }
  }
  return sum;
}

}  // namespace

TEST_CASE("large zeroed blocks are 2 MiB aligned mappings, small ones calloc", "[storage]") {
  size_t bytes = kHugePageBytes * 2 + 100;
  auto* p = static_cast<uint8_t*>(allocateZeroed(bytes));
  CHECK(reinterpret_cast<uintptr_t>(p) % kHugePageBytes == 0);
  CHECK(p[0] == 0);
  CHECK(p[bytes - 1] == 0);
  p[bytes - 1] = 1;
  freeZeroed(p, bytes);

  ZeroedBlock small(64);
  CHECK(static_cast<uint8_t*>(small.get())[63] == 0);
  ZeroedBlock moved = std::move(small);
  CHECK(small.get() == nullptr);
  CHECK(moved.get() != nullptr);
}

TEST_CASE("chunk extents hand out aligned, zeroed pieces across extents", "[storage]") {
  ChunkExtents extents;
  uint8_t* a = extents.allocate(100);
  uint8_t* b = extents.allocate(20 << 20);  // larger than an extent: one of its own
  uint8_t* c = extents.allocate(1);
  for (uint8_t* p : {a, b, c}) CHECK(reinterpret_cast<uintptr_t>(p) % 64 == 0);
  CHECK(b[(20 << 20) - 1] == 0);
  CHECK(c != a);
}

TEST_CASE("tables past one chunk live in extents in both stores, through TRUNCATE", "[storage]") {
  for (StorageKind kind : {StorageKind::Row, StorageKind::Column}) {
    Table t("t", {{"a", {TypeId::Int8}}, {"b", {TypeId::Text}}, {"c", {TypeId::Int4}}}, kind);
    UndoLog undo;
    const uint32_t n = kChunkRows * 3 + 11;
    fill(t, undo, n, 0);
    undo.commit();
    REQUIRE(t.directory().count == 4);
    CHECK_FALSE(t.directory().chunks[0]->inExtent);
    CHECK(t.directory().chunks[1]->inExtent);
    CHECK(t.directory().chunks[3]->inExtent);
    const int64_t expected = int64_t{n} * (n - 1) / 2;
    CHECK(sumOfFirstColumn(t) == expected);

    // TRUNCATE sets the chunks and their extents aside; rows added after it (in new
    // extents) go at rollback, and the old rows are back.
    t.truncate(undo);
    fill(t, undo, kChunkRows + 5, 1000000);
    CHECK(t.directory().count == 2);
    undo.rollback();
    CHECK(t.liveRowCount() == n);
    CHECK(sumOfFirstColumn(t) == expected);

    // At commit the set-aside chunks are freed; the new ones stay readable.
    t.truncate(undo);
    fill(t, undo, kChunkRows + 5, 10);
    undo.commit();
    CHECK(t.liveRowCount() == kChunkRows + 5);
    CHECK(sumOfFirstColumn(t) == int64_t{kChunkRows + 5} * (kChunkRows + 4) / 2 + 10 * int64_t{kChunkRows + 5});
  }
}

TEST_CASE("collapsing huge mappings keeps their contents and stops at a fork", "[storage]") {
  const size_t bytes = 4 * kHugePageBytes;
  ZeroedBlock block(bytes);
  auto* p = static_cast<uint8_t*>(block.get());
  for (size_t i = 0; i < bytes; i += 4096) p[i] = static_cast<uint8_t>(i / 4096);
  // A child shares the pages; the parent's first writes split the huge pages they hit.
  pid_t child = ::fork();
  if (child == 0) {
    ::pause();
    ::_exit(0);
  }
  REQUIRE(child > 0);
  for (size_t i = 0; i < bytes; i += 64 * 4096) p[i] ^= 0xff;
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);

  uint64_t forks = forksSoFar();
  CHECK(forks > 0);                                          // the fork above was counted
  CollapseResult stopped = collapseHugeMappings(forks - 1);  // as if a fork came since
  CHECK(stopped.interrupted);
  CHECK(stopped.advised == 0);
  CollapseResult done = collapseHugeMappings(forks);
  CHECK_FALSE(done.interrupted);
  CHECK(done.advised >= bytes);
  CHECK(done.shared == 0);
  for (size_t i = 0; i < bytes; i += 4096) {
    uint8_t expected = static_cast<uint8_t>(i / 4096);
    if (i % (64 * 4096) == 0) expected ^= 0xff;
    REQUIRE(p[i] == expected);
  }
}

TEST_CASE("while a child lives, only ranges the parent copied nearly all of are joined", "[storage]") {
  const size_t bytes = 4 * kHugePageBytes;
  ZeroedBlock block(bytes);
  auto* p = static_cast<uint8_t*>(block.get());
  for (size_t i = 0; i < bytes; i += 4096) p[i] = static_cast<uint8_t>(i / 4096 + 1);
  int go[2];
  REQUIRE(::pipe(go) == 0);
  pid_t child = ::fork();
  if (child == 0) {
    // Waits until the parent has joined, then checks that its own view never moved.
    char byte;
    if (::read(go[0], &byte, 1) != 1) ::_exit(2);
    for (size_t i = 0; i < bytes; i += 4096)
      if (p[i] != static_cast<uint8_t>(i / 4096 + 1)) ::_exit(1);
    ::_exit(0);
  }
  REQUIRE(child > 0);
  // The first range written all over (copied whole), the others on one page in 64.
  for (size_t i = 0; i < kHugePageBytes; i += 4096) p[i] ^= 0xff;
  for (size_t i = kHugePageBytes; i < bytes; i += 64 * 4096) p[i] ^= 0xff;
  CollapseResult alive = collapseHugeMappings(forksSoFar(), 88);
  CHECK_FALSE(alive.interrupted);
  CHECK(alive.shared >= 3 * kHugePageBytes);  // other mappings of this process may count too
  CHECK(alive.advised >= kHugePageBytes);
  REQUIRE(::write(go[1], "x", 1) == 1);
  int status = 0;
  ::waitpid(child, &status, 0);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  ::close(go[0]);
  ::close(go[1]);
  for (size_t i = 0; i < bytes; i += 4096) {
    uint8_t expected = static_cast<uint8_t>(i / 4096 + 1);
    if (i < kHugePageBytes || i % (64 * 4096) == 0) expected ^= 0xff;
    REQUIRE(p[i] == expected);
  }
}
