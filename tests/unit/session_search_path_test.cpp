// search_path's list syntax and how a path resolves against a database's schemas
// (session/search_path.h).
#include "session/search_path.h"

#include <catch2/catch.hpp>

namespace duet {
namespace {

std::vector<std::string> split(std::string_view value) {
  std::vector<std::string> names;
  REQUIRE(splitSearchPath(value, names));
  return names;
}

}  // namespace

TEST_CASE("search_path lists split as PostgreSQL's SplitIdentifierString", "[session][search_path]") {
  CHECK(split("\"$user\", public") == std::vector<std::string>{"$user", "public"});
  CHECK(split("  A ,\"B c\",\"d\"\"e\"") == std::vector<std::string>{"a", "B c", "d\"e"});
  CHECK(split("").empty());
  CHECK(split("\"\"") == std::vector<std::string>{""});
  std::vector<std::string> names;
  CHECK_FALSE(splitSearchPath("a,,b", names));
  CHECK_FALSE(splitSearchPath("a,", names));
  CHECK_FALSE(splitSearchPath("\"a", names));
  CHECK_FALSE(splitSearchPath("a b", names));
}

TEST_CASE("a search path resolves against the database's schemas", "[session][search_path]") {
  Catalog catalog;
  Database& db = *catalog.database("postgres");
  UndoLog undo;
  catalog.createSchema(db, "alice", undo);
  catalog.createSchema(db, "s", undo);
  undo.commit();

  SearchPath p = resolveSearchPath("\"$user\", public", db, "alice", "");
  CHECK(p.relations == SchemaPath{"pg_catalog", "alice", "public"});
  CHECK(p.creation == "alice");
  CHECK(resolveSearchPath("\"$user\", public", db, "bob", "").named == std::vector<std::string>{"public"});

  // Missing schemas are skipped; pg_catalog named keeps its place.
  p = resolveSearchPath("nosuch, s, pg_catalog", db, "bob", "");
  CHECK(p.relations == SchemaPath{"s", "pg_catalog"});
  CHECK(p.creation == "s");

  // The temporary schema comes first for relations, never for routines.
  p = resolveSearchPath("public", db, "bob", "pg_temp_3");
  CHECK(p.relations == SchemaPath{"pg_temp_3", "pg_catalog", "public"});
  CHECK(p.routines == SchemaPath{"pg_catalog", "public"});
  CHECK(p.key != resolveSearchPath("public", db, "bob", "").key);

  // pg_temp first without a temporary schema: CREATE makes one.
  p = resolveSearchPath("pg_temp, public", db, "bob", "");
  CHECK(p.createsTemporary);
  CHECK_FALSE(resolveSearchPath("public, pg_temp", db, "bob", "").createsTemporary);

  p = resolveSearchPath("", db, "bob", "");
  CHECK(p.creation.empty());
  CHECK(p.named.empty());
  CHECK(p.relations == SchemaPath{"pg_catalog"});
}

}  // namespace duet
