// bytea (engine/types/bytea.h): byteain's hex and escape formats, byteaout in both
// bytea_output styles, encode/decode and the byte functions. Expected values are
// PostgreSQL 15's, from the query in the comment above each.
#include <catch2/catch.hpp>

#include <string>

#include "engine/error.h"
#include "engine/types/bytea.h"
#include "engine/types/value_io.h"

using namespace duet;

namespace {

template <class F>
std::string errorOf(F&& f) {
  try {
    f();
  } catch (const SqlError& e) {
    return e.code + ": " + e.what();
  }
  return "no error";
}

std::string out(std::string_view bytes, ByteaOutput style = ByteaOutput::Hex) {
  std::string s;
  formatBytea(bytes, style, s);
  return s;
}

}  // namespace

TEST_CASE("bytea text input: hex and escape formats", "[types][bytea]") {
  // select '\x0a0B'::bytea, '\x de ad'::bytea, '\x'::bytea
  CHECK(parseBytea("\\x0a0B") == std::string("\x0a\x0b"));
  CHECK(parseBytea("\\x de ad") == "\xde\xad");
  CHECK(parseBytea("\\x").empty());
  // select 'a\\b'::bytea, 'a\000b\377'::bytea
  CHECK(parseBytea("a\\\\b") == "a\\b");
  CHECK(parseBytea("a\\000b\\377") == std::string("a\0b\xff", 4));
  // select '\xzz'::bytea; select '\x123'::bytea; select 'a\b'::bytea; select 'a\400'::bytea
  CHECK(errorOf([] { parseBytea("\\xzz"); }) == "22023: invalid hexadecimal digit: \"z\"");
  CHECK(errorOf([] { parseBytea("\\x123"); }) == "22023: invalid hexadecimal data: odd number of digits");
  CHECK(errorOf([] { parseBytea("a\\b"); }) == "22P02: invalid input syntax for type bytea");
  CHECK(errorOf([] { parseBytea("a\\400"); }) == "22P02: invalid input syntax for type bytea");
  CHECK(errorOf([] { parseBytea("a\\"); }) == "22P02: invalid input syntax for type bytea");
}

TEST_CASE("bytea text output in the hex and escape styles", "[types][bytea]") {
  const std::string bytes = std::string(1, '\0') + "A\n\\\x7f\x80\xff";
  // select '\x00410a5c7f80ff'::bytea (bytea_output hex, then escape)
  CHECK(out(bytes) == "\\x00410a5c7f80ff");
  CHECK(out(bytes, ByteaOutput::Escape) == "\\000A\\012\\\\\\177\\200\\377");
  CHECK(out("", ByteaOutput::Escape).empty());
  // Either output reads back as the same bytes.
  CHECK(parseBytea(out(bytes)) == bytes);
  CHECK(parseBytea(out(bytes, ByteaOutput::Escape)) == bytes);
}

TEST_CASE("encode and decode: hex, base64, escape", "[types][bytea]") {
  const std::string bytes("\x00\xff\\A", 4);
  // select encode('\x00ff5c41', 'hex'), encode(.., 'base64'), encode(.., 'escape')
  CHECK(byteaEncode(bytes, "hex") == "00ff5c41");
  CHECK(byteaEncode(bytes, "base64") == "AP9cQQ==");
  CHECK(byteaEncode(bytes, "escape") == "\\000\\377\\\\A");
  // select encode(decode(repeat('ab', 57), 'hex'), 'base64'): 76 characters, then a newline
  std::string base64 = byteaEncode(std::string(57, '\xab'), "base64");
  CHECK(base64.size() == 77);
  CHECK(base64.back() == '\n');
  for (const char* format : {"hex", "base64", "escape"})
    CHECK(byteaDecode(byteaEncode(bytes, format), format) == bytes);
  // select decode('YQ=a', 'base64'), decode(' Y Q = = ', 'base64')
  CHECK(byteaDecode("YQ=a", "base64") == "a");
  CHECK(byteaDecode(" Y Q = = ", "base64") == "a");
  CHECK(errorOf([] { byteaDecode("YQ", "base64"); }) == "22023: invalid base64 end sequence");
  CHECK(errorOf([] { byteaDecode("Y!", "base64"); }) ==
        "22023: invalid symbol \"!\" found while decoding base64 sequence");
  CHECK(errorOf([] { byteaDecode("=YQ", "base64"); }) == "22023: unexpected \"=\" while decoding base64 sequence");
  CHECK(errorOf([] { byteaEncode("", "foo"); }) == "22023: unrecognized encoding: \"foo\"");
}

TEST_CASE("substring, position, get_byte and set_byte of bytea", "[types][bytea]") {
  const std::string bytes("\x01\x02\x03\x04\x05");
  // select substring('\x0102030405'::bytea from 2 for 3), substr(.., 0, 2), substr(.., -5, 3)
  CHECK(byteaSubstring(bytes, 2, 3) == "\x02\x03\x04");
  CHECK(byteaSubstring(bytes, 0, 2) == "\x01");
  CHECK(byteaSubstring(bytes, -5, 3).empty());
  CHECK(byteaSubstring(bytes, 4) == "\x04\x05");
  CHECK(byteaSubstring(bytes, 9).empty());
  CHECK(byteaSubstring(bytes, 2, INT32_MAX) == "\x02\x03\x04\x05");
  CHECK(errorOf([&] { byteaSubstring(bytes, 1, -1); }) == "22011: negative substring length not allowed");
  CHECK(byteaPosition(bytes, "\x03") == 3);
  CHECK(byteaPosition(bytes, "\x06") == 0);
  CHECK(byteaPosition(bytes, "") == 1);
  CHECK(byteaGetByte("\x01\xff", 1) == 255);
  CHECK(byteaSetByte("\x01\x02", 1, 257) == "\x01\x01");
  CHECK(errorOf([] { byteaGetByte("", 0); }) == "2202E: index 0 out of valid range, 0..-1");
  CHECK(errorOf([] { byteaSetByte("\x01\x02", 2, 0); }) == "2202E: index 2 out of valid range, 0..1");
}

TEST_CASE("bytea values through the generic value operations", "[types][bytea]") {
  Arena arena;
  TypeContext ctx;
  SqlType bytea{TypeId::Bytea, -1};
  const VarString* v = nullptr;
  parseText(bytea, "\\x00ff", &v, arena, ctx);
  REQUIRE(v->view() == std::string("\x00\xff", 2));
  std::string text, binary;
  formatText(bytea, &v, text, ctx);
  formatBinary(bytea, &v, binary);
  CHECK(text == "\\x00ff");
  CHECK(binary == v->view());
  const VarString* w = nullptr;
  parseBinary(bytea, "\x01", &w, arena);
  // memcmp order, a shorter prefix first: '\x00ff' < '\x01', '\x' < '\x00'
  CHECK(compareValues(bytea, &v, &w) < 0);
  const VarString* empty = arena.makeString("");
  const VarString* zero = arena.makeString(std::string_view("\0", 1));
  CHECK(compareValues(bytea, &empty, &zero) < 0);
  CHECK(hashValue(bytea, &v) == hashValue(bytea, &v));
}
