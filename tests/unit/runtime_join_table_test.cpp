// rt::JoinTable (compiler/runtime/query_runtime.h): the key filter generated probes test
// before next() - every key the table holds has its bit set, keys it lacks mostly do not,
// and a table past kFilterKeys keys has none; keys of a dense integer range bucketed by
// value, probed like hashed ones.
#include <catch2/catch.hpp>

#include <algorithm>
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

namespace {

// A table of `keys` (int4, or int8 with `wide`), each row holding its key and its place;
// every key from below the lowest to past the highest is probed, and its rows compared
// with the keys inserted. Returns whether the table took a bucket per key value.
bool probesMatch(const std::vector<int64_t>& keys, bool wide) {
  TupleLayout keyLayout = TupleLayout::of({SqlType{wide ? TypeId::Int8 : TypeId::Int4, -1}});
  TupleLayout rowLayout = TupleLayout::of({SqlType{TypeId::Int8, -1}, SqlType{TypeId::Int8, -1}});
  auto keyOf = [&](int64_t v) {
    std::vector<uint8_t> t(keyLayout.size, 0);
    auto narrow = static_cast<int32_t>(v);
    std::memcpy(t.data() + keyLayout.offsets[0], wide ? static_cast<const void*>(&v) : &narrow, wide ? 8 : 4);
    return t;
  };
  auto hash = [](int64_t v) { return duet::hashMix64(static_cast<uint64_t>(v)); };
  JoinTable t(keyLayout, rowLayout);
  for (size_t i = 0; i < keys.size(); ++i) {
    std::vector<uint8_t> row(rowLayout.size, 0);
    auto place = static_cast<int64_t>(i);
    std::memcpy(row.data() + rowLayout.offsets[0], &keys[i], 8);
    std::memcpy(row.data() + rowLayout.offsets[1], &place, 8);
    auto key = keyOf(keys[i]);
    t.insert(key.data(), row.data(), hash(keys[i]));
  }
  t.finish();
  auto [low, high] = std::minmax_element(keys.begin(), keys.end());
  for (int64_t v = *low - 3; v <= *high + 3; ++v) {
    std::vector<int64_t> expected, found;
    for (size_t i = 0; i < keys.size(); ++i)
      if (keys[i] == v) expected.push_back(static_cast<int64_t>(i));
    auto key = keyOf(v);
    uint64_t cursor = 0;
    while (const uint8_t* row = t.next(key.data(), hash(v), &cursor)) {
      int64_t k, place;
      std::memcpy(&k, row + rowLayout.offsets[0], 8);
      std::memcpy(&place, row + rowLayout.offsets[1], 8);
      CHECK(k == v);
      found.push_back(place);
    }
    std::sort(found.begin(), found.end());
    CHECK(found == expected);
  }
  return t.bucketPerKey();
}

}  // namespace

TEST_CASE("JoinTable: keys of a dense range get a bucket per value, and probes find what hashing would",
          "[runtime][join]") {
  std::vector<int64_t> dense, repeated, negative, sparse;
  for (int64_t v = 1; v <= 5000; ++v) dense.push_back((v * 7919) % 5000 + 1);  // 1..5000, shuffled
  for (int64_t v = 0; v < 6000; ++v) repeated.push_back(100 + v % 600);        // ten rows a key
  for (int64_t v = -300; v < 300; v += 2) negative.push_back(v);               // int4 across zero
  for (int64_t v = 0; v < 1000; ++v) sparse.push_back(v * 1000);               // too wide a range
  CHECK(probesMatch(dense, false));
  CHECK(probesMatch(dense, true));
  CHECK(probesMatch(repeated, true));
  CHECK(probesMatch({42}, false));
  // A negative key's word is near 2^32 (int4) or 2^64 (int8), a positive one's small: no
  // dense range across zero, the keys are hashed.
  CHECK_FALSE(probesMatch(negative, false));
  CHECK_FALSE(probesMatch(negative, true));
  CHECK_FALSE(probesMatch(sparse, true));
}
