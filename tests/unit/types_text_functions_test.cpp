// The string functions of engine/types/text_functions.h and the numeric ones behind
// mod/div/floor/ceil/sign, at the edges the SQL tests (tests/sql/functions_*.test) reach
// only slowly or not at all. Expected values are PostgreSQL 15's (UTF-8, C locale).
#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/error.h"
#include "engine/types/numeric.h"
#include "engine/types/runtime.h"
#include "engine/types/text_functions.h"

using namespace duet;

namespace {

// The SQLSTATE of the SqlError f throws, or "none".
template <typename F>
std::string sqlstateOf(F&& f) {
  try {
    f();
  } catch (const SqlError& e) {
    return e.code;
  }
  return "none";
}

std::string N(NumericRep v) { return numericToString(v); }
NumericRep N(const char* s) { return parseNumeric(s); }

}  // namespace

TEST_CASE("split_part counts non-overlapping separators from either end", "[types][text]") {
  CHECK(splitPart("aaaa", "aa", 1) == "");
  CHECK(splitPart("aaaa", "aa", 3) == "");
  CHECK(splitPart("aaaaa", "aa", 3) == "a");
  CHECK(splitPart("a--b--c", "--", -2) == "b");
  CHECK(splitPart("a,b", ",", -3) == "");
  CHECK(splitPart("a,b", ",", INT32_MIN) == "");
  CHECK(splitPart("a,b", ",", INT32_MAX) == "");
  CHECK(sqlstateOf([] { splitPart("a", ",", 0); }) == "22023");
}

TEST_CASE("translate, reverse and initcap work on characters", "[types][text]") {
  // A 'to' shorter than 'from' deletes; the first occurrence in 'from' wins.
  CHECK(translateChars("héllo", "éo", "€") == "h€ll");
  CHECK(translateChars("aba", "aa", "xy") == "xbx");
  CHECK(reverseChars("a😀é") == "é😀a");
  CHECK(initcapAscii("héllo 1st o'neil") == "HéLlo 1st O'Neil");
  CHECK(initcapAscii("hELLO wORLD") == "Hello World");
}

TEST_CASE("lpad and rpad cycle through the fill by characters", "[types][text]") {
  CHECK(padChars("x", 6, "é日", true) == "é日é日éx");
  CHECK(padChars("x", 4, "é日", false) == "xé日é");
  CHECK(padChars("日本語", 2, "*", false) == "日本");
  CHECK(padChars("abc", 1000000000, "", true) == "abc");
  CHECK(sqlstateOf([] { padChars("x", 268435455, " ", true); }) == "54000");
  CHECK(sqlstateOf([] { padChars("x", INT32_MAX, "y", false); }) == "54000");
}

TEST_CASE("repeat stops at PostgreSQL's allocation limit", "[types][text]") {
  CHECK(repeatText("ab", 3) == "ababab");
  CHECK(repeatText("ab", -5).empty());
  CHECK(repeatText("", INT32_MAX).empty());
  // 1 GB - 1 is the limit, the 4-byte header included.
  CHECK(sqlstateOf([] { repeatText("ab", 536870910); }) == "54000");
  CHECK(sqlstateOf([] { repeatText("x", INT32_MAX); }) == "54000");
}

TEST_CASE("ascii and chr round-trip every UTF-8 length", "[types][text]") {
  for (int64_t code : {1, 0x7f, 0x80, 0x7ff, 0x800, 0xd7ff, 0xe000, 0xffff, 0x10000, 0x10ffff}) {
    INFO(code);
    std::string c = codePointChar(code);
    CHECK(firstCodePoint(c) == code);
  }
  CHECK(codePointChar(0x20ac) == "€");
  CHECK(firstCodePoint("") == 0);
  CHECK(sqlstateOf([] { codePointChar(0); }) == "54000");
  CHECK(sqlstateOf([] { codePointChar(-1); }) == "22023");
  CHECK(sqlstateOf([] { codePointChar(0xd800); }) == "54000");
  CHECK(sqlstateOf([] { codePointChar(0xdfff); }) == "54000");
  CHECK(sqlstateOf([] { codePointChar(0x110000); }) == "54000");
}

TEST_CASE("numeric div, floor, ceil and sign", "[types][numeric]") {
  CHECK(N(numericDivTrunc(N("-7.9"), N("0.5"))) == "-15");
  CHECK(N(numericDivTrunc(N("0.1"), N("-0.3"))) == "0");
  CHECK(N(numericDivTrunc(N("123456789012345678901234567890"), N("7"))) == "17636684144620811271604938270");
  CHECK(sqlstateOf([] { numericDivTrunc(N("1"), N("0.00")); }) == "22012");
  CHECK(N(numericFloor(N("-2.000"))) == "-2");
  CHECK(N(numericFloor(N("-0.0000000000000000000001"))) == "-1");
  CHECK(N(numericCeil(N("-0.5"))) == "0");
  CHECK(N(numericCeil(N("2.0000000000000000000001"))) == "3");
  CHECK(N(numericSign(N("-0.00"))) == "0");
  CHECK(N(numericSign(N("-12.5"))) == "-1");
}

TEST_CASE("integer mod of the smallest value by -1 is 0", "[types][numeric]") {
  CHECK(duet_rt_int2_mod(INT16_MIN, -1) == 0);
  CHECK(duet_rt_int4_mod(INT32_MIN, -1) == 0);
  CHECK(duet_rt_int8_mod(INT64_MIN, -1) == 0);
  CHECK(duet_rt_int4_mod(-7, 3) == -1);
  CHECK(sqlstateOf([] { duet_rt_int8_mod(1, 0); }) == "22012");
}

TEST_CASE("concat and concat_ws skip NULL values", "[types][text]") {
  using V = std::vector<std::optional<std::string_view>>;
  CHECK(concatValues(V{"a", std::nullopt, "b"}, "") == "ab");
  CHECK(concatValues(V{std::nullopt, "a", std::nullopt, "b", std::nullopt}, ",") == "a,b");
  CHECK(concatValues(V{std::nullopt}, ",").empty());
}

TEST_CASE("format follows text_format", "[types][text]") {
  using V = std::vector<std::optional<std::string_view>>;
  CHECK(formatText("%s|%I|%L|%%", V{"a", "B c", "it's"}) == "a|\"B c\"|'it''s'|%");
  CHECK(formatText("%2$s %1$s %s", V{"a", "b"}) == "b a b");
  CHECK(formatText("[%4s][%-4s][%*s][%*s]", V{"a", "b", "3", "c", "-3", "d"}) == "[   a][b   ][  c][d  ]");
  CHECK(formatText("[%1$-*2$s]", V{"a", "3"}) == "[a  ]");
  CHECK(formatText("%s|%L", V{std::nullopt, std::nullopt}) == "|NULL");
  CHECK(formatText("[%3s]", V{"héllo"}) == "[héllo]");  // width in characters
  CHECK(sqlstateOf([] { formatText("%s %s", V{"a"}); }) == "22023");
  CHECK(sqlstateOf([] { formatText("%x", V{"a"}); }) == "22023");
  CHECK(sqlstateOf([] { formatText("%", V{"a"}); }) == "22023");
  CHECK(sqlstateOf([] { formatText("%0$s", V{"a"}); }) == "22023");
  CHECK(sqlstateOf([] { formatText("%I", V{std::nullopt}); }) == "22004");
  CHECK(sqlstateOf([] { formatText("%99999999999s", V{"a"}); }) == "22003");
}

TEST_CASE("quote_ident, quote_literal, md5, to_hex", "[types][text]") {
  CHECK(quoteIdent("abc") == "abc");
  CHECK(quoteIdent("name") == "name");  // an unreserved keyword needs no quotes
  CHECK(quoteIdent("select") == "\"select\"");
  CHECK(quoteIdent("Abc") == "\"Abc\"");
  CHECK(quoteIdent("a\"b") == "\"a\"\"b\"");
  CHECK(quoteIdent("") == "\"\"");
  CHECK(quoteLiteral("it's") == "'it''s'");
  CHECK(quoteLiteral("a\\b") == "E'a\\\\b'");
  CHECK(md5Hex("") == "d41d8cd98f00b204e9800998ecf8427e");
  CHECK(md5Hex("abc") == "900150983cd24fb0d6963f7d28e17f72");
  CHECK(toHex(255) == "ff");
  CHECK(toHex(static_cast<uint32_t>(-1)) == "ffffffff");
  CHECK(toHex(0) == "0");
}
