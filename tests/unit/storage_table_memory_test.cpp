// Table memory blocks (table_memory.h): zeroed, writable, and 2 MiB-aligned when large.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>

#include "engine/storage/table_memory.h"

using namespace duet;

TEST_CASE("table memory is zeroed and large blocks start on a 2 MiB boundary", "[storage]") {
  for (size_t bytes : {size_t{1}, size_t{5000}, size_t{1} << 20, (size_t{2} << 20) + 1, size_t{7} << 20}) {
    auto* p = static_cast<uint8_t*>(allocateTableMemory(bytes));
    REQUIRE(p != nullptr);
    if (bytes >= (size_t{2} << 20)) CHECK(reinterpret_cast<uintptr_t>(p) % (size_t{2} << 20) == 0);
    CHECK(p[0] == 0);
    CHECK(p[bytes - 1] == 0);
    adviseHugePages(p, bytes);
    std::memset(p, 0xab, bytes);  // every byte asked for is writable
    CHECK(p[bytes - 1] == 0xab);
    releaseTableMemory(p, bytes);
  }
}
