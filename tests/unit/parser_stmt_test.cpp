#include <catch2/catch.hpp>

#include "engine/error.h"
#include "parser_test_util.h"

using namespace duet;
using namespace duet::sql;
using duet::sql::test::parseOne;
using duet::sql::test::sexpr;

TEST_CASE("statements: splitting and source ranges", "[parser][stmt]") {
  std::string q = " select 1 ;; insert into t values (1) ;";
  auto stmts = parseQuery(q);
  REQUIRE(stmts.size() == 3);
  CHECK(stmts[0].stmt->kind == StmtKind::Select);
  CHECK(q.substr(stmts[0].stmt->begin, stmts[0].stmt->end - stmts[0].stmt->begin) == "select 1");
  CHECK(stmts[1].stmt->kind == StmtKind::Empty);
  CHECK(stmts[2].stmt->kind == StmtKind::Insert);
  CHECK(q.substr(stmts[2].stmt->begin, stmts[2].stmt->end - stmts[2].stmt->begin) == "insert into t values (1)");
  CHECK(parseQuery(";").size() == 1);
  CHECK(parseQuery(";")[0].stmt->kind == StmtKind::Empty);
  CHECK(parseQuery("  -- nothing\n")[0].stmt->kind == StmtKind::Empty);
  CHECK(parseQuery("select 1; select 2").size() == 2);
}

TEST_CASE("statements: CREATE TABLE", "[parser][stmt]") {
  auto p = parseOne(
      "CREATE TABLE IF NOT EXISTS s.t (id serial PRIMARY KEY, name varchar(20) NOT NULL DEFAULT 'x', "
      "price numeric(10,2) CONSTRAINT pos CHECK (price > 0), key text UNIQUE NULL, "
      "ref int REFERENCES other (id) ON DELETE CASCADE, ts timestamp(3) with time zone, "
      "d double precision, f float(10), c char, b bool, "
      "CONSTRAINT pk2 UNIQUE (name, key), PRIMARY KEY (id), FOREIGN KEY (ref) REFERENCES other, "
      "CHECK (id > 0)) WITH (storage = column, fillfactor = 10, autovacuum_enabled)");
  auto& s = p.stmt->as<CreateTableStmt>();
  CHECK(s.ifNotExists);
  CHECK(s.table.parts == std::vector<std::string>{"s", "t"});
  REQUIRE(s.columns.size() == 10);
  CHECK(s.columns[0].name == "id");
  CHECK(s.columns[0].type.serial == SerialKind::Normal);
  CHECK(s.columns[0].type.type == SqlType{TypeId::Int4, -1});
  CHECK(s.columns[0].constraints[0].kind == ConstraintKind::PrimaryKey);
  CHECK(s.columns[1].name == "name");
  CHECK(s.columns[1].type.type == SqlType::varchar(20));
  REQUIRE(s.columns[1].constraints.size() == 2);
  CHECK(s.columns[1].constraints[0].kind == ConstraintKind::NotNull);
  CHECK(s.columns[1].constraints[1].kind == ConstraintKind::Default);
  CHECK(sexpr(s.columns[1].constraints[1].expr.get()) == "'x'");
  CHECK(s.columns[2].type.type == SqlType::numeric(10, 2));
  CHECK(s.columns[2].constraints[0].kind == ConstraintKind::Check);
  CHECK(s.columns[2].constraints[0].name == "pos");
  CHECK(s.columns[3].name == "key");
  CHECK(s.columns[3].constraints[0].kind == ConstraintKind::Unique);
  CHECK(s.columns[3].constraints[1].kind == ConstraintKind::Null);
  CHECK(s.columns[4].constraints[0].kind == ConstraintKind::ForeignKey);
  CHECK(s.columns[4].constraints[0].refTable.name() == "other");
  CHECK(s.columns[5].type.type == SqlType{TypeId::TimestampTz, 3});
  CHECK(s.columns[6].type.type.id == TypeId::Float8);
  CHECK(s.columns[7].type.type.id == TypeId::Float4);
  CHECK(s.columns[8].type.type == SqlType::bpchar(1));
  CHECK(s.columns[9].type.type.id == TypeId::Bool);
  REQUIRE(s.constraints.size() == 4);
  CHECK(s.constraints[0].name == "pk2");
  CHECK(s.constraints[0].kind == ConstraintKind::Unique);
  CHECK(s.constraints[0].columns == std::vector<std::string>{"name", "key"});
  CHECK(s.constraints[1].kind == ConstraintKind::PrimaryKey);
  CHECK(s.constraints[2].kind == ConstraintKind::ForeignKey);
  CHECK(s.constraints[3].kind == ConstraintKind::Check);
  REQUIRE(s.options.size() == 3);
  CHECK(s.options[0].name == "storage");
  CHECK(s.options[0].value == "column");
  CHECK(s.options[1].valueKind == DefElem::ValueKind::Number);
  CHECK(s.options[1].value == "10");
  CHECK(s.options[2].valueKind == DefElem::ValueKind::None);
  CHECK(parseOne("create table t (storage int) with (storage = row)").stmt->as<CreateTableStmt>().options[0].value ==
        "row");
  CHECK(parseOne("create table t ()").stmt->as<CreateTableStmt>().columns.empty());
}

TEST_CASE("statements: type names", "[parser][stmt]") {
  auto typeOf = [](const std::string& t) {
    auto p = parseOne("create table x (c " + t + ")");
    return std::move(p.stmt->as<CreateTableStmt>().columns[0].type);
  };
  CHECK(typeOf("smallint").type.id == TypeId::Int2);
  CHECK(typeOf("int2").type.id == TypeId::Int2);
  CHECK(typeOf("integer").type.id == TypeId::Int4);
  CHECK(typeOf("int8").type.id == TypeId::Int8);
  CHECK(typeOf("real").type.id == TypeId::Float4);
  CHECK(typeOf("float8").type.id == TypeId::Float8);
  CHECK(typeOf("float(30)").type.id == TypeId::Float8);
  CHECK(typeOf("decimal").type == SqlType{TypeId::Numeric, -1});
  CHECK(typeOf("numeric(5)").type == SqlType::numeric(5, 0));
  CHECK(typeOf("character varying(7)").type == SqlType::varchar(7));
  CHECK(typeOf("varchar").type == SqlType{TypeId::Varchar, -1});
  CHECK(typeOf("character(3)").type == SqlType::bpchar(3));
  CHECK(typeOf("bpchar").type == SqlType{TypeId::Char, -1});
  CHECK(typeOf("text").type.id == TypeId::Text);
  CHECK(typeOf("date").type.id == TypeId::Date);
  CHECK(typeOf("timestamp").type == SqlType{TypeId::Timestamp, -1});
  CHECK(typeOf("timestamp(0) without time zone").type == SqlType{TypeId::Timestamp, 0});
  CHECK(typeOf("timestamptz").type.id == TypeId::TimestampTz);
  CHECK(typeOf("pg_catalog.int4").type.id == TypeId::Int4);
  CHECK(typeOf("bigserial").serial == SerialKind::Big);
  CHECK(typeOf("smallserial").type.id == TypeId::Int2);
  CHECK(typeOf("\"varchar\"(5)").type == SqlType::varchar(5));
  CHECK(typeOf("interval").type == SqlType{TypeId::Interval, -1});
  CHECK(typeOf("interval day to second(3)").type.typmod ==
        ((((1 << 3) | (1 << 10) | (1 << 11) | (1 << 12)) << 16) | 3));
  CHECK(typeOf("interval(2)").type.typmod == ((0x7FFF << 16) | 2));
  // The aliases (type_id.h, TypeAlias): "char" in quotes is the one-byte type, char bpchar.
  CHECK(typeOf("oid").type == SqlType::of(TypeAlias::Oid));
  CHECK(typeOf("pg_catalog.regclass").type == SqlType::of(TypeAlias::RegClass));
  CHECK(typeOf("name").type == SqlType::of(TypeAlias::Name));
  CHECK(typeOf("\"char\"").type == SqlType::of(TypeAlias::InternalChar));
  CHECK(typeOf("char").type == SqlType::bpchar(1));
  CHECK(typeOf("json").type == SqlType{TypeId::Json, -1});
  CHECK(typeOf("pg_catalog.jsonb").type == SqlType{TypeId::Jsonb, -1});
  for (const char* raw : {"\"integer\"", "time", "public.int4", "xml", "public.jsonb"}) {
    auto t = typeOf(raw);
    CHECK_FALSE(t.resolved);
  }
  CHECK(typeOf("name").name() == "name");
  CHECK(typeOf("int[]").arrayBounds == 1);
}

TEST_CASE("statements: DROP, CREATE INDEX, ALTER TABLE, TRUNCATE", "[parser][stmt]") {
  auto d = parseOne("drop table if exists a, s.b cascade");
  auto& drop = d.stmt->as<DropStmt>();
  CHECK(drop.object == ObjectType::Table);
  CHECK(drop.ifExists);
  CHECK(drop.names.size() == 2);
  CHECK(drop.behavior == DropBehavior::Cascade);
  CHECK(parseOne("drop index i").stmt->as<DropStmt>().object == ObjectType::Index);

  auto i = parseOne("create unique index if not exists ix on t using btree (a desc nulls last, lower(b), (a + b))");
  auto& idx = i.stmt->as<CreateIndexStmt>();
  CHECK(idx.unique);
  CHECK(idx.ifNotExists);
  CHECK(idx.name == "ix");
  CHECK(idx.method == "btree");
  REQUIRE(idx.elems.size() == 3);
  CHECK(idx.elems[0].column == "a");
  CHECK(idx.elems[0].dir == SortDir::Desc);
  CHECK(idx.elems[0].nulls == NullsOrder::Last);
  CHECK(sexpr(idx.elems[1].expr.get()) == "lower( b)");
  CHECK(sexpr(idx.elems[2].expr.get()) == "(+ a b)");
  CHECK(parseOne("create index on t (a)").stmt->as<CreateIndexStmt>().name.empty());

  auto a = parseOne("alter table t add primary key (a, b), add constraint u unique (c)");
  auto& alter = a.stmt->as<AlterTableStmt>();
  REQUIRE(alter.cmds.size() == 2);
  CHECK(alter.cmds[0].constraint.kind == ConstraintKind::PrimaryKey);
  CHECK(alter.cmds[1].constraint.name == "u");

  auto t = parseOne("truncate table a, b");
  CHECK(t.stmt->as<TruncateStmt>().tables.size() == 2);
  CHECK(parseOne("truncate a").stmt->kind == StmtKind::Truncate);
}

TEST_CASE("statements: INSERT", "[parser][stmt]") {
  auto p = parseOne("insert into t as x (a, b) values (1, default), (2, 'y') returning a, b * 2 as c");
  auto& s = p.stmt->as<InsertStmt>();
  CHECK(s.alias == "x");
  CHECK(s.columns == std::vector<std::string>{"a", "b"});
  REQUIRE(s.source);
  CHECK(s.source->body == SelectStmt::Body::Values);
  REQUIRE(s.source->values.size() == 2);
  CHECK(s.source->values[0][1]->kind == ExprKind::Default);
  REQUIRE(s.returning.size() == 2);
  CHECK(s.returning[1].alias == "c");
  CHECK(parseOne("insert into t default values").stmt->as<InsertStmt>().source == nullptr);
  auto sel = parseOne("insert into t (a) select x from u");
  CHECK(sel.stmt->as<InsertStmt>().source->body == SelectStmt::Body::Simple);
  CHECK(parseOne("insert into t (select 1)").stmt->as<InsertStmt>().columns.empty());
}

TEST_CASE("statements: SELECT", "[parser][stmt]") {
  auto p = parseOne(
      "select distinct t.*, a.x as y, b z, * from t, s.a as a (x, y) join b on a.x = b.x "
      "left outer join c using (k) cross join d full join (select 1 as one) q on true "
      "where a.x > 1 group by 1, a.x having count(*) > 1 order by 2 desc nulls first, y "
      "limit 10 offset 5 rows for update");
  auto& s = p.stmt->as<SelectStmt>();
  CHECK(s.distinct);
  REQUIRE(s.targets.size() == 4);
  CHECK(sexpr(s.targets[0].expr.get()) == "t.*");
  CHECK(s.targets[1].alias == "y");
  CHECK(s.targets[2].alias == "z");
  CHECK(sexpr(s.targets[3].expr.get()) == "*");
  REQUIRE(s.from.size() == 2);
  CHECK(s.from[0]->kind == TableRefKind::Table);
  auto& j = s.from[1]->as<JoinRef>();  // ((((a join b) left join c) cross join d) full join q)
  CHECK(j.type == JoinType::Full);
  CHECK(j.right->kind == TableRefKind::Subquery);
  CHECK(j.right->as<RangeSubquery>().alias->name == "q");
  auto& cross = j.left->as<JoinRef>();
  CHECK(cross.type == JoinType::Cross);
  auto& left = cross.left->as<JoinRef>();
  CHECK(left.type == JoinType::Left);
  CHECK(left.using_ == std::vector<std::string>{"k"});
  auto& inner = left.left->as<JoinRef>();
  CHECK(inner.type == JoinType::Inner);
  CHECK(sexpr(inner.on.get()) == "(= a.x b.x)");
  auto& a = inner.left->as<RangeTable>();
  CHECK(a.name.parts == std::vector<std::string>{"s", "a"});
  CHECK(a.alias->columns == std::vector<std::string>{"x", "y"});
  CHECK(sexpr(s.where.get()) == "(> a.x 1)");
  CHECK(sexpr(s.groupBy[0].get()) == "1");
  CHECK(sexpr(s.having.get()) == "(> count(*) 1)");
  REQUIRE(s.orderBy.size() == 2);
  CHECK(s.orderBy[0].dir == SortDir::Desc);
  CHECK(s.orderBy[0].nulls == NullsOrder::First);
  CHECK(sexpr(s.limit.get()) == "10");
  CHECK(sexpr(s.offset.get()) == "5");
  CHECK(s.locking == LockStrength::Update);

  CHECK(parseOne("select 1 limit all").stmt->as<SelectStmt>().limit == nullptr);
  CHECK(parseOne("select").stmt->as<SelectStmt>().targets.empty());
  CHECK(parseOne("select from t").stmt->as<SelectStmt>().from.size() == 1);
  CHECK(parseOne("select * from t fetch first 3 rows only").stmt->as<SelectStmt>().limit != nullptr);
}

TEST_CASE("statements: TABLE name", "[parser][stmt]") {
  auto p = parseOne("table only s.t order by 1");
  auto& s = p.stmt->as<SelectStmt>();
  REQUIRE(s.targets.size() == 1);
  CHECK(sexpr(s.targets[0].expr.get()) == "*");
  REQUIRE(s.from.size() == 1);
  auto& t = s.from[0]->as<RangeTable>();
  CHECK(t.only);
  CHECK(t.name.parts == std::vector<std::string>{"s", "t"});
  CHECK(s.orderBy.size() == 1);
  CHECK(parseOne("insert into a table b").stmt->kind == StmtKind::Insert);
  CHECK_THROWS(parseOne("table"));
}

TEST_CASE("statements: functions in FROM and column definition lists", "[parser][stmt]") {
  auto p1 = parseOne("select * from f(1) as x (a, b)");
  auto p2 = parseOne("select * from f() x (a int, b varchar(3) collate \"C\")");
  auto p3 = parseOne("select * from f() as (a int)");
  auto p4 = parseOne("select * from f()");
  auto function = [](const ParsedStatement& p) -> const RangeFunction& {
    return p.stmt->as<SelectStmt>().from[0]->as<RangeFunction>();
  };
  const RangeFunction& aliased = function(p1);
  CHECK(aliased.alias->name == "x");
  CHECK(aliased.alias->columns == std::vector<std::string>{"a", "b"});
  CHECK(aliased.columnTypes.empty());
  const RangeFunction& named = function(p2);
  CHECK(named.alias->name == "x");
  CHECK(named.alias->columns == std::vector<std::string>{"a", "b"});
  REQUIRE(named.columnTypes.size() == 2);
  CHECK(named.columnTypes[1].type == SqlType{TypeId::Varchar, 7});
  CHECK(named.definitionLocation == std::string("select * from f() x (").size());
  const RangeFunction& bare = function(p3);
  CHECK(bare.alias->name.empty());
  CHECK(bare.columnTypes.size() == 1);
  CHECK_FALSE(function(p4).alias);
  CHECK_THROWS_AS(parseOne("select * from f() as (a, b)"), SqlError);
  CHECK_THROWS_AS(parseOne("select * from f() x (a int, b)"), SqlError);
}

TEST_CASE("statements: set operations and VALUES", "[parser][stmt]") {
  auto p = parseOne("select 1 union all select 2 intersect select 3 except select 4 order by 1 limit 1");
  auto& s = p.stmt->as<SelectStmt>();
  CHECK(s.body == SelectStmt::Body::SetOp);
  CHECK(s.setOp == SetOpKind::Except);  // ((1 union all (2 intersect 3)) except 4)
  CHECK(s.orderBy.size() == 1);
  CHECK(s.limit != nullptr);
  auto& u = *s.left;
  CHECK(u.setOp == SetOpKind::Union);
  CHECK(u.setAll);
  CHECK(u.right->setOp == SetOpKind::Intersect);

  auto par = parseOne("(select a from t order by a limit 1) union select 2");
  CHECK(par.stmt->as<SelectStmt>().left->orderBy.size() == 1);

  auto v = parseOne("values (1, 'a'), (2, 'b') order by 1");
  auto& vs = v.stmt->as<SelectStmt>();
  CHECK(vs.body == SelectStmt::Body::Values);
  CHECK(vs.values.size() == 2);
  CHECK(vs.orderBy.size() == 1);
}

TEST_CASE("statements: UPDATE and DELETE", "[parser][stmt]") {
  auto u =
      parseOne("update only t as x set a = a + 1, (b, c) = (1, 2), d = default from u where x.k = u.k returning *");
  auto& us = u.stmt->as<UpdateStmt>();
  CHECK(us.alias == "x");
  REQUIRE(us.set.size() == 3);
  CHECK(us.set[0].columns == std::vector<std::string>{"a"});
  CHECK(us.set[1].multi);
  CHECK(sexpr(us.set[1].value.get()) == "(row 1 2)");
  CHECK(us.set[2].value->kind == ExprKind::Default);
  CHECK(us.from.size() == 1);
  CHECK(us.returning.size() == 1);
  CHECK(parseOne("update t set a = 1").stmt->as<UpdateStmt>().alias.empty());
  CHECK(parseOne("update t x set a = 1").stmt->as<UpdateStmt>().alias == "x");

  auto d = parseOne("delete from t x where x.a = 1 returning a");
  auto& ds = d.stmt->as<DeleteStmt>();
  CHECK(ds.alias == "x");
  CHECK(sexpr(ds.where.get()) == "(= x.a 1)");
  CHECK(ds.returning.size() == 1);
}

TEST_CASE("statements: transactions", "[parser][stmt]") {
  auto b = parseOne("BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY NOT DEFERRABLE");
  auto& bt = b.stmt->as<TransactionStmt>();
  CHECK(bt.action == TransactionKind::Begin);
  CHECK(bt.isolation == IsolationLevel::RepeatableRead);
  CHECK(bt.readOnly == true);
  CHECK(bt.deferrable == false);
  CHECK(parseOne("begin work").stmt->as<TransactionStmt>().action == TransactionKind::Begin);
  CHECK(parseOne("start transaction read write").stmt->as<TransactionStmt>().readOnly == false);
  CHECK(parseOne("commit").stmt->as<TransactionStmt>().action == TransactionKind::Commit);
  CHECK(parseOne("end transaction").stmt->as<TransactionStmt>().action == TransactionKind::Commit);
  CHECK(parseOne("abort").stmt->as<TransactionStmt>().action == TransactionKind::Rollback);
  CHECK(parseOne("rollback work").stmt->as<TransactionStmt>().action == TransactionKind::Rollback);
  auto rt = parseOne("rollback to savepoint sp1");
  CHECK(rt.stmt->as<TransactionStmt>().action == TransactionKind::RollbackTo);
  CHECK(rt.stmt->as<TransactionStmt>().savepoint == "sp1");
  CHECK(parseOne("savepoint a").stmt->as<TransactionStmt>().action == TransactionKind::Savepoint);
  CHECK(parseOne("release savepoint a").stmt->as<TransactionStmt>().action == TransactionKind::Release);
  auto st = parseOne("set transaction isolation level serializable");
  CHECK(st.stmt->as<TransactionStmt>().action == TransactionKind::SetTransaction);
  CHECK(st.stmt->as<TransactionStmt>().isolation == IsolationLevel::Serializable);
  CHECK(parseOne("set local transaction read only").stmt->as<TransactionStmt>().readOnly == true);
  CHECK(parseOne("set session transaction read write").stmt->as<TransactionStmt>().readOnly == false);
  CHECK_THROWS_AS(parseOne("set transaction"), SqlError);  // at least one mode, as in PostgreSQL
  auto sc = parseOne("set session characteristics as transaction read only, isolation level repeatable read");
  auto& sct = sc.stmt->as<TransactionStmt>();
  CHECK(sct.action == TransactionKind::SetSessionCharacteristics);
  CHECK(sct.readOnly == true);
  CHECK(sct.isolation == IsolationLevel::RepeatableRead);
  CHECK_FALSE(sct.local);
  auto lsc = parseOne("set local session characteristics as transaction read write");
  CHECK(lsc.stmt->as<TransactionStmt>().action == TransactionKind::SetSessionCharacteristics);
  CHECK(lsc.stmt->as<TransactionStmt>().local);
  CHECK_THROWS_AS(parseOne("set session characteristics as transaction"), SqlError);
  // A setting whose name begins like the statement is still a setting.
  CHECK(parseOne("set transaction_read_only = on").stmt->as<SetStmt>().name == "transaction_read_only");
  CHECK(parseOne("set session transaction_read_only = on").stmt->as<SetStmt>().name == "transaction_read_only");
}

TEST_CASE("statements: SET, SHOW, RESET, DISCARD, VACUUM, ANALYZE, CHECKPOINT", "[parser][stmt]") {
  auto s = parseOne("set search_path to public, 'x'");
  auto& ss = s.stmt->as<SetStmt>();
  CHECK(ss.name == "search_path");
  REQUIRE(ss.values.size() == 2);
  CHECK(ss.values[1].valueKind == DefElem::ValueKind::String);
  auto l = parseOne("set local statement_timeout = -5");
  CHECK(l.stmt->as<SetStmt>().local);
  CHECK(l.stmt->as<SetStmt>().values[0].value == "-5");
  CHECK(parseOne("set x = default").stmt->as<SetStmt>().action == SetStmt::Action::SetDefault);
  auto tz = parseOne("set time zone 'UTC'");
  CHECK(tz.stmt->as<SetStmt>().name == "timezone");
  CHECK(tz.stmt->as<SetStmt>().values[0].value == "UTC");
  CHECK(parseOne("set session datestyle to iso").stmt->as<SetStmt>().values[0].value == "iso");
  CHECK(parseOne("set time zone local").stmt->as<SetStmt>().action == SetStmt::Action::SetDefault);
  CHECK(parseOne("set time zone default").stmt->as<SetStmt>().action == SetStmt::Action::SetDefault);
  CHECK(parseOne("set timezone = local").stmt->as<SetStmt>().values[0].value == "local");
  auto names = parseOne("set names 'UTF8'");
  CHECK(names.stmt->as<SetStmt>().name == "client_encoding");
  CHECK(names.stmt->as<SetStmt>().values[0].value == "UTF8");
  CHECK(parseOne("set names default").stmt->as<SetStmt>().action == SetStmt::Action::SetDefault);
  CHECK(parseOne("set my.custom.opt = 1").stmt->as<SetStmt>().name == "my.custom.opt");
  CHECK(parseOne("show time zone").stmt->as<ShowStmt>().name == "timezone");
  CHECK(parseOne("reset time zone").stmt->as<SetStmt>().name == "timezone");
  CHECK_THROWS_AS(parseOne("set time zone 'UTC', 'x'"), SqlError);
  CHECK_THROWS_AS(parseOne("set datestyle 'iso'"), SqlError);
  CHECK(parseOne("show all").stmt->as<ShowStmt>().name == "all");
  CHECK(parseOne("show server_version").stmt->as<ShowStmt>().name == "server_version");
  CHECK(parseOne("show transaction isolation level").stmt->as<ShowStmt>().name == "transaction_isolation");
  CHECK(parseOne("reset all").stmt->as<SetStmt>().action == SetStmt::Action::ResetAll);
  CHECK(parseOne("reset work_mem").stmt->as<SetStmt>().name == "work_mem");
  CHECK(parseOne("discard all").stmt->as<DiscardStmt>().target == "all");
  auto v = parseOne("vacuum full analyze t, u");
  CHECK(v.stmt->as<VacuumStmt>().options.size() == 2);
  CHECK(v.stmt->as<VacuumStmt>().tables.size() == 2);
  CHECK(parseOne("vacuum (verbose, analyze false) t").stmt->as<VacuumStmt>().options[1].value == "false");
  CHECK(parseOne("analyze").stmt->as<VacuumStmt>().isAnalyze);
  CHECK(parseOne("analyze t").stmt->as<VacuumStmt>().tables.size() == 1);
  CHECK(parseOne("checkpoint").stmt->kind == StmtKind::Checkpoint);
}

TEST_CASE("statements: databases and roles", "[parser][stmt]") {
  auto d = parseOne("create database db with owner = bob encoding 'UTF8' connection limit = 5");
  auto& ds = d.stmt->as<CreateDatabaseStmt>();
  CHECK(ds.name == "db");
  REQUIRE(ds.options.size() == 3);
  CHECK(ds.options[1].value == "UTF8");
  CHECK(ds.options[2].name == "connection_limit");
  CHECK(parseOne("drop database if exists db").stmt->as<DropStmt>().object == ObjectType::Database);
  auto r = parseOne("create user u with superuser login password 'secret'");
  auto& rs = r.stmt->as<CreateRoleStmt>();
  CHECK(rs.isUser);
  REQUIRE(rs.options.size() == 3);
  CHECK(rs.options[2].name == "password");
  CHECK(rs.options[2].value == "secret");
  CHECK(parseOne("create role r").stmt->as<CreateRoleStmt>().options.empty());
  CHECK(parseOne("drop role if exists a, b").stmt->as<DropStmt>().names.size() == 2);
  CHECK(parseOne("drop user u").stmt->as<DropStmt>().object == ObjectType::Role);
}

TEST_CASE("statements: COPY", "[parser][stmt]") {
  auto c = parseOne("copy t (a, b) from stdin with (format csv, header true, delimiter ',', null '', freeze)");
  auto& cs = c.stmt->as<CopyStmt>();
  CHECK(cs.isFrom);
  CHECK(cs.columns.size() == 2);
  REQUIRE(cs.options.size() == 5);
  CHECK(cs.options[0].value == "csv");
  CHECK(cs.options[2].value == ",");
  CHECK(cs.options[4].valueKind == DefElem::ValueKind::None);
  auto old = parseOne("COPY t FROM stdin WITH CSV HEADER DELIMITER ',' NULL AS 'n'");
  auto& os = old.stmt->as<CopyStmt>();
  REQUIRE(os.options.size() == 4);
  CHECK(os.options[0].name == "format");
  CHECK(os.options[0].value == "csv");
  CHECK(os.options[1].name == "header");
  CHECK(os.options[2].name == "delimiter");
  CHECK(os.options[3].value == "n");
  auto q = parseOne("copy (select 1) to stdout");
  CHECK(q.stmt->as<CopyStmt>().query != nullptr);
  CHECK_FALSE(q.stmt->as<CopyStmt>().isFrom);
}

TEST_CASE("statements: PREPARE, EXECUTE, DEALLOCATE, EXPLAIN", "[parser][stmt]") {
  std::string q = "prepare p (int, text) as select $1, $2";
  auto stmts = parseQuery(q);
  auto& p = stmts[0].stmt->as<PrepareStmt>();
  CHECK(p.name == "p");
  CHECK(p.paramTypes.size() == 2);
  CHECK(p.stmt->kind == StmtKind::Select);
  CHECK(q.substr(p.stmt->begin, p.stmt->end - p.stmt->begin) == "select $1, $2");
  auto e = parseOne("execute p (1, 'x')");
  CHECK(e.stmt->as<ExecuteStmt>().args.size() == 2);
  CHECK(parseOne("deallocate prepare p").stmt->as<DeallocateStmt>().name == "p");
  CHECK(parseOne("deallocate all").stmt->as<DeallocateStmt>().all);
  auto x = parseOne("explain analyze select 1");
  CHECK(x.stmt->as<ExplainStmt>().options.size() == 1);
  CHECK(x.stmt->as<ExplainStmt>().stmt->kind == StmtKind::Select);
  CHECK(parseOne("explain (analyze, costs off) delete from t").stmt->as<ExplainStmt>().options.size() == 2);
}
