// Indexes: unique hash (single/multi column, NULLs, messages), ordered range scans, index
// creation over existing rows, and rollback restoring index entries.
#include <catch2/catch.hpp>

#include <algorithm>
#include <optional>
#include <random>

#include "engine/error.h"
#include "engine/storage/ordered_index.h"
#include "engine/storage/storage_runtime.h"
#include "engine/storage/table.h"
#include "tests/unit/storage_test_util.h"

using namespace duet;
using duet::test::TupleBuf;

namespace {

std::string uniqueError(const std::function<void()>& f) {
  try {
    f();
  } catch (const SqlError& e) {
    return e.code + " " + e.what() + " / " + e.detail;
  }
  return "no error";
}

std::vector<int32_t> scanOneWay(const Table& t, const Index* idx, const uint8_t* lo, uint32_t loCols, bool loIncl,
                                const uint8_t* hi, uint32_t hiCols, bool hiIncl, bool descending,
                                uint32_t idColumn = 2) {
  DuetIndexRange range;
  duet_index_range_open(&range, idx, lo, loCols, loIncl, hi, hiCols, hiIncl, descending);
  std::vector<int32_t> out;
  std::vector<uint8_t> buf(t.layout().size);
  for (RowId r; (r = duet_index_range_next(&range)) != kNoRow;) {
    t.read(r, buf.data());
    out.push_back(test::field<int32_t>(t.layout(), buf.data(), idColumn));
  }
  return out;
}

// The ids (column 2) of the rows in the range, in key order; the descending walk over the
// same range must give exactly the reverse.
std::vector<int32_t> scanIds(const Table& t, const Index* idx, const uint8_t* lo, uint32_t loCols, bool loIncl,
                             const uint8_t* hi, uint32_t hiCols, bool hiIncl, uint32_t idColumn) {
  std::vector<int32_t> up = scanOneWay(t, idx, lo, loCols, loIncl, hi, hiCols, hiIncl, false, idColumn);
  std::vector<int32_t> down = scanOneWay(t, idx, lo, loCols, loIncl, hi, hiCols, hiIncl, true, idColumn);
  std::reverse(down.begin(), down.end());
  CHECK(up == down);
  return up;
}

std::vector<int32_t> scan(const Table& t, const Index* idx, const uint8_t* lo, uint32_t loCols, bool loIncl,
                          const uint8_t* hi, uint32_t hiCols, bool hiIncl) {
  return scanIds(t, idx, lo, loCols, loIncl, hi, hiCols, hiIncl, 2);
}

}  // namespace

TEST_CASE("unique hash index: lookups and violations", "[storage][index]") {
  Table t("t", {{"a", {TypeId::Int4}}, {"b", {TypeId::Text}}, {"c", {TypeId::Int4}}}, StorageKind::Row);
  UndoLog undo;
  Index* pk = t.createIndex("t_pkey", {0}, IndexKind::Hash, true, undo);
  Index* ab = t.createIndex("t_a_b_key", {0, 1}, IndexKind::Hash, true, undo);
  const TupleLayout& l = t.layout();
  RowId r1 = t.insert(TupleBuf(l).set<int32_t>(0, 1).str(1, "x").set<int32_t>(2, 0).data(), undo);
  undo.commit();
  CHECK(duet_index_lookup_int(pk, 1) == r1);
  CHECK(duet_index_lookup_int(pk, 2) == kNoRow);
  CHECK(duet_index_lookup_int(pk, int64_t{1} << 40) == kNoRow);

  CHECK(uniqueError([&] { t.insert(TupleBuf(l).set<int32_t>(0, 1).str(1, "y").set<int32_t>(2, 0).data(), undo); }) ==
        "23505 duplicate key value violates unique constraint \"t_pkey\" / Key (a)=(1) already exists.");
  CHECK(t.liveRowCount() == 1);

  // Multi-column key with strings; NULLs never conflict.
  Table u("u", {{"a", {TypeId::Int4}}, {"b", {TypeId::Text}}, {"c", {TypeId::Int4}}}, StorageKind::Column);
  u.createIndex("u_a_b_key", {0, 1}, IndexKind::Hash, true, undo);
  u.insert(TupleBuf(l).set<int32_t>(0, 1).str(1, "2").set<int32_t>(2, 0).data(), undo);
  u.insert(TupleBuf(l).set<int32_t>(0, 1).null(1).set<int32_t>(2, 0).data(), undo);
  u.insert(TupleBuf(l).set<int32_t>(0, 1).null(1).set<int32_t>(2, 0).data(), undo);
  CHECK(uniqueError([&] { u.insert(TupleBuf(l).set<int32_t>(0, 1).str(1, "2").set<int32_t>(2, 0).data(), undo); }) ==
        "23505 duplicate key value violates unique constraint \"u_a_b_key\" / Key (a, b)=(1, 2) already exists.");
  undo.commit();
  CHECK(u.liveRowCount() == 3);

  // Update to a conflicting key fails without changing anything; to its own key succeeds.
  RowId r2 = t.insert(TupleBuf(l).set<int32_t>(0, 2).str(1, "x").set<int32_t>(2, 0).data(), undo);
  CHECK(uniqueError([&] {
          t.update(r2, TupleBuf(l).set<int32_t>(0, 1).str(1, "z").set<int32_t>(2, 0).data(), undo);
        }).starts_with("23505"));
  t.update(r2, TupleBuf(l).set<int32_t>(0, 2).str(1, "w").set<int32_t>(2, 5).data(), undo);
  undo.commit();
  CHECK(duet_index_lookup_int(pk, 2) == r2);
  TupleBuf key(ab->keyLayout());
  key.set<int32_t>(0, 2).str(1, "w");
  CHECK(duet_index_lookup(ab, key.data()) == r2);
  key.str(1, "x");
  CHECK(duet_index_lookup(ab, key.data()) == kNoRow);
}

TEST_CASE("a unique violation in a later index leaves the earlier ones unchanged", "[storage][index]") {
  for (IndexKind second : {IndexKind::Hash, IndexKind::Ordered}) {
    Table t("t", {{"a", {TypeId::Int4}}, {"b", {TypeId::Text}}, {"c", {TypeId::Int4}}}, StorageKind::Row);
    UndoLog undo;
    Index* first = t.createIndex("t_a", {0}, IndexKind::Ordered, true, undo);
    Index* byB = t.createIndex("t_b", {1}, second, true, undo);
    const TupleLayout& l = t.layout();
    RowId r1 = t.insert(TupleBuf(l).set<int32_t>(0, 1).str(1, "x").set<int32_t>(2, 0).data(), undo);
    RowId r2 = t.insert(TupleBuf(l).set<int32_t>(0, 2).str(1, "y").set<int32_t>(2, 0).data(), undo);
    undo.commit();
    size_t bytes = t.stringBytes();
    // Insert: a = 3 is new, b = 'x' is taken.
    CHECK(uniqueError([&] {
            t.insert(TupleBuf(l).set<int32_t>(0, 3).str(1, "x").set<int32_t>(2, 0).data(), undo);
          }).starts_with("23505 duplicate key value violates unique constraint \"t_b\""));
    CHECK(duet_index_lookup_int(first, 3) == kNoRow);
    CHECK(first->size() == 2);
    CHECK(byB->size() == 2);
    CHECK(t.liveRowCount() == 2);
    CHECK(t.stringBytes() == bytes);  // the copied string was freed
    // Update: r2 to a = 5 (new) and b = 'x' (r1's).
    CHECK(uniqueError([&] {
            t.update(r2, TupleBuf(l).set<int32_t>(0, 5).str(1, "x").set<int32_t>(2, 0).data(), undo);
          }).starts_with("23505"));
    CHECK(duet_index_lookup_int(first, 5) == kNoRow);
    CHECK(duet_index_lookup_int(first, 2) == r2);
    TupleBuf key(byB->keyLayout());
    key.str(0, "y");
    CHECK(duet_index_lookup(byB, key.data()) == r2);
    key.str(0, "x");
    CHECK(duet_index_lookup(byB, key.data()) == r1);
    CHECK(t.stringBytes() == bytes);
    // The slot refused to the failed insert is used by the next one.
    RowId r3 = t.insert(TupleBuf(l).set<int32_t>(0, 3).str(1, "z").set<int32_t>(2, 0).data(), undo);
    undo.commit();
    CHECK(duet_index_lookup_int(first, 3) == r3);
    CHECK(t.liveRowCount() == 3);
  }
}

TEST_CASE("hash index survives many inserts and deletes", "[storage][index]") {
  Table t("t", {{"a", {TypeId::Int8}}, {"b", {TypeId::Int4}}}, StorageKind::Row);
  UndoLog undo;
  Index* pk = t.createIndex("t_pkey", {0, 1}, IndexKind::Hash, true, undo);
  std::vector<RowId> rows;
  for (int i = 0; i < 20000; ++i)
    rows.push_back(t.insert(TupleBuf(t.layout()).set<int64_t>(0, i).set<int32_t>(1, -i).data(), undo));
  for (int i = 0; i < 20000; i += 2) t.erase(rows[i], undo);
  undo.commit();
  CHECK(pk->size() == 10000);
  for (int i = 0; i < 20000; ++i) {
    TupleBuf k(pk->keyLayout());
    k.set<int64_t>(0, i).set<int32_t>(1, -i);
    CHECK(duet_index_lookup(pk, k.data()) == (i % 2 ? rows[i] : kNoRow));
  }
}

TEST_CASE("ordered index range and prefix scans", "[storage][index]") {
  Table t("t", {{"a", {TypeId::Int4}}, {"b", {TypeId::Int4}}, {"id", {TypeId::Int4}}}, StorageKind::Row);
  const TupleLayout& l = t.layout();
  UndoLog undo;
  Index* idx = t.createIndex("t_a_b_idx", {0, 1}, IndexKind::Ordered, false, undo);
  int id = 0;
  for (int a = 3; a >= 1; --a)
    for (int b = 0; b < 3; ++b)
      t.insert(TupleBuf(l).set<int32_t>(0, a).set<int32_t>(1, b).set<int32_t>(2, id++).data(), undo);
  t.insert(TupleBuf(l).set<int32_t>(0, 2).null(1).set<int32_t>(2, 100).data(), undo);
  t.insert(TupleBuf(l).set<int32_t>(0, 2).set<int32_t>(1, 1).set<int32_t>(2, 101).data(), undo);  // duplicate
  undo.commit();
  // ids: a=3 -> 0,1,2; a=2 -> 3,4,5; a=1 -> 6,7,8
  TupleBuf lo(idx->keyLayout()), hi(idx->keyLayout());
  lo.set<int32_t>(0, 2).set<int32_t>(1, 1);
  hi.set<int32_t>(0, 3).set<int32_t>(1, 1);
  CHECK(scan(t, idx, lo.data(), 2, true, hi.data(), 2, true) == std::vector<int32_t>{4, 101, 5, 0, 1});
  CHECK(scan(t, idx, lo.data(), 2, false, hi.data(), 2, false) == std::vector<int32_t>{5, 0});
  // Prefix a = 2: NULL b sorts last and is included (b is not bounded).
  CHECK(scan(t, idx, lo.data(), 1, true, lo.data(), 1, true) == std::vector<int32_t>{3, 4, 101, 5, 100});
  // a = 2 AND b > 0: the NULL is skipped.
  TupleBuf zero(idx->keyLayout());
  zero.set<int32_t>(0, 2).set<int32_t>(1, 0);
  CHECK(scan(t, idx, zero.data(), 2, false, lo.data(), 1, true) == std::vector<int32_t>{4, 101, 5});
  // a < 2 and a full scan.
  CHECK(scan(t, idx, nullptr, 0, true, lo.data(), 1, false) == std::vector<int32_t>{6, 7, 8});
  CHECK(scan(t, idx, nullptr, 0, true, nullptr, 0, true).size() == 11);
  // A NULL bound matches nothing.
  TupleBuf nul(idx->keyLayout());
  nul.null(0);
  CHECK(scan(t, idx, nul.data(), 1, true, nul.data(), 1, true).empty());
  // Ranges at either end of the index, and one between two entries.
  TupleBuf big(idx->keyLayout()), small(idx->keyLayout());
  big.set<int32_t>(0, 9).set<int32_t>(1, 0);
  small.set<int32_t>(0, 0).set<int32_t>(1, 0);
  CHECK(scan(t, idx, big.data(), 1, true, nullptr, 0, true).empty());
  CHECK(scan(t, idx, nullptr, 0, true, small.data(), 1, true).empty());
  CHECK(scan(t, idx, lo.data(), 2, false, zero.data(), 2, true).empty());
}

TEST_CASE("a descending range scan may delete the row it was handed", "[storage][index]") {
  Table t("t", {{"a", {TypeId::Int4}}, {"b", {TypeId::Int4}}, {"id", {TypeId::Int4}}}, StorageKind::Row);
  const TupleLayout& l = t.layout();
  UndoLog undo;
  Index* idx = t.createIndex("t_a_b_idx", {0, 1}, IndexKind::Ordered, false, undo);
  for (int b = 0; b < 5; ++b)
    t.insert(TupleBuf(l).set<int32_t>(0, 1).set<int32_t>(1, b).set<int32_t>(2, b).data(), undo);
  TupleBuf key(idx->keyLayout());
  key.set<int32_t>(0, 1);
  DuetIndexRange range;
  duet_index_range_open(&range, idx, key.data(), 1, true, key.data(), 1, true, true);
  std::vector<int32_t> seen;
  std::vector<uint8_t> buf(l.size);
  for (RowId r; (r = duet_index_range_next(&range)) != kNoRow;) {
    t.read(r, buf.data());
    seen.push_back(test::field<int32_t>(l, buf.data(), 2));
    t.erase(r, undo);
  }
  CHECK(seen == std::vector<int32_t>{4, 3, 2, 1, 0});
  CHECK(idx->size() == 0);
}

TEST_CASE("creating a unique index over duplicates fails", "[storage][index]") {
  Table t("t", {{"a", {TypeId::Numeric}}}, StorageKind::Row);
  UndoLog undo;
  t.insert(TupleBuf(t.layout()).set<NumericRep>(0, makeNumeric(10, 1)).data(), undo);
  t.insert(TupleBuf(t.layout()).set<NumericRep>(0, makeNumeric(100, 2)).data(), undo);
  undo.commit();
  CHECK(uniqueError([&] { t.createIndex("x", {0}, IndexKind::Ordered, true, undo); }) ==
        "23505 could not create unique index \"x\" / Key (a)=(1.00) is duplicated.");
  CHECK(t.indexes().empty());
  CHECK(uniqueError([&] { t.createIndex("y", {0}, IndexKind::Hash, true, undo); }).starts_with("23505"));
}

TEST_CASE("rollback restores index entries exactly", "[storage][index]") {
  for (StorageKind kind : {StorageKind::Row, StorageKind::Column}) {
    Table t("t", {{"a", {TypeId::Int4}}, {"s", {TypeId::Varchar}}, {"id", {TypeId::Int4}}}, kind);
    const TupleLayout& l = t.layout();
    UndoLog undo;
    Index* pk = t.createIndex("t_pkey", {0}, IndexKind::Hash, true, undo);
    Index* byS = t.createIndex("t_s_idx", {1}, IndexKind::Ordered, false, undo);
    RowId r1 = t.insert(TupleBuf(l).set<int32_t>(0, 1).str(1, "b").set<int32_t>(2, 1).data(), undo);
    RowId r2 = t.insert(TupleBuf(l).set<int32_t>(0, 2).str(1, "a").set<int32_t>(2, 2).data(), undo);
    undo.commit();

    UndoLog::Mark m = undo.mark();
    t.update(r1, TupleBuf(l).set<int32_t>(0, 10).str(1, "z").set<int32_t>(2, 1).data(), undo);
    t.erase(r2, undo);
    RowId r3 = t.insert(TupleBuf(l).set<int32_t>(0, 2).str(1, "c").set<int32_t>(2, 3).data(), undo);
    CHECK(duet_index_lookup_int(pk, 2) == r3);
    CHECK(duet_index_lookup_int(pk, 1) == kNoRow);
    undo.rollbackTo(m);
    CHECK(duet_index_lookup_int(pk, 1) == r1);
    CHECK(duet_index_lookup_int(pk, 2) == r2);
    CHECK(duet_index_lookup_int(pk, 10) == kNoRow);
    CHECK(pk->size() == 2);
    CHECK(scan(t, byS, nullptr, 0, true, nullptr, 0, true) == std::vector<int32_t>{2, 1});

    // Dropping and truncating are undone too.
    t.dropIndex(byS, undo);
    t.truncate(undo);
    CHECK(pk->size() == 0);
    undo.rollback();
    REQUIRE(t.indexes().size() == 2);
    CHECK(pk->size() == 2);
    CHECK(scan(t, byS, nullptr, 0, true, nullptr, 0, true) == std::vector<int32_t>{2, 1});
  }
}

// Packed keys (integer columns, here across a word boundary, with negative values and
// NULLs) and generic keys (text) must order and bound exactly as compareTuples does: every
// prefix range over random data is checked against a brute-force filter of the rows.
TEST_CASE("ordered index keys, packed and generic, order and bound like SQL comparison", "[storage][index]") {
  std::mt19937 rng(7);
  for (bool packedKeys : {true, false}) {
    std::vector<ColumnSpec> cols = {
        {"a", {TypeId::Int8}}, {"b", {TypeId::Int2}}, {"c", {TypeId::Int8}}, {"id", {TypeId::Int4}}};
    if (!packedKeys) cols[1] = {"b", {TypeId::Text}};
    Table t("t", cols, StorageKind::Row);
    const TupleLayout& l = t.layout();
    UndoLog undo;
    Index* idx = t.createIndex("t_abc", {0, 1, 2}, IndexKind::Ordered, false, undo);
    auto value = [&](int range) { return static_cast<int64_t>(rng() % range) - range / 2; };
    struct Row {
      std::optional<int64_t> a, b, c;
    };
    std::vector<Row> rows;
    std::vector<RowId> ids;
    for (int i = 0; i < 400; ++i) {
      Row r{value(6), value(4), value(1000) * 1000000000LL};
      if (rng() % 10 == 0) r.a.reset();
      if (rng() % 10 == 0) r.b.reset();
      if (rng() % 10 == 0) r.c.reset();
      TupleBuf tb(l);
      r.a ? tb.set<int64_t>(0, *r.a) : tb.null(0);
      if (!r.b)
        tb.null(1);
      else if (packedKeys)
        tb.set<int16_t>(1, static_cast<int16_t>(*r.b));
      else
        tb.str(1, std::to_string(*r.b + 20));  // two digits: text order is number order
      r.c ? tb.set<int64_t>(2, *r.c) : tb.null(2);
      tb.set<int32_t>(3, i);
      ids.push_back(t.insert(tb.data(), undo));
      rows.push_back(r);
    }
    // Remove a third again so the tree has seen deletions too.
    for (int i = 0; i < 400; i += 3) t.erase(ids[i], undo);
    undo.commit();

    // Key order of the rows, NULLs last, per column; ties on the full key by insertion.
    auto cmp = [](const std::optional<int64_t>& x, const std::optional<int64_t>& y) {
      if (!x || !y) return x ? -1 : y ? 1 : 0;
      return *x < *y ? -1 : *x > *y ? 1 : 0;
    };
    for (int trial = 0; trial < 200; ++trial) {
      uint32_t eq = rng() % 3;
      Row probe{value(6), value(4), value(1000) * 1000000000LL};
      bool incl = rng() % 2;
      TupleBuf key(idx->keyLayout());
      key.set<int64_t>(0, *probe.a).set<int64_t>(2, *probe.c);
      if (packedKeys)
        key.set<int16_t>(1, static_cast<int16_t>(*probe.b));
      else
        key.str(1, std::to_string(*probe.b + 20));
      // Equality on the first eq columns, then column eq > probe (or >= when incl).
      std::vector<std::pair<Row, int32_t>> expected;
      for (int i = 0; i < 400; ++i) {
        if (i % 3 == 0) continue;
        const Row& r = rows[i];
        std::optional<int64_t> rv[3] = {r.a, r.b, r.c}, pv[3] = {probe.a, probe.b, probe.c};
        bool ok = true;
        for (uint32_t k = 0; k < eq && ok; ++k) ok = rv[k] && *rv[k] == *pv[k];
        if (ok) ok = rv[eq] && (incl ? *rv[eq] >= *pv[eq] : *rv[eq] > *pv[eq]);
        if (ok) expected.push_back({r, i});
      }
      std::stable_sort(expected.begin(), expected.end(), [&](const auto& x, const auto& y) {
        for (auto f : {&Row::a, &Row::b, &Row::c})
          if (int c = cmp(x.first.*f, y.first.*f)) return c < 0;
        return false;
      });
      std::vector<int32_t> want;
      for (const auto& e : expected) want.push_back(e.second);
      INFO("packed " << packedKeys << " eq " << eq << " incl " << incl);
      CHECK(scanIds(t, idx, key.data(), eq + 1, incl, key.data(), eq, true, 3) == want);
    }
  }
}

// A unique ordered index answers find() from a hash built on the first lookup: the hash is
// filled from the tree (packed keys unpacked, negative values and NULLs included) and kept
// in step by later inserts, deletes and rollbacks.
TEST_CASE("unique ordered index point lookups before and after its hash exists", "[storage][index]") {
  for (bool packedKeys : {true, false}) {
    std::vector<ColumnSpec> cols = {{"a", {TypeId::Int8}}, {"b", {TypeId::Int2}}, {"id", {TypeId::Int4}}};
    if (!packedKeys) cols[1] = {"b", {TypeId::Text}};
    Table t("t", cols, StorageKind::Row);
    const TupleLayout& l = t.layout();
    UndoLog undo;
    Index* idx = t.createIndex("t_ab", {0, 1}, IndexKind::Ordered, true, undo);
    auto row = [&](int64_t a, int b, int id) {
      TupleBuf tb(l);
      tb.set<int64_t>(0, a).set<int32_t>(2, id);
      packedKeys ? tb.set<int16_t>(1, static_cast<int16_t>(b)) : tb.str(1, std::to_string(b));
      return tb;
    };
    auto lookup = [&](int64_t a, int b) {
      TupleBuf k(idx->keyLayout());
      k.set<int64_t>(0, a);
      packedKeys ? k.set<int16_t>(1, static_cast<int16_t>(b)) : k.str(1, std::to_string(b));
      return duet_index_lookup(idx, k.data());
    };
    std::vector<RowId> ids;
    for (int i = 0; i < 50; ++i) ids.push_back(t.insert(row(-i * 1000000007LL, -i, i).data(), undo));
    TupleBuf withNull = row(5, 5, 99);
    withNull.null(1);
    t.insert(withNull.data(), undo);
    t.insert(withNull.data(), undo);  // equal keys with a NULL never conflict
    undo.commit();
    auto* ordered = static_cast<const OrderedIndex*>(idx);
    // Lookups first go to the tree; a window of events that are mostly finds builds the
    // hash from it.
    CHECK_FALSE(ordered->hashCached());
    for (int i = 0; i < 50; ++i) CHECK(lookup(-i * 1000000007LL, -i) == ids[i]);
    CHECK(lookup(1, 1) == kNoRow);
    for (int round = 0; round < 40; ++round)
      for (int i = 0; i < 50; ++i) REQUIRE(lookup(-i * 1000000007LL, -i) == ids[i]);
    CHECK(ordered->hashCached());
    // Changes after it exists, and a rollback, keep it exact.
    t.erase(ids[3], undo);
    RowId fresh = t.insert(row(7, 7, 100).data(), undo);
    CHECK(lookup(-3 * 1000000007LL, -3) == kNoRow);
    CHECK(lookup(7, 7) == fresh);
    CHECK(uniqueError([&] { t.insert(row(-4 * 1000000007LL, -4, 101).data(), undo); }).starts_with("23505"));
    undo.rollback();
    CHECK(lookup(-3 * 1000000007LL, -3) == ids[3]);
    CHECK(lookup(7, 7) == kNoRow);
    // A window of mostly changes drops the hash; the tree alone answers the same.
    for (int i = 0; i < 1200; ++i) {
      RowId r = t.insert(row(1000 + i, i % 100, 1000 + i).data(), undo);
      if (i % 2) t.erase(r, undo);
      undo.commit();
    }
    CHECK_FALSE(ordered->hashCached());
    for (int i = 0; i < 50; ++i) CHECK(lookup(-i * 1000000007LL, -i) == (i == 3 ? ids[3] : ids[i]));
    CHECK(lookup(1000, 0) != kNoRow);
    CHECK(lookup(1001, 1) == kNoRow);
  }
}

// An UPDATE skips re-keying when no column of any index changed (Table keeps a byte mask of
// the key columns). The mask must follow CREATE INDEX, DROP INDEX and their rollbacks.
TEST_CASE("updates re-key indexes created, dropped and restored after the table", "[storage][index]") {
  Table t("t", {{"a", {TypeId::Int4}}, {"b", {TypeId::Int4}}, {"id", {TypeId::Int4}}}, StorageKind::Row);
  const TupleLayout& l = t.layout();
  UndoLog undo;
  RowId r = t.insert(TupleBuf(l).set<int32_t>(0, 1).set<int32_t>(1, 10).set<int32_t>(2, 1).data(), undo);
  undo.commit();
  auto byB = [&](Index* idx, int32_t b) { return duet_index_lookup_int(idx, b); };

  Index* ib = t.createIndex("t_b", {1}, IndexKind::Hash, true, undo);
  undo.commit();
  t.update(r, TupleBuf(l).set<int32_t>(0, 1).set<int32_t>(1, 20).set<int32_t>(2, 1).data(), undo);
  undo.commit();
  CHECK(byB(ib, 20) == r);
  CHECK(byB(ib, 10) == kNoRow);

  // Dropped, then the drop rolled back: the index is back and must be re-keyed again.
  t.dropIndex(ib, undo);
  undo.rollback();
  t.update(r, TupleBuf(l).set<int32_t>(0, 1).set<int32_t>(1, 30).set<int32_t>(2, 1).data(), undo);
  undo.commit();
  CHECK(byB(ib, 30) == r);
  CHECK(byB(ib, 20) == kNoRow);

  // A column no index covers changes: the index stays as it was.
  t.update(r, TupleBuf(l).set<int32_t>(0, 2).set<int32_t>(1, 30).set<int32_t>(2, 1).data(), undo);
  undo.rollback();
  CHECK(byB(ib, 30) == r);
}
