// Catalog views: the shared relation namespace, OR REPLACE's rules, rollback, and the
// order dependentViews lists what reads a relation in.
#include <catch2/catch.hpp>

#include "catalog_test_util.h"
#include "engine/catalog/catalog.h"
#include "engine/error.h"

using namespace duet;
using test::errorOf;

namespace {

ViewInfo viewSpec(const std::string& name, std::vector<std::pair<std::string, TypeId>> columns,
                  std::vector<uint32_t> dependsOn) {
  ViewInfo v;
  v.name = name;
  for (const auto& [column, type] : columns) v.columns.push_back({column, {type, -1}});
  v.query = "SELECT ...";
  v.dependsOn = std::move(dependsOn);
  return v;
}

std::vector<std::string> names(const std::vector<ViewInfo*>& views) {
  std::vector<std::string> out;
  for (const ViewInfo* v : views) out.push_back(v->name);
  return out;
}

}  // namespace

TEST_CASE("views share the relation namespace and follow OR REPLACE's rules", "[catalog]") {
  Catalog cat;
  Database& db = *cat.database("postgres");
  UndoLog undo;
  TableInfo& t = cat.createTable(db, "public", {"t", {{"a", {TypeId::Int4}}}, {}, StorageKind::Row}, undo);
  ViewInfo& v = cat.createView(db, "public", viewSpec("v", {{"a", TypeId::Int4}}, {t.oid}), false, undo);
  undo.commit();
  CHECK(cat.findView(db, {"pg_catalog", "public"}, "v") == &v);
  CHECK(cat.findRelation(db, {"pg_catalog", "public"}, "v").view == &v);
  CHECK(cat.findRelation(db, {"pg_catalog", "public"}, "t").table == &t);
  CHECK(errorOf([&] { cat.createView(db, "public", viewSpec("v", {{"a", TypeId::Int4}}, {}), false, undo); }) ==
        "42P07 relation \"v\" already exists");
  CHECK(errorOf([&] { cat.createView(db, "public", viewSpec("t", {{"a", TypeId::Int4}}, {}), true, undo); }) ==
        "42809 \"t\" is not a view");
  CHECK(errorOf([&] { cat.createTable(db, "public", {"v", {{"a", {TypeId::Int4}}}, {}, StorageKind::Row}, undo); }) ==
        "42P07 relation \"v\" already exists");
  CHECK(errorOf([&] { cat.createView(db, "public", viewSpec("v", {}, {}), true, undo); }) ==
        "42P16 cannot drop columns from view");
  CHECK(errorOf([&] { cat.createView(db, "public", viewSpec("v", {{"b", TypeId::Int4}}, {}), true, undo); }) ==
        "42P16 cannot change name of view column \"a\" to \"b\"");
  CHECK(errorOf([&] { cat.createView(db, "public", viewSpec("v", {{"a", TypeId::Int8}}, {}), true, undo); }) ==
        "42P16 cannot change data type of view column \"a\" from integer to bigint");
  CHECK(errorOf([&] {
          cat.createView(db, "public", viewSpec("w", {{"a", TypeId::Int4}, {"a", TypeId::Int4}}, {}), false, undo);
        }) == "42701 column \"a\" specified more than once");

  // A replacement keeps the oid; rolled back, the old definition is back.
  uint32_t oid = v.oid;
  ViewInfo& replaced =
      cat.createView(db, "public", viewSpec("v", {{"a", TypeId::Int4}, {"b", TypeId::Text}}, {t.oid}), true, undo);
  CHECK(&replaced == &v);
  CHECK(v.oid == oid);
  CHECK(v.columns.size() == 2);
  undo.rollback();
  CHECK(v.columns.size() == 1);
  cat.dropView(v, undo);
  CHECK(!cat.findView(db, {"pg_catalog", "public"}, "v"));
  undo.rollback();
  CHECK(cat.findView(db, {"pg_catalog", "public"}, "v") == &v);
}

TEST_CASE("dependentViews lists each view after the views it reads", "[catalog]") {
  Catalog cat;
  Database& db = *cat.database("postgres");
  UndoLog undo;
  TableInfo& t = cat.createTable(db, "public", {"t", {{"a", {TypeId::Int4}}}, {}, StorageKind::Row}, undo);
  TableInfo& u = cat.createTable(db, "public", {"u", {{"a", {TypeId::Int4}}}, {}, StorageKind::Row}, undo);
  ViewInfo& a = cat.createView(db, "public", viewSpec("a", {{"a", TypeId::Int4}}, {t.oid}), false, undo);
  ViewInfo& b = cat.createView(db, "public", viewSpec("b", {{"a", TypeId::Int4}}, {a.oid}), false, undo);
  // c reads t and b: it comes after b, though t reaches it first.
  cat.createView(db, "public", viewSpec("c", {{"a", TypeId::Int4}}, {t.oid, b.oid}), false, undo);
  cat.createView(db, "public", viewSpec("d", {{"a", TypeId::Int4}}, {u.oid}), false, undo);
  undo.commit();
  CHECK(names(cat.dependentViews(db, t.oid)) == std::vector<std::string>{"a", "b", "c"});
  CHECK(names(cat.dependentViews(db, b.oid)) == std::vector<std::string>{"c"});
  CHECK(names(cat.dependentViews(db, u.oid)) == std::vector<std::string>{"d"});
  // Views that read each other (OR REPLACE can make them) are still listed, once each.
  cat.createView(db, "public", viewSpec("a", {{"a", TypeId::Int4}}, {t.oid, b.oid}), true, undo);
  CHECK(names(cat.dependentViews(db, t.oid)).size() == 3);
  undo.rollback();
}
