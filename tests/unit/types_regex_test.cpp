// PostgreSQL's regular expressions on PCRE2 (engine/types/regex.h): the ARE translation,
// flags, the compile cache and the functions' match iteration.
#include <catch2/catch.hpp>

#include <functional>
#include <string>

#include "engine/error.h"
#include "engine/types/regex.h"

using namespace duet;

namespace {
std::string code(const std::function<void()>& f) {
  try {
    f();
  } catch (const SqlError& e) {
    return e.code;
  }
  return "";
}
}  // namespace

TEST_CASE("regex: ARE escapes become PCRE2's", "[types][regex]") {
  CHECK(translateAre("\\mcat\\M") == "\\b(?=\\w)cat\\b(?<=\\w)");
  CHECK(translateAre("a\\yb\\Y") == "a\\bb\\B");
  CHECK(translateAre("x\\Z") == "x\\z");
  CHECK(translateAre("\\b") == "\\x08");  // backspace, not a word boundary
  CHECK(translateAre("\\x41\\u00e9") == "\\x{41}\\x{00e9}");
  CHECK(translateAre("[[:<:]]w[[:>:]]") == "\\b(?=\\w)w\\b(?<=\\w)");
  CHECK(translateAre("[]a]") == "[\\]a]");
  CHECK(translateAre("[[:alpha:]_]") == "[[:alpha:]_]");
  CHECK(translateAre("[^a]") == "[^a]");
  CHECK(translateAre("[^a]", true) == "[^\\na]");  // newline-sensitive: no newline either
  CHECK(translateAre("(a)\\1") == "(a)\\1");
  CHECK(code([] { translateAre("\\q"); }) == "2201B");
  CHECK(code([] { translateAre("a\\"); }) == "2201B");
}

TEST_CASE("regex: flags", "[types][regex]") {
  RegexFlags f = parseRegexFlags("gi");
  CHECK(f.global);
  CHECK(f.caseInsensitive);
  CHECK_FALSE(parseRegexFlags("ic").caseInsensitive);
  CHECK_FALSE(parseRegexFlags("n").dotMatchesNewline);
  CHECK(parseRegexFlags("n").anchorsAtNewlines);
  CHECK(code([] { parseRegexFlags("z"); }) == "22023");
  try {
    parseRegexFlags("iz");
  } catch (const SqlError& e) {
    CHECK(std::string(e.what()) == "invalid regular expression option: \"z\"");
  }
}

TEST_CASE("regex: matching follows PostgreSQL's defaults", "[types][regex]") {
  CHECK(regexMatches("hello", "l+", false));
  CHECK_FALSE(regexMatches("hello", "^H", false));
  CHECK(regexMatches("hello", "^H", true));
  CHECK(regexMatches("a\nb", "a.b", false));       // . matches a newline
  CHECK_FALSE(regexMatches("ab\n", "b$", false));  // $ only at the very end
  CHECK(regexpLike("a\nb", "^b", "n"));
  CHECK(regexMatches("é", "^.$", false));  // characters, not bytes
  CHECK(regexMatches("x", "***=x", false));
  CHECK(regexMatches("AB", "(?i)ab", false));
  try {
    regexMatches("a", "(", false);
    FAIL("no error");
  } catch (const SqlError& e) {
    CHECK(e.code == "2201B");
    CHECK(std::string(e.what()) == "invalid regular expression: parentheses () not balanced");
  }
}

TEST_CASE("regex: compiled patterns are cached", "[types][regex]") {
  const Regex& a = Regex::compile("cache[0-9]", RegexFlags{});
  CHECK(&Regex::compile("cache[0-9]", RegexFlags{}) == &a);
  RegexFlags i;
  i.caseInsensitive = true;
  CHECK(&Regex::compile("cache[0-9]", i) != &a);
}

TEST_CASE("regex: regexp_match, regexp_matches and regexp_replace", "[types][regex]") {
  auto m = regexpMatch("foobarbeque", "(bar)(beque)", "");
  REQUIRE(m);
  REQUIRE(m->size() == 2);
  CHECK(*(*m)[0] == "bar");
  CHECK(*(*m)[1] == "beque");
  auto alternative = regexpMatch("abc", "(a)|(z)", "");
  REQUIRE(alternative);
  CHECK_FALSE((*alternative)[1].has_value());
  CHECK_FALSE(regexpMatch("abc", "z", ""));
  CHECK(code([] { regexpMatch("a", "a", "g"); }) == "22023");

  CHECK(regexpMatches("abc", "", "g").size() == 4);
  CHECK(regexpMatches("a1b2", "[0-9]", "").size() == 1);
  CHECK(regexpMatches("a1b2", "[0-9]", "g").size() == 2);

  RegexFlags none, global;
  global.global = true;
  CHECK(regexpReplace("foobarbaz", "b..", "X", 1, 1, none) == "fooXbaz");
  CHECK(regexpReplace("foobarbaz", "b..", "X", 1, 0, none) == "fooXX");
  CHECK(regexpReplace("abc", "(a)(b)", "\\2\\1<\\&>\\\\", 1, 1, none) == "ba<ab>\\c");
  CHECK(regexpReplace("abc", "", "-", 1, 0, none) == "-a-b-c-");
  CHECK(regexpReplace("aaa", "a", "b", 2, 2, none) == "aab");
  CHECK(regexpReplace("héllo", "l", "L", 4, 1, none) == "hélLo");
  CHECK(code([&] { regexpReplace("a", "a", "b", 0, 1, none); }) == "22023");
  CHECK(code([&] { regexpReplace("a", "a", "b", 1, -1, none); }) == "22023");
}

TEST_CASE("regex: split and count skip degenerate matches as PostgreSQL does", "[types][regex]") {
  using V = std::vector<std::string_view>;
  CHECK(regexpSplit("hello world", "\\s+", "", "f") == V{"hello", "world"});
  CHECK(regexpSplit("abc", "", "", "f") == V{"a", "b", "c"});
  CHECK(regexpSplit("abc", "x*", "", "f") == V{"a", "b", "c"});
  CHECK(regexpSplit(",a,", ",", "", "f") == V{"", "a", ""});
  CHECK(regexpSplit("", ",", "", "f") == V{""});
  CHECK(regexpCount("ABCABCAXYaxy", "A.", 1, "") == 3);
  CHECK(regexpCount("ABCABCAXYaxy", "A.", 1, "i") == 4);
  CHECK(regexpCount("aaa", "a*", 1, "") == 2);
  CHECK(regexpCount("abc", "", 1, "") == 4);
}

TEST_CASE("regex: SIMILAR TO patterns as PostgreSQL's similar_to_escape", "[types][regex]") {
  CHECK(similarToRegex("a%b_", "\\") == "^(?:a.*b.)$");
  CHECK(similarToRegex("(a|b).c", "\\") == "^(?:(?:a|b)\\.c)$");
  CHECK(similarToRegex("a#%", "#") == "^(?:a\\%)$");
  CHECK(similarToRegex("[a\\]", "") == "^(?:[a\\\\])$");
  CHECK(code([] { similarToRegex("a", "xy"); }) == "22025");
}
