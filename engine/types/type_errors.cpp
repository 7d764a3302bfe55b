#include "engine/types/type_errors.h"

#include <fmt/format.h>

namespace duet {

void raiseInvalidInput(std::string_view typeName, std::string_view text) {
  throw SqlError(sqlstate::kInvalidTextRepresentation,
                 fmt::format("invalid input syntax for type {}: \"{}\"", typeName, text));
}

void raiseIntegerOutOfRange(TypeId t) {
  const char* msg = t == TypeId::Int2   ? "smallint out of range"
                    : t == TypeId::Int8 ? "bigint out of range"
                                        : "integer out of range";
  throw SqlError(sqlstate::kNumericValueOutOfRange, msg);
}

void raiseNumericOverflow() { throw SqlError(sqlstate::kNumericValueOutOfRange, "value overflows numeric format"); }

void raiseDivisionByZero() { throw SqlError(sqlstate::kDivisionByZero, "division by zero"); }

void raiseFloatOverflow() { throw SqlError(sqlstate::kNumericValueOutOfRange, "value out of range: overflow"); }

void raiseFloatUnderflow() { throw SqlError(sqlstate::kNumericValueOutOfRange, "value out of range: underflow"); }

void raiseNumericSpecialUnsupported() {
  throw SqlError(sqlstate::kFeatureNotSupported, "numeric NaN and Infinity values are not supported");
}

}  // namespace duet
