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
std::optional<SqlType> commonType(SqlType a, SqlType b);
// Numeric precedence: int2 < int4 < int8 < numeric < float4 < float8 (0 for others).
int numericRank(TypeId t);

}  // namespace duet::binder
