// Generic ordered-index keys behind a packed prefix (ordered_index.h): an int column, then
// a string column whose first bytes go into the prefix. Strings share long beginnings (so
// prefixes tie and the full comparison must decide), are empty, NULL, or (char(n)) differ
// only in trailing blanks. Every range is checked against compareTuples, the comparison
// SQL uses, over the same key tuples.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <string>

#include "engine/storage/key_ops.h"
#include "engine/storage/storage_runtime.h"
#include "engine/storage/table.h"
#include "tests/unit/storage_test_util.h"

using namespace duet;
using duet::test::TupleBuf;

namespace {

std::string randomString(std::mt19937& rng) {
  static const size_t kShared[] = {0, 1, 14, 15, 16, 23};  // around the prefix's 15 bytes
  std::string s(kShared[rng() % 6], 'p');
  for (size_t n = rng() % 4; n > 0; --n) s += "ab "[rng() % 3];
  return s;
}

// The ids of the rows in index order from the first entry not before (key, columns) on.
std::vector<int32_t> idsFrom(const Table& t, const Index* idx, const uint8_t* key, uint32_t columns) {
  DuetIndexRange range;
  duet_index_range_open(&range, idx, key, columns, true, nullptr, 0, true, false);
  std::vector<int32_t> ids;
  std::vector<uint8_t> row(t.layout().size);
  for (RowId r; (r = duet_index_range_next(&range)) != kNoRow;) {
    t.read(r, row.data());
    ids.push_back(test::field<int32_t>(t.layout(), row.data(), 2));
  }
  return ids;
}

}  // namespace

TEST_CASE("ordered index with a string prefix orders and bounds like compareTuples", "[storage][index]") {
  std::mt19937 rng(11);
  for (TypeId stringType : {TypeId::Varchar, TypeId::Char}) {
    SqlType st = stringType == TypeId::Char ? SqlType{TypeId::Char, 30 + 4} : SqlType{TypeId::Varchar, -1};
    Table t("t", {{"a", {TypeId::Int4}}, {"s", st}, {"id", {TypeId::Int4}}}, StorageKind::Row);
    UndoLog undo;
    Index* idx = t.createIndex("t_as", {0, 1}, IndexKind::Ordered, false, undo);
    const TupleLayout& kl = idx->keyLayout();
    std::vector<TupleBuf> keys;  // per id: its key tuple (the strings live in the TupleBuf)
    for (int id = 0; id < 300; ++id) {
      int32_t a = static_cast<int32_t>(rng() % 3) - 1;
      bool null = rng() % 12 == 0;
      std::string s = randomString(rng);
      TupleBuf row(t.layout());
      row.set<int32_t>(0, a).set<int32_t>(2, id);
      null ? row.null(1) : row.str(1, s);
      t.insert(row.data(), undo);
      TupleBuf key(kl);
      key.set<int32_t>(0, a);
      null ? key.null(1) : key.str(1, s);
      keys.push_back(std::move(key));
    }
    // Deletions too; the rows went into slots 0, 1, 2, ... of the first chunk.
    for (int id = 0; id < 300; id += 4) t.erase(static_cast<RowId>(id), undo);
    undo.commit();

    for (int trial = 0; trial < 150; ++trial) {
      uint32_t columns = 1 + rng() % 2;
      TupleBuf probe(kl);
      probe.set<int32_t>(0, static_cast<int32_t>(rng() % 3) - 1).str(1, randomString(rng));
      std::vector<int32_t> want;
      // A range skips entries with NULL in a bounded column (no comparison with NULL holds).
      for (int id = 0; id < 300; ++id)
        if (id % 4 != 0 && !(columns == 2 && keys[id].data()[1]) &&
            compareTuples(kl, keys[id].data(), probe.data(), columns) >= 0)
          want.push_back(id);
      std::stable_sort(want.begin(), want.end(),
                       [&](int32_t x, int32_t y) { return compareTuples(kl, keys[x].data(), keys[y].data(), 2) < 0; });
      std::vector<int32_t> got = idsFrom(t, idx, probe.data(), columns);
      // Equal keys may come in any row order: compare the key sequence, then the sets.
      REQUIRE(got.size() == want.size());
      for (size_t i = 0; i < got.size(); ++i)
        REQUIRE(compareTuples(kl, keys[got[i]].data(), keys[want[i]].data(), 2) == 0);
      std::sort(got.begin(), got.end());
      std::sort(want.begin(), want.end());
      CHECK(got == want);
    }
  }
}
