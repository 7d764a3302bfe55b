// The JSON parser (engine/types/json.h) and jsonb's binary tree (jsonb.h). Expected texts
// and messages are PostgreSQL 15's ('...'::jsonb, and the DETAIL of its input errors).
#include <catch2/catch.hpp>

#include <string>

#include "engine/error.h"
#include "engine/types/json.h"
#include "engine/types/jsonb.h"

using namespace duet;

namespace {

std::string jsonb(std::string_view text) {
  Arena arena;
  std::string out;
  formatJsonb(JsonbRef::of(makeJsonb(parseJson(text, true), arena)), out);
  return out;
}

// The DETAIL of the error json input raises, or "" when it is valid.
std::string detail(std::string_view text, bool decode = false) {
  try {
    decode ? (void)parseJson(text, true) : validateJson(text);
  } catch (const SqlError& e) {
    CHECK(std::string(e.what()) ==
          (e.code == "22P05" ? "unsupported Unicode escape sequence" : "invalid input syntax for type json"));
    return e.detail;
  }
  return "";
}

int order(std::string_view a, std::string_view b) {
  Arena arena;
  return compareJsonb(JsonbRef::of(makeJsonb(parseJson(a, true), arena)),
                      JsonbRef::of(makeJsonb(parseJson(b, true), arena)));
}

}  // namespace

TEST_CASE("json input errors carry PostgreSQL's details", "[types][json]") {
  CHECK(detail("{\"a\":tru}") == "Token \"tru\" is invalid.");
  CHECK(detail("{\"a\" 1}") == "Expected \":\", but found \"1\".");
  CHECK(detail("[1,]") == "Expected JSON value, but found \"]\".");
  CHECK(detail("[1 2]") == "Expected \",\" or \"]\", but found \"2\".");
  CHECK(detail("{\"a\":1,}") == "Expected string, but found \"}\".");
  CHECK(detail("{1:2}") == "Expected string or \"}\", but found \"1\".");
  CHECK(detail("{\"a\":1}x") == "Token \"x\" is invalid.");
  CHECK(detail("{\"a\":1} 2") == "Expected end of input, but found \"2\".");
  CHECK(detail("{") == "The input string ended unexpectedly.");
  CHECK(detail("\"abc") == "Token \"\"abc\" is invalid.");
  CHECK(detail("\"\\x\"") == "Escape sequence \"\\x\" is invalid.");
  CHECK(detail("\"\\u12\"") == "\"\\u\" must be followed by four hexadecimal digits.");
  CHECK(detail("\"a\tb\"") == "Character with value 0x09 must be escaped.");
  CHECK(detail("01") == "Token \"01\" is invalid.");
  // json keeps escapes as written; jsonb decodes them and refuses what text cannot hold.
  CHECK(detail("\"\\u0000 \\ud800\"").empty());
  CHECK(detail("\"\\u0000\"", true) == "\\u0000 cannot be converted to text.");
  CHECK(detail("\"\\ud800\"", true) == "Unicode low surrogate must follow a high surrogate.");
  CHECK(detail("\"\\ud800\\ud800\"", true) == "Unicode high surrogate must not follow a high surrogate.");
}

TEST_CASE("jsonb prints PostgreSQL's canonical form", "[types][json]") {
  CHECK(jsonb("{\"b\": 1, \"a\": 2, \"aa\": 3, \"a\": 4}") == "{\"a\": 4, \"b\": 1, \"aa\": 3}");
  CHECK(jsonb("[1, 1.50, 1e2, -0, 1.5e-3, -12.0E+1, 0.000]") == "[1, 1.50, 100, 0, 0.0015, -120, 0.000]");
  CHECK(jsonb("\"\\ud83d\\ude00 \\u001f\"") == "\"\xF0\x9F\x98\x80 \\u001f\"");
  CHECK(jsonb(" {\"a\" : [ ] , \"b\":{}} ") == "{\"a\": [], \"b\": {}}");
  Arena arena;
  std::string pretty;
  formatJsonbPretty(JsonbRef::of(makeJsonb(parseJson("{\"a\":[1,{}]}", true), arena)), pretty);
  CHECK(pretty == "{\n    \"a\": [\n        1,\n        {\n        }\n    ]\n}");
}

TEST_CASE("canonical numbers are numeric's text", "[types][json]") {
  CHECK(canonicalNumber("1e2") == "100");
  CHECK(canonicalNumber("1.50") == "1.50");
  CHECK(canonicalNumber("-0.0e-3") == "0.0000");
  CHECK(canonicalNumber("12.5e-5") == "0.000125");
  CHECK(canonicalNumber("0e200000") == "0");
  CHECK_THROWS_AS(canonicalNumber("1e131072"), SqlError);
  CHECK(compareNumbers("1.0", "1") == 0);
  CHECK(compareNumbers("-2", "-10") == 1);
  CHECK(compareNumbers("0.01", "0.1") == -1);
  CHECK(normalizedNumber("1.500") == "1.5");
  CHECK(normalizedNumber("2.000") == "2");
}

TEST_CASE("jsonb orders as compareJsonbContainers", "[types][json]") {
  CHECK(order("{\"a\": 1}", "{\"b\": 1}") < 0);
  CHECK(order("{\"a\": 1, \"b\": 2}", "{\"b\": 2, \"a\": 1.0}") == 0);
  CHECK(order("[]", "{}") < 0);
  CHECK(order("1", "[]") > 0);   // a raw scalar against an empty array: the counts decide
  CHECK(order("1", "[1]") < 0);  // against one element: the raw scalar first
  CHECK(order("null", "\"\"") < 0);
  CHECK(order("\"z\"", "1") < 0);
  CHECK(order("1", "false") < 0);
  CHECK(order("[1, 2]", "[1, 2, 0]") < 0);
}

TEST_CASE("jsonb containment and member lookup", "[types][json]") {
  Arena arena;
  auto v = [&](std::string_view text) { return JsonbRef::of(makeJsonb(parseJson(text, true), arena)); };
  CHECK(jsonbContains(v("{\"a\": 1, \"b\": [1, 2]}"), v("{\"b\": [2]}")));
  CHECK_FALSE(jsonbContains(v("{\"a\": 1}"), v("{\"a\": 2}")));
  CHECK(jsonbContains(v("[1, 2]"), v("1")));
  CHECK_FALSE(jsonbContains(v("1"), v("[1]")));
  JsonbRef object = v("{\"bb\": 1, \"a\": 2, \"c\": 3}");
  REQUIRE(object.find("bb").has_value());
  CHECK(object.find("bb")->text() == "1");
  CHECK_FALSE(object.find("d").has_value());
  CHECK(hashJsonb(v("{\"a\": 1.0}")) == hashJsonb(v("{\"a\": 1}")));
}
