#include "compiler/binder/polymorphic_types.h"

#include <fmt/format.h>

#include "compiler/binder/type_rules.h"
#include "engine/error.h"

namespace duet::binder {
namespace {

struct Families {
  std::vector<SqlType> elements;                   // anyelement's family: the element types its arguments give
  std::vector<SqlType> compatibles;                // the anycompatible family's
  bool anyElement = false, anyCompatible = false;  // the family has parameters
  bool nonArrayElement = false, nonArrayCompatible = false;
};

// The families' types from the arguments; false when an argument cannot be its parameter
// (no array for anyarray).
bool collect(const std::vector<SqlType>& args, const std::vector<Polymorphic>& params, Families& f) {
  for (size_t i = 0; i < params.size() && i < args.size(); ++i) {
    Polymorphic p = params[i];
    if (p == Polymorphic::None) continue;
    bool compatible = isCompatibleFamily(p);
    (compatible ? f.anyCompatible : f.anyElement) = true;
    if (p == Polymorphic::AnyNonArray) f.nonArrayElement = true;
    if (p == Polymorphic::AnyCompatibleNonArray) f.nonArrayCompatible = true;
    SqlType t = args[i];
    if (t.id == TypeId::Unknown) continue;
    if (isPolymorphicArray(p)) {
      if (!t.isArray()) return false;
      t = t.elementType();
    }
    (compatible ? f.compatibles : f.elements).push_back(t.withoutTypmod());
  }
  return true;
}

// select_common_type over the anycompatible family's types, each converting to it
// implicitly; Unknown when there are none.
std::optional<SqlType> commonOf(const std::vector<SqlType>& types) {
  SqlType common{TypeId::Unknown, -1};
  for (const SqlType& t : types) {
    std::optional<SqlType> c = commonType(common, t);
    if (!c) return std::nullopt;
    common = c->withoutTypmod();
  }
  for (const SqlType& t : types) {
    bool converts =
        t == common || (t.isArray() && common.isArray() ? castAllowed(t.element, common.element, CastContext::Implicit)
                                                        : castAllowed(t.id, common.id, CastContext::Implicit));
    if (!converts) return std::nullopt;
  }
  return common;
}

[[noreturn]] void mismatch(std::string message, std::string detail = {}) {
  throw SqlError(sqlstate::kDatatypeMismatch, std::move(message), std::move(detail));
}

// enforce_generic_type_consistency's checks, for arguments that need not fit (the defaults
// a call takes come after the candidate is chosen): 42804 with PostgreSQL's messages.
void checkConsistent(const std::vector<SqlType>& args, const std::vector<Polymorphic>& params) {
  std::optional<SqlType> element, array, compatible;
  std::vector<SqlType> compatibles;
  for (size_t i = 0; i < params.size() && i < args.size(); ++i) {
    Polymorphic p = params[i];
    SqlType t = args[i].withoutTypmod();
    if (p == Polymorphic::None || t.id == TypeId::Unknown) continue;
    if (isCompatibleFamily(p)) {
      if (isPolymorphicArray(p)) {
        if (!t.isArray())
          mismatch(fmt::format("argument declared anycompatiblearray is not an array but type {}", typeName(t)));
        t = t.elementType();
      }
      compatibles.push_back(t);
      continue;
    }
    std::optional<SqlType>& seen = isPolymorphicArray(p) ? array : element;
    if (seen && *seen != t)
      mismatch(
          fmt::format("arguments declared \"{}\" are not all alike", isPolymorphicArray(p) ? "anyarray" : "anyelement"),
          fmt::format("{} versus {}", typeName(*seen), typeName(t)));
    seen = t;
  }
  if (array) {
    if (!array->isArray())
      mismatch(fmt::format("argument declared anyarray is not an array but type {}", typeName(*array)));
    if (element && *element != array->elementType())
      mismatch("argument declared anyarray is not consistent with argument declared anyelement",
               fmt::format("{} versus {}", typeName(*array), typeName(*element)));
  }
  for (const SqlType& t : compatibles) {
    std::optional<SqlType> next = compatible ? commonOf({*compatible, t}) : t;
    if (!next) mismatch(fmt::format("argument types {} and {} cannot be matched", typeName(*compatible), typeName(t)));
    compatible = next;
  }
}

}  // namespace

bool polymorphicArgumentsFit(const std::vector<SqlType>& args, const std::vector<Polymorphic>& params) {
  Families f;
  if (!collect(args, params, f)) return false;
  for (const SqlType& t : f.elements)
    if (t != f.elements[0]) return false;
  if (f.nonArrayElement && !f.elements.empty() && f.elements[0].isArray()) return false;
  std::optional<SqlType> common = commonOf(f.compatibles);
  if (!common) return false;
  return !(f.nonArrayCompatible && common->isArray());
}

PolymorphicBinding bindPolymorphic(const std::vector<SqlType>& args, const std::vector<Polymorphic>& params) {
  checkConsistent(args, params);
  Families f;
  collect(args, params, f);
  PolymorphicBinding b;
  if (f.anyElement) {
    if (f.elements.empty())
      throw SqlError(sqlstate::kDatatypeMismatch,
                     "could not determine polymorphic type because input has type unknown");
    b.element = f.elements[0];
  }
  if (f.anyCompatible) b.compatible = resolveUnknown(commonOf(f.compatibles).value_or(SqlType{TypeId::Unknown, -1}));
  return b;
}

SqlType actualType(Polymorphic p, const PolymorphicBinding& binding) {
  SqlType element = isCompatibleFamily(p) ? binding.compatible : binding.element;
  if (!isPolymorphicArray(p)) return element;
  if (element.isArray())
    throw SqlError(sqlstate::kUndefinedObject,
                   fmt::format("could not find array type for data type {}", typeName(element)));
  return SqlType::arrayOf(element);
}

void resolvePolymorphicCandidate(RoutineCandidate& c, const PolymorphicBinding& binding) {
  for (size_t k = 0; k < c.argTypes.size(); ++k)
    if (c.argPoly[k] != Polymorphic::None) c.argTypes[k] = actualType(c.argPoly[k], binding);
  if (c.returnPoly != Polymorphic::None) c.returnType = actualType(c.returnPoly, binding);
  for (size_t r = 0; r < c.resultTypes.size(); ++r)
    if (c.resultPoly[r] != Polymorphic::None) c.resultTypes[r] = actualType(c.resultPoly[r], binding);
}

}  // namespace duet::binder
