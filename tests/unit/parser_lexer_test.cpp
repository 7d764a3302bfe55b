#include <catch2/catch.hpp>

#include "compiler/parser/lexer.h"
#include "compiler/parser/source_position.h"

using namespace duet::sql;

namespace {

// The texts that are not slices of the query live as long as the test program.
DecodedTexts decoded;

std::vector<Token> lex(std::string_view q) { return tokenize(q, decoded); }

// Token texts joined by '|', without the End token.
std::string texts(std::string_view q) {
  std::string s;
  for (const auto& t : lex(q)) {
    if (t.kind == TokenKind::End) break;
    s += (s.empty() ? "" : "|") + t.str();
  }
  return s;
}

}  // namespace

TEST_CASE("lexer: identifiers fold to lower case, quoted ones do not", "[parser][lexer]") {
  auto t = lex("SeLeCt \"MiXed\"\"q\" Foo_1$x");
  REQUIRE(t.size() == 4);
  CHECK(t[0].text == "select");
  CHECK(t[0].category == KeywordCategory::Reserved);
  CHECK(t[1].quoted);
  CHECK(t[1].text == "MiXed\"q");
  CHECK(t[1].category == KeywordCategory::None);
  CHECK(t[2].text == "foo_1$x");
  CHECK(t[2].offset == 18);
  CHECK(t[3].kind == TokenKind::End);
  CHECK(lex("name")[0].category == KeywordCategory::None);  // unreserved: plain identifier
  CHECK(lex("INTEGER")[0].category == KeywordCategory::ColName);
  CHECK(lex("left")[0].category == KeywordCategory::TypeFuncName);
}

TEST_CASE("lexer: identifiers are truncated to 63 bytes", "[parser][lexer]") {
  CHECK(lex(std::string(70, 'a'))[0].text == std::string(63, 'a'));
  CHECK(lex("\"" + std::string(62, 'b') + "\xC3\xA9x\"")[0].text == std::string(62, 'b'));  // not mid-character
}

TEST_CASE("lexer: numbers", "[parser][lexer]") {
  auto t = lex("42 3.14 .5 1e10 2.5E-3 7.");
  CHECK(t[0].kind == TokenKind::Integer);
  CHECK(t[0].text == "42");
  for (int i = 1; i <= 5; ++i) CHECK(t[i].kind == TokenKind::Numeric);
  CHECK(t[3].text == "1e10");
  CHECK(t[5].text == "7.");
  CHECK(texts("1..2") == "1|..|2");
  auto junk = lex("select 123abc");
  CHECK(junk[1].kind == TokenKind::Error);
  CHECK(junk[1].text == "trailing junk after numeric literal at or near \"123abc\"");
}

TEST_CASE("lexer: strings", "[parser][lexer]") {
  CHECK(lex("'it''s'")[0].text == "it's");
  CHECK(lex("'a'\n  'b'")[0].text == "ab");      // continuation across a newline
  CHECK(texts("'a' -- c\n 'b'") == "a|b");       // comment before the newline: not continued
  CHECK(lex("'a'\n-- c\n'b'")[0].text == "ab");  // comment after the newline: continued
  CHECK(texts("'a' 'b'") == "a|b");              // same line: two literals
  CHECK(lex(R"(E'a\nb\t\\\'\x41\101\u00e9')")[0].text == "a\nb\t\\'AA\xC3\xA9");
  CHECK(lex("e'x''y'")[0].text == "x'y");
  CHECK(lex("$$it's $1$$")[0].text == "it's $1");
  CHECK(lex("$tag$a$$b$tag$")[0].text == "a$$b");
  CHECK(lex("$tag$a$$b$tag$")[0].kind == TokenKind::String);
  auto bad = lex("select 'abc");
  CHECK(bad[1].kind == TokenKind::Error);
  CHECK(bad[1].text == "unterminated quoted string at or near \"'abc\"");
  CHECK(lex("$q$abc")[0].text == "unterminated dollar-quoted string at or near \"$q$abc\"");
  CHECK(lex("\"abc")[0].text == "unterminated quoted identifier at or near \"\"abc\"");
  CHECK(lex("\"\"")[0].text == "zero-length delimited identifier at or near \"\"\"\"");
}

TEST_CASE("lexer: parameters, operators and comments", "[parser][lexer]") {
  auto p = lex("$1 + $12");
  CHECK(p[0].kind == TokenKind::Param);
  CHECK(p[0].number == 1);
  CHECK(p[2].number == 12);
  CHECK(texts("a<=b<>c!=d>=e||f::g") == "a|<=|b|<>|c|<>|d|>=|e||||f|::|g");
  CHECK(texts("a=-1") == "a|=|-|1");  // "=-" may not end in '-'
  CHECK(texts("a@-1") == "a|@-|1");   // but "@-" may
  CHECK(texts("a*-b") == "a|*|-|b");
  CHECK(texts("a-- comment\n+b") == "a|+|b");
  CHECK(texts("a/* x /* nested */ y */b") == "a|b");
  CHECK(texts("a+/*c*/b") == "a|+|b");
  CHECK(texts("(a,b);") == "(|a|,|b|)|;");
  CHECK(lex("/* open")[0].text == "unterminated /* comment at or near \"/* open\"");
}

TEST_CASE("lexer: positions count characters, not bytes", "[parser][lexer]") {
  std::string q = "select 'é', x";
  auto t = lex(q);
  CHECK(t[3].offset == 13);                  // byte offset of x
  CHECK(sqlPosition(q, t[3].offset) == 13);  // 1-based: 12 characters precede it
  CHECK(sqlPosition(q, 0) == 1);
}

TEST_CASE("lexer: Unicode escape strings", "[parser][lexer]") {
  CHECK(texts("U&'d\\0061t\\+000061'") == "data");
  CHECK(texts("u&'\\D83D\\DE00' x") == "\xF0\x9F\x98\x80|x");  // a surrogate pair: U+1F600
  CHECK(texts("U&'a\\\\b''c'") == "a\\b'c");
  // UESCAPE, any case, after comments; the token covers the clause.
  auto t = lex("U&'d!0061t!!' /* c */ UEscape '!' || x");
  REQUIRE(t.size() == 4);
  CHECK(t[0].text == "dat!");
  CHECK(t[0].offset == 0);
  CHECK(t[0].length == 33);
  CHECK(t[1].text == "||");
  CHECK(texts("U&'a' uescaped") == "a|uescaped");  // not the keyword
  CHECK(texts("U & 'a'") == "u|&|a");
  // Errors, at the escape (after U&' and the body before it) or at UESCAPE's operand.
  auto bad = [](std::string_view q) { return lex(q).back(); };
  CHECK(bad("U&'ab\\12'").text == "invalid Unicode escape");
  CHECK(bad("U&'ab\\12'").offset == 5);
  CHECK(bad("U&'\\0000'").text == "invalid Unicode escape value");
  CHECK(bad("U&'\\+110000'").text == "invalid Unicode escape value");
  CHECK(bad("U&'\\D800'").text == "invalid Unicode surrogate pair");
  CHECK(bad("U&'\\D800x'").text == "invalid Unicode surrogate pair");
  CHECK(bad("U&'\\DC00'").text == "invalid Unicode surrogate pair");
  CHECK(bad("U&'a' UESCAPE '+'").text == "invalid Unicode escape character at or near \"'+'\"");
  CHECK(bad("U&'a' UESCAPE 'ab'").text == "invalid Unicode escape character at or near \"'ab'\"");
  CHECK(bad("U&'a' UESCAPE 1").text == "UESCAPE must be followed by a simple string literal at or near \"1\"");
  CHECK(bad("U&'a' UESCAPE U&'!'").kind == TokenKind::Error);
  CHECK(bad("U&'a' UESCAPE").kind == TokenKind::Error);
}
