// rt::JoinTable (compiler/runtime/query_runtime.h): the key filter generated probes test
// before next() - every key the table holds has its bit set, keys it lacks mostly do not,
// and a table past kFilterKeys keys has none.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "compiler/runtime/query_runtime.h"
#include "engine/types/hash.h"

using duet::SqlType;
using duet::TupleLayout;
using duet::TypeId;
using duet::rt::JoinTable;

namespace {

const TupleLayout kLayout = TupleLayout::of({SqlType{TypeId::Int8, -1}});

std::vector<uint8_t> tupleOf(int64_t v) {
  std::vector<uint8_t> t(kLayout.size, 0);
  std::memcpy(t.data() + kLayout.offsets[0], &v, sizeof v);
  return t;
}

uint64_t hashOf(int64_t v) { return duet::hashMix64(static_cast<uint64_t>(v)); }

bool filterHas(const JoinTable& t, uint64_t hash) {
  uint64_t bit = (hash >> 32) & t.filterMask();
  return (t.filterWords()[bit >> 6] >> (bit & 63)) & 1;
}

}  // namespace

TEST_CASE("JoinTable: the key filter holds every key and few others", "[runtime][join]") {
  JoinTable t(kLayout, kLayout);
  for (int64_t v = 0; v < 1000; v += 2) {
    auto tuple = tupleOf(v);
    t.insert(tuple.data(), tuple.data(), hashOf(v));
  }
  t.finish();
  REQUIRE(t.filterWords() != nullptr);
  int absentSet = 0;
  for (int64_t v = 0; v < 1000; ++v) {
    if (v % 2 == 0) {
      CHECK(filterHas(t, hashOf(v)));
      uint64_t cursor = 0;
      auto key = tupleOf(v);
      CHECK(t.next(key.data(), hashOf(v), &cursor) != nullptr);
    } else {
      absentSet += filterHas(t, hashOf(v));
    }
  }
  CHECK(absentSet < 50);  // 16 bits a key: about one in sixteen absent keys passes
}

TEST_CASE("JoinTable: an empty table's filter passes nothing; a big table has none", "[runtime][join]") {
  JoinTable empty(kLayout, kLayout);
  empty.finish();
  REQUIRE(empty.filterWords() != nullptr);
  for (int64_t v = 0; v < 100; ++v) CHECK_FALSE(filterHas(empty, hashOf(v)));

  JoinTable big(kLayout, kLayout);
  for (int64_t v = 0; v <= static_cast<int64_t>(JoinTable::kFilterKeys); ++v) {
    auto tuple = tupleOf(v);
    big.insert(tuple.data(), tuple.data(), hashOf(v));
  }
  big.finish();
  CHECK(big.filterWords() == nullptr);
}
