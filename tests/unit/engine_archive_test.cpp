// Archives' contents (session/archive_dump.h, docs/logging.md): the records an
// engine writes load into a fresh engine that then answers like the first - tables of both
// stores with keys, defaults and indexes, values of every type (NULLs, quotes, tabs,
// backslashes, arrays, time stamps, floats, bytea and uuid), functions and procedures of every shape,
// roles and databases, CHECK and FOREIGN KEY constraints - and a transaction halfway shows
// in changesPending.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "engine/error.h"
#include "logging_test_util.h"
#include "session/sql_engine.h"
#include "session/transaction_record.h"

using namespace duet;

namespace {

using test::queryRows;
using test::RowsSink;

std::vector<std::string> archive(Engine& engine) {
  std::vector<std::string> records;
  engine.writeArchive([&](std::string r) { records.push_back(std::move(r)); });
  return records;
}

std::unique_ptr<Engine> load(const std::vector<std::string>& records) {
  auto engine = createSqlEngine(EngineConfig{"/tmp/duet_archive_test", 0});
  for (const auto& r : records) engine->replayTransaction(r);
  return engine;
}

}  // namespace

TEST_CASE("an archive loads into a fresh engine that answers the same", "[logging]") {
  auto live = createSqlEngine(EngineConfig{"/tmp/duet_archive_test", 0});
  queryRows(*live,
            "create role reader; create role boss superuser;"
            "create table \"Odd \"\"name\" (k int primary key, v text default 'x''y', n numeric(10,2) not null,"
            "  f float8, ts timestamptz, d date, a int[], c char(3), vc varchar(5), b bool) with (storage = row);"
            "create table cols (a int8, b text, unique (a, b)) with (storage = column);"
            "create unique index cols_b on cols (b); create index cols_ab on cols (a, b);"
            "create table empty_one (x int2 constraint empty_pk primary key);"
            "create table bu (id uuid primary key default gen_random_uuid(), b bytea unique, bs bytea[], us uuid[])"
            "  with (storage = row);"
            "create table bu_col (id uuid, b bytea) with (storage = column); create index bu_col_b on bu_col (b);"
            "insert into bu (b, bs, us) values ('\\x005c0a09ff', '{\"\\\\x00\",NULL}', "
            "  '{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}'), ('', '{}', '{}'), (NULL, NULL, NULL);"
            "insert into bu_col select id, b from bu;"
            "insert into \"Odd \"\"name\" values (1, E'tab\\there\\nnew\\\\line', 1.50, 0.1, '2026-11-22 "
            "10:00:01.5+03', '2000-02-29', '{1,NULL,3}', 'ab', 'abcde', true),"
            "  (2, NULL, -3, 'NaN', NULL, NULL, '{}', NULL, NULL, NULL), (3, default, 0, 1e300, 'infinity', "
            "'-infinity', NULL, 'c', '', false);"
            "delete from \"Odd \"\"name\" where k = 2;"
            "create function add1(a int, b int default 1) returns int language sql immutable strict as 'select a + b';"
            "create function pairs(n int, out i int, out sq int) returns setof record language plpgsql stable as $$"
            "  begin for k in 1..n loop i := k; sq := k * k; return next; end loop; end $$;"
            "create function tab(p text) returns table(x text, y int) language sql as $q$ select p || '$duet$', 7 $q$;"
            "create function later() returns int language sql as 'select 1';"
            "create function defined_after() returns int language sql as 'select 42';"
            "create or replace function later() returns int language sql as 'select defined_after()';"
            "create procedure bump(inout k int) language plpgsql security definer as $$ begin k := k + 1; end $$;"
            "create function configured() returns text language sql set search_path = pg_catalog, public"
            "  set work_mem = '64MB' as 'select current_setting(''search_path'') || current_setting(''work_mem'')';"
            "create function rowtype(k int) returns \"Odd \"\"name\" language sql as 'select * from \"Odd \"\"name\" "
            "where k = $1';");
  // Enough rows for several COPY records.
  queryRows(*live,
            "create function fill(n int) returns void language plpgsql as $$ begin"
            "  for i in 1..n loop insert into cols values (i, 'row ' || i || ' with some more text'); end loop; end $$;"
            "select fill(200000)");
  queryRows(*live, "create database other");
  queryRows(*live, "create table t (x int primary key); insert into t values (7)", "other");

  auto records = archive(*live);
  auto loaded = load(records);

  const std::vector<std::pair<std::string, std::string>> checks = {
      {"select * from \"Odd \"\"name\" order by k", "postgres"},
      {"select count(*), sum(a), min(b), max(b) from cols", "postgres"},
      {"select add1(2), add1(2, 5), add1(null)", "postgres"},
      {"select * from pairs(3)", "postgres"},
      {"select * from tab('a')", "postgres"},
      {"select later()", "postgres"},
      {"select configured(), current_setting('search_path')", "postgres"},
      {"select proconfig from pg_proc where proname = 'configured'", "postgres"},
      {"call bump(4)", "postgres"},
      {"select * from rowtype(1)", "postgres"},
      {"select * from cols where b = 'row 77 with some more text'", "postgres"},
      {"select * from t", "other"},
      {"select * from bu order by id", "postgres"},
      {"select * from bu_col where b = '\\x005c0a09ff'", "postgres"},
  };
  for (const auto& [sql, db] : checks) {
    INFO(sql);
    CHECK(queryRows(*loaded, sql, db) == queryRows(*live, sql, db));
  }
  // Keys came along: duplicates are refused.
  CHECK_THROWS_AS(queryRows(*loaded, "insert into cols values (1, 'row 1 with some more text')"), SqlError);
  CHECK_THROWS_AS(queryRows(*loaded, "insert into cols values (-1, 'row 1 with some more text')"), SqlError);
  CHECK_THROWS_AS(queryRows(*loaded, "insert into empty_one values (1), (1)"), SqlError);
  CHECK_THROWS_AS(queryRows(*loaded, "insert into bu (b) values ('\\x')"), SqlError);
  // The catalog (roles, databases, tables with their storage, keys, defaults and indexes,
  // routines) and the rows in their order: a second archive is the same record for record.
  auto again = archive(*loaded);
  REQUIRE(again.size() == records.size());
  for (size_t i = 0; i < records.size(); ++i) {
    LoggedTransaction a = decodeTransaction(records[i]), b = decodeTransaction(again[i]);
    CHECK(b.database == a.database);
    CHECK(b.user == a.user);
    CHECK(b.transactionId == a.transactionId);
    REQUIRE(b.statements.size() == a.statements.size());
    if (a.statements.empty()) continue;  // the first: how far transaction ids went
    INFO("record " << i << ": " << a.statements.at(0).sql.substr(0, 200));
    CHECK(b.statements.at(0).sql == a.statements.at(0).sql);
    CHECK(b.statements.at(0).copyData == a.statements.at(0).copyData);
  }
}

TEST_CASE("an archive keeps CHECK and FOREIGN KEY constraints", "[logging]") {
  auto live = createSqlEngine(EngineConfig{"/tmp/duet_archive_test", 0});
  queryRows(*live,
            "create table p (id int primary key, code text unique);"
            "create table c (id int check (id > 0), pid int references p on delete cascade,"
            "  code text, constraint c_code foreign key (code) references p (code) match full on update set null,"
            "  check (pid <> id));"
            "create table self (id int primary key, up int references self);"
            "insert into p values (1, 'a'), (2, 'b'); insert into c values (5, 1, 'a'), (6, 2, null);"
            "insert into self values (1, null), (2, 1);"
            "alter table c add constraint big check (id > 100) not valid;"
            "alter table c add constraint id_p foreign key (id) references p not valid");
  auto records = archive(*live);
  auto loaded = load(records);
  const char* definitions =
      "select conname, contype, pg_get_constraintdef(oid), convalidated from pg_constraint "
      "where contype in ('c', 'f') order by conname";
  CHECK(queryRows(*loaded, definitions) == queryRows(*live, definitions));
  CHECK(queryRows(*loaded, definitions).size() == 7);
  // They are enforced: CHECK, the referenced key, the cascade.
  CHECK_THROWS_AS(queryRows(*loaded, "insert into c values (200, 200, null)"), SqlError);
  CHECK_THROWS_AS(queryRows(*loaded, "insert into c values (300, 9, null)"), SqlError);
  CHECK_THROWS_AS(queryRows(*loaded, "delete from self where id = 1"), SqlError);
  queryRows(*loaded, "delete from p where id = 1");
  CHECK(queryRows(*loaded, "select id from c order by id") == queryRows(*live, "select id from c where pid <> 1"));
}

TEST_CASE("changesPending tells a transaction halfway", "[logging]") {
  auto engine = createSqlEngine(EngineConfig{"/tmp/duet_archive_test", 0});
  queryRows(*engine, "create table t (x int)");
  CHECK_FALSE(engine->changesPending());
  auto s = engine->openSession({{"user", "postgres"}, {"database", "postgres"}});
  RowsSink sink;
  s->simpleQuery("begin; insert into t values (1)", sink);
  CHECK(engine->changesPending());
  s->simpleQuery("rollback", sink);
  CHECK_FALSE(engine->changesPending());
  s->parse("", "insert into t values (2)", {});
  s->bind("", "", {}, {});
  s->execute("", 0, sink);
  CHECK(engine->changesPending());  // the implicit transaction waits for its Sync
  s->sync();
  CHECK_FALSE(engine->changesPending());
  s->simpleQuery("begin; select 1", sink);
  CHECK_FALSE(engine->changesPending());
  s->simpleQuery("commit", sink);
}

// ALTER TABLE and CREATE TABLE AS (issue 21 part 2): the redo log replays them, and an archive
// taken afterwards describes the tables as they are now - new, dropped, renamed and retyped
// columns, defaults, NOT NULL, renamed and dropped keys and indexes - with their rows.
TEST_CASE("ALTER TABLE and CREATE TABLE AS survive replay and archives", "[logging]") {
  std::vector<std::string> log;
  auto live = createSqlEngine(EngineConfig{"/tmp/duet_archive_test", 0});
  live->setCommitLog([&](std::string record) {
    log.push_back(std::move(record));
    return static_cast<uint64_t>(log.size());
  });
  queryRows(*live,
            "create table al (a int primary key, b text, c int unique, d float8) with (storage = row);"
            "create table al_col (k int, v varchar(4)) with (storage = column);"
            "create index al_col_k on al_col (k);"
            "insert into al values (1, '10', 5, 0.5), (2, '20', NULL, 1.5), (3, '30', 7, NULL);"
            "insert into al_col select g, g::text from generate_series(1, 1000) g;"
            "alter table al add column e text not null default 'new', drop column d;"
            "alter table al alter column b type int using b::int * 2, alter column e set default 'later';"
            "alter table al rename column c to cc; alter table al rename constraint al_c_key to al_cc_unique;"
            "alter table al alter column b set not null; alter table al rename to al2;"
            "insert into al2 (a, b) values (4, 80);"
            "alter table al_col add column z numeric(6,2) default 1.25, alter column v type int using v::int;"
            "alter table al_col drop constraint if exists nope; alter index al_col_k rename to al_col_key_index;"
            "alter table al_col add primary key (k); alter table al_col drop constraint al_col_pkey");
  queryRows(*live, "begin; alter table al_col drop column z; rollback");  // leaves no trace
  queryRows(*live,
            "create table al_ctas (total, n) as select sum(k), count(*) from al_col;"
            "select a, b * 10 as b10 into al_into from al2 where a > 1;"
            "create table al_like (like al2 including all);");
  const std::vector<std::string> checks = {
      "select * from al2 order by a",
      "select count(*), sum(k), sum(v), sum(z) from al_col",
      "select * from al_ctas",
      "select * from al_into order by a",
      "select table_name, column_name, data_type, is_nullable, column_default from information_schema.columns"
      "  where table_name like 'al%' order by table_name, ordinal_position",
      "select tablename, indexname from pg_indexes where tablename like 'al%' order by 1, 2",
  };
  auto recovered = createSqlEngine(EngineConfig{"/tmp/duet_archive_test", 0});
  for (const std::string& r : log) recovered->replayTransaction(r);
  auto loaded = load(archive(*live));
  for (const std::string& sql : checks) {
    INFO(sql);
    std::vector<std::string> expected = queryRows(*live, sql);
    CHECK(queryRows(*recovered, sql) == expected);
    CHECK(queryRows(*loaded, sql) == expected);
  }
  for (Engine* engine : {live.get(), recovered.get(), loaded.get()}) {
    // The keys and NOT NULLs as they are now.
    CHECK_THROWS_AS(queryRows(*engine, "insert into al2 (a, b) values (1, 1)"), SqlError);
    CHECK_THROWS_AS(queryRows(*engine, "insert into al2 (a, b, cc) values (9, 1, 5)"), SqlError);
    CHECK_THROWS_AS(queryRows(*engine, "insert into al2 (a) values (10)"), SqlError);
    CHECK(queryRows(*engine, "insert into al_col values (1, 1) returning z") == std::vector<std::string>{"1.25"});
  }
}
