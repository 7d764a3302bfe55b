// uuid (engine/types/uuid.h): uuid_in's forms, uuid_out, the byte order and binary form, and
// gen_random_uuid()'s version bits. Expected values are PostgreSQL 15's, from the query in
// the comment above each.
#include <catch2/catch.hpp>

#include <string>

#include "engine/error.h"
#include "engine/types/uuid.h"
#include "engine/types/value_io.h"

using namespace duet;

namespace {

std::string roundTrip(std::string_view text) {
  std::string out;
  formatUuid(parseUuid(text), out);
  return out;
}

std::string errorOf(std::string_view text) {
  try {
    parseUuid(text);
  } catch (const SqlError& e) {
    return e.code + ": " + e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("uuid input forms and canonical output", "[types][uuid]") {
  const char* canonical = "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11";
  // select 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'::uuid, '{a0eebc99-...}'::uuid,
  // 'a0eebc999c0b4ef8bb6d6bb9bd380a11'::uuid, 'a0ee-bc99-9c0b-4ef8-bb6d-6bb9-bd38-0a11'::uuid
  CHECK(roundTrip(canonical) == canonical);
  CHECK(roundTrip("A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11") == canonical);
  CHECK(roundTrip("{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}") == canonical);
  CHECK(roundTrip("a0eebc999c0b4ef8bb6d6bb9bd380a11") == canonical);
  CHECK(roundTrip("a0ee-bc99-9c0b-4ef8-bb6d-6bb9-bd38-0a11") == canonical);
  CHECK(roundTrip("{a0eebc999c0b4ef8bb6d6bb9bd380a11}") == canonical);
  // Each of these is 22P02 invalid input syntax for type uuid in PostgreSQL 15.
  for (const char* bad : {"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a111",
                          "a0eebc999-c0b-4ef8-bb6d-6bb9bd380a11", "{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
                          "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}", "g0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
                          " a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "a0eebc99--9c0b-4ef8-bb6d-6bb9bd380a11",
                          "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11-", "", "{}"})
    CHECK(errorOf(bad) == std::string("22P02: invalid input syntax for type uuid: \"") + bad + "\"");
}

TEST_CASE("uuid order is byte order, and the binary form is the 16 bytes", "[types][uuid]") {
  SqlType uuid{TypeId::Uuid, -1};
  UuidRep low = parseUuid("7fffffff-ffff-ffff-ffff-ffffffffffff");
  UuidRep high = parseUuid("80000000-0000-0000-0000-000000000000");
  CHECK(compareValues(uuid, &low, &high) < 0);
  CHECK(compareValues(uuid, &high, &high) == 0);
  CHECK(hashValue(uuid, &high) != hashValue(uuid, &low));
  std::string binary;
  UuidRep v = parseUuid("01234567-89ab-cdef-0123-456789abcdef");
  formatBinary(uuid, &v, binary);
  CHECK(binary == "\x01\x23\x45\x67\x89\xab\xcd\xef\x01\x23\x45\x67\x89\xab\xcd\xef");
  Arena arena;
  UuidRep back = 0;
  parseBinary(uuid, binary, &back, arena);
  CHECK(back == v);
  CHECK_THROWS_AS(parseBinary(uuid, binary.substr(1), &back, arena), SqlError);
}

TEST_CASE("gen_random_uuid's version and variant bits", "[types][uuid]") {
  std::string text;
  formatUuid(makeRandomUuid(~uint64_t{0}, 0), text);
  CHECK(text == "ffffffff-ffff-4fff-8000-000000000000");
  text.clear();
  formatUuid(makeRandomUuid(0, ~uint64_t{0}), text);
  CHECK(text == "00000000-0000-4000-bfff-ffffffffffff");
}
