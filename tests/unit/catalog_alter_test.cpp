// Catalog's ALTER TABLE operations (engine/catalog/catalog_alter.cpp): rebuilding a table with
// new columns (rows converted, indexes rebuilt on their columns' new places or dropped with
// their column, NOT NULL checked) and renames, constraints and NOT NULL changes - each undone
// exactly by rollback, the old Table back with its rows and indexes.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "catalog_test_util.h"
#include "engine/catalog/catalog.h"
#include "engine/error.h"

using namespace duet;
using test::errorOf;

namespace {

std::vector<uint8_t> row(const Table& t, std::initializer_list<int32_t> values) {
  std::vector<uint8_t> tuple(t.layout().size, 0);
  size_t c = 0;
  for (int32_t v : values) std::memcpy(tuple.data() + t.layout().offsets[c++], &v, sizeof v);
  return tuple;
}

int32_t valueAt(const Table& t, RowId r, uint32_t column) {
  std::vector<uint8_t> tuple(t.layout().size);
  t.read(r, tuple.data());
  int32_t v;
  std::memcpy(&v, tuple.data() + t.layout().offsets[column], sizeof v);
  return v;
}

// t (a int primary key, b int unique, c int) with rows (1, 10, 100), (2, 20, 200).
TableInfo& makeTable(Catalog& cat, Database& db) {
  UndoLog undo;
  CreateTableSpec spec{
      "t", {{"a", {TypeId::Int4}}, {"b", {TypeId::Int4}}, {"c", {TypeId::Int4}}}, {}, StorageKind::Row};
  spec.keys = {{KeyKind::PrimaryKey, {"a"}, ""}, {KeyKind::Unique, {"b"}, ""}};
  TableInfo& t = cat.createTable(db, "public", spec, undo);
  for (int32_t i : {1, 2}) t.table->insert(row(*t.table, {i, i * 10, i * 100}).data(), undo);
  undo.commit();
  return t;
}

// Copies column `from[i]` of each row of `old` into column i of `fresh` (the columns past
// `from` NULL), as the session's INSERT ... SELECT does.
void copyColumns(const Table& old, Table& fresh, UndoLog& undo, const std::vector<uint32_t>& from) {
  std::vector<uint8_t> in(old.layout().size), out(fresh.layout().size);
  for (uint32_t ci = 0; ci < old.directory().count; ++ci)
    for (uint32_t s = 0; s < old.directory().chunks[ci]->used; ++s) {
      old.read((RowId{ci} << kChunkShift) | s, in.data());
      std::fill(out.begin(), out.end(), 0);
      for (size_t c = 0; c < fresh.columns().size(); ++c) out[c] = 1;  // NULL unless copied
      for (uint32_t c = 0; c < from.size(); ++c) {
        out[c] = in[from[c]];
        std::memcpy(out.data() + fresh.layout().offsets[c], in.data() + old.layout().offsets[from[c]], 4);
      }
      fresh.insert(out.data(), undo);
    }
}

}  // namespace

TEST_CASE("rewriteTable drops a column with its key and rolls back to the old table", "[catalog][alter]") {
  Catalog cat;
  Database& db = *cat.database("postgres");
  TableInfo& t = makeTable(cat, db);
  Table* old = t.table.get();
  IndexInfo* pk = t.primaryKey;
  Index* oldPkIndex = pk->index;

  UndoLog undo;
  std::vector<ColumnDef> columns{t.columns[0], t.columns[2]};  // drop b
  cat.rewriteTable(
      t, columns, {0, 2}, [&](Table& fresh, UndoLog& building) { copyColumns(*old, fresh, building, {0, 2}); }, undo);
  CHECK(t.table.get() != old);
  REQUIRE(t.columns.size() == 2);
  CHECK(t.columns[1].name == "c");
  CHECK(t.table->liveRowCount() == 2);
  CHECK(valueAt(*t.table, 1, 1) == 200);
  // The primary key moved to the new table; b's unique key went with b.
  REQUIRE(t.indexes.size() == 1);
  CHECK(t.primaryKey == pk);
  CHECK(pk->index != oldPkIndex);
  CHECK_FALSE(cat.findIndex(db, {"pg_catalog", "public"}, "t_b_key"));
  CHECK(errorOf([&] {
          UndoLog u;
          t.table->insert(row(*t.table, {1, 5}).data(), u);
        }) == "23505 duplicate key value violates unique constraint \"t_pkey\"");

  undo.rollback();
  CHECK(t.table.get() == old);
  CHECK(t.columns.size() == 3);
  CHECK(pk->index == oldPkIndex);
  CHECK(t.indexes.size() == 2);
  REQUIRE(cat.findIndex(db, {"pg_catalog", "public"}, "t_b_key"));
  CHECK(cat.findIndex(db, {"pg_catalog", "public"}, "t_b_key")->index->size() == 2);
  CHECK(valueAt(*t.table, 1, 1) == 20);
}

TEST_CASE("rewriteTable checks NOT NULL columns and leaves the table on failure", "[catalog][alter]") {
  Catalog cat;
  Database& db = *cat.database("postgres");
  TableInfo& t = makeTable(cat, db);
  Table* old = t.table.get();
  std::vector<ColumnDef> columns = t.columns;
  columns.push_back({"d", {TypeId::Int4}, true, {}});
  UndoLog undo;
  CHECK(errorOf([&] {
          cat.rewriteTable(
              t, columns, {0, 1, 2, -1},
              [&](Table& fresh, UndoLog& building) { copyColumns(*old, fresh, building, {0, 1, 2}); }, undo);
        }) == "23502 column \"d\" of relation \"t\" contains null values");
  CHECK(t.table.get() == old);
  CHECK(t.columns.size() == 3);
  CHECK(undo.empty());
}

TEST_CASE("renames, NOT NULL, defaults and DROP CONSTRAINT are undone by rollback", "[catalog][alter]") {
  Catalog cat;
  Database& db = *cat.database("postgres");
  TableInfo& t = makeTable(cat, db);
  UndoLog undo;
  cat.renameTable(t, "u", undo);
  cat.renameColumn(t, "b", "bb", undo);
  cat.renameConstraint(t, "t_pkey", "u_pk", undo);
  cat.setColumnDefault(t, 2, "7", undo);
  cat.setColumnNotNull(t, 2, true, undo);
  CHECK(cat.dropConstraint(t, "t_b_key", false, undo));
  CHECK_FALSE(cat.dropConstraint(t, "t_b_key", true, undo));
  CHECK(errorOf([&] { cat.dropConstraint(t, "nope", false, undo); }) ==
        "42704 constraint \"nope\" of relation \"u\" does not exist");
  CHECK(errorOf([&] { cat.setColumnNotNull(t, 0, false, undo); }) == "42P16 column \"a\" is in a primary key");
  CHECK(errorOf([&] { cat.renameColumn(t, "bb", "c", undo); }) ==
        "42701 column \"c\" of relation \"u\" already exists");
  CHECK(cat.findTable(db, {"pg_catalog", "public"}, "u") == &t);
  CHECK(t.table->name() == "u");
  CHECK(t.table->columns()[1].name == "bb");
  CHECK(t.primaryKey->index->name() == "u_pk");
  CHECK(t.table->columns()[2].notNull);
  CHECK(t.indexes.size() == 1);

  undo.rollback();
  CHECK(cat.findTable(db, {"pg_catalog", "public"}, "t") == &t);
  CHECK_FALSE(cat.findTable(db, {"pg_catalog", "public"}, "u"));
  CHECK(t.table->name() == "t");
  CHECK(t.columns[1].name == "b");
  CHECK(t.table->columns()[1].name == "b");
  CHECK(t.primaryKey->name == "t_pkey");
  CHECK(cat.findIndex(db, {"pg_catalog", "public"}, "t_pkey"));
  CHECK(t.columns[2].defaultSql.empty());
  CHECK_FALSE(t.columns[2].notNull);
  CHECK_FALSE(t.table->columns()[2].notNull);
  CHECK(t.indexes.size() == 2);
}
