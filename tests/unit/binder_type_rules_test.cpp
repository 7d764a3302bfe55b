// PostgreSQL's common-type resolution (select_common_type) as type_rules implements it.
#include <catch2/catch.hpp>

#include "compiler/binder/type_rules.h"

using namespace duet;
using binder::commonType;
using binder::resolveUnknown;

TEST_CASE("common type: unknown inputs never decide it", "[binder]") {
  const SqlType unknown{TypeId::Unknown, -1}, int4{TypeId::Int4, -1}, text{TypeId::Text, -1};
  // Folding NULL, NULL, 3 left to right must end at integer, not at text.
  auto first = commonType(unknown, unknown);
  REQUIRE(first);
  CHECK(first->id == TypeId::Unknown);
  auto folded = commonType(*first, int4);
  REQUIRE(folded);
  CHECK(folded->id == TypeId::Int4);
  CHECK(commonType(int4, unknown)->id == TypeId::Int4);
  // Only once every input was unknown does the result become text.
  CHECK(resolveUnknown(*first).id == TypeId::Text);
  CHECK(resolveUnknown(int4).id == TypeId::Int4);
  CHECK_FALSE(commonType(text, int4));
}

TEST_CASE("common type: text beats char(n) and varchar; between those the earlier wins", "[binder]") {
  const SqlType bpchar{TypeId::Char, 4}, varchar{TypeId::Varchar, 9}, text{TypeId::Text, -1};
  CHECK(commonType(bpchar, varchar)->id == TypeId::Char);
  CHECK(commonType(varchar, bpchar)->id == TypeId::Varchar);
  CHECK(commonType(bpchar, text)->id == TypeId::Text);
  CHECK(commonType(varchar, text)->id == TypeId::Text);
  CHECK(commonType(bpchar, SqlType{TypeId::Char, 3})->typmod == -1);
}
