// PostgreSQL's type resolution, reduced to the types DuetDB has: which implicit and
// assignment casts exist, and the common type of two operands (UNION/CASE/operators).
#pragma once
#include <optional>

#include "engine/types/type_id.h"

namespace duet::binder {

enum class CastContext : uint8_t { Implicit, Assignment, Explicit };

// Whether a value of `from` may become `to` in this context (PostgreSQL's pg_cast rules).
bool castAllowed(TypeId from, TypeId to, CastContext context);
// The type both operands are converted to, or nullopt when there is none (42804/42883).
// Two unknowns give unknown, so that folding over a list lets a later known input decide;
// the caller turns a final unknown into text (resolveUnknown).
std::optional<SqlType> commonType(SqlType a, SqlType b);
// Numeric precedence: int2 < int4 < int8 < numeric < float4 < float8 (0 for others).
int numericRank(TypeId t);
// The type a common type that is still unknown after all inputs resolves to: text.
SqlType resolveUnknown(SqlType t);

}  // namespace duet::binder
