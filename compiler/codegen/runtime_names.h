// Which duet_rt_* runtime function (engine/types/runtime.h) implements an operation that
// the code generator does not emit inline.
#pragma once
#include <string>

#include "compiler/plan/expr.h"

namespace duet::codegen {

std::string rtTypeName(TypeId t);                 // "int4", "numeric", "text", ...
std::string rtCompare(TypeId t);                  // int32 (a, b): <0, 0, >0
std::string rtArith(plan::Op op, TypeId t);       // numeric ops, pow, negation
std::string rtFloatCheck(TypeId t);               // (result, a, b) -> result or 22003
std::string rtCoerce(TypeId t);                   // (value, typmod, explicit) for typmods
std::string rtCast(TypeId from, TypeId to);       // conversions not emitted inline

}  // namespace duet::codegen
