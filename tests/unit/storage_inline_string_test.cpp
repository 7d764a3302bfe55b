// Inline strings (table.h): short char(n)/varchar(n) values live in their row's slot (row
// store) or in their column's room beside its values (column store), are never written in
// place while the row lives, and are never handed to free(). A mistake in the latter shows
// as glibc aborting on free() of a pointer into a chunk.
#include <catch2/catch.hpp>

#include "engine/error.h"
#include "engine/storage/table.h"
#include "tests/unit/storage_test_util.h"

using namespace duet;
using duet::test::TupleBuf;

namespace {

SqlType varcharOf(int n) { return {TypeId::Varchar, n + 4}; }

// a int, s varchar(8) (inline), long_s varchar(200) (heap), id int.
Table makeTable(StorageKind kind = StorageKind::Row) {
  return Table("t", {{"a", {TypeId::Int4}}, {"s", varcharOf(8)}, {"long_s", varcharOf(200)}, {"id", {TypeId::Int4}}},
               kind);
}

TupleBuf row(const Table& t, int32_t a, const std::string& s, int32_t id) {
  TupleBuf b(t.layout());
  b.set<int32_t>(0, a).str(1, s).str(2, "long " + s).set<int32_t>(3, id);
  return b;
}

const VarString* stringAt(const Table& t, RowId r, uint32_t column) {
  std::vector<uint8_t> out(t.layout().size);
  t.read(r, out.data());
  return out[column] ? nullptr : test::field<const VarString*>(t.layout(), out.data(), column);
}

// Whether the string lies in row r's own slot.
bool inSlot(const Table& t, RowId r, const VarString* s) {
  const uint8_t* slot =
      t.directory().chunks[r >> kChunkShift]->rows + static_cast<size_t>(r & (kChunkRows - 1)) * t.rowStride();
  auto* p = reinterpret_cast<const uint8_t*>(s);
  return p >= slot + t.layout().size && p < slot + t.rowStride();
}

// Whether the column-store string lies in its column's room in row r's chunk (between the
// column's values and its NULL flags).
bool inRoom(const Table& t, RowId r, uint32_t column, const VarString* s) {
  const Chunk* c = t.directory().chunks[r >> kChunkShift];
  auto* p = reinterpret_cast<const uint8_t*>(s);
  return p >= c->columnValues[column] + size_t{kChunkRows} * sizeof(VarString*) && p < c->columnNulls[column];
}

}  // namespace

TEST_CASE("short strings are stored in their row, long ones on the heap", "[storage]") {
  Table t = makeTable();
  CHECK(t.rowStride() > t.layout().size);
  CHECK(t.rowStride() % 16 == 0);
  UndoLog undo;
  RowId r1 = t.insert(row(t, 1, "abc", 1).data(), undo);
  RowId r2 = t.insert(row(t, 2, "exactly8", 2).data(), undo);
  RowId r3 = t.insert(row(t, 3, "ninechars", 3).data(), undo);  // more bytes than the room
  undo.commit();
  CHECK(stringAt(t, r1, 1)->view() == "abc");
  CHECK(inSlot(t, r1, stringAt(t, r1, 1)));
  CHECK(inSlot(t, r2, stringAt(t, r2, 1)));
  CHECK(stringAt(t, r2, 1)->view() == "exactly8");
  CHECK_FALSE(inSlot(t, r3, stringAt(t, r3, 1)));
  CHECK(stringAt(t, r3, 1)->view() == "ninechars");
  CHECK_FALSE(inSlot(t, r1, stringAt(t, r1, 2)));
  // Heap strings only: the three long_s values and the one s that did not fit.
  size_t heap = 3 * sizeof(VarString) + 3 * 5 + 3 + 8 + 9 + sizeof(VarString) + 9;
  CHECK(t.stringBytes() == heap);
}

TEST_CASE("the column store keeps short strings in a room beside the column's values", "[storage]") {
  Table t = makeTable(StorageKind::Column);
  UndoLog undo;
  RowId r1 = t.insert(row(t, 1, "abc", 1).data(), undo);
  RowId r2 = t.insert(row(t, 2, "exactly8", 2).data(), undo);
  RowId r3 = t.insert(row(t, 3, "ninechars", 3).data(), undo);  // more bytes than the room
  undo.commit();
  CHECK(stringAt(t, r1, 1)->view() == "abc");
  CHECK(inRoom(t, r1, 1, stringAt(t, r1, 1)));
  CHECK(inRoom(t, r2, 1, stringAt(t, r2, 1)));
  // One row's room after the other's: a scan reads them in order.
  CHECK(reinterpret_cast<const uint8_t*>(stringAt(t, r2, 1)) > reinterpret_cast<const uint8_t*>(stringAt(t, r1, 1)));
  CHECK(stringAt(t, r2, 1)->view() == "exactly8");
  CHECK_FALSE(inRoom(t, r3, 1, stringAt(t, r3, 1)));
  CHECK(stringAt(t, r3, 1)->view() == "ninechars");
  CHECK_FALSE(inRoom(t, r1, 2, stringAt(t, r1, 2)));  // varchar(200): no room
  size_t heap = 3 * sizeof(VarString) + 3 * 5 + 3 + 8 + 9 + sizeof(VarString) + 9;
  CHECK(t.stringBytes() == heap);
}

TEST_CASE("a committed update frees the string it replaced, in either store", "[storage]") {
  for (StorageKind kind : {StorageKind::Row, StorageKind::Column}) {
    Table t("u", {{"a", {TypeId::Int4}}, {"s", {TypeId::Text}}}, kind);
    UndoLog undo;
    TupleBuf b(t.layout());
    b.set<int32_t>(0, 1).str(1, "first");
    t.insert(b.data(), undo);
    RowId r = t.insert(b.data(), undo);  // slot 1: a column-store row has no address
    undo.commit();
    size_t before = t.stringBytes();
    TupleBuf c(t.layout());
    c.set<int32_t>(0, 1).str(1, "second");
    t.update(r, c.data(), undo);
    undo.commit();
    CHECK(t.stringBytes() == before - 5 + 6);
    CHECK(stringAt(t, r, 1)->view() == "second");
  }
}

TEST_CASE("updating an inline string leaves the old one intact until commit", "[storage]") {
  StorageKind kind = GENERATE(StorageKind::Row, StorageKind::Column);
  Table t = makeTable(kind);
  UndoLog undo;
  RowId r = t.insert(row(t, 1, "old", 1).data(), undo);
  undo.commit();
  size_t committed = t.stringBytes();
  const VarString* old = stringAt(t, r, 1);
  CHECK((kind == StorageKind::Row ? inSlot(t, r, old) : inRoom(t, r, 1, old)));

  // Rolled back: the inline string is back and was never overwritten.
  t.update(r, row(t, 1, "new", 1).data(), undo);
  CHECK(stringAt(t, r, 1)->view() == "new");
  CHECK_FALSE((kind == StorageKind::Row ? inSlot(t, r, stringAt(t, r, 1)) : inRoom(t, r, 1, stringAt(t, r, 1))));
  CHECK(old->view() == "old");
  undo.rollback();
  CHECK(stringAt(t, r, 1) == old);
  CHECK(old->view() == "old");
  CHECK(t.stringBytes() == committed);

  // Committed: the new value is on the heap; the inline one is not freed.
  t.update(r, row(t, 1, "new", 1).data(), undo);
  undo.commit();
  CHECK(stringAt(t, r, 1)->view() == "new");
  CHECK(t.stringBytes() == committed + sizeof(VarString) + 3);

  // Handing the heap string back unchanged keeps it.
  std::vector<uint8_t> image(t.layout().size);
  t.read(r, image.data());
  t.update(r, image.data(), undo);
  undo.commit();
  CHECK(t.stringBytes() == committed + sizeof(VarString) + 3);
}

TEST_CASE("inline strings through erase, slot reuse, failed inserts and truncate", "[storage]") {
  Table t = makeTable(GENERATE(StorageKind::Row, StorageKind::Column));
  UndoLog undo;
  t.createIndex("t_id", {3}, IndexKind::Hash, true, undo);
  t.createIndex("t_s", {1}, IndexKind::Ordered, false, undo);
  undo.commit();
  std::vector<RowId> rows;
  for (int i = 0; i < 50; ++i) rows.push_back(t.insert(row(t, i, "s" + std::to_string(i), i).data(), undo));
  undo.commit();
  size_t heap = t.stringBytes();

  // A duplicate id: the insert is taken back, its heap copies freed, its room unused.
  CHECK_THROWS_AS(t.insert(row(t, 0, "dup", 7).data(), undo), SqlError);
  CHECK(t.stringBytes() == heap);

  // An insert rolled back, then the slot reused at once.
  RowId gone = t.insert(row(t, 100, "gone", 100).data(), undo);
  undo.rollback();
  RowId again = t.insert(row(t, 101, "again", 101).data(), undo);
  undo.commit();
  CHECK(again == gone);
  CHECK(stringAt(t, again, 1)->view() == "again");

  // Erased and committed: the slot comes back with a new inline string, and the ordered
  // index over the inline column still finds every key.
  t.erase(rows[5], undo);
  undo.commit();
  RowId reused = t.insert(row(t, 5, "five", 5).data(), undo);
  undo.commit();
  CHECK(reused == rows[5]);
  std::vector<uint8_t> key(t.indexes()[1]->keyLayout().size);
  for (int i = 0; i < 50; ++i) {
    if (i == 5) continue;
    t.readKey(rows[i], *t.indexes()[1], key.data());
    CHECK(t.indexes()[1]->find(key.data()) == rows[i]);
  }
  CHECK(stringAt(t, reused, 1)->view() == "five");

  // An update, then a TRUNCATE, committed together: the update's commit must still tell the
  // old inline string from a heap one although its chunk has been set aside.
  t.update(rows[1], row(t, 1, "changed", 1).data(), undo);
  t.truncate(undo);
  undo.commit();
  CHECK(t.liveRowCount() == 0);
  CHECK(t.stringBytes() == 0);
}

TEST_CASE("an empty string in a column without inline room goes to the heap", "[storage]") {
  // Zero bytes fit any room, but a text column has none: the string must not land at the
  // slot's start (it did once, and its free() at commit aborted).
  Table t("t", {{"a", {TypeId::Int4}}, {"s", {TypeId::Text}}}, StorageKind::Row);
  UndoLog undo;
  TupleBuf b(t.layout());
  b.set<int32_t>(0, 7).str(1, "");
  RowId r = t.insert(b.data(), undo);
  undo.commit();
  std::vector<uint8_t> out(t.layout().size);
  t.read(r, out.data());
  CHECK(test::field<int32_t>(t.layout(), out.data(), 0) == 7);
  CHECK(test::strField(t.layout(), out.data(), 1).empty());
  CHECK(t.stringBytes() == sizeof(VarString));
  t.erase(r, undo);
  undo.commit();
  CHECK(t.stringBytes() == 0);
}
