// Which duet_rt_* runtime function (engine/types/runtime.h) implements an operation that
// the code generator does not emit inline.
#pragma once
#include <string>

#include "compiler/plan/expr.h"

namespace duet::codegen {

std::string rtTypeName(TypeId t);            // "int4", "numeric", "text", ...
std::string rtCompare(TypeId t);             // int32 (a, b): <0, 0, >0
std::string rtArith(plan::Op op, TypeId t);  // numeric and float ops, pow, negation
std::string rtCast(TypeId from, TypeId to);  // (value, typmod, explicit, TypeContext*)

}  // namespace duet::codegen
