// The unique hash index on its own, against a std::map: each slot layout (packed keys of up
// to 64 bits, up to 128 bits, generic keys) through growth from the initial capacity,
// churn that backward-shifts probe runs, and draining; keys with negative values and NULLs.
#include <catch2/catch.hpp>

#include <functional>
#include <limits>
#include <map>
#include <random>
#include <string>

#include "engine/storage/hash_index.h"
#include "tests/unit/storage_test_util.h"

using namespace duet;
using duet::test::TupleBuf;

namespace {

// Key number k as a key tuple: distinct k give distinct keys, except that keys with a NULL
// column are never entered.
using KeyOf = std::function<void(TupleBuf&, int)>;

void checkAgainstModel(const std::vector<TypeId>& types, const KeyOf& keyOf, const std::function<bool(int)>& hasNull) {
  std::vector<SqlType> sqlTypes;
  for (TypeId t : types) sqlTypes.push_back({t});
  TupleLayout layout = TupleLayout::of(sqlTypes);
  std::vector<uint32_t> columns;
  for (uint32_t c = 0; c < types.size(); ++c) columns.push_back(c);
  HashIndex index("h", columns, layout);
  std::map<int, RowId> model;
  std::mt19937 rng(3);
  constexpr int kKeys = 3000;
  // Row k * 5 for key k: row 0 is a row like any other.
  auto rowOf = [](int k) { return static_cast<RowId>(k) * 5; };
  // Built once: generic-mode copies point at the key's strings, which must outlive them.
  std::vector<TupleBuf> keys;
  keys.reserve(kKeys);
  for (int k = 0; k < kKeys; ++k) keyOf(keys.emplace_back(layout), k);
  auto find = [&](int k) { return index.find(keys[k].data()); };
  auto verify = [&] {
    REQUIRE(index.size() == model.size());
    for (int k = 0; k < kKeys; ++k) {
      auto it = model.find(k);
      INFO("key " << k);
      REQUIRE(find(k) == (it == model.end() ? kNoRow : it->second));
    }
  };
  auto step = [&](int insertPercent) {
    int k = static_cast<int>(rng() % kKeys);
    const TupleBuf& key = keys[k];
    bool present = model.count(k) > 0;
    if (static_cast<int>(rng() % 100) < insertPercent) {
      // A second row with a present key is refused; a NULL key is accepted, not entered.
      bool unique = rng() % 2;
      if (unique) {
        REQUIRE(index.insertUnique(key.data(), rowOf(k) + 1) == !present);
        if (!present && !hasNull(k)) model[k] = rowOf(k) + 1;
      } else if (!present) {
        index.insert(key.data(), rowOf(k));
        if (!hasNull(k)) model[k] = rowOf(k);
      }
    } else if (present) {
      index.remove(key.data(), model[k]);
      model.erase(k);
    } else {
      index.remove(key.data(), rowOf(k));  // absent: nothing changes
    }
  };
  for (int i = 0; i < 6000; ++i) step(90);  // grows from the initial capacity
  verify();
  for (int i = 0; i < 20000; ++i) step(50);
  verify();
  for (int i = 0; i < 30000 && !model.empty(); ++i) step(5);
  verify();
  index.clear();
  model.clear();
  verify();
  for (int i = 0; i < 2000; ++i) step(80);
  verify();
}

}  // namespace

TEST_CASE("hash index with 64-bit packed keys: negative values, NULLs, growth, deletion", "[storage][hash]") {
  // (a, b) over negative and positive values, so that each field's sign bits must stay
  // within the field; NULL in either column now and then.
  checkAgainstModel(
      {TypeId::Int4, TypeId::Int4},
      [](TupleBuf& key, int k) {
        key.set<int32_t>(0, k % 13 - 6).set<int32_t>(1, k / 13 - 100);
        if (k % 17 == 0) key.null(k % 2);
      },
      [](int k) { return k % 17 == 0; });
  checkAgainstModel(
      {TypeId::Int8},
      [](TupleBuf& key, int k) {
        key.set<int64_t>(0, (k % 2 ? -1 : 1) * static_cast<int64_t>(k) * 1000000007LL);
        if (k == 5) key.null(0);
      },
      [](int k) { return k == 5; });
  checkAgainstModel(
      {TypeId::Int2, TypeId::Bool, TypeId::Int4},
      [](TupleBuf& key, int k) {
        key.set<int16_t>(0, static_cast<int16_t>(-k / 8)).set<uint8_t>(1, k % 2).set<int32_t>(2, -(k % 8));
      },
      [](int) { return false; });
}

TEST_CASE("hash index with 128-bit packed keys and generic keys", "[storage][hash]") {
  checkAgainstModel(
      {TypeId::Int8, TypeId::Int4},
      [](TupleBuf& key, int k) {
        key.set<int64_t>(0, -(static_cast<int64_t>(k % 7) << 40)).set<int32_t>(1, k / 7 - 50);
        if (k % 19 == 0) key.null(1);
      },
      [](int k) { return k % 19 == 0; });
  checkAgainstModel(
      {TypeId::Int4, TypeId::Text},
      [](TupleBuf& key, int k) {
        key.set<int32_t>(0, k % 3 - 1).str(1, std::to_string(k / 3));
        if (k % 23 == 0) key.null(0);
      },
      [](int k) { return k % 23 == 0; });
}

TEST_CASE("hash index single-integer lookups", "[storage][hash]") {
  TupleLayout layout = TupleLayout::of({{TypeId::Int2}});
  HashIndex small("h", {0}, layout);
  REQUIRE(small.singleInteger());
  for (int v : {-32768, -1, 0, 1, 32767}) {
    TupleBuf key(layout);
    key.set<int16_t>(0, static_cast<int16_t>(v));
    small.insert(key.data(), static_cast<RowId>(v + 40000));
  }
  CHECK(small.findInteger(-32768) == 7232);
  CHECK(small.findInteger(-1) == 39999);
  CHECK(small.findInteger(32767) == 72767);
  CHECK(small.findInteger(65535) == kNoRow);  // -1's bits, but out of int2's range
  CHECK(small.findInteger(-32769) == kNoRow);
  CHECK(small.findInteger(2) == kNoRow);

  TupleLayout wide = TupleLayout::of({{TypeId::Int8}});
  HashIndex big("h", {0}, wide);
  for (int64_t v : {std::numeric_limits<int64_t>::min(), int64_t{-1}, std::numeric_limits<int64_t>::max()}) {
    TupleBuf key(wide);
    key.set<int64_t>(0, v);
    big.insert(key.data(), static_cast<RowId>(v & 0xff));
  }
  CHECK(big.findInteger(std::numeric_limits<int64_t>::min()) == 0);
  CHECK(big.findInteger(-1) == 0xff);
  CHECK(big.findInteger(std::numeric_limits<int64_t>::max()) == 0xff);
  CHECK(big.findInteger(0) == kNoRow);
}
