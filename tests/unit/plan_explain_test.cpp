// EXPLAIN's rendering (compiler/plan/explain.h) of plans the compiler makes, and EXPLAIN
// ANALYZE's counters: code compiled with them (compileForAnalyze) counts each node's rows.
#include <catch2/catch.hpp>

#include <algorithm>

#include "compiler/compiler.h"
#include "compiler/runtime/instrumentation.h"
#include "engine/error.h"
#include "engine/storage/table.h"
#include "engine/storage/table_analyzer.h"
#include "engine/storage/undo_log.h"

using namespace duet;

namespace {

struct Discard : rt::RowConsumer {
  int64_t rows = 0;
  void consume(const uint8_t*) override { ++rows; }
};

struct Fixture {
  Table t{"t", {{"a", {TypeId::Int4, -1}, true}, {"b", {TypeId::Text, -1}, false}}, StorageKind::Row};
  Table u{"u", {{"a", {TypeId::Int4, -1}, true}, {"d", {TypeId::Int8, -1}, false}}, StorageKind::Column};
  UndoLog undo;
  uint32_t parallelThreads = 1;  // as a snapshot process would allow
  Fixture() {
    t.createIndex("t_pkey", {0}, IndexKind::Hash, true, undo);
    undo.commit();
    std::string tRows, uRows;
    for (int g = 1; g <= 100; ++g) tRows += (g > 1 ? ", (" : "(") + std::to_string(g) + ", 'row')";
    for (int g = 1; g <= 50; ++g)
      uRows += (g > 1 ? ", (" : "(") + std::to_string(g % 10) + ", " + std::to_string(g) + ")";
    run("insert into t values " + tRows);
    run("insert into u values " + uRows);
  }

  PlanRequest request(const sql::ParsedStatement& ps, const std::string& text) {
    PlanRequest req;
    req.stmt = ps.stmt.get();
    req.queryText = text;
    req.parallelThreads = parallelThreads;
    req.resolveTable = [&](const sql::QualifiedName& n) {
      Table* table = n.name() == "t" ? &t : n.name() == "u" ? &u : nullptr;
      if (!table) throw SqlError(sqlstate::kUndefinedTable, "relation \"" + n.name() + "\" does not exist");
      return TableBinding{table, 1, n.name(), {}, nullptr};
    };
    return req;
  }

  // Runs `code` on a context with `counts` (may be null); returns the rows it emitted.
  int64_t execute(const CompiledQuery& code, rt::Instrumentation* counts) {
    Arena arena;
    setStatementArena(&arena);
    TypeContext tc;
    std::vector<uint8_t> params(16);
    Discard out;
    rt::QueryContext ctx;
    ctx.params = params.data();
    ctx.undo = &undo;
    ctx.output = &out;
    ctx.typeContext = &tc;
    ctx.instrumentation = counts;
    code.run(&ctx);
    undo.commit();
    setStatementArena(nullptr);
    return out.rows;
  }

  void run(const std::string& text) {
    auto parsed = sql::parseQuery(text);
    execute(*planStatement(request(parsed.at(0), text))->compiled, nullptr);
  }

  // The lines of EXPLAIN [ANALYZE] `text` (without its timings: TIMING off, no SUMMARY).
  std::vector<std::string> explain(const std::string& text, plan::ExplainOptions options = {}) {
    auto parsed = sql::parseQuery(text);
    PlanRequest req = request(parsed.at(0), text);
    ExplainedStatement s = planForExplain(req);
    plan::ExplainInput in;
    in.root = s.root.get();
    in.options = options;
    in.functionName = sqlFunctionName;
    std::vector<plan::NodeActuals> actuals;
    if (options.analyze) {
      auto numbers = plan::explainNumbers(*s.root);
      compileForAnalyze(s, req, numbers, options.timing);
      rt::Instrumentation counts(options.timing, numbers.size());
      execute(*s.plan->compiled, &counts);
      counts.finish();
      actuals = nodeActuals(counts);
      in.actuals = &actuals;
    }
    return plan::explain(in);
  }
};

plan::ExplainOptions analyze() {
  plan::ExplainOptions o;
  o.analyze = true;
  o.timing = false;
  return o;
}

using Lines = std::vector<std::string>;

}  // namespace

TEST_CASE("EXPLAIN names operators and details as PostgreSQL does", "[plan][explain]") {
  Fixture f;
  CHECK(f.explain("select b from t where a > 90") == Lines{"Seq Scan on t  (rows=33)", "  Filter: (a > 90)"});
  CHECK(f.explain("select b from t where a = 7") ==
        Lines{"Index Scan using t_pkey on t  (rows=1)", "  Index Cond: (a = 7)"});
  CHECK(f.explain("select a, count(*) from u group by a order by a") ==
        Lines{"Sort  (rows=50)", "  Sort Key: a", "  ->  HashAggregate  (rows=50)", "        Group Key: a",
              "        ->  Seq Scan on u  (rows=50)"});
  CHECK(f.explain("select t.b, u.d from t join u on t.a = u.a where u.d < 5") ==
        Lines{"Nested Loop  (rows=16)", "  ->  Seq Scan on u  (rows=16)", "        Filter: (u.d < '5'::bigint)",
              "  ->  Index Scan using t_pkey on t  (rows=1)", "        Index Cond: (t.a = u.a)"});
  plan::ExplainOptions noCosts;
  noCosts.costs = false;
  CHECK(f.explain("select * from u left join t on t.b = 'x' || u.d order by 1 desc limit 3", noCosts) ==
        Lines{"Limit", "  ->  Sort", "        Sort Key: u.a DESC", "        ->  Hash Left Join",
              "              Hash Cond: (('x'::text || (u.d)::text) = t.b)", "              ->  Seq Scan on u",
              "              ->  Hash", "                    ->  Seq Scan on t"});
  CHECK(f.explain("select a from t where exists (select 1 from u where u.a = t.a)", noCosts) ==
        Lines{"Hash Semi Join", "  Hash Cond: (t.a = u.a)", "  ->  Seq Scan on t", "  ->  Hash",
              "        ->  Seq Scan on u"});
  CHECK(f.explain("delete from t where a < 3", noCosts) ==
        Lines{"Delete on t", "  ->  Seq Scan on t", "        Filter: (a < 3)"});
  CHECK(f.explain("select max(d) from u", noCosts) == Lines{"Aggregate", "  ->  Seq Scan on u"});
}

TEST_CASE("EXPLAIN VERBOSE shows outputs; subqueries are SubPlans", "[plan][explain]") {
  Fixture f;
  plan::ExplainOptions o;
  o.costs = false;
  o.verbose = true;
  CHECK(f.explain("select a + 1, upper(b) from t where a = 1", o) ==
        Lines{"Index Scan using t_pkey on t", "  Output: (a + 1), upper(b)", "  Index Cond: (a = 1)"});
  o.verbose = false;
  CHECK(f.explain("select a, (select max(d) from u where u.a = t.a) from t", o) ==
        Lines{"Seq Scan on t", "  SubPlan 1", "    ->  Aggregate", "          ->  Seq Scan on u",
              "                Filter: (u.a = t.a)"});
}

TEST_CASE("EXPLAIN FORMAT JSON has PostgreSQL's keys", "[plan][explain]") {
  Fixture f;
  plan::ExplainOptions o;
  o.format = plan::ExplainOptions::Format::Json;
  Lines json = f.explain("select b from t where a > 90", o);
  REQUIRE(json.size() == 1);
  CHECK(json[0] ==
        "[\n"
        "  {\n"
        "    \"Plan\": {\n"
        "      \"Node Type\": \"Seq Scan\",\n"
        "      \"Parallel Aware\": false,\n"
        "      \"Relation Name\": \"t\",\n"
        "      \"Alias\": \"t\",\n"
        "      \"Plan Rows\": 33,\n"
        "      \"Filter\": \"(a > 90)\"\n"
        "    }\n"
        "  }\n"
        "]");
}

TEST_CASE("EXPLAIN ANALYZE counts the rows each operator passed on", "[plan][explain]") {
  Fixture f;
  CHECK(
      f.explain("select b from t where a > 90", analyze()) ==
      Lines{"Seq Scan on t  (rows=33) (actual rows=10 loops=1)", "  Filter: (a > 90)", "  Rows Removed by Filter: 90"});
  // The inner side of an index join runs once per outer row.
  CHECK(f.explain("select t.b from u join t on t.a = u.a where u.d <= 20", analyze()) ==
        Lines{"Nested Loop  (rows=16) (actual rows=18 loops=1)",
              "  ->  Seq Scan on u  (rows=16) (actual rows=20 loops=1)", "        Filter: (u.d <= '20'::bigint)",
              "        Rows Removed by Filter: 30",
              "  ->  Index Scan using t_pkey on t  (rows=1) (actual rows=1 loops=20)",
              "        Index Cond: (t.a = u.a)"});
  // A LIMIT stops the scan below it early; an operator never reached says so.
  Lines limited = f.explain("select a from t limit 5 offset 0", analyze());
  CHECK(limited[1] == "  ->  Seq Scan on t  (rows=100) (actual rows=5 loops=1)");
  CHECK(f.explain("select count(*) from u where d > 1000 and exists (select 1 from t where t.a = u.a)", analyze())
            .at(0) == "Aggregate  (rows=1) (actual rows=1 loops=1)");
  // The counters cost nothing where there are none: a plain compile has no calls to them.
  plan::ExplainOptions timed = analyze();
  timed.timing = true;
  Lines withTime = f.explain("select b from t where a > 90", timed);
  CHECK(withTime[0].starts_with("Seq Scan on t  (rows=33) (actual time="));
  CHECK(withTime[0].ends_with(" rows=10 loops=1)"));
}

TEST_CASE("EXPLAIN ANALYZE of a write runs it", "[plan][explain]") {
  Fixture f;
  CHECK(f.explain("delete from t where a <= 10", analyze()) ==
        Lines{"Delete on t  (rows=0) (actual rows=0 loops=1)",
              "  ->  Seq Scan on t  (rows=33) (actual rows=10 loops=1)", "        Filter: (a <= 10)",
              "        Rows Removed by Filter: 90"});
  CHECK(f.explain("select count(*) from t where a <= 10", analyze()).at(1) ==
        "  ->  Seq Scan on t  (rows=30) (actual rows=0 loops=1)");  // 90 rows left
}

TEST_CASE("EXPLAIN writes constants as PostgreSQL deparses them", "[plan][explain]") {
  CHECK(plan::literalText({TypeId::Int4, -1}, "7") == "7");
  CHECK(plan::literalText({TypeId::Int4, -1}, "-7") == "'-7'::integer");
  CHECK(plan::literalText({TypeId::Int8, -1}, "7") == "'7'::bigint");
  CHECK(plan::literalText(SqlType::numeric(10, 2), "1.50") == "1.50");
  CHECK(plan::literalText({TypeId::Bool, -1}, "t") == "true");
  CHECK(plan::literalText({TypeId::Text, -1}, "it's") == "'it''s'::text");
  CHECK(plan::literalText({TypeId::Date, -1}, "2024-02-29") == "'2024-02-29'::date");
}

TEST_CASE("EXPLAIN names a relation read twice apart; set operations and recursion", "[plan][explain]") {
  Fixture f;
  plan::ExplainOptions o;
  o.costs = false;
  CHECK(f.explain("select 1 from u join u v on v.a = u.d", o) ==
        Lines{"Hash Join", "  Hash Cond: ((v.a)::bigint = u.d)", "  ->  Seq Scan on u v", "  ->  Hash",
              "        ->  Seq Scan on u"});
  CHECK(f.explain("select a from u where a in (select d from u where d > 45)", o) ==
        Lines{"Hash Semi Join", "  Hash Cond: ((u.a)::bigint = u_1.d)", "  ->  Seq Scan on u", "  ->  Hash",
              "        ->  Seq Scan on u u_1", "              Filter: (u_1.d > '45'::bigint)"});
  CHECK(f.explain("select a from t union all select a from u", o) ==
        Lines{"Append", "  ->  Seq Scan on t", "  ->  Seq Scan on u"});
  CHECK(f.explain("with recursive r(n) as (select 1 union all select n + 1 from r where n < 3) select n from r", o) ==
        Lines{"Recursive Union", "  ->  Result", "  ->  WorkTable Scan on r", "        Filter: (n < 3)"});
}

TEST_CASE("EXPLAIN ANALYZE in JSON has PostgreSQL's keys", "[plan][explain]") {
  Fixture f;
  plan::ExplainOptions o = analyze();
  o.format = plan::ExplainOptions::Format::Json;
  o.costs = false;
  Lines json = f.explain("select a from t where a > 95", o);
  REQUIRE(json.size() == 1);
  CHECK(json[0] ==
        "[\n"
        "  {\n"
        "    \"Plan\": {\n"
        "      \"Node Type\": \"Seq Scan\",\n"
        "      \"Parallel Aware\": false,\n"
        "      \"Relation Name\": \"t\",\n"
        "      \"Alias\": \"t\",\n"
        "      \"Actual Rows\": 5,\n"
        "      \"Actual Loops\": 1,\n"
        "      \"Filter\": \"(a > 95)\",\n"
        "      \"Rows Removed by Filter\": 95\n"
        "    }\n"
        "  }\n"
        "]");
}

TEST_CASE("A semi join that reads one FROM item and keeps few of its rows filters it before the joins",
          "[plan][explain]") {
  Fixture f;
  plan::ExplainOptions o;
  o.costs = false;
  // t2's keys are unique in t, and a fifth of t is estimated to match: t is filtered first.
  CHECK(f.explain("select u.d from t, u where u.d = t.a and t.a in (select a from t t2 where t2.b like 'ro%')", o) ==
        Lines{"Hash Join", "  Hash Cond: (u.d = (t.a)::bigint)", "  ->  Seq Scan on u", "  ->  Hash",
              "        ->  Hash Semi Join", "              Hash Cond: (t.a = t2.a)", "              ->  Seq Scan on t",
              "              ->  Hash", "                    ->  Seq Scan on t t2",
              "                          Filter: (t2.b ~~ 'ro%'::text)"});
  // NOT IN keeps most of t: it filters the joined rows.
  CHECK(f.explain("select u.d from t, u where u.d = t.a and t.a not in (select a from t t2 where t2.b like 'ro%')",
                  o) == Lines{"Hash Anti Join", "  Hash Cond: (t.a = t2.a)", "  ->  Hash Join",
                              "        Hash Cond: ((t.a)::bigint = u.d)", "        ->  Seq Scan on t",
                              "        ->  Hash", "              ->  Seq Scan on u", "  ->  Hash",
                              "        ->  Seq Scan on t t2", "              Filter: (t2.b ~~ 'ro%'::text)"});
}

TEST_CASE("An OR over two FROM items also filters each item by what every branch requires of it", "[plan][explain]") {
  Fixture f;
  plan::ExplainOptions o;
  o.costs = false;
  CHECK(f.explain("select 1 from t, u where t.a = u.a and ((t.b = 'x' and u.d = 2) or (t.b = 'y' and u.d = 4))", o) ==
        Lines{"Nested Loop",
              "  Filter: (((t.b = 'x'::text) OR (t.b = 'y'::text)) AND (((t.b = 'x'::text) AND (u.d = '2'::bigint)) OR "
              "((t.b = 'y'::text) AND (u.d = '4'::bigint))))",
              "  ->  Seq Scan on u", "        Filter: ((u.d = '2'::bigint) OR (u.d = '4'::bigint))",
              "  ->  Index Scan using t_pkey on t", "        Index Cond: (t.a = u.a)"});
}

TEST_CASE("A semi or anti join hashes its outer rows when they are estimated fewer than the subquery's",
          "[plan][explain]") {
  Fixture f;
  plan::ExplainOptions o;
  o.costs = false;
  // u's 50 rows are fewer than t's 100: u is hashed, t's rows mark what they match (t.a + 0:
  // no index lookup per row of u).
  CHECK(f.explain("select d from u where exists (select 1 from t where t.a + 0 = u.a)", o) ==
        Lines{"Hash Right Semi Join", "  Hash Cond: (u.a = (t.a + 0))", "  ->  Seq Scan on t", "  ->  Hash",
              "        ->  Seq Scan on u"});
  // t filtered to an estimated 33 rows: the subquery is hashed.
  CHECK(f.explain("select d from u where not exists (select 1 from t where t.a + 0 = u.a and t.b > 'a')", o) ==
        Lines{"Hash Anti Join", "  Hash Cond: (u.a = (t.a + 0))", "  ->  Seq Scan on u", "  ->  Hash",
              "        ->  Seq Scan on t", "              Filter: (t.b > 'a'::text)"});
}

TEST_CASE("Estimates follow the tables' statistics once they are analysed", "[plan][explain]") {
  Fixture f;
  f.t.setStatistics(analyzeTable(f.t, {}, nullptr), true);
  f.u.setStatistics(analyzeTable(f.u, {}, nullptr), true);
  // a > 90 keeps what t's histogram has above 90 (rules of thumb: a third); u.a has 10 values.
  CHECK(f.explain("select b from t where a > 90", analyze()).at(0) ==
        "Seq Scan on t  (rows=11) (actual rows=10 loops=1)");  // 90 falls in a bucket: half of it
  CHECK(f.explain("select d from u where a = 3", analyze()).at(0) == "Seq Scan on u  (rows=5) (actual rows=5 loops=1)");
  CHECK(f.explain("select d from u where a is null", analyze()).at(0) ==
        "Seq Scan on u  (rows=1) (actual rows=0 loops=1)");
  // Groups: the distinct values of the keys (10 of u.a), through a join; 200 for a computed
  // key; at most the input's rows.
  CHECK(f.explain("select a, count(*) from u group by a", analyze()).at(0) ==
        "HashAggregate  (rows=10) (actual rows=10 loops=1)");
  CHECK(f.explain("select u.a, count(*) from u join t on t.a = u.d group by u.a", analyze()).at(0) ==
        "HashAggregate  (rows=10) (actual rows=10 loops=1)");
  CHECK(f.explain("select d + 1, count(*) from u group by 1", analyze()).at(0) ==
        "HashAggregate  (rows=50) (actual rows=50 loops=1)");
}

TEST_CASE("A join whose small table meets grouped rows filters the grouping's input by that table", "[plan][explain]") {
  Fixture f;
  plan::ExplainOptions o;
  o.costs = false;
  // t.a = 5 is one row, beside u's 50: u's rows are looked up in its table before grouping.
  CHECK(f.explain("select g.n from t join (select a, count(*) as n from u group by a) g on g.a = t.a where t.a = 5",
                  o) == Lines{"Hash Join", "  Hash Cond: (g.a = t.a)", "  Aggregate Input Filter: Hash Cond",
                              "  ->  HashAggregate", "        Group Key: u.a", "        ->  Seq Scan on u",
                              "  ->  Hash", "        ->  Index Scan using t_pkey on t",
                              "              Index Cond: (t.a = 5)"});
  // All of t's 100 rows: no filter.
  auto plain = f.explain("select g.n from t join (select a, count(*) as n from u group by a) g on g.a = t.a", o);
  CHECK(std::find(plain.begin(), plain.end(), "  Aggregate Input Filter: Hash Cond") == plain.end());
}

TEST_CASE("Equalities between FROM items imply the others of their class", "[plan][explain]") {
  Fixture f;
  plan::ExplainOptions o;
  o.costs = false;
  // u1.a = u2.a and u2.a = t.a: u1.a = t.a too, wherever the join order applies it.
  auto lines = f.explain("select count(*) from u u1, u u2, t where u1.a = u2.a and u2.a = t.a", o);
  bool implied = std::any_of(lines.begin(), lines.end(), [](const std::string& l) {
    return l.find("u1.a = t.a") != std::string::npos || l.find("t.a = u1.a") != std::string::npos;
  });
  CHECK(implied);
}

TEST_CASE("EXPLAIN ANALYZE's JIT section shows each compile tier's times", "[plan][explain][tiers]") {
  Fixture f;
  const std::string text = "select b, count(*) from t where a > 10 group by b";
  // The lines from "JIT:" to "Compile Time" of a run compiled in `tiers`, in `format`.
  auto jitLines = [&](CompileTiers tiers, plan::ExplainOptions::Format format) {
    auto parsed = sql::parseQuery(text);
    PlanRequest req = f.request(parsed.at(0), text);
    req.compileTiers = tiers;
    ExplainedStatement s = planForExplain(req);
    auto numbers = plan::explainNumbers(*s.root);
    compileForAnalyze(s, req, numbers, false);
    rt::Instrumentation counts(false, numbers.size());
    f.execute(*s.plan->compiled, &counts);
    counts.finish();
    std::vector<plan::NodeActuals> actuals = nodeActuals(counts);
    plan::ExplainJit jit = explainJit(*s.plan->compiled, counts);
    plan::ExplainInput in;
    in.root = s.root.get();
    in.options = analyze();
    in.options.summary = true;
    in.options.format = format;
    in.actuals = &actuals;
    in.jit = &jit;
    Lines all = plan::explain(in);
    if (format == plan::ExplainOptions::Format::Json) return all;
    auto from = std::find(all.begin(), all.end(), "JIT:");
    REQUIRE(from != all.end());
    auto to = std::find_if(from, all.end(), [](const std::string& l) { return l.starts_with("Compile Time: "); });
    return Lines(from, to);
  };
  using Format = plan::ExplainOptions::Format;
  Lines adaptive = jitLines(CompileTiers::Adaptive, Format::Text);
  REQUIRE(adaptive.size() == 4);
  CHECK(adaptive[1] == "  Functions: 1");
  CHECK(adaptive[2].starts_with("  Cheap Tier: Generation "));
  CHECK(adaptive[2].find(", Emission ") != std::string::npos);
  CHECK(adaptive[3].starts_with("  Optimized Tier: Optimization "));  // waited for; no Generation of its own
  Lines cheap = jitLines(CompileTiers::Cheap, Format::Text);
  REQUIRE(cheap.size() == 3);
  CHECK(cheap[2].starts_with("  Cheap Tier: Generation "));
  Lines optimised = jitLines(CompileTiers::Optimised, Format::Text);
  REQUIRE(optimised.size() == 3);
  CHECK(optimised[2].starts_with("  Optimized Tier: Generation "));
  Lines json = jitLines(CompileTiers::Adaptive, Format::Json);
  REQUIRE(json.size() == 1);
  CHECK(json[0].find("    \"JIT\": {\n      \"Functions\": 1,\n      \"Cheap Tier\": {\n        \"Generation\": ") !=
        std::string::npos);
  CHECK(json[0].find("\"Optimized Tier\": {\n        \"Optimization\": ") != std::string::npos);
}

TEST_CASE("EXPLAIN's JIT section gives the morsels each tier's workers took", "[plan][explain][tiers]") {
  Fixture f;
  auto parsed = sql::parseQuery("select a from t");
  PlanRequest req = f.request(parsed.at(0), "select a from t");
  ExplainedStatement s = planForExplain(req);
  plan::ExplainJit jit;
  jit.functions = 2;
  jit.cheap = true;
  jit.optimised = true;
  jit.cheapMorsels = 3;
  jit.optimisedMorsels = 5;
  plan::ExplainInput in;
  in.root = s.root.get();
  in.options = analyze();
  in.options.summary = true;
  in.jit = &jit;
  Lines lines = plan::explain(in);
  CHECK(std::find(lines.begin(), lines.end(), "  Morsels: Cheap 3, Optimized 5") != lines.end());
  CHECK(std::find(lines.begin(), lines.end(), "  Functions: 2") != lines.end());
}

TEST_CASE("EXPLAIN shows the workers of a semi join's parallel outer collection and marking", "[plan][explain]") {
  Fixture f;
  f.run("insert into u select g % 10, g from generate_series(1, 40000) g");
  f.parallelThreads = 2;
  // The outer rows (u x, filtered: the smaller side) are hashed, collected on two threads;
  // the subquery's rows (u y) mark them on two threads.
  Lines lines = f.explain(
      "select count(*) from u x where x.d % 100 = 0 and exists (select 1 from u y where y.a = x.a "
      "and y.d > x.d + 39000)");
  auto at = [&](const std::string& text) {
    return std::find_if(lines.begin(), lines.end(),
                        [&](const std::string& l) { return l.find(text) != std::string::npos; }) -
           lines.begin();
  };
  size_t join = at("Hash Right Semi Join"), hash = at("->  Hash  ("), n = lines.size();
  for (const std::string& l : lines) UNSCOPED_INFO(l);
  REQUIRE(join < n);
  REQUIRE(hash < n);
  CHECK(lines[join + 1].find("Hash Cond") != std::string::npos);
  CHECK(std::count_if(lines.begin(), lines.end(),
                      [](const std::string& l) { return l.find("Workers Planned: 1") != std::string::npos; }) == 2);
  CHECK(lines[hash + 1].find("Workers Planned: 1") != std::string::npos);
}

TEST_CASE("What is computed from a hash join's build side alone is computed below its Hash", "[plan][explain]") {
  Fixture f;
  f.run("insert into t select g, 'x' || g from generate_series(101, 400) g");
  plan::ExplainOptions o;
  o.costs = false;
  // u (50 rows) is hashed, t's 400 probe it: u.a = 3 is computed once per u row, and the
  // table keeps its result instead of u.a (the FROM-order projection above the join passes
  // u.a on, unread).
  CHECK(f.explain("select sum(case when u.a = 3 then t.a else 0 end) from t join u on u.d = t.a + 0", o) ==
        Lines{"Aggregate", "  ->  Hash Join", "        Hash Cond: ((t.a + 0)::bigint = u.d)",
              "        ->  Seq Scan on t", "        ->  Hash", "              ->  Seq Scan on u",
              "                    Computed: (u.a = 3)"});
  // Through the FROM-order projection under a NOT EXISTS's anti join too.
  Lines anti = f.explain(
      "select sum(case when u.a = 3 then t.a else 0 end) from t join u on u.d = t.a + 0 where not exists (select 1 "
      "from u v where v.d = t.a + 1000)",
      o);
  for (const std::string& l : anti) UNSCOPED_INFO(l);
  CHECK(std::find(anti.begin(), anti.end(), "                          Computed: (u.a = 3)") != anti.end());
  // What may fail (a division by zero on a u row no t row meets) stays above the join.
  CHECK(f.explain("select sum(t.a / u.a) from t join u on u.d = t.a + 0", o) ==
        Lines{"Aggregate", "  ->  Hash Join", "        Hash Cond: ((t.a + 0)::bigint = u.d)",
              "        ->  Seq Scan on t", "        ->  Hash", "              ->  Seq Scan on u"});
}
