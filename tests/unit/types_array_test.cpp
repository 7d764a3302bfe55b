// Arrays: text and binary I/O round trips, malformed literals, comparison and casts.
// Expected values are PostgreSQL 15's (TimeZone UTC), from `SELECT '<literal>'::<type>[]`.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <cstring>

#include "engine/error.h"
#include "engine/types/array.h"
#include "engine/types/raw_value.h"
#include "engine/types/runtime.h"
#include "engine/types/value_io.h"

using namespace duet;

namespace {

SqlType arrayOf(TypeId element, int32_t typmod = -1) { return SqlType::arrayOf({element, typmod}); }

const VarString* parse(SqlType type, std::string_view text, Arena& arena) {
  alignas(16) unsigned char buf[16];
  parseText(type, text, buf, arena, TypeContext{});
  return loadRaw<const VarString*>(buf);
}

std::string textOf(SqlType type, std::string_view text) {
  Arena arena;
  const VarString* a = parse(type, text, arena);
  std::string out;
  formatText(type, &a, out, TypeContext{});
  return out;
}

// "SQLSTATE: message / detail" of the error that parsing raises.
std::string errorOf(SqlType type, std::string_view text) {
  try {
    textOf(type, text);
  } catch (const SqlError& e) {
    return e.code + ": " + e.what() + (e.detail.empty() ? "" : " / " + e.detail);
  }
  return "no error";
}

}  // namespace

TEST_CASE("array text output and input round trip as PostgreSQL's", "[types][array]") {
  SqlType ints = arrayOf(TypeId::Int4), texts = arrayOf(TypeId::Text);
  CHECK(textOf(ints, "{1,2,NULL}") == "{1,2,NULL}");
  CHECK(textOf(ints, "{}") == "{}");
  CHECK(textOf(ints, "{ }") == "{}");
  CHECK(textOf(ints, "  { 1 ,  2 } ") == "{1,2}");
  CHECK(textOf(ints, "[1:2]={5,6}") == "{5,6}");
  CHECK(textOf(arrayOf(TypeId::Int2), "{1,2}") == "{1,2}");
  CHECK(textOf(texts, R"({"a b",c,"\"q\"","",\\x,"{}"})") == R"({"a b",c,"\"q\"","","\\x","{}"})");
  CHECK(textOf(texts, R"({null,"null",NULL,"NULL",nULl})") == R"({NULL,"null",NULL,"NULL",NULL})");
  CHECK(textOf(texts, R"({a\,b, "x y" , z\ })") == R"({"a,b","x y","z "})");
  CHECK(textOf(texts, R"({ab  cd , "  sp  " })") == R"({"ab  cd","  sp  "})");
  CHECK(textOf(texts, R"({"}","{",","})") == R"({"}","{",","})");
  CHECK(textOf(texts, "{\"tab\there\"}") == "{\"tab\there\"}");
  CHECK(textOf(arrayOf(TypeId::Bool), "{t,f,true,false}") == "{t,f,t,f}");
  CHECK(textOf(arrayOf(TypeId::Numeric), "{1.50,2e3,-0.0}") == "{1.50,2000,0.0}");
  CHECK(textOf(arrayOf(TypeId::Float8), "{1.5,NaN,Infinity}") == "{1.5,NaN,Infinity}");
  CHECK(textOf(arrayOf(TypeId::Date), "{2020-01-02,infinity}") == "{2020-01-02,infinity}");
  CHECK(textOf(arrayOf(TypeId::Timestamp), R"({"2020-01-02 03:04:05"})") == R"({"2020-01-02 03:04:05"})");
  CHECK(textOf(arrayOf(TypeId::TimestampTz), R"({"2020-01-02 03:04:05+02"})") == R"({"2020-01-02 01:04:05+00"})");
  // The typmod applies to every element, as the element input function's would.
  CHECK(textOf(arrayOf(TypeId::Varchar, 3 + 4), R"({ab,"abc   "})") == "{ab,abc}");
  CHECK(textOf(arrayOf(TypeId::Char, 3 + 4), "{a,bc}") == R"({"a  ","bc "})");
}

TEST_CASE("malformed array literals fail as in PostgreSQL", "[types][array]") {
  SqlType ints = arrayOf(TypeId::Int4), texts = arrayOf(TypeId::Text);
  CHECK(errorOf(ints, "{1,2") == "22P02: malformed array literal: \"{1,2\" / Unexpected end of input.");
  CHECK(errorOf(ints, "1,2}") ==
        "22P02: malformed array literal: \"1,2}\" / Array value must start with \"{\" or dimension information.");
  CHECK(errorOf(ints, "{1,,2}") == "22P02: malformed array literal: \"{1,,2}\" / Unexpected \",\" character.");
  CHECK(errorOf(ints, "{,}") == "22P02: malformed array literal: \"{,}\" / Unexpected \",\" character.");
  CHECK(errorOf(ints, "{1,2}}") == "22P02: malformed array literal: \"{1,2}}\" / Junk after closing right brace.");
  CHECK(errorOf(ints, "{1,2} x") == "22P02: malformed array literal: \"{1,2} x\" / Junk after closing right brace.");
  CHECK(errorOf(texts, R"({"a"b})") == "22P02: malformed array literal: \"{\"a\"b}\" / Unexpected array element.");
  CHECK(errorOf(texts, R"({a"b"})") == "22P02: malformed array literal: \"{a\"b\"}\" / Unexpected array element.");
  CHECK(errorOf(texts, "{{}}") == "22P02: malformed array literal: \"{{}}\" / Unexpected \"}\" character.");
  CHECK(errorOf(texts, R"({\)") == "22P02: malformed array literal: \"{\\\" / Unexpected end of input.");
  CHECK(errorOf(texts, R"({"abc})") == "22P02: malformed array literal: \"{\"abc}\" / Unexpected end of input.");
  CHECK(errorOf(ints, "{{1,2},{3}}") ==
        "22P02: malformed array literal: \"{{1,2},{3}}\" / Multidimensional arrays must have sub-arrays with "
        "matching dimensions.");
  CHECK(errorOf(ints, "[1:3]={5,6}") ==
        "22P02: malformed array literal: \"[1:3]={5,6}\" / Specified array dimensions do not match array contents.");
  CHECK(errorOf(ints, "[1:2]{5,6}") ==
        "22P02: malformed array literal: \"[1:2]{5,6}\" / Missing \"=\" after array dimensions.");
  CHECK(errorOf(ints, "[x]={5,6}") ==
        "22P02: malformed array literal: \"[x]={5,6}\" / \"[\" must introduce explicitly-specified array "
        "dimensions.");
  CHECK(errorOf(ints, "{1,a}") == "22P02: invalid input syntax for type integer: \"a\"");
  CHECK(errorOf(arrayOf(TypeId::Varchar, 3 + 4), "{abcd}") == "22001: value too long for type character varying(3)");
  // What DuetDB's one-dimensional arrays cannot hold.
  CHECK(errorOf(ints, "{{1,2},{3,4}}").rfind("0A000", 0) == 0);
  CHECK(errorOf(ints, "[0:1]={5,6}").rfind("0A000", 0) == 0);
}

TEST_CASE("array binary format is array_send's", "[types][array]") {
  Arena arena;
  SqlType ints = arrayOf(TypeId::Int4);
  const VarString* a = parse(ints, "{1,NULL,-2}", arena);
  std::string wire;
  formatBinary(ints, &a, wire);
  const unsigned char expected[] = {0,    0,    0,    1,    0,    0,    0,    1,
                                    0,    0,    0,    23,                             // ndim, has nulls, int4
                                    0,    0,    0,    3,    0,    0,    0,    1,      // length 3, lower bound 1
                                    0,    0,    0,    4,    0,    0,    0,    1,      // 1
                                    0xff, 0xff, 0xff, 0xff,                           // NULL
                                    0,    0,    0,    4,    0xff, 0xff, 0xff, 0xfe};  // -2
  REQUIRE(wire.size() == sizeof expected);
  CHECK(std::memcmp(wire.data(), expected, sizeof expected) == 0);
  alignas(16) unsigned char back[16];
  parseBinary(ints, wire, back, arena);
  std::string text;
  formatText(ints, back, text, TypeContext{});
  CHECK(text == "{1,NULL,-2}");

  SqlType texts = arrayOf(TypeId::Text);
  const VarString* empty = parse(texts, "{}", arena);
  wire.clear();
  formatBinary(texts, &empty, wire);
  CHECK(wire == std::string("\0\0\0\0\0\0\0\0\0\0\0\x19", 12));
  // An int8[] sent where int4[] is expected names both element types.
  std::string int8Wire("\0\0\0\0\0\0\0\0\0\0\0\x14", 12);
  try {
    parseBinary(ints, int8Wire, back, arena);
    FAIL("no error");
  } catch (const SqlError& e) {
    CHECK(e.code == "42804");
    CHECK(std::string(e.what()) == "binary data has array element type 20 (bigint) instead of expected 23 (integer)");
  }
  CHECK_THROWS_AS(parseBinary(ints, std::string_view("\0\0\0\1", 4), back, arena), SqlError);
}

TEST_CASE("array comparison, hashing and casts", "[types][array]") {
  Arena arena;
  SqlType ints = arrayOf(TypeId::Int4);
  auto cmp = [&](const char* x, const char* y) { return compareArrays(parse(ints, x, arena), parse(ints, y, arena)); };
  CHECK(cmp("{1,2}", "{1,2}") == 0);
  CHECK(cmp("{1,NULL}", "{1,NULL}") == 0);  // array_eq: NULL elements equal each other
  CHECK(cmp("{1,2}", "{1,3}") < 0);
  CHECK(cmp("{1,NULL}", "{1,3}") > 0);  // NULL sorts after values
  CHECK(cmp("{1,2}", "{1,2,0}") < 0);   // then the shorter first
  CHECK(cmp("{}", "{1}") < 0);
  CHECK(hashArray(parse(ints, "{1,NULL}", arena)) == hashArray(parse(ints, "{1,NULL}", arena)));
  SqlType numerics = arrayOf(TypeId::Numeric);
  CHECK(compareArrays(parse(numerics, "{1.0}", arena), parse(numerics, "{1.00}", arena)) == 0);
  CHECK(hashArray(parse(numerics, "{1.0}", arena)) == hashArray(parse(numerics, "{1.00}", arena)));

  const VarString* a = parse(arrayOf(TypeId::Numeric), "{1.5,NULL,2.4}", arena);
  alignas(16) unsigned char out[16];
  castValue(arrayOf(TypeId::Numeric), &a, ints, out, true, arena, TypeContext{});
  std::string text;
  formatText(ints, out, text, TypeContext{});
  CHECK(text == "{2,NULL,2}");
  text.clear();
  castValue(ints, out, {TypeId::Text, -1}, out, false, arena, TypeContext{});
  formatText({TypeId::Text, -1}, out, text, TypeContext{});
  CHECK(text == "{2,NULL,2}");

  // Element access as generated code does it; strings point into the array.
  const VarString* s = parse(arrayOf(TypeId::Varchar), R"({x,NULL,"y z"})", arena);
  CHECK(duet_rt_array_cardinality(s) == 3);
  CHECK(duet_rt_array_has(s, 1));
  CHECK_FALSE(duet_rt_array_has(s, 2));
  CHECK_FALSE(duet_rt_array_has(s, 0));
  CHECK_FALSE(duet_rt_array_has(s, 4));
  CHECK(duet_rt_array_get_string(s, 3)->view() == "y z");
  // A copy made as tables copy strings (Arena::makeString) reads the same.
  const VarString* copy = arena.makeString(s->view());
  CHECK(duet_rt_array_get_string(copy, 1)->view() == "x");
  CHECK(compareArrays(s, copy) == 0);
}

// Integer arrays written plainly ('{1, -2,+3}': integers with the whitespace and sign
// int4in allows, nothing else) are read straight into the array; any other text, and other
// element types, go to the general reader. Results and errors are the same either way:
// PostgreSQL 15's answers.
TEST_CASE("plain integer array text parses in place as PostgreSQL does", "[types][array]") {
  for (TypeId t : {TypeId::Int2, TypeId::Int4, TypeId::Int8}) {
    SqlType a = arrayOf(t);
    CHECK(textOf(a, "{1,-2,3}") == "{1,-2,3}");
    CHECK(textOf(a, "{+5, -0 ,007}") == "{5,0,7}");
    CHECK(textOf(a, "{}") == "{}");
    CHECK(textOf(a, " { } ") == "{}");
    CHECK(textOf(a, "\t{\n1 ,\v2\f}\r") == "{1,2}");
    CHECK(textOf(a, "{NULL, null ,NuLl,4}") == "{NULL,NULL,NULL,4}");  // NULLs: the general reader
    CHECK(textOf(a, R"({"1", 2})") == "{1,2}");                        // quoted: the general reader
    CHECK(textOf(a, "[1:2]={1,2}") == "{1,2}");                        // decorated: the general reader
    // Structure errors come before element errors, whichever element is bad.
    CHECK(errorOf(a, "{1,}") == "22P02: malformed array literal: \"{1,}\" / Unexpected \"}\" character.");
    CHECK(errorOf(a, "{ 1 , }") == "22P02: malformed array literal: \"{ 1 , }\" / Unexpected \"}\" character.");
    CHECK(errorOf(a, "{a,1,}") == "22P02: malformed array literal: \"{a,1,}\" / Unexpected \"}\" character.");
    CHECK(errorOf(a, "{,1}") == "22P02: malformed array literal: \"{,1}\" / Unexpected \",\" character.");
    CHECK(errorOf(a, "{1}x") == "22P02: malformed array literal: \"{1}x\" / Junk after closing right brace.");
    CHECK(errorOf(a, "{1}}") == "22P02: malformed array literal: \"{1}}\" / Junk after closing right brace.");
    CHECK(errorOf(a, "{1") == "22P02: malformed array literal: \"{1\" / Unexpected end of input.");
    CHECK(errorOf(a, "1}") ==
          "22P02: malformed array literal: \"1}\" / Array value must start with \"{\" or dimension information.");
  }
  SqlType ints = arrayOf(TypeId::Int4);
  // Up to 64 elements go the plain way, more to the general reader: the same array.
  for (int n : {63, 64, 65, 200}) {
    std::string text = "{", want = "{";
    for (int i = 0; i < n; ++i) {
      text += (i ? ", " : "") + std::to_string(i * 7 - 100);
      want += (i ? "," : "") + std::to_string(i * 7 - 100);
    }
    CHECK(textOf(ints, text + "}") == want + "}");
  }
  // An element is its text less the whitespace around it, as the element input sees it.
  CHECK(errorOf(ints, "{ 1 2 }") == "22P02: invalid input syntax for type integer: \"1 2\"");
  CHECK(errorOf(ints, "{1;2}") == "22P02: invalid input syntax for type integer: \"1;2\"");
  CHECK(errorOf(ints, R"({x,"y"})") == "22P02: invalid input syntax for type integer: \"x\"");
  CHECK(errorOf(ints, R"({1,"NULL"})") == "22P02: invalid input syntax for type integer: \"NULL\"");
  CHECK(errorOf(ints, "{1, 2147483648 ,x}") == "22003: value \"2147483648\" is out of range for type integer");
  CHECK(errorOf(ints, "{2147483648,}") ==
        "22P02: malformed array literal: \"{2147483648,}\" / Unexpected \"}\" character.");
  CHECK(errorOf(ints, "{2147483648x}") == "22P02: invalid input syntax for type integer: \"2147483648x\"");
  CHECK(errorOf(ints, "{2147483649x}") == "22003: value \"2147483649x\" is out of range for type integer");
  CHECK(errorOf(arrayOf(TypeId::Int2), "{40000,1}") == "22003: value \"40000\" is out of range for type smallint");
  CHECK(errorOf(arrayOf(TypeId::Int8), "{9223372036854775808}") ==
        "22003: value \"9223372036854775808\" is out of range for type bigint");
  CHECK(textOf(arrayOf(TypeId::Int8), "{-9223372036854775808, 9223372036854775807}") ==
        "{-9223372036854775808,9223372036854775807}");
  // Other fixed-width types (the general reader), their typmod applied to every element.
  CHECK(textOf(arrayOf(TypeId::Timestamp), "{2020-01-02 03:04:05, infinity}") == R"({"2020-01-02 03:04:05",infinity})");
  CHECK(textOf(arrayOf(TypeId::TimestampTz), "{2020-01-02 03:04:05+02}") == R"({"2020-01-02 01:04:05+00"})");
  CHECK(textOf(arrayOf(TypeId::Numeric, (5 << 16 | 2) + 4), "{1.005, NULL, 2.5}") == "{1.01,NULL,2.50}");
  CHECK(errorOf(arrayOf(TypeId::Numeric, (5 << 16 | 2) + 4), "{1.5,123456}") ==
        "22003: numeric field overflow / A field with precision 5, scale 2 must round to an absolute value less "
        "than 10^3.");
  CHECK(textOf(arrayOf(TypeId::Bool), "{t, no ,On}") == "{t,f,t}");
  CHECK(errorOf(arrayOf(TypeId::Bool), "{maybe}") == "22P02: invalid input syntax for type boolean: \"maybe\"");
  CHECK(textOf(arrayOf(TypeId::Float8), "{1.5e3, -inf , nan}") == "{1500,-Infinity,NaN}");
  CHECK(errorOf(arrayOf(TypeId::Float8), "{1e400}") == "22003: \"1e400\" is out of range for type double precision");
  CHECK(errorOf(arrayOf(TypeId::Date), "{2020-02-30}") == "22008: date/time field value out of range: \"2020-02-30\"");

  // The array written in place is byte for byte the one the general reader builds (which a
  // dimension decoration sends the text to), also next to arrays with NULLs.
  Arena arena;
  auto sameBytes = [&](SqlType type, const std::string& elements, int count) {
    const VarString* plain = parse(type, "{" + elements + "}", arena);
    const VarString* general = parse(type, fmt::format("[1:{}]={{{}}}", count, elements), arena);
    return plain->len == general->len && std::memcmp(plain, general, sizeof(uint32_t) + plain->len) == 0;
  };
  CHECK(sameBytes(ints, "10, +0 ,-20,30", 4));
  CHECK(sameBytes(arrayOf(TypeId::Int2), "-32768,32767", 2));
  CHECK(sameBytes(arrayOf(TypeId::Int8), "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20", 20));
  const VarString* v = parse(ints, "{10,-20,NULL}", arena);
  CHECK(duet_rt_array_get_int4(v, 2) == -20);
  CHECK_FALSE(duet_rt_array_has(v, 3));
  CHECK(duet_rt_array_cardinality(v) == 3);
}
