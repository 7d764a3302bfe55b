// Table rows: insert/read/update/erase in both storage kinds, chunk boundaries, string
// ownership, NOT NULL, rollback, slot/string reuse after commit, and compiled code's row
// changes refused in a read-only transaction.
#include <catch2/catch.hpp>

#include <functional>
#include <string>

#include "engine/error.h"
#include "engine/storage/storage_runtime.h"
#include "engine/storage/table.h"
#include "tests/unit/storage_test_util.h"

using namespace duet;
using duet::test::TupleBuf;

namespace {

Table makeTable(StorageKind kind) {
  return Table("t", {{"a", {TypeId::Int4}, true}, {"b", {TypeId::Text}}, {"c", {TypeId::Int8}}}, kind);
}

}  // namespace

TEST_CASE("table insert, read, update, erase in both storage kinds", "[storage]") {
  for (StorageKind kind : {StorageKind::Row, StorageKind::Column}) {
    Table t = makeTable(kind);
    const TupleLayout& l = t.layout();
    UndoLog undo;
    std::vector<RowId> rows;
    for (int i = 0; i < 3; ++i) {
      TupleBuf b(l);
      b.set<int32_t>(0, i).str(1, "s" + std::to_string(i)).set<int64_t>(2, i * 10);
      if (i == 2) b.null(1);
      rows.push_back(t.insert(b.data(), undo));
    }
    undo.commit();
    REQUIRE(t.liveRowCount() == 3);
    std::vector<uint8_t> out(l.size);
    t.read(rows[1], out.data());
    CHECK(test::field<int32_t>(l, out.data(), 0) == 1);
    CHECK(test::strField(l, out.data(), 1) == "s1");
    CHECK(test::field<int64_t>(l, out.data(), 2) == 10);
    t.read(rows[2], out.data());
    CHECK(out[1] == 1);

    TupleBuf nb(l);
    nb.set<int32_t>(0, 7).str(1, "seven").set<int64_t>(2, 70);
    t.update(rows[1], nb.data(), undo);
    t.erase(rows[0], undo);
    undo.commit();
    t.read(rows[1], out.data());
    CHECK(test::strField(l, out.data(), 1) == "seven");
    CHECK(test::field<int64_t>(l, out.data(), 2) == 70);
    CHECK_FALSE(t.isLive(rows[0]));
    CHECK(t.liveRowCount() == 2);

    // Generated code reads the chunk directly.
    const Chunk* c = t.directory().chunks[0];
    CHECK(c->liveCount == 2);
    CHECK(c->live[0] == 0);
    if (kind == StorageKind::Column) {
      int32_t a;
      std::memcpy(&a, c->columnValues[0] + 1 * sizeof(int32_t), sizeof a);
      CHECK(a == 7);
      CHECK(c->columnNulls[1][2] == 1);
    } else {
      int32_t a;
      std::memcpy(&a, c->rows + t.rowStride() * 1 + l.offsets[0], sizeof a);
      CHECK(a == 7);
    }
  }
}

TEST_CASE("table spans chunk boundaries", "[storage]") {
  Table t("big", {{"a", {TypeId::Int8}}}, StorageKind::Row);
  UndoLog undo;
  const uint32_t n = kChunkRows * 2 + 5;
  for (uint32_t i = 0; i < n; ++i) {
    TupleBuf b(t.layout());
    b.set<int64_t>(0, i);
    t.insert(b.data(), undo);
  }
  undo.commit();
  REQUIRE(t.directory().count == 3);
  CHECK(t.directory().chunks[2]->used == 5);
  std::vector<uint8_t> out(t.layout().size);
  RowId last = (RowId{2} << kChunkShift) | 4;
  t.read(last, out.data());
  CHECK(test::field<int64_t>(t.layout(), out.data(), 0) == n - 1);
}

TEST_CASE("table owns copies of strings", "[storage]") {
  Table t = makeTable(StorageKind::Row);
  UndoLog undo;
  RowId r;
  {
    TupleBuf b(t.layout());
    b.set<int32_t>(0, 1).str(1, "hello").set<int64_t>(2, 0);
    r = t.insert(b.data(), undo);
  }  // the caller's string is gone
  undo.commit();
  std::vector<uint8_t> out(t.layout().size);
  t.read(r, out.data());
  CHECK(test::strField(t.layout(), out.data(), 1) == "hello");
  // Handing the table's own string back in an update keeps it, no copy.
  size_t before = t.stringBytes();
  int64_t v = 5;
  std::memcpy(out.data() + t.layout().offsets[2], &v, 8);
  t.update(r, out.data(), undo);
  undo.commit();
  CHECK(t.stringBytes() == before);
  t.read(r, out.data());
  CHECK(test::strField(t.layout(), out.data(), 1) == "hello");
}

TEST_CASE("NOT NULL violation reports PostgreSQL's message", "[storage]") {
  Table t = makeTable(StorageKind::Row);
  UndoLog undo;
  TupleBuf b(t.layout());
  b.null(0).str(1, "x").set<int64_t>(2, 1);
  try {
    t.insert(b.data(), undo);
    FAIL("no error");
  } catch (const SqlError& e) {
    CHECK(e.code == "23502");
    CHECK(std::string(e.what()) == "null value in column \"a\" of relation \"t\" violates not-null constraint");
    CHECK(e.detail == "Failing row contains (null, x, 1).");
  }
  CHECK(t.liveRowCount() == 0);
  CHECK(undo.empty());
}

TEST_CASE("rollback and rollbackTo restore rows", "[storage]") {
  for (StorageKind kind : {StorageKind::Row, StorageKind::Column}) {
    Table t = makeTable(kind);
    const TupleLayout& l = t.layout();
    UndoLog undo;
    TupleBuf b(l);
    b.set<int32_t>(0, 1).str(1, "one").set<int64_t>(2, 1);
    RowId r1 = t.insert(b.data(), undo);
    undo.commit();
    size_t committedBytes = t.stringBytes();

    UndoLog::Mark m = undo.mark();
    TupleBuf nb(l);
    nb.set<int32_t>(0, 2).str(1, "two").set<int64_t>(2, 2);
    t.update(r1, nb.data(), undo);
    t.insert(nb.data(), undo);
    undo.rollbackTo(m);
    std::vector<uint8_t> out(l.size);
    t.read(r1, out.data());
    CHECK(test::strField(l, out.data(), 1) == "one");
    CHECK(t.liveRowCount() == 1);
    CHECK(t.stringBytes() == committedBytes);

    t.update(r1, nb.data(), undo);
    t.erase(r1, undo);
    undo.rollback();
    CHECK(t.isLive(r1));
    CHECK(t.liveRowCount() == 1);
    t.read(r1, out.data());
    CHECK(test::strField(l, out.data(), 1) == "one");
    CHECK(t.stringBytes() == committedBytes);
  }
}

TEST_CASE("deleted slots and strings are reused after commit", "[storage]") {
  Table t = makeTable(StorageKind::Row);
  const TupleLayout& l = t.layout();
  UndoLog undo;
  std::vector<RowId> rows;
  for (int i = 0; i < 100; ++i) {
    TupleBuf b(l);
    b.set<int32_t>(0, i).str(1, std::string(50, 'x')).set<int64_t>(2, i);
    rows.push_back(t.insert(b.data(), undo));
  }
  undo.commit();
  size_t bytes = t.stringBytes();
  // A steady workload: update every row with a new string, delete and re-insert some.
  for (int round = 0; round < 2000; ++round) {
    RowId r = rows[round % rows.size()];
    TupleBuf b(l);
    b.set<int32_t>(0, round).str(1, std::string(50, 'a' + round % 26)).set<int64_t>(2, round);
    t.update(r, b.data(), undo);
    if (round % 3 == 0) {
      t.erase(r, undo);
      undo.commit();
      rows[round % rows.size()] = t.insert(b.data(), undo);
    }
    undo.commit();
  }
  CHECK(t.liveRowCount() == 100);
  CHECK(t.stringBytes() == bytes);
  CHECK(t.directory().chunks[0]->used <= 101);
  CHECK(t.chunkCount() == 1);
}

TEST_CASE("truncate is undone by rollback and frees at commit", "[storage]") {
  Table t = makeTable(StorageKind::Column);
  UndoLog undo;
  for (int i = 0; i < 10; ++i) {
    TupleBuf b(t.layout());
    b.set<int32_t>(0, i).str(1, "v").set<int64_t>(2, i);
    t.insert(b.data(), undo);
  }
  undo.commit();
  t.erase(3, undo);  // a pending delete in the set-aside chunk
  t.truncate(undo);
  CHECK(t.liveRowCount() == 0);
  CHECK(t.directory().count == 0);
  undo.rollback();
  CHECK(t.liveRowCount() == 10);
  CHECK(t.isLive(3));

  t.erase(3, undo);
  t.truncate(undo);
  TupleBuf b(t.layout());
  b.set<int32_t>(0, 99).str(1, "new").set<int64_t>(2, 0);
  t.insert(b.data(), undo);
  undo.commit();
  CHECK(t.liveRowCount() == 1);
  CHECK(t.freeSlotCount() == 0);
  CHECK(t.stringBytes() == sizeof(VarString) + 3);
}

TEST_CASE("NOT NULL is checked for every column of a wide table", "[storage]") {
  // 20 columns: the flags span three words of the check.
  std::vector<ColumnSpec> cols;
  for (int i = 0; i < 20; ++i) cols.push_back({"c" + std::to_string(i), {TypeId::Int4}, i == 17});
  Table t("wide", cols, StorageKind::Row);
  UndoLog undo;
  TupleBuf b(t.layout());
  for (uint32_t i = 0; i < 20; ++i) b.set<int32_t>(i, static_cast<int32_t>(i));
  b.null(18).null(19);
  t.insert(b.data(), undo);
  b.null(17);
  try {
    t.insert(b.data(), undo);
    FAIL("no error");
  } catch (const SqlError& e) {
    CHECK(e.code == "23502");
    CHECK(std::string(e.what()).find("column \"c17\"") != std::string::npos);
  }
  CHECK(t.liveRowCount() == 1);
}

TEST_CASE("an update that sets a string to NULL frees it at commit", "[storage]") {
  Table t = makeTable(StorageKind::Row);
  UndoLog undo;
  TupleBuf b(t.layout());
  b.set<int32_t>(0, 1).str(1, "abc").set<int64_t>(2, 1);
  RowId r = t.insert(b.data(), undo);
  undo.commit();
  CHECK(t.stringBytes() == sizeof(VarString) + 3);
  b.null(1);
  t.update(r, b.data(), undo);
  undo.commit();
  CHECK(t.stringBytes() == 0);
}

TEST_CASE("a read-only transaction's undo log refuses the row changes of compiled code", "[storage]") {
  Table t = makeTable(StorageKind::Row);
  const TupleLayout& l = t.layout();
  UndoLog undo;
  TupleBuf b(l);
  b.set<int32_t>(0, 1).str(1, "one").set<int64_t>(2, 10);
  RowId row = duet_table_insert(&t, b.data(), &undo);
  undo.commit();
  undo.setReadOnly(true);
  auto refused = [](const std::function<void()>& change, const std::string& message) {
    try {
      change();
      FAIL("no error");
    } catch (const SqlError& e) {
      CHECK(e.code == "25006");
      CHECK(std::string(e.what()) == message);
    }
  };
  refused([&] { duet_table_insert(&t, b.data(), &undo); }, "cannot execute INSERT in a read-only transaction");
  refused([&] { duet_table_update(&t, row, b.data(), &undo); }, "cannot execute UPDATE in a read-only transaction");
  refused([&] { duet_table_erase(&t, row, &undo); }, "cannot execute DELETE in a read-only transaction");
  CHECK(undo.empty());
  CHECK(t.liveRowCount() == 1);
  undo.setReadOnly(false);
  duet_table_erase(&t, row, &undo);
  CHECK(t.liveRowCount() == 0);
  undo.rollback();
}
