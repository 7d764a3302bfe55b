// The actual types of a polymorphic routine's call (check_generic_type_consistency and
// enforce_generic_type_consistency as polymorphic_types implements them).
#include <catch2/catch.hpp>

#include "compiler/binder/polymorphic_types.h"
#include "engine/error.h"

using namespace duet;
using binder::actualType;
using binder::bindPolymorphic;
using binder::polymorphicArgumentsFit;

namespace {
const SqlType unknown{TypeId::Unknown, -1}, int2{TypeId::Int2, -1}, int4{TypeId::Int4, -1},
    numeric{TypeId::Numeric, -1}, text{TypeId::Text, -1};
const SqlType int4Array = SqlType::arrayOf(int4), textArray = SqlType::arrayOf(text);
constexpr Polymorphic kElement = Polymorphic::AnyElement, kArray = Polymorphic::AnyArray,
                      kNonArray = Polymorphic::AnyNonArray, kCompatible = Polymorphic::AnyCompatible,
                      kCompatibleArray = Polymorphic::AnyCompatibleArray;
}  // namespace

TEST_CASE("polymorphic: anyelement arguments must be one type", "[binder][polymorphic]") {
  CHECK(polymorphicArgumentsFit({int4, int4}, {kElement, kElement}));
  CHECK(polymorphicArgumentsFit({int4, unknown}, {kElement, kElement}));
  CHECK_FALSE(polymorphicArgumentsFit({int4, numeric}, {kElement, kElement}));
  CHECK_FALSE(polymorphicArgumentsFit({int2, int4}, {kElement, kElement}));
  // A typmod does not make another type.
  CHECK(polymorphicArgumentsFit({SqlType::numeric(5, 2), numeric}, {kElement, kElement}));
  // Non-polymorphic parameters are not looked at.
  CHECK(polymorphicArgumentsFit({int4, text}, {kElement, Polymorphic::None}));
}

TEST_CASE("polymorphic: anyarray is an array of anyelement's type", "[binder][polymorphic]") {
  CHECK(polymorphicArgumentsFit({int4, int4Array}, {kElement, kArray}));
  CHECK_FALSE(polymorphicArgumentsFit({int4, textArray}, {kElement, kArray}));
  CHECK_FALSE(polymorphicArgumentsFit({int4}, {kArray}));
  CHECK_FALSE(polymorphicArgumentsFit({int4Array}, {kNonArray}));
  auto b = bindPolymorphic({unknown, int4Array}, {kElement, kArray});
  CHECK(b.element == int4);
  CHECK(actualType(kArray, b) == int4Array);
  CHECK(actualType(kElement, b) == int4);
}

TEST_CASE("polymorphic: unknown arguments alone", "[binder][polymorphic]") {
  try {
    bindPolymorphic({unknown, unknown}, {kElement, kElement});
    FAIL("expected 42804");
  } catch (const SqlError& e) {
    CHECK(std::string(e.code) == "42804");
  }
  // The anycompatible family resolves them to text.
  auto b = bindPolymorphic({unknown, unknown}, {kCompatible, kCompatibleArray});
  CHECK(actualType(kCompatible, b) == text);
  CHECK(actualType(kCompatibleArray, b) == textArray);
}

TEST_CASE("polymorphic: anycompatible takes the common type", "[binder][polymorphic]") {
  CHECK(polymorphicArgumentsFit({int4, numeric}, {kCompatible, kCompatible}));
  CHECK_FALSE(polymorphicArgumentsFit({int4, SqlType{TypeId::TimestampTz, -1}}, {kCompatible, kCompatible}));
  auto b = bindPolymorphic({int2, int4Array}, {kCompatible, kCompatibleArray});
  CHECK(actualType(kCompatible, b) == int4);
  // anyelement's family is not the anycompatible family's.
  CHECK(polymorphicArgumentsFit({int4, text}, {kElement, kCompatible}));
}

TEST_CASE("polymorphic: no array of an array", "[binder][polymorphic]") {
  auto b = bindPolymorphic({int4Array}, {kElement});
  CHECK_THROWS_AS(actualType(kArray, b), SqlError);
}
