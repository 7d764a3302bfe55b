// The value errors the type layer raises, worded exactly as PostgreSQL words them.
#pragma once
#include <string>
#include <string_view>

#include "engine/error.h"
#include "engine/types/type_id.h"

namespace duet {

// 22P02 invalid input syntax for type <name>: "<text>"
[[noreturn]] void raiseInvalidInput(std::string_view typeName, std::string_view text);
// 22003 "smallint out of range" / "integer out of range" / "bigint out of range"
[[noreturn]] void raiseIntegerOutOfRange(TypeId t);
// 22003 value overflows numeric format
[[noreturn]] void raiseNumericOverflow();
// 22012 division by zero
[[noreturn]] void raiseDivisionByZero();
// 22003 value out of range: overflow / underflow (float arithmetic)
[[noreturn]] void raiseFloatOverflow();
[[noreturn]] void raiseFloatUnderflow();
// 0A000: numeric NaN and Infinity are not representable in NumericRep.
[[noreturn]] void raiseNumericSpecialUnsupported();

}  // namespace duet
