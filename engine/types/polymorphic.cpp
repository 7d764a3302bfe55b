#include "engine/types/polymorphic.h"

namespace duet {
namespace {

struct PolymorphicRow {
  Polymorphic type;
  const char* name;
  uint32_t oid;
};

constexpr PolymorphicRow kPolymorphic[] = {
    {Polymorphic::AnyElement, "anyelement", 2283},
    {Polymorphic::AnyArray, "anyarray", 2277},
    {Polymorphic::AnyNonArray, "anynonarray", 2776},
    {Polymorphic::AnyCompatible, "anycompatible", 5077},
    {Polymorphic::AnyCompatibleArray, "anycompatiblearray", 5078},
    {Polymorphic::AnyCompatibleNonArray, "anycompatiblenonarray", 5079},
};

}  // namespace

const char* polymorphicName(Polymorphic p) {
  for (const PolymorphicRow& r : kPolymorphic)
    if (r.type == p) return r.name;
  return "";
}

uint32_t polymorphicOid(Polymorphic p) {
  for (const PolymorphicRow& r : kPolymorphic)
    if (r.type == p) return r.oid;
  return 0;
}

std::optional<Polymorphic> polymorphicNamed(std::string_view name) {
  for (const PolymorphicRow& r : kPolymorphic)
    if (name == r.name) return r.type;
  return std::nullopt;
}

}  // namespace duet
