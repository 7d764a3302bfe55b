// CREATE TABLE's storage: WITH (storage = ...) when given, else the session's
// duet.default_storage (column unless set), through a real session and catalog.
#include <catch2/catch.hpp>

#include "compiler/compiler.h"
#include "session/engine_state.h"
#include "session/sql_session.h"

using namespace duet;

TEST_CASE("CREATE TABLE follows WITH (storage) or duet.default_storage", "[session]") {
  prepareCompiler();
  EngineState state;
  Database& db = *state.catalog.database("postgres");
  SqlSession s{state, db, "postgres", "postgres", {}};
  IgnoringSink sink;
  auto storageOf = [&](const char* name) {
    return state.catalog.table(db, {"pg_catalog", "public"}, name).table->kind();
  };

  s.simpleQuery("create table by_default (a int)", sink);
  CHECK(storageOf("by_default") == StorageKind::Column);
  s.simpleQuery("set duet.default_storage = row", sink);
  s.simpleQuery("create table by_setting (a int)", sink);
  CHECK(storageOf("by_setting") == StorageKind::Row);
  s.simpleQuery("create table said_column (a int) with (storage = column)", sink);
  CHECK(storageOf("said_column") == StorageKind::Column);
  s.simpleQuery("reset duet.default_storage", sink);
  s.simpleQuery("create table said_row (a int) with (storage = row)", sink);
  CHECK(storageOf("said_row") == StorageKind::Row);
  s.simpleQuery("create table by_default_again (a int)", sink);
  CHECK(storageOf("by_default_again") == StorageKind::Column);
}
