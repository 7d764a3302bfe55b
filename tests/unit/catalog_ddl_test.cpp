// Catalog: bootstrap objects, name resolution, default constraint/index names, DDL errors,
// and DDL rollback.
#include <catch2/catch.hpp>

#include "catalog_test_util.h"
#include "engine/catalog/catalog.h"
#include "engine/error.h"

using namespace duet;
using test::errorOf;

namespace {

CreateTableSpec twoInts(const std::string& name) {
  return {name, {{"a", {TypeId::Int4}}, {"b", {TypeId::Int4}}}, {}, StorageKind::Row};
}

}  // namespace

TEST_CASE("fresh catalog has postgres database and role", "[catalog]") {
  Catalog cat;
  REQUIRE(cat.database("postgres"));
  CHECK(cat.database("postgres")->schema("public"));
  CHECK(cat.database("postgres")->schema("pg_catalog"));
  REQUIRE(cat.role("postgres"));
  CHECK(cat.role("postgres")->superuser);
}

TEST_CASE("tables: names, errors and constraint names", "[catalog]") {
  Catalog cat;
  Database& db = *cat.database("postgres");
  UndoLog undo;
  CreateTableSpec spec = twoInts("t");
  spec.keys = {{KeyKind::Unique, {"a", "b"}, ""}, {KeyKind::PrimaryKey, {"a"}, ""}, {KeyKind::Unique, {"b"}, ""}};
  TableInfo& t = cat.createTable(db, "public", spec, undo);
  undo.commit();
  CHECK(t.oid >= 16384);
  CHECK(&cat.table(db, {"pg_catalog", "public"}, "t") == &t);
  CHECK(&cat.table(db, {"public"}, "t") == &t);
  REQUIRE(t.primaryKey);
  CHECK(t.primaryKey->name == "t_pkey");
  CHECK(t.columns[0].notNull);
  CHECK(cat.findIndex(db, {"pg_catalog", "public"}, "t_a_b_key"));
  CHECK(cat.findIndex(db, {"pg_catalog", "public"}, "t_b_key"));

  CHECK(errorOf([&] { cat.createTable(db, "public", twoInts("t"), undo); }) == "42P07 relation \"t\" already exists");
  CHECK(errorOf([&] { cat.createTable(db, "public", twoInts("t_pkey"), undo); }) ==
        "42P07 relation \"t_pkey\" already exists");
  CHECK(errorOf([&] { cat.table(db, {"pg_catalog", "public"}, "nope"); }) == "42P01 relation \"nope\" does not exist");
  CreateTableSpec dup = twoInts("d");
  dup.columns.push_back({"a", {TypeId::Text}});
  CHECK(errorOf([&] { cat.createTable(db, "public", dup, undo); }) == "42701 column \"a\" specified more than once");
  CreateTableSpec twoPk = twoInts("p");
  twoPk.keys = {{KeyKind::PrimaryKey, {"a"}, ""}, {KeyKind::PrimaryKey, {"b"}, ""}};
  CHECK(errorOf([&] { cat.createTable(db, "public", twoPk, undo); }) ==
        "42P16 multiple primary keys for table \"p\" are not allowed");
  CHECK(errorOf([&] { cat.addKey(t, {KeyKind::PrimaryKey, {"b"}, ""}, undo); }) ==
        "42P16 multiple primary keys for table \"t\" are not allowed");
  CHECK(undo.empty());

  IndexInfo& i1 = cat.createIndex(t, "", {"a"}, false, undo);
  IndexInfo& i2 = cat.createIndex(t, "", {"a"}, false, undo);
  CHECK(i1.name == "t_a_idx");
  CHECK(i2.name == "t_a_idx1");
  CHECK(i1.index->kind() == IndexKind::Ordered);
  CHECK(t.primaryKey->index->kind() == IndexKind::Hash);
  // A key of several columns is ordered: its prefixes are read in ranges.
  CHECK(cat.findIndex(db, {"pg_catalog", "public"}, "t_a_b_key")->index->kind() == IndexKind::Ordered);
  CHECK(errorOf([&] { cat.createIndex(t, "t", {"a"}, false, undo); }) == "42P07 relation \"t\" already exists");
  CHECK(errorOf([&] { cat.dropIndex(db, {"pg_catalog", "public"}, "t_pkey", false, undo); }).starts_with("2BP01"));
  undo.commit();
}

TEST_CASE("DDL is undone by rollback", "[catalog]") {
  Catalog cat;
  Database& db = *cat.database("postgres");
  UndoLog undo;
  TableInfo& t = cat.createTable(db, "public", twoInts("keep"), undo);
  undo.commit();

  // Rows inserted, then the table dropped: rollback brings both back.
  std::vector<uint8_t> row(t.table->layout().size, 0);
  t.table->insert(row.data(), undo);
  cat.createIndex(t, "", {"b"}, false, undo);
  cat.addKey(t, {KeyKind::PrimaryKey, {"a"}, ""}, undo);
  cat.createTable(db, "public", twoInts("gone"), undo);
  cat.dropTable(db, {"pg_catalog", "public"}, "keep", false, undo);
  cat.createDatabase("other", "postgres", undo);
  cat.createRole("alice", false, undo);
  CHECK(cat.findTable(db, {"pg_catalog", "public"}, "keep") == nullptr);
  CHECK(cat.findIndex(db, {"pg_catalog", "public"}, "keep_b_idx") == nullptr);
  undo.rollback();

  TableInfo* back = cat.findTable(db, {"pg_catalog", "public"}, "keep");
  REQUIRE(back == &t);
  CHECK(t.table->liveRowCount() == 0);
  CHECK(t.indexes.empty());
  CHECK(t.primaryKey == nullptr);
  CHECK_FALSE(t.columns[0].notNull);
  CHECK(cat.findIndex(db, {"pg_catalog", "public"}, "keep_b_idx") == nullptr);
  CHECK(cat.findTable(db, {"pg_catalog", "public"}, "gone") == nullptr);
  CHECK(cat.database("other") == nullptr);
  CHECK(cat.role("alice") == nullptr);

  // Dropping with rows, then rolling back, restores rows and indexes.
  cat.addKey(t, {KeyKind::PrimaryKey, {"a"}, ""}, undo);
  t.table->insert(row.data(), undo);
  undo.commit();
  UndoLog::Mark m = undo.mark();
  cat.dropTable(db, {"pg_catalog", "public"}, "keep", false, undo);
  undo.rollbackTo(m);
  CHECK(cat.findTable(db, {"pg_catalog", "public"}, "keep")->table->liveRowCount() == 1);
  CHECK(cat.findIndex(db, {"pg_catalog", "public"}, "keep_pkey")->index->size() == 1);

  cat.createDatabase("other", "postgres", undo);
  undo.commit();
  CHECK(errorOf([&] { cat.createDatabase("other", "postgres", undo); }) == "42P04 database \"other\" already exists");
  cat.dropDatabase("other", false, undo);
  undo.commit();
  CHECK(cat.database("other") == nullptr);
  CHECK(errorOf([&] { cat.dropDatabase("other", false, undo); }) == "3D000 database \"other\" does not exist");
  CHECK(errorOf([&] { cat.dropRole("postgres", false, undo); }).starts_with("2BP01"));
}
