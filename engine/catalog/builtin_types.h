// The built-in types as pg_type describes them (PostgreSQL 15's oids and attributes), for
// the pg_type and pg_attribute rows. Their behaviour lives in engine/types.
#pragma once
#include <cstdint>
#include <span>
#include <string_view>

#include "engine/types/type_id.h"

namespace duet {

// The pseudo-types routines declare, which pg_type lists beside the built-in types.
inline constexpr uint32_t kVoidTypeOid = 2278, kRecordTypeOid = 2249;
// The collations every database has (pg_collation): "default", "C", "POSIX".
inline constexpr uint32_t kDefaultCollationOid = 100, kCCollationOid = 950, kPosixCollationOid = 951;

struct BuiltinType {
  uint32_t oid;
  std::string_view name;  // typname
  int16_t len;            // typlen: bytes, -1 varlena, -2 C string
  bool byValue;           // typbyval
  char category;          // typcategory: B boolean, N numeric, S string, D datetime, T timespan, U user-defined,
                          // X unknown, Z internal
  bool preferred;         // typispreferred
  char align;             // typalign: c, s, i, d
  char storage;           // typstorage: p plain, x extended, m main
  uint32_t element;       // typelem: name's is "char", as in PostgreSQL; 0 otherwise
  uint32_t array;         // typarray: the oid of its array type
  uint32_t collation;     // typcollation: 100 (default) for the string types, 950 (C) for name
};

// The scalar types; each one's array type is derived from it (arrayTypeRow).
std::span<const BuiltinType> builtinTypes();
// The pg_type row of an array type whose element is `element`.
BuiltinType arrayTypeRow(const BuiltinType& element);
// The row of type oid `oid` (scalar or array), null if DuetDB has no such type.
const BuiltinType* builtinTypeByOid(uint32_t oid);
// The row a column of `type` has (an array type's for arrays).
BuiltinType builtinTypeOf(SqlType type);

// A built-in type's I/O functions as pg_type lists them (builtin_type_functions.cpp): oids
// of PostgreSQL's functions, 0 where there is none.
struct TypeFunctions {
  uint32_t type, input, output, receive, send, typmodIn, typmodOut;
};
TypeFunctions typeFunctions(uint32_t typeOid);
// Those functions by oid and by name (regproc's output and input); empty / 0 for others.
std::string_view builtinFunctionName(uint32_t oid);
uint32_t builtinFunctionOid(std::string_view name);

}  // namespace duet
