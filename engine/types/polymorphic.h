// PostgreSQL's polymorphic pseudo-types, as routine parameter and result types: a routine
// declared with them takes the actual types of each call's arguments (the binder resolves
// them per call; compiler/binder/polymorphic_types.h). anyelement, anyarray and anynonarray
// stand for one type and its array; the anycompatible family for the common type of its
// arguments. anyenum and anyrange have no types here to stand for.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

namespace duet {

enum class Polymorphic : uint8_t {
  None,
  AnyElement,
  AnyArray,
  AnyNonArray,
  AnyCompatible,
  AnyCompatibleArray,
  AnyCompatibleNonArray,
};

// The type's name, as format_type prints it ("anyelement").
const char* polymorphicName(Polymorphic p);
// pg_type's oid of the pseudo-type.
uint32_t polymorphicOid(Polymorphic p);
// The pseudo-type a (lower-case, unqualified) type name means, if any.
std::optional<Polymorphic> polymorphicNamed(std::string_view name);
// anyarray, anycompatiblearray: an array of the family's element type.
constexpr bool isPolymorphicArray(Polymorphic p) {
  return p == Polymorphic::AnyArray || p == Polymorphic::AnyCompatibleArray;
}
// The anycompatible family (resolved to a common type) rather than anyelement's.
constexpr bool isCompatibleFamily(Polymorphic p) { return p >= Polymorphic::AnyCompatible; }

}  // namespace duet
