#include "engine/types/type_id.h"

#include <fmt/format.h>

#include "engine/types/interval.h"
#include "engine/types/record.h"

namespace duet {

uint32_t typeOid(TypeId t) {
  switch (t) {
    case TypeId::Unknown: return oid::kUnknown;
    case TypeId::Bool: return oid::kBool;
    case TypeId::Int2: return oid::kInt2;
    case TypeId::Int4: return oid::kInt4;
    case TypeId::Int8: return oid::kInt8;
    case TypeId::Float4: return oid::kFloat4;
    case TypeId::Float8: return oid::kFloat8;
    case TypeId::Numeric: return oid::kNumeric;
    case TypeId::Char: return oid::kBpchar;
    case TypeId::Varchar: return oid::kVarchar;
    case TypeId::Text: return oid::kText;
    case TypeId::Date: return oid::kDate;
    case TypeId::Timestamp: return oid::kTimestamp;
    case TypeId::TimestampTz: return oid::kTimestampTz;
    case TypeId::Interval: return oid::kInterval;
    case TypeId::Bytea: return oid::kBytea;
    case TypeId::Uuid: return oid::kUuid;
    case TypeId::Json: return oid::kJson;
    case TypeId::Jsonb: return oid::kJsonb;
    case TypeId::Array: return oid::kUnknown;  // needs the element: typeOid(SqlType)
    case TypeId::Record: return oid::kRecord;
  }
  return oid::kUnknown;
}

namespace {

struct ArrayOid {
  TypeId element;
  uint32_t oid;
};
constexpr ArrayOid kArrayOids[] = {
    {TypeId::Bool, oid::kBoolArray},
    {TypeId::Int2, oid::kInt2Array},
    {TypeId::Int4, oid::kInt4Array},
    {TypeId::Int8, oid::kInt8Array},
    {TypeId::Float4, oid::kFloat4Array},
    {TypeId::Float8, oid::kFloat8Array},
    {TypeId::Numeric, oid::kNumericArray},
    {TypeId::Char, oid::kBpcharArray},
    {TypeId::Varchar, oid::kVarcharArray},
    {TypeId::Text, oid::kTextArray},
    {TypeId::Date, oid::kDateArray},
    {TypeId::Timestamp, oid::kTimestampArray},
    {TypeId::TimestampTz, oid::kTimestampTzArray},
    {TypeId::Interval, oid::kIntervalArray},
    {TypeId::Bytea, oid::kByteaArray},
    {TypeId::Uuid, oid::kUuidArray},
    {TypeId::Json, oid::kJsonArray},
    {TypeId::Jsonb, oid::kJsonbArray},
};

}  // namespace

TypeId aliasBase(TypeAlias a) {
  if (isVectorAlias(a)) return TypeId::Array;
  return a == TypeAlias::Name || a == TypeAlias::InternalChar || a == TypeAlias::RefCursor ? TypeId::Text
                                                                                           : TypeId::Int8;
}

namespace {

struct AliasOid {
  TypeAlias alias;
  uint32_t oid;
  uint32_t arrayOid;  // its array type's (typarray)
  const char* name;   // format_type's
};
constexpr AliasOid kAliasOids[] = {
    {TypeAlias::Oid, oid::kOid, 1028, "oid"},
    {TypeAlias::RegClass, oid::kRegClass, 2210, "regclass"},
    {TypeAlias::RegType, oid::kRegType, 2211, "regtype"},
    {TypeAlias::RegProc, oid::kRegProc, 1008, "regproc"},
    {TypeAlias::RegProcedure, oid::kRegProcedure, 2207, "regprocedure"},
    {TypeAlias::RegNamespace, oid::kRegNamespace, 4090, "regnamespace"},
    {TypeAlias::RegRole, oid::kRegRole, 4097, "regrole"},
    {TypeAlias::RegOper, oid::kRegOper, 2208, "regoper"},
    {TypeAlias::RegOperator, oid::kRegOperator, 2209, "regoperator"},
    {TypeAlias::Name, oid::kName, 1003, "name"},
    {TypeAlias::InternalChar, oid::kChar, 1002, "\"char\""},
    {TypeAlias::Int2Vector, 22, 0, "int2vector"},  // arrays of vectors: none here
    {TypeAlias::OidVector, 30, 0, "oidvector"},
    {TypeAlias::RefCursor, 1790, 2201, "refcursor"},
};

const AliasOid* aliasEntry(TypeAlias a) {
  for (const AliasOid& e : kAliasOids)
    if (e.alias == a) return &e;
  return nullptr;
}

}  // namespace

uint32_t typeOid(SqlType t) {
  if (t.alias != TypeAlias::None)
    return t.isArray() && !isVectorAlias(t.alias) ? aliasEntry(t.alias)->arrayOid : aliasEntry(t.alias)->oid;
  if (uint32_t composite = compositeTypeOid(t)) return composite;
  if (!t.isArray()) return typeOid(t.id);
  for (const ArrayOid& a : kArrayOids)
    if (a.element == t.element) return a.oid;
  return oid::kUnknown;
}

SqlType sqlTypeFromOid(uint32_t o, bool* known) {
  for (const ArrayOid& a : kArrayOids) {
    if (a.oid != o) continue;
    if (known) *known = true;
    return SqlType::arrayOf({a.element, -1});
  }
  for (const AliasOid& a : kAliasOids) {
    if (a.oid != o && (a.arrayOid == 0 || a.arrayOid != o)) continue;
    if (known) *known = true;
    return a.oid == o ? SqlType::of(a.alias) : SqlType::arrayOf(SqlType::of(a.alias));
  }
  return {typeFromOid(o, known), -1};
}

TypeId typeFromOid(uint32_t o, bool* known) {
  if (known) *known = true;
  switch (o) {
    case oid::kBool: return TypeId::Bool;
    case oid::kInt2: return TypeId::Int2;
    case oid::kInt4: return TypeId::Int4;
    case oid::kInt8: return TypeId::Int8;
    case oid::kFloat4: return TypeId::Float4;
    case oid::kFloat8: return TypeId::Float8;
    case oid::kNumeric: return TypeId::Numeric;
    case oid::kBpchar: return TypeId::Char;
    case oid::kVarchar: return TypeId::Varchar;
    case oid::kText: return TypeId::Text;
    case oid::kDate: return TypeId::Date;
    case oid::kTimestamp: return TypeId::Timestamp;
    case oid::kTimestampTz: return TypeId::TimestampTz;
    case oid::kInterval: return TypeId::Interval;
    case oid::kBytea: return TypeId::Bytea;
    case oid::kUuid: return TypeId::Uuid;
    case oid::kJson: return TypeId::Json;
    case oid::kJsonb: return TypeId::Jsonb;
    case 0:
    case oid::kUnknown: return TypeId::Unknown;
    default:
      if (known) *known = false;
      return TypeId::Unknown;
  }
}

int16_t typeLen(TypeId t) {
  switch (t) {
    case TypeId::Bool: return 1;
    case TypeId::Int2: return 2;
    case TypeId::Int4: return 4;
    case TypeId::Int8: return 8;
    case TypeId::Float4: return 4;
    case TypeId::Float8: return 8;
    case TypeId::Date: return 4;
    case TypeId::Timestamp:
    case TypeId::TimestampTz: return 8;
    case TypeId::Interval:
    case TypeId::Uuid: return 16;
    case TypeId::Unknown: return -2;  // cstring-like, as PostgreSQL reports unknown
    default: return -1;
  }
}

int16_t typeLen(SqlType t) {
  if (t.isArray()) return -1;
  if (isOidAlias(t.alias)) return 4;
  if (t.alias == TypeAlias::Name) return 64;
  if (t.alias == TypeAlias::InternalChar) return 1;
  return typeLen(t.id);
}

std::string typeName(SqlType t) {
  if (t.alias != TypeAlias::None)
    return std::string(aliasEntry(t.alias)->name) + (t.isArray() && !isVectorAlias(t.alias) ? "[]" : "");
  switch (t.id) {
    case TypeId::Unknown: return "unknown";
    case TypeId::Bool: return "boolean";
    case TypeId::Int2: return "smallint";
    case TypeId::Int4: return "integer";
    case TypeId::Int8: return "bigint";
    case TypeId::Float4: return "real";
    case TypeId::Float8: return "double precision";
    case TypeId::Numeric:
      if (t.typmod < 0) return "numeric";
      return fmt::format("numeric({},{})", t.numericPrecision(), t.numericScale());
    case TypeId::Char: return t.typmod < 0 ? "character" : fmt::format("character({})", t.charLength());
    case TypeId::Varchar:
      return t.typmod < 0 ? "character varying" : fmt::format("character varying({})", t.charLength());
    case TypeId::Text: return "text";
    case TypeId::Date: return "date";
    case TypeId::Timestamp: return "timestamp without time zone";
    case TypeId::TimestampTz: return "timestamp with time zone";
    case TypeId::Interval: return "interval" + intervalTypmodText(t.typmod);
    case TypeId::Bytea: return "bytea";
    case TypeId::Uuid: return "uuid";
    case TypeId::Json: return "json";
    case TypeId::Jsonb: return "jsonb";
    case TypeId::Array: return typeName(t.elementType()) + "[]";
    case TypeId::Record: {
      std::string name = compositeTypeName(t);
      return name.empty() ? "record" : name;
    }
  }
  return "unknown";
}

}  // namespace duet
