// End-to-end through the compiler: parse, bind, plan, generate code, run it against real
// tables, and read the rows it emits.
#include <catch2/catch.hpp>

#include "compiler/compiler.h"
#include "engine/error.h"
#include "engine/storage/table.h"
#include "engine/storage/undo_log.h"
#include "engine/types/value_io.h"

using namespace duet;

namespace {

struct Rows : rt::RowConsumer {
  const TupleLayout* layout = nullptr;
  std::vector<std::string> lines;
  size_t failAfter = SIZE_MAX;  // stands in for a client that goes away mid-result
  void consume(const uint8_t* t) override {
    if (lines.size() == failAfter) throw SqlError(sqlstate::kQueryCanceled, "the consumer stopped reading");
    std::string line;
    TypeContext tc;
    for (size_t c = 0; c < layout->types.size(); ++c) {
      if (c) line += "|";
      if (t[layout->nullOffset(c)]) {
        line += "NULL";
        continue;
      }
      formatText(layout->types[c], t + layout->offsets[c], line, tc);
    }
    lines.push_back(line);
  }
};

struct Fixture {
  Table t{"t",
          {{"a", {TypeId::Int4, -1}, true}, {"b", {TypeId::Text, -1}, false}, {"c", SqlType::numeric(10, 2), false}},
          StorageKind::Row};
  Table u{"u", {{"a", {TypeId::Int4, -1}, true}, {"d", {TypeId::Int8, -1}, false}}, StorageKind::Column};
  Table v{"v", {{"a", {TypeId::Int4, -1}, false}, {"e", {TypeId::Int4, -1}, false}}, StorageKind::Row};
  UndoLog undo;
  std::string outline;           // plan::outline() of the last statement run
  size_t stateLeft = 0;          // runtime structures (buffers, group and join tables) the last run left
  uint32_t parallelThreads = 1;  // as a snapshot process would allow
  CompileTiers tiers = CompileTiers::Adaptive;
  bool waitForOptimisedTier = false;  // run the adaptive compile's optimised code (when it has one)
  bool ranOptimisedTier = false;      // the last run's code was the optimised tier's
  size_t failAfterRows = SIZE_MAX;    // the output fails after so many rows
  Fixture() {
    t.createIndex("t_pkey", {0}, IndexKind::Hash, true, undo);
    undo.commit();
  }

  std::vector<std::string> run(const std::string& sqlText, int64_t* affected = nullptr) {
    sql::ParseOptions opts;
    opts.liftLiterals = true;
    auto parsed = sql::parseQuery(sqlText, opts);
    auto& ps = parsed.at(0);
    PlanRequest req;
    req.stmt = ps.stmt.get();
    req.explicitParamCount = ps.explicitParams;
    for (const auto& l : ps.literals) req.literalTypes.push_back(literalType(l.kind));
    for (const auto& l : ps.literals) req.literalUses.push_back(l.uses);
    for (const auto& l : ps.literals) req.literalSameAs.push_back(l.sameTextAs);
    req.queryText = sqlText;
    req.parallelThreads = parallelThreads;
    req.compileTiers = tiers;
    req.resolveTable = [&](const sql::QualifiedName& n) {
      Table* table = n.name() == "t" ? &t : n.name() == "u" ? &u : n.name() == "v" ? &v : nullptr;
      if (!table) throw SqlError(sqlstate::kUndefinedTable, "relation \"" + n.name() + "\" does not exist");
      return TableBinding{table, 1, n.name(), {}, nullptr};
    };
    auto plan = planStatement(req);
    outline = plan->planOutline;
    const std::shared_ptr<OptimisedTier>& optimised = plan->compiled->optimised;
    if (waitForOptimisedTier && optimised) optimised->wait();
    ranOptimisedTier = optimised ? optimised->addresses.ready() : plan->compiled->code.optimised;
    Arena arena;
    setStatementArena(&arena);
    TypeContext tc;
    std::vector<uint8_t> params(std::max<uint32_t>(16, plan->compiled->paramLayout.size));
    for (size_t i = 0; i < ps.literals.size(); ++i) {
      size_t p = ps.explicitParams + i;
      if (ps.literals[i].null)
        params[plan->compiled->paramLayout.nullOffset(p)] = 1;
      else
        parseText(plan->paramTypes[p], ps.literals[i].text, params.data() + plan->compiled->paramLayout.offsets[p],
                  arena, tc);
    }
    Rows rows;
    rows.layout = &plan->compiled->outputLayout;
    rows.failAfter = failAfterRows;
    rt::QueryContext ctx;
    ctx.params = params.data();
    ctx.undo = &undo;
    ctx.output = &rows;
    ctx.typeContext = &tc;
    plan->compiled->run(&ctx);
    stateLeft = ctx.buffers.size() + ctx.groups.size() + ctx.joins.size();
    undo.commit();
    setStatementArena(nullptr);
    if (affected) *affected = ctx.affectedRows;
    return rows.lines;
  }
};

}  // namespace

TEST_CASE("compiled INSERT, SELECT, UPDATE, DELETE over row and column tables", "[compiler]") {
  Fixture f;
  int64_t n = 0;
  f.run("insert into t values (1, 'one', 1.5), (2, 'two', 2.25), (3, null, null)", &n);
  CHECK(n == 3);
  CHECK(f.run("select a, b, c from t where a = 2") == std::vector<std::string>{"2|two|2.25"});
  CHECK(f.run("select a + 1, c * 2 from t where a >= 2 order by a desc") ==
        std::vector<std::string>{"4|NULL", "3|4.50"});
  CHECK(f.run("select count(*), sum(a), avg(a), min(b), max(c) from t") ==
        std::vector<std::string>{"3|6|2.0000000000000000|one|2.25"});
  f.run("update t set c = c + 1 where a = 1", &n);
  CHECK(n == 1);
  CHECK(f.run("select c from t where a = 1") == std::vector<std::string>{"2.50"});
  f.run("insert into u values (1, 10), (1, 11), (2, 20)");
  CHECK(f.run("select t.a, u.d from t join u on t.a = u.a order by u.d") ==
        std::vector<std::string>{"1|10", "1|11", "2|20"});
  CHECK(f.run("select a, count(*) from u group by a order by 1") == std::vector<std::string>{"1|2", "2|1"});
  CHECK(f.run("select distinct a from u order by a limit 1") == std::vector<std::string>{"1"});
  f.run("delete from t where b is null", &n);
  CHECK(n == 1);
  CHECK(f.run("select a from t where b like 't%' or a = 1 order by a") == std::vector<std::string>{"1", "2"});
  CHECK_THROWS_AS(f.run("insert into t values (1, 'dup', 0)"), SqlError);
  CHECK_THROWS_AS(f.run("select 1 / 0"), SqlError);
  CHECK(f.run("select 2147483647::int8 + 1, 'x' || 1") == std::vector<std::string>{"2147483648|x1"});
}

TEST_CASE("compiled aggregates with DISTINCT and GROUP BY on a shared constant", "[compiler]") {
  Fixture f;
  f.run("insert into u values (1, 10), (1, 10), (1, 11), (2, 20), (2, null), (3, 20)");
  CHECK(f.run("select count(distinct d), sum(distinct d), count(d), min(distinct a) from u") ==
        std::vector<std::string>{"3|41|5|1"});
  CHECK(f.run("select a, count(distinct d), sum(distinct d), avg(distinct d) from u group by a order by a") ==
        std::vector<std::string>{"1|2|21|10.5000000000000000", "2|1|20|20.0000000000000000",
                                 "3|1|20|20.0000000000000000"});
  CHECK(f.run("select a % 2, count(distinct d) from u group by a % 2 order by a % 2") ==
        std::vector<std::string>{"0|1", "1|3"});
}

TEST_CASE("compiled USING and NATURAL joins merge the shared column", "[compiler]") {
  Fixture f;
  f.run("insert into t values (1, 'one', 1.5), (2, 'two', null)");
  f.run("insert into u values (1, 10), (1, 11), (3, 30)");
  const std::vector<std::string> joined{"1|one|1.50|10", "1|one|1.50|11"};
  CHECK(f.run("select * from t join u using (a) order by d") == joined);
  CHECK(f.run("select * from t natural join u order by d") == joined);
  CHECK(f.run("select a, t.a, u.a from t join u using (a) where a = 1 order by d") ==
        std::vector<std::string>{"1|1|1", "1|1|1"});
  CHECK_THROWS_AS(f.run("select * from t join u using (b)"), SqlError);
  CHECK_THROWS_AS(f.run("select a from t join u on t.a = u.a"), SqlError);  // ambiguous without USING
}

TEST_CASE("ordered index range scans: chosen for sargable conjuncts only, exact results", "[compiler][index]") {
  Fixture f;
  f.t.createIndex("t_b", {1}, IndexKind::Ordered, false, f.undo);
  f.u.createIndex("u_ad", {0, 1}, IndexKind::Ordered, false, f.undo);  // column storage
  f.undo.commit();
  f.run("insert into t values (1, 'a', 1), (2, 'b', 2), (3, 'bb', 3), (4, null, 4)");
  f.run("insert into u values (1, 10), (1, 11), (1, 12), (2, 20), (2, 20), (3, 30), (4, null)");
  using Lines = std::vector<std::string>;

  // Equality prefix, then one range (literals are lifted: the bounds are parameters).
  CHECK(f.run("select d from u where a = 1 and d > 10") == Lines{"11", "12"});
  CHECK(f.outline == "Project(Filter(IndexRange[u_ad: a = ?, d > ?]))");
  CHECK(f.run("select d from u where a = 2") == Lines{"20", "20"});
  CHECK(f.outline == "Project(Filter(IndexRange[u_ad: a = ?]))");
  CHECK(f.run("select a, d from u where 3 > a and a >= 2") == Lines{"2|20", "2|20"});
  CHECK(f.outline == "Project(Filter(IndexRange[u_ad: a >= ?, a < ?]))");
  CHECK(f.run("select d from u where a = 1 and d between 11 and 12") == Lines{"11", "12"});
  CHECK(f.outline == "Project(Filter(IndexRange[u_ad: a = ?, d >= ?, d <= ?]))");
  CHECK(f.run("select b from t where b >= 'b' and b < 'c'") == Lines{"b", "bb"});
  CHECK(f.outline == "Project(Filter(IndexRange[t_b: b >= ?, b < ?]))");
  CHECK(f.run("select d from u where a = 4 and d > 0").empty());  // NULL keys are in no range
  CHECK(f.run("select d from u where a > null").empty());
  CHECK(f.outline == "Project(Filter(IndexRange[u_ad: a > ?]))");

  // A unique key covered by equalities still uses the point lookup.
  CHECK(f.run("select a from t where a = 2 and b >= 'a'") == Lines{"2"});
  CHECK(f.outline == "Project(Filter(IndexLookup[t_pkey]))");

  // Not sargable: expressions over the column, <>, a column on both sides, no bound on the
  // leading key column.
  for (const char* q : {"select d from u where a + 0 = 1 and d > 10", "select d from u where a <> 1",
                        "select d from u where d = a", "select d from u where d > 10"}) {
    f.run(q);
    CHECK(f.outline == "Project(Filter(TableScan[u]))");
  }
  // An integer column compared with a wider integer (the binder casts the column) bounds
  // the index with the value clamped into the column's range; the comparison still filters.
  CHECK(f.run("select count(*) from u where a < 4000000000") == Lines{"7"});
  CHECK(f.outline == "Project(Aggregate(Filter(IndexRange[u_ad: a < ?])))");
  CHECK(f.run("select d from u where a = 2::bigint and d >= 20::bigint") == Lines{"20", "20"});
  CHECK(f.outline == "Project(Filter(IndexRange[u_ad: a = ?, d >= ?]))");
  CHECK(f.run("select d from u where a = 4000000000").empty());
  CHECK(f.run("select count(*) from u where a > -4000000000 and a <= 2::bigint") == Lines{"5"});
  CHECK(f.run("select a from t where a = 2::bigint") == Lines{"2"});
  CHECK(f.outline == "Project(Filter(IndexLookup[t_pkey]))");
  CHECK(f.run("select a from t where a = 4294967298").empty());  // 2^32 + 2: not 2 once clamped

  // UPDATE reads the range before changing rows that move further along the index; DELETE
  // erases as it goes.
  int64_t n = 0;
  f.run("update u set a = a + 1 where a >= 1 and a <= 3", &n);
  CHECK(n == 6);
  CHECK(f.outline == "Update(Project(Materialize(Filter(IndexRange[u_ad: a >= ?, a <= ?]))))");
  // An update that leaves the walked index's key alone changes rows as the walk goes.
  f.run("update t set c = c + 1 where b >= 'b' and b < 'c'", &n);
  CHECK(n == 2);
  CHECK(f.outline == "Update(Project(Filter(IndexRange[t_b: b >= ?, b < ?])))");
  CHECK(f.run("select c from t where b >= 'b' order by a") == Lines{"3.00", "4.00"});
  CHECK(f.run("select a, d from u where a > 0") == Lines{"2|10", "2|11", "2|12", "3|20", "3|20", "4|30", "4|NULL"});
  f.run("delete from u where a = 3 and d <= 20", &n);
  CHECK(n == 2);
  CHECK(f.outline == "Delete(Project(Filter(IndexRange[u_ad: a = ?, d <= ?])))");
  CHECK(f.run("select count(*) from u where a >= 2") == Lines{"5"});
}

TEST_CASE("= ANY (array) and IN lists probe an index once per distinct value", "[compiler][index]") {
  Fixture f;
  f.u.createIndex("u_ad", {0, 1}, IndexKind::Ordered, false, f.undo);  // column storage
  f.undo.commit();
  f.run("insert into t values (1, 'a', 1), (2, 'b', 2), (3, 'bb', 3), (4, null, 4)");
  f.run("insert into u values (1, 10), (1, 11), (2, 20), (2, 21), (3, 30), (4, null)");
  using Lines = std::vector<std::string>;

  // The unique index: a lookup per distinct element, NULL elements match nothing.
  CHECK(f.run("select b from t where a = any('{3, 1, 3, null, 9}'::int[]) order by b") == Lines{"a", "bb"});
  CHECK(f.outline.find("IndexLookup[t_pkey: a = ANY ?]") != std::string::npos);
  CHECK(f.run("select a from t where a in (4, 2, 4)") == Lines{"2", "4"});  // sorted: the set's order
  CHECK(f.outline == "Project(IndexLookup[t_pkey: a = ANY ?])");
  CHECK(f.run("select a from t where a = any(null::int[])").empty());
  CHECK(f.run("select a from t where a = any('{}'::int[])").empty());
  // A single value still makes the plain lookup.
  f.run("select a from t where a = 2 and a = any('{1,2}'::int[])");
  CHECK(f.outline == "Project(Filter(IndexLookup[t_pkey]))");

  // An ordered index: a range per value, the other conjuncts checked on its rows.
  CHECK(f.run("select a, d from u where a = any('{2, 1}'::int[]) and d > 10") == Lines{"1|11", "2|20", "2|21"});
  CHECK(f.outline == "Project(Filter(IndexRange[u_ad: a = ANY ?, d > ?]))");
  CHECK(f.run("select d from u where a in (3, 4) order by d") == Lines{"30", "NULL"});
  CHECK(f.outline.find("Sort(") != std::string::npos);  // the values' ranges are not one walk
  // Not for the index: a cast column, or values that read the row.
  for (const char* q :
       {"select d from u where d = any('{10, 20}'::int8[])", "select a from t where a = any(array[c::int])"}) {
    f.run(q);
    INFO(q << " -> " << f.outline);
    CHECK(f.outline.find("TableScan") != std::string::npos);
  }

  // An UPDATE that moves rows along the probed key reads them all first, so that a later
  // value's probe does not meet a moved row again.
  int64_t n = 0;
  f.run("update t set a = a + 10 where a = any('{1, 11}'::int[])", &n);
  CHECK(n == 1);
  CHECK(f.outline == "Update(Project(Materialize(IndexLookup[t_pkey: a = ANY ?])))");
  f.run("delete from t where a in (2, 11, 12)", &n);
  CHECK(n == 2);
  CHECK(f.run("select a from t order by a") == Lines{"3", "4"});
}

TEST_CASE("an ordered index replaces ORDER BY and MIN/MAX when it yields the order", "[compiler][index]") {
  Fixture f;
  f.u.createIndex("u_ad", {0, 1}, IndexKind::Ordered, false, f.undo);  // column storage
  f.undo.commit();
  f.run("insert into u values (1, 12), (1, 10), (1, null), (1, 11), (2, 20), (2, 21), (3, null), (4, 40)");
  using Lines = std::vector<std::string>;

  // Sort keys after the equality prefix, in index order either way; pinned columns may appear
  // anywhere. NULLs come last ascending and first descending, as PostgreSQL sorts them.
  CHECK(f.run("select d from u where a = 1 order by d") == Lines{"10", "11", "12", "NULL"});
  CHECK(f.outline == "Project(Filter(IndexRange[u_ad: a = ?]))");
  CHECK(f.run("select d from u where a = 1 order by a, d desc limit 3") == Lines{"NULL", "12", "11"});
  CHECK(f.outline == "Project(Limit(Project(Filter(IndexRange[u_ad: a = ? desc]))))");
  CHECK(f.run("select a, d from u where a >= 2 order by a desc, d desc") == Lines{"4|40", "3|NULL", "2|21", "2|20"});
  CHECK(f.outline == "Project(Filter(IndexRange[u_ad: a >= ? desc]))");
  // A table scan becomes a whole-index walk only when a LIMIT stops it early.
  CHECK(f.run("select a, d from u order by a, d limit 2") == Lines{"1|10", "1|11"});
  CHECK(f.outline == "Limit(Project(IndexRange[u_ad:]))");
  // Orders the index cannot give keep the sort: mixed directions, NULLS placement against
  // the index, a skipped key column, an expression, no LIMIT over a table scan.
  for (const char* q : {"select d from u where a >= 1 order by a, d desc",
                        "select d from u where a = 1 order by d nulls first", "select d from u where a >= 1 order by d",
                        "select d from u where a = 1 order by d + 0", "select a from u order by a"}) {
    f.run(q);
    INFO(q << " -> " << f.outline);
    CHECK(f.outline.find("Sort(") != std::string::npos);
  }

  // MIN/MAX: the first non-NULL entry of the walk, within the range's bounds.
  CHECK(f.run("select min(d), 1 from u where a = 1") == Lines{"10|1"});
  CHECK(f.outline == "Project(Aggregate(Limit(Filter(IndexRange[u_ad: a = ?]))))");
  CHECK(f.run("select max(d) from u where a = 1") == Lines{"12"});
  CHECK(f.outline == "Project(Aggregate(Limit(Filter(IndexRange[u_ad: a = ? desc]))))");
  CHECK(f.run("select max(d) from u where a = 1 and d < 12") == Lines{"11"});
  CHECK(f.run("select max(d) from u where a = 3") == Lines{"NULL"});
  CHECK(f.run("select min(d) from u where a = 9") == Lines{"NULL"});
  CHECK(f.run("select max(a), min(a) from u where a < 4") == Lines{"3|1"});
  CHECK(f.outline.starts_with("Project(Aggregate(Filter(IndexRange"));  // two aggregates: no rewrite
  CHECK(f.run("select max(a) from u") == Lines{"4"});
  CHECK(f.outline == "Project(Aggregate(Limit(Filter(IndexRange[u_ad: desc]))))");
  CHECK(f.run("select min(d) from u where a >= 1") == Lines{"10"});  // d is not in index order here
  CHECK(f.outline == "Project(Aggregate(Filter(IndexRange[u_ad: a >= ?])))");
  // A MIN/MAX walk that deletes nothing still sees rows the statement itself changed.
  f.run("delete from u where a = 1 and d = 10");
  CHECK(f.run("select min(d) from u where a = 1") == Lines{"11"});
}

TEST_CASE("compiled COALESCE/CASE with NULL inputs and current_setting(name, missing_ok)", "[compiler]") {
  Fixture f;
  CHECK(f.run("select coalesce(null, null, 3), case when false then null else 2 end, nullif(null, 1)") ==
        std::vector<std::string>{"3|2|NULL"});
  // The fixture's query context knows no settings at all.
  CHECK(f.run("select current_setting('no_such_setting', true)") == std::vector<std::string>{"NULL"});
  CHECK_THROWS_AS(f.run("select current_setting('no_such_setting', false)"), SqlError);
  CHECK_THROWS_AS(f.run("select current_setting('no_such_setting')"), SqlError);
}

TEST_CASE("compiled char(n): padding dropped on the way to text, kept for LIKE, ignored against varchar",
          "[compiler]") {
  Fixture f;
  CHECK(f.run("select 'ab'::char(4) || '|', length('ab  '::char(4)), 'ab'::char(4) like 'ab'") ==
        std::vector<std::string>{"ab||2|f"});
  CHECK(f.run("select 'ab'::char(4) = 'ab  '::varchar, 'ab '::char(4) = 'ab  '::text") ==
        std::vector<std::string>{"t|f"});
}

TEST_CASE("joins probe a unique index of the right table per left row", "[compiler][index]") {
  Fixture f;
  f.run("insert into t values (1, 'one', 1.5), (2, 'two', 2), (3, 'three', 3)");
  f.run("insert into u values (1, 10), (3, 30), (3, 31), (5, 50)");
  using Lines = std::vector<std::string>;
  // u has no index: t (hash key a) is probed once per u row; t's own condition filters.
  CHECK(f.run("select u.d, t.b from u join t on t.a = u.a order by u.d") == Lines{"10|one", "30|three", "31|three"});
  CHECK(f.outline == "Sort(Project(IndexJoin[t_pkey](TableScan[u])))");
  CHECK(f.run("select u.d from u join t on u.a = t.a where t.b = 'three' order by 1") == Lines{"30", "31"});
  // No key equality with the left side: a hash join.
  CHECK(f.run("select count(*) from u join t on t.a < u.a") == Lines{"7"});
}

TEST_CASE("inner joins are ordered by estimated size, never through a cross product", "[compiler][join]") {
  Fixture f;
  f.run("insert into t values (1, 'one', 1.5), (2, 'two', 2), (3, 'three', 3)");
  f.run("insert into u values (10, 1), (20, 2), (30, 3), (40, 4), (50, 5), (60, 6)");
  f.run("insert into v values (1, 10), (2, 20), (2, 30), (9, 40)");
  using Lines = std::vector<std::string>;
  // FROM order would join t and u first with no condition between them.
  CHECK(f.run("select t.b, u.d, v.e from t, u, v where t.a = v.a and u.a = v.e order by 2") ==
        Lines{"one|1|10", "two|2|20", "two|3|30"});
  CHECK(f.outline.find("NestedLoopJoin") == std::string::npos);
  // t's key is probed per joined row; the columns still come in FROM order.
  CHECK(f.run("select * from u, v, t where t.a = v.a and u.a = v.e and u.d < 3 order by 1") ==
        Lines{"10|1|1|10|1|one|1.50", "20|2|2|20|2|two|2.00"});
  CHECK(f.outline.find("IndexJoin[t_pkey]") != std::string::npos);
  // A join condition in every branch of an OR is a join key, not a nested loop's filter.
  CHECK(f.run("select v.e from u, v where (u.a = v.e and u.d > 2) or (u.a = v.e and v.a = 1) order by 1") ==
        Lines{"10", "30", "40"});
  CHECK(f.outline.find("HashJoin") != std::string::npos);
  // A cross product only where the query asks for one.
  CHECK(f.run("select count(*) from t, v") == Lines{"12"});
}

TEST_CASE("subqueries: a correlated one probes an index per outer row, its state freed per run",
          "[compiler][subquery]") {
  Fixture f;
  f.run("insert into t values (1, 'one', 1.5), (2, 'two', 2), (3, null, 3)");
  f.run("insert into u values (1, 10), (3, 30), (3, 31), (5, 50)");
  using Lines = std::vector<std::string>;
  // The correlation (u.a) is a constant inside the subquery: the key of an index lookup.
  CHECK(f.run("select d, (select b from t where t.a = u.a) from u order by d") ==
        Lines{"10|one", "30|NULL", "31|NULL", "50|NULL"});
  CHECK(f.outline == "Sort(Project{Project(IndexLookup[t_pkey])}(TableScan[u]))");
  CHECK(f.run("select d from u where exists (select 1 from t where t.a = u.a and t.c > 2) order by d") ==
        Lines{"30", "31"});
  // A sort per outer row (its buffer released after each run) and a string read from it.
  CHECK(
      f.run(
          "select d, (select b from t where t.a <= u.a and b is not null order by b desc limit 1) from u order by d") ==
      Lines{"10|one", "30|two", "31|two", "50|two"});
  CHECK(f.stateLeft == 1);  // the outer ORDER BY's sorter; the subquery's four are gone
  CHECK(f.run("select a from t where a not in (select a from u) order by a") == Lines{"2"});
  CHECK(f.run("select a from t where a not in (select null::int from u) order by a").empty());
  CHECK_THROWS_AS(f.run("select (select a from u)"), SqlError);
}

TEST_CASE("EXISTS and IN in WHERE become hash semi and anti joins unless an index serves them",
          "[compiler][subquery]") {
  Fixture f;
  f.run("insert into t values (1, 'one', 1.5), (2, 'two', 2), (3, null, 3)");
  f.run("insert into u values (1, 10), (3, 30), (3, 31), (5, 50)");
  using Lines = std::vector<std::string>;
  // u has no index: its keys are hashed once (a projection of them), t probes them.
  CHECK(f.run("select a from t where exists (select 1 from u where u.a = t.a and u.d > 20) order by a") == Lines{"3"});
  CHECK(f.outline == "Sort(Project(HashJoin[semi](Project(Filter(TableScan[u])), TableScan[t])))");
  CHECK(f.run("select a from t where not exists (select 1 from u where u.a = t.a) order by a") == Lines{"2"});
  CHECK(f.outline == "Sort(Project(HashJoin[anti](Project(TableScan[u]), TableScan[t])))");
  CHECK(f.run("select a from t where a in (select a from u) order by a") == Lines{"1", "3"});
  CHECK(f.outline == "Sort(Project(HashJoin[semi](Project(TableScan[u]), TableScan[t])))");
  CHECK(f.run("select a from t where a not in (select a from u)") == Lines{"2"});
  CHECK(f.outline == "Project(HashJoin[not in](Project(TableScan[u]), TableScan[t]))");
  // t.b has a NULL: no row is shown to be outside it.
  CHECK(f.run("select a from t where b not in (select b from t)").empty());
  // t.a is t's key: a correlated lookup stays an index probe per outer row.
  CHECK(f.run("select d from u where exists (select 1 from t where t.a = u.a) order by d") == Lines{"10", "30", "31"});
  CHECK(f.outline == "Sort(Project(Filter{Project(IndexLookup[t_pkey])}(TableScan[u])))");
  // No equality to hash on: the subquery runs per row.
  CHECK(f.run("select a from t where exists (select 1 from u where u.a > t.a) order by a") == Lines{"1", "2", "3"});
  CHECK(f.outline == "Sort(Project(Filter{Project(Filter(TableScan[u]))}(TableScan[t])))");
}

namespace {

// Three chunks and a bit of t (enough for morsels on two and three threads), and a few rows of u.
void fillForParallel(Fixture& f) {
  // Three chunks and a bit: enough for morsels on two and three threads.
  const int n = static_cast<int>(kChunkRows) * 3 + 100;
  std::vector<uint8_t> row(f.t.layout().size);
  for (int i = 1; i <= n; ++i) {
    std::string sql = "insert into t values (" + std::to_string(i) + ", " +
                      (i % 11 == 0 ? std::string("null") : "'s" + std::to_string(i % 17) + "'") + ", " +
                      std::to_string(i % 1000) + ".25)";
    if (i <= 3) f.run(sql);  // the rest in bulk below, through the table
  }
  UndoLog& undo = f.undo;
  for (int i = 4; i <= n; ++i) {
    std::fill(row.begin(), row.end(), 0);
    const TupleLayout& l = f.t.layout();
    std::memcpy(row.data() + l.offsets[0], &i, 4);
    std::string s = "s" + std::to_string(i % 17);
    Arena keep;
    const VarString* str = keep.makeString(s);
    if (i % 11 == 0) {
      row[l.nullOffset(1)] = 1;
    } else {
      std::memcpy(row.data() + l.offsets[1], &str, sizeof str);
    }
    NumericRep c = makeNumeric((i % 1000) * 100 + 25, 2);
    std::memcpy(row.data() + l.offsets[2], &c, sizeof c);
    f.t.insert(row.data(), undo);
  }
  undo.commit();
  f.run("insert into u values (0, 100), (1, 101), (2, 102), (3, 103), (5, 105)");
}

// Aggregations, sorts and join builds a snapshot runs in parallel.
std::vector<std::string> parallelQueries() {
  return {
      "select count(*), count(b), sum(a), avg(a), min(b), max(b), sum(c), avg(c), min(c), max(c) from t",
      "select count(*), sum(c) from t where a < 0",
      "select b, count(*), sum(a), min(a), max(c), avg(c) from t where a % 3 <> 0 group by b order by b",
      "select u.d, count(*), sum(t.c) from u join t on t.a % 7 = u.a group by u.d order by u.d",
      "select a % 5, count(*) from t group by a % 5 having count(*) > 10 order by 1",
      // Stepped states merge with their combine functions (exact ones: numeric sums).
      "select variance(c), stddev(a), var_pop(c), bool_and(a > 5), bool_or(a = 7), count(*) filter (where a % 2 = 0), "
      "sum(a) filter (where b is null) from t",
      "select b, stddev_samp(c), bool_or(a % 2 = 0), avg(c) filter (where a > 100) from t group by b order by b",
      // Sorts: each worker sorts its morsels, the leader merges the runs.
      "select a, b, c from t where a % 97 = 1 order by b desc nulls first, c, a",
      "select c, a from t order by c desc, a limit 20 offset 3000",
      // A hash join whose build side is the big table: built by the workers together.
      "select u.d, t2.b, count(*) from t t2 join u on u.a = t2.a % 4 group by u.d, t2.b order by 1, 2",
      "select count(*), sum(x.a), min(y.b) from t x join t y on x.c = y.c where y.a % 50 = 0",
      "select x.a, y.a from t x join t y on x.c = y.c where y.a % 1000 = 7 and x.a < 500 order by 1, 2",
      // Uncorrelated scalar and EXISTS subqueries in the pipeline: each worker runs them once.
      "select count(*), sum(c) from t where c > (select avg(c) from t where a % 7 = 0) and b <> 's1'",
      "select b, count(*) from t where a % 3 = 0 and exists (select 1 from u where d > 104) and a > (select max(d) "
      "from u) group by b order by 1",
      // Uncorrelated subqueries the leader runs (a HAVING, a small table's filter, the
      // select list): their own pipelines run in parallel.
      "select a % 5, sum(c) from t group by a % 5 having sum(c) > (select sum(c) / 10 from t where a % 3 = 0) order "
      "by 1",
      "select d, (select count(*) from t where a % 100 = 0) from u where d > (select avg(a) / 500 from t) order by 1",
  };
}

}  // namespace

TEST_CASE("parallel aggregations, sorts and join builds give the serial plan's rows", "[compiler]") {
  Fixture f;
  fillForParallel(f);
  std::vector<std::string> queries = parallelQueries();
  // Index joins inside the parallel pipeline: each worker probes t's primary key.
  const std::vector<std::string> indexJoins = {
      "select y.b, count(*), sum(x.c) from t x join t y on y.a = x.a % 97 + 1 where x.a % 5 = 0 group by y.b order by "
      "1",
      "select count(*), count(y.a), sum(y.c) from t x left join t y on y.a = x.a + 49000",
      "select x.a, y.b from t x join t y on y.a = x.a % 50 + 1 where x.a % 4000 = 3 order by x.a",
  };
  queries.insert(queries.end(), indexJoins.begin(), indexJoins.end());
  // Semi and anti joins that hash their outer rows (smaller than the subquery's): the outer
  // rows are collected in parallel too, and the subquery's rows mark them in parallel.
  const std::vector<std::string> outerBuilt = {
      "select count(*), sum(x.c) from t x where x.a % 3 = 0 and exists (select 1 from t y where y.c = x.c and y.a > "
      "x.a + 40000)",
      "select x.b, count(*) from t x where x.a % 5 = 1 and not exists (select 1 from t y where y.c = x.c + 2 and y.a "
      "% 13 <> 0) group by x.b order by 1",
  };
  queries.insert(queries.end(), outerBuilt.begin(), outerBuilt.end());
  for (const std::string& q : queries) {
    INFO(q);
    f.parallelThreads = 1;
    std::vector<std::string> serial = f.run(q);
    CHECK(f.outline.find("parallel") == std::string::npos);
    for (uint32_t threads : {2u, 3u}) {
      f.parallelThreads = threads;
      CHECK(f.run(q) == serial);
      UNSCOPED_INFO(f.outline);
      CHECK(f.outline.find("[parallel " + std::to_string(threads) + "]") != std::string::npos);
      CHECK(f.outline.find("morsels") != std::string::npos);
      if (std::find(indexJoins.begin(), indexJoins.end(), q) != indexJoins.end())
        CHECK(f.outline.find("IndexJoin[t_pkey]") != std::string::npos);
      if (std::find(outerBuilt.begin(), outerBuilt.end(), q) != outerBuilt.end())
        CHECK(f.outline.find("[outer built on " + std::to_string(threads) + "]") != std::string::npos);
    }
  }
  // An error in one worker stops the others and reaches the caller.
  f.parallelThreads = 2;
  CHECK_THROWS_AS(f.run("select sum(1 / (a - 40000)) from t"), SqlError);
  CHECK_THROWS_AS(f.run("select a from t order by 1 / (a - 40000)"), SqlError);  // a sorting worker
  CHECK_THROWS_AS(f.run("select count(*) from u left join t x on u.a = 1 / (x.a - 40000)"), SqlError);  // a build
  CHECK(f.outline.find("HashJoin[outer][parallel 2]") != std::string::npos);
  // Not run in parallel: DISTINCT aggregates, clock_timestamp() (like random(), it
  // advances the transaction's recorded state), small tables.
  f.run("select count(distinct b) from t");
  CHECK(f.outline.find("parallel") == std::string::npos);
  // Nor calls that keep their rows in order, nor grouping sets.
  f.run("select string_agg(b, ',') from t");
  CHECK(f.outline.find("parallel") == std::string::npos);
  f.run("select sum(a::float8 order by c) from t");
  CHECK(f.outline.find("parallel") == std::string::npos);
  f.run("select b, count(*) from t group by rollup (b)");
  CHECK(f.outline.find("parallel") == std::string::npos);
  f.run("select count(clock_timestamp()) from t");
  CHECK(f.outline.find("parallel") == std::string::npos);
  f.run("select count(*) from u");
  CHECK(f.outline.find("parallel") == std::string::npos);

  // The output pipeline itself: workers stream its rows, in no set order, to the caller.
  auto sorted = [](std::vector<std::string> lines) {
    std::sort(lines.begin(), lines.end());
    return lines;
  };
  for (const std::string q : {"select a, b from t where a % 3 = 1",
                              "select x.a, u.d, x.b from u join t x on u.a = x.a % 7 where x.a > 100"}) {
    INFO(q);
    f.parallelThreads = 1;
    std::vector<std::string> serial = sorted(f.run(q));
    CHECK(serial.size() > 10000);  // several batches from each worker
    for (uint32_t threads : {2u, 3u}) {
      f.parallelThreads = threads;
      CHECK(sorted(f.run(q)) == serial);
      INFO(f.outline);
      CHECK(f.outline.rfind("Gather[parallel " + std::to_string(threads) + "]", 0) == 0);
    }
  }
  // A failing worker, and a caller that stops reading, end the run with its error and
  // stop the workers.
  f.parallelThreads = 2;
  CHECK_THROWS_AS(f.run("select 1 / (a - 40000) from t where a > 0"), SqlError);
  f.failAfterRows = 10;
  CHECK_THROWS_AS(f.run("select a from t where a > 0"), SqlError);
  f.failAfterRows = SIZE_MAX;
  CHECK(f.outline.rfind("Gather", 0) == 0);
  // Not gathered: a bare scan (it would only copy the rows), a LIMIT (it would leave the
  // workers scanning).
  f.run("select a, b from t");
  CHECK(f.outline.find("parallel") == std::string::npos);
  f.run("select a, b from t where a > 5 limit 3");
  CHECK(f.outline.find("parallel") == std::string::npos);
}

TEST_CASE("the cheap and the optimised tier give the same rows, serial and parallel", "[compiler][tiers]") {
  Fixture f;
  fillForParallel(f);
  std::vector<std::string> queries = parallelQueries();
  queries.push_back("select t.b, count(*) from t where t.a in (select u.d - 100 from u) group by t.b order by 1");
  queries.push_back("select x.b from t x where not exists (select 1 from u where u.a = x.a) and x.a < 50 order by x.a");
  for (const std::string& q : queries) {
    INFO(q);
    for (uint32_t threads : {1u, 2u}) {
      f.parallelThreads = threads;
      f.tiers = CompileTiers::Optimised;
      std::vector<std::string> optimised = f.run(q);
      CHECK(f.ranOptimisedTier);
      f.tiers = CompileTiers::Cheap;
      CHECK(f.run(q) == optimised);
      CHECK_FALSE(f.ranOptimisedTier);
      // Adaptive: the cheap tier at once (switching where the optimised one arrives), and
      // the optimised tier's code once it is there.
      f.tiers = CompileTiers::Adaptive;
      CHECK(f.run(q) == optimised);
      f.waitForOptimisedTier = true;
      CHECK(f.run(q) == optimised);
      CHECK(f.ranOptimisedTier);
      f.waitForOptimisedTier = false;
    }
  }
}

TEST_CASE("ORDER BY ... LIMIT keeps the rows a full sort would, in the same order", "[compiler]") {
  Fixture f;
  std::string values;
  for (int i = 0; i < 1000; ++i) values += (i ? ", (" : "(") + std::to_string(i) + ", " + std::to_string(i % 10) + ")";
  f.run("insert into u values " + values);
  using Lines = std::vector<std::string>;
  // Rows with equal keys come in the order they arrived (the scan's), as from a stable sort.
  CHECK(f.run("select a, d from u order by d limit 7 offset 2") ==
        Lines{"20|0", "30|0", "40|0", "50|0", "60|0", "70|0", "80|0"});
  CHECK(f.run("select a, d from u order by d desc limit 3") == Lines{"9|9", "19|9", "29|9"});
  CHECK(f.run("select a from u order by d desc, a limit 2 offset 99") == Lines{"999", "8"});
  CHECK(f.run("select a from u order by a desc limit 1") == Lines{"999"});
  CHECK(f.run("select a from u order by a limit 0").empty());
  CHECK(f.run("select count(*) from (select a from u order by d limit null) s") == Lines{"1000"});
  CHECK(f.run("select count(*) from (select a from u order by d limit 5000) s") == Lines{"1000"});
  CHECK_THROWS_AS(f.run("select a from u order by d limit -1"), SqlError);
  // Per outer row, in a subquery.
  CHECK(
      f.run(
          "select d, (select x.a from u x where x.d = u.d order by x.a desc limit 1) from u where a < 3 order by d") ==
      Lines{"0|990", "1|991", "2|992"});
}

TEST_CASE("index joins: a range bounded by the left row, a LEFT JOIN by a unique key", "[compiler][index]") {
  Fixture f;
  f.u.createIndex("u_ad", {0, 1}, IndexKind::Ordered, false, f.undo);
  f.undo.commit();
  f.run("insert into t values (1, 'a', 1), (2, 'b', 2), (3, 'c', 3)");
  f.run("insert into u values (1, 10), (1, 11), (1, 12), (2, 20), (2, 21), (3, 30)");
  using Lines = std::vector<std::string>;

  // The left row bounds the range (Stock-Level's shape): walked per row, the bound still filters.
  CHECK(f.run("select t.a, u.d from t join u on u.a = t.a and u.d > t.a * 10 + 0 where t.b < 'c' order by 1, 2") ==
        Lines{"1|11", "1|12", "2|21"});
  CHECK(f.outline.find("IndexJoin[u_ad: a = ?, d > ?]") != std::string::npos);
  // An unbounded prefix is no range join: a hash join reads the table once.
  f.run("select t.a, u.d from t join u on u.a = t.a where t.b < 'c'");
  CHECK(f.outline.find("IndexJoin[u_ad") == std::string::npos);

  // A LEFT JOIN whose ON is the right side's unique key: one probe per left row, NULLs
  // where none matches.
  CHECK(f.run("select u.d, t.b from u left join t on t.a = u.a + 1 order by 1") ==
        Lines{"10|b", "11|b", "12|b", "20|c", "21|c", "30|NULL"});
  CHECK(f.outline.find("IndexJoin[t_pkey][outer]") != std::string::npos);
}

TEST_CASE("index joins: a unique key less its last column is probed per left row", "[compiler][index]") {
  Fixture f;
  f.u.createIndex("u_key", {0, 1}, IndexKind::Ordered, true, f.undo);
  f.undo.commit();
  f.run("insert into t values (1, 'a', 1), (2, 'b', 2), (3, 'c', 3)");
  f.run("insert into u values (1, 10), (1, 11), (1, 12), (2, 20), (2, 21), (3, 30)");
  using Lines = std::vector<std::string>;
  // HammerDB's Delivery: the order lines of each order, by (w, d, o) of (w, d, o, number).
  CHECK(f.run("select t.a, u.d from t join u on u.a = t.a where t.b < 'c' order by 1, 2") ==
        Lines{"1|10", "1|11", "1|12", "2|20", "2|21"});
  CHECK(f.outline.find("IndexJoin[u_key: a = ?]") != std::string::npos);
}
