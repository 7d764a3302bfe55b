// Text I/O of the alias types (type_id.h, TypeAlias): oid and the reg* types over int8,
// name and "char" over text. value_io's functions call these first for a type with an alias.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/types/type_context.h"
#include "engine/types/type_id.h"
#include "engine/types/value.h"

namespace duet {

// oidin: an unsigned 32-bit number, also written as a negative int4 (-1 is 4294967295);
// 22P02 / 22003 as PostgreSQL.
int64_t parseOid(std::string_view text);
// The reg* input functions: a number is the oid itself, "-" is 0, anything else a name the
// catalog resolves (22P02 without a catalog to ask).
int64_t parseRegOid(TypeAlias kind, std::string_view text, const TypeContext& ctx);
// The reg* output functions: 0 is "-", an oid the catalog knows its name, others the number.
void formatRegOid(TypeAlias kind, int64_t oid, std::string& out, const TypeContext& ctx);
// int2vector and oidvector: the elements' text separated by spaces ("1 2"); input the same
// (22P02 for anything else). The value is an array (array.h).
void formatVectorText(SqlType type, const VarString* array, std::string& out, const TypeContext& ctx);
const VarString* parseVectorText(SqlType type, std::string_view text, Arena& arena, const TypeContext& ctx);
// name keeps at most 63 bytes (whole UTF-8 characters), "char" its first byte.
std::string_view aliasStringValue(TypeAlias kind, std::string_view text);

}  // namespace duet
