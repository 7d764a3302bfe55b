// SQL types: identity, modifiers, PostgreSQL OIDs, and the physical representation every
// layer agrees on (storage slots, tuple buffers, JIT-generated code, runtime functions).
#pragma once
#include <cstdint>
#include <string>

namespace duet {

enum class TypeId : uint8_t {
  Unknown,      // an untyped string literal or parameter whose type is not yet decided
  Bool,         // uint8_t 0/1
  Int2,         // int16_t
  Int4,         // int32_t
  Int8,         // int64_t
  Float4,       // float
  Float8,       // double
  Numeric,      // NumericRep (see value.h): 120-bit mantissa and 8-bit scale in an __int128
  Char,         // const VarString*; stored blank-padded to n, as PostgreSQL's bpchar
  Varchar,      // const VarString*
  Text,         // const VarString*
  Date,         // int32_t days since 2000-01-01 (PostgreSQL's epoch)
  Timestamp,    // int64_t microseconds since 2000-01-01 00:00:00
  TimestampTz,  // int64_t microseconds since 2000-01-01 00:00:00 UTC
  Array,        // const VarString*: a one-dimensional array of SqlType::element (array.h)
  Interval,     // IntervalRep (interval.h): months, days and microseconds in an __int128
  Bytea,        // const VarString*: raw bytes, any of them zero (bytea.h)
  Uuid,         // UuidRep (uuid.h): the 16 bytes as one unsigned __int128, first byte most significant
  Json,         // const VarString*: the input text, validated (json.h)
  Jsonb,        // const VarString*: jsonb's binary tree (jsonb.h)
  Record,       // const VarString*: an anonymous composite value (record.h); typmod names its row type
};

// PostgreSQL type OIDs, as sent in RowDescription and ParameterDescription.
namespace oid {
inline constexpr uint32_t kChar = 18, kName = 19, kRegProc = 24, kRegProcedure = 2202, kRegOper = 2203,
                          kRegOperator = 2204, kRegClass = 2205, kRegType = 2206, kRegRole = 4096, kRegNamespace = 4089;
inline constexpr uint32_t kBool = 16, kInt8 = 20, kInt2 = 21, kInt4 = 23, kText = 25, kOid = 26, kFloat4 = 700,
                          kFloat8 = 701, kUnknown = 705, kBpchar = 1042, kVarchar = 1043, kDate = 1082,
                          kTimestamp = 1114, kTimestampTz = 1184, kInterval = 1186, kNumeric = 1700, kRecord = 2249;
inline constexpr uint32_t kBytea = 17, kUuid = 2950;
// Array types (typarray of each element type above).
inline constexpr uint32_t kBoolArray = 1000, kInt2Array = 1005, kInt4Array = 1007, kTextArray = 1009,
                          kBpcharArray = 1014, kVarcharArray = 1015, kInt8Array = 1016, kFloat4Array = 1021,
                          kFloat8Array = 1022, kTimestampArray = 1115, kDateArray = 1182, kTimestampTzArray = 1185,
                          kIntervalArray = 1187, kNumericArray = 1231;
inline constexpr uint32_t kByteaArray = 1001, kUuidArray = 2951;
inline constexpr uint32_t kJson = 114, kJsonb = 3802, kJsonArray = 199, kJsonbArray = 3807;
}  // namespace oid

// A PostgreSQL type that shares a base type's representation and operations and differs in
// its name, its oid and its I/O: oid and the reg* types over int8 (values 0 to 2^32 - 1;
// the reg* types print and read the name of the object whose oid they hold, through
// TypeContext::catalog), name, "char" and refcursor over text. SqlType::alias says which; None for
// the base types themselves.
enum class TypeAlias : uint8_t {
  None,
  Oid,
  RegClass,
  RegType,
  RegProc,
  RegProcedure,
  RegNamespace,
  RegRole,
  RegOper,
  RegOperator,
  Name,
  InternalChar,  // "char": one byte, as pg_class.relkind
  // Arrays of their own type (pg_index.indkey, pg_proc.proargtypes) that print and read
  // as numbers separated by spaces ("1 2"), as PostgreSQL's int2vector and oidvector.
  Int2Vector,
  OidVector,
  // A cursor's (portal's) name: PL/pgSQL's cursor variables hold one; text in and out.
  RefCursor,
};

// The base type of an alias (Int8 for oid and the reg* types, Text for name, "char" and refcursor,
// Array for the vectors).
TypeId aliasBase(TypeAlias a);
constexpr bool isOidAlias(TypeAlias a) { return a >= TypeAlias::Oid && a <= TypeAlias::RegOperator; }
constexpr bool isRegAlias(TypeAlias a) { return a >= TypeAlias::RegClass && a <= TypeAlias::RegOperator; }
constexpr bool isVectorAlias(TypeAlias a) { return a == TypeAlias::Int2Vector || a == TypeAlias::OidVector; }

// A type with its modifier, encoded as PostgreSQL's atttypmod:
//   char(n), varchar(n): n + 4;  numeric(p, s): ((p << 16) | s) + 4;  interval: (fields
//   mask << 16) | precision (interval.h);  record: its row type (record.h), which clients
//   never see (they get -1, as PostgreSQL sends);  -1 when absent.
// An array type (id Array) names its element type in `element`; its typmod is the
// element's, as PostgreSQL's varchar(5)[] has atttypmod 9. `element` is Unknown otherwise.
struct SqlType {
  TypeId id = TypeId::Unknown;
  int32_t typmod = -1;
  TypeId element = TypeId::Unknown;
  TypeAlias alias = TypeAlias::None;  // oid, regclass, name, ... over `id` (see TypeAlias)

  bool operator==(const SqlType&) const = default;

  // An array of an alias type (oid[], name[]) keeps the element's alias in `alias`.
  static SqlType arrayOf(SqlType elementType) {
    return {TypeId::Array, elementType.typmod, elementType.id, elementType.alias};
  }
  bool isArray() const { return id == TypeId::Array; }
  SqlType elementType() const {
    if (alias == TypeAlias::OidVector) return of(TypeAlias::Oid);
    if (alias == TypeAlias::Int2Vector) return {TypeId::Int2, -1};
    return {element, typmod, TypeId::Unknown, alias};
  }
  // The same type without its modifier (varchar(5)[] -> varchar[]). A record's typmod is
  // not a modifier but its row type (record.h), which stays.
  SqlType withoutTypmod() const { return {id, id == TypeId::Record ? typmod : -1, element, alias}; }
  static SqlType of(TypeAlias a) {
    TypeId element = a == TypeAlias::Int2Vector  ? TypeId::Int2
                     : a == TypeAlias::OidVector ? TypeId::Int8
                                                 : TypeId::Unknown;
    return {aliasBase(a), -1, element, a};
  }

  static SqlType varchar(int n) { return {TypeId::Varchar, n + 4}; }
  static SqlType bpchar(int n) { return {TypeId::Char, n + 4}; }
  static SqlType numeric(int precision, int scale) { return {TypeId::Numeric, ((precision << 16) | scale) + 4}; }
  int charLength() const { return typmod < 0 ? -1 : typmod - 4; }
  int numericPrecision() const { return typmod < 0 ? -1 : ((typmod - 4) >> 16) & 0xffff; }
  int numericScale() const { return typmod < 0 ? -1 : (typmod - 4) & 0xffff; }
};

// The typmod clients see (RowDescription, pg_attribute): -1 for a record, whose typmod
// names a row type of this process only.
inline int32_t atttypmod(SqlType t) { return t.id == TypeId::Record ? -1 : t.typmod; }

uint32_t typeOid(TypeId t);
uint32_t typeOid(SqlType t);  // also array types
TypeId typeFromOid(uint32_t oid, bool* known = nullptr);
// Also array types (with typmod -1); Unknown, with *known false, for OIDs we lack.
SqlType sqlTypeFromOid(uint32_t oid, bool* known = nullptr);
// The typlen PostgreSQL reports in RowDescription: fixed width, or -1 for varlena.
int16_t typeLen(TypeId t);
int16_t typeLen(SqlType t);  // also the aliases (oid: 4, name: 64, "char": 1)
// Width in bytes of a stored value (strings: the 8-byte pointer), and its alignment.
// Inline: storage and key code ask this per column on every row.
inline uint32_t physicalSize(TypeId t) {
  switch (t) {
    case TypeId::Bool: return 1;
    case TypeId::Int2: return 2;
    case TypeId::Int4:
    case TypeId::Float4:
    case TypeId::Date: return 4;
    case TypeId::Numeric:
    case TypeId::Interval:
    case TypeId::Uuid: return 16;
    default: return 8;  // int8, float8, timestamps, string and bytea pointers
  }
}
inline uint32_t physicalAlign(TypeId t) { return physicalSize(t); }
// PostgreSQL's name for a type, as format_type() prints it: "integer",
// "character varying(10)", "numeric(12,2)", "timestamp without time zone", ...
std::string typeName(SqlType t);
// The category tests are inline (constexpr) for the same reason: casts, array elements and
// parameters ask them per value.
// Char, Varchar, Text (and Unknown literals)
constexpr bool isStringType(TypeId t) {
  return t == TypeId::Char || t == TypeId::Varchar || t == TypeId::Text || t == TypeId::Unknown;
}
// Values whose VarString holds the value's bytes themselves: the strings, bytea, json and
// jsonb. An array keeps such elements as offsets to VarStrings of their own (array.h).
constexpr bool isJsonType(TypeId t) { return t == TypeId::Json || t == TypeId::Jsonb; }
constexpr bool isByteStringType(TypeId t) { return isStringType(t) || t == TypeId::Bytea || isJsonType(t); }
// Values held as `const VarString*` that storage copies and frees: strings, bytea, json,
// arrays and records.
constexpr bool isVarlenaType(TypeId t) { return isByteStringType(t) || t == TypeId::Array || t == TypeId::Record; }
// Element types an array may have: every type but Unknown, Array and Record.
constexpr bool isArrayElementType(TypeId t) {
  return t != TypeId::Unknown && t != TypeId::Array && t != TypeId::Record;
}
// Int2, Int4, Int8
constexpr bool isIntegerType(TypeId t) { return t == TypeId::Int2 || t == TypeId::Int4 || t == TypeId::Int8; }
// integers, floats, numeric
constexpr bool isNumericCategory(TypeId t) {
  return isIntegerType(t) || t == TypeId::Float4 || t == TypeId::Float8 || t == TypeId::Numeric;
}

}  // namespace duet
