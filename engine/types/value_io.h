// Generic operations on a value given by its physical representation (see type_id.h):
// `const void*` points at an uint8_t (bool), int16_t, int32_t, int64_t, float, double,
// NumericRep, int32_t date, int64_t timestamp, or `const VarString*` for the string types.
// Used outside generated code: server output, Bind parameters, COPY, error messages.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/types/type_context.h"
#include "engine/types/type_id.h"
#include "engine/types/value.h"

namespace duet {

// PostgreSQL's output function (text format); appends to `out`.
void formatText(SqlType type, const void* value, std::string& out, const TypeContext& ctx);
// PostgreSQL's input function followed by the typmod coercion an assignment applies
// (numeric(p,s) rounding, varchar(n)/char(n) length checks). Strings are copied into `arena`.
void parseText(SqlType type, std::string_view text, void* out, Arena& arena, const TypeContext& ctx);

// PostgreSQL's send/recv binary formats. Malformed input raises 22P03 "incorrect binary
// data format" (the caller adds " in bind parameter N").
void formatBinary(SqlType type, const void* value, std::string& out);
void parseBinary(SqlType type, std::string_view data, void* out, Arena& arena);

// Ordering and hashing consistent with SQL equality (numeric 1.0 = 1.00, char(n)
// ignoring trailing spaces, text byte-wise as the C collation).
int compareValues(SqlType type, const void* a, const void* b);
uint64_t hashValue(SqlType type, const void* value);

// Whether PostgreSQL has a cast from `from` to `to` (any context) among our types.
bool castExists(TypeId from, TypeId to);
// Converts a value; `to.typmod` is applied (explicitly: truncating strings; otherwise as
// an assignment). Raises 42846 "cannot cast type date to integer" for pairs without a cast.
void castValue(SqlType from, const void* in, SqlType to, void* out, bool explicitCast, Arena& arena,
               const TypeContext& ctx);
// castValue between two types of the numeric category (isNumericCategory), for callers
// that know the pair at compile time and so need none of castValue's checks.
void castNumber(SqlType from, const void* in, SqlType to, void* out);

}  // namespace duet
