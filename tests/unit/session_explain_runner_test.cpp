// EXPLAIN's options (session/explain_runner.h): PostgreSQL 15's defaults, spellings and errors.
#include <catch2/catch.hpp>

#include "engine/error.h"
#include "session/explain_runner.h"

using namespace duet;

namespace {

plan::ExplainOptions options(const std::string& sql) {
  auto parsed = sql::parseQuery(sql);
  return explainOptions(parsed.at(0).stmt->as<sql::ExplainStmt>(), sql);
}

std::string sqlstateOf(const std::string& sql) {
  try {
    options(sql);
  } catch (const SqlError& e) {
    return e.code + " " + e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("EXPLAIN options: defaults and spellings", "[session][explain]") {
  plan::ExplainOptions plain = options("explain select 1");
  CHECK(!plain.analyze);
  CHECK(plain.costs);
  CHECK(!plain.timing);
  CHECK(!plain.summary);
  CHECK(plain.format == plan::ExplainOptions::Format::Text);
  plan::ExplainOptions analyzed = options("explain analyze verbose select 1");
  CHECK(analyzed.analyze);
  CHECK(analyzed.verbose);
  CHECK(analyzed.timing);
  CHECK(analyzed.summary);
  plan::ExplainOptions o = options(
      "explain (analyze on, costs 0, timing false, summary 'off', format JSON, buffers) "
      "delete from t");
  CHECK(o.analyze);
  CHECK(!o.costs);
  CHECK(!o.timing);
  CHECK(!o.summary);
  CHECK(o.format == plan::ExplainOptions::Format::Json);
  CHECK(options("explain (summary) select 1").summary);
}

TEST_CASE("EXPLAIN options: PostgreSQL's errors", "[session][explain]") {
  CHECK(sqlstateOf("explain (foo) select 1") == "42601 unrecognized EXPLAIN option \"foo\"");
  CHECK(sqlstateOf("explain (analyze maybe) select 1") == "42601 analyze requires a Boolean value");
  CHECK(sqlstateOf("explain (costs 2) select 1") == "42601 costs requires a Boolean value");
  CHECK(sqlstateOf("explain (format) select 1") == "42601 format requires a parameter");
  CHECK(sqlstateOf("explain (format bar) select 1") ==
        "22023 unrecognized value for EXPLAIN option \"format\": \"bar\"");
  CHECK(sqlstateOf("explain (timing) select 1") == "22023 EXPLAIN option TIMING requires ANALYZE");
  CHECK(sqlstateOf("explain (wal) select 1") == "22023 EXPLAIN option WAL requires ANALYZE");
  CHECK(sqlstateOf("explain (format xml) select 1").starts_with("0A000"));
  CHECK(sqlstateOf("explain (timing off) select 1") == "");
}
