// compareValues / hashValue: orderings and hashes consistent with SQL equality.
#include <cmath>
#include <cstring>

#include "engine/types/array.h"
#include "engine/types/hash.h"
#include "engine/types/interval.h"
#include "engine/types/jsonb.h"
#include "engine/types/numeric.h"
#include "engine/types/raw_value.h"
#include "engine/types/record.h"
#include "engine/types/strings.h"
#include "engine/types/uuid.h"
#include "engine/types/value_io.h"

namespace duet {

namespace {

template <typename T>
int threeWay(T a, T b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

// PostgreSQL's float ordering: NaN equals NaN and sorts above everything; -0 equals 0.
int floatCompare(double a, double b) {
  if (std::isnan(a)) return std::isnan(b) ? 0 : 1;
  if (std::isnan(b)) return -1;
  return threeWay(a, b);
}

uint64_t floatHash(double d) {
  if (d == 0.0) d = 0.0;  // -0 and +0 are equal
  if (std::isnan(d)) return hashMix64(0x7ff8000000000000ULL);
  uint64_t bits;
  std::memcpy(&bits, &d, sizeof bits);
  return hashMix64(bits);
}

}  // namespace

int compareValues(SqlType type, const void* a, const void* b) {
  switch (type.id) {
    case TypeId::Bool: return threeWay(loadRaw<uint8_t>(a), loadRaw<uint8_t>(b));
    case TypeId::Int2: return threeWay(loadRaw<int16_t>(a), loadRaw<int16_t>(b));
    case TypeId::Int4:
    case TypeId::Date: return threeWay(loadRaw<int32_t>(a), loadRaw<int32_t>(b));
    case TypeId::Int8:
    case TypeId::Timestamp:
    case TypeId::TimestampTz: return threeWay(loadRaw<int64_t>(a), loadRaw<int64_t>(b));
    case TypeId::Float4: return floatCompare(loadRaw<float>(a), loadRaw<float>(b));
    case TypeId::Float8: return floatCompare(loadRaw<double>(a), loadRaw<double>(b));
    case TypeId::Numeric: return numericCompare(loadRaw<NumericRep>(a), loadRaw<NumericRep>(b));
    case TypeId::Char: return bpcharCompare(loadRaw<const VarString*>(a)->view(), loadRaw<const VarString*>(b)->view());
    case TypeId::Unknown:
    case TypeId::Varchar:
    case TypeId::Text:
    case TypeId::Bytea: return textCompare(loadRaw<const VarString*>(a)->view(), loadRaw<const VarString*>(b)->view());
    case TypeId::Interval:
      return intervalCompare(unpackInterval(loadRaw<IntervalRep>(a)), unpackInterval(loadRaw<IntervalRep>(b)));
    case TypeId::Uuid: return threeWay(loadRaw<UuidRep>(a), loadRaw<UuidRep>(b));
    case TypeId::Array: return compareArrays(loadRaw<const VarString*>(a), loadRaw<const VarString*>(b));
    case TypeId::Record: return compareRecords(loadRaw<const VarString*>(a), loadRaw<const VarString*>(b));
    case TypeId::Json:  // no ordering in SQL (the binder refuses it); the text's, for completeness
      return textCompare(loadRaw<const VarString*>(a)->view(), loadRaw<const VarString*>(b)->view());
    case TypeId::Jsonb:
      return compareJsonb(JsonbRef::of(loadRaw<const VarString*>(a)), JsonbRef::of(loadRaw<const VarString*>(b)));
  }
  return 0;
}

uint64_t hashValue(SqlType type, const void* v) {
  switch (type.id) {
    case TypeId::Bool: return hashMix64(loadRaw<uint8_t>(v));
    case TypeId::Int2: return hashMix64(static_cast<uint64_t>(int64_t(loadRaw<int16_t>(v))));
    case TypeId::Int4:
    case TypeId::Date: return hashMix64(static_cast<uint64_t>(int64_t(loadRaw<int32_t>(v))));
    case TypeId::Int8:
    case TypeId::Timestamp:
    case TypeId::TimestampTz: return hashMix64(static_cast<uint64_t>(loadRaw<int64_t>(v)));
    case TypeId::Float4: return floatHash(loadRaw<float>(v));
    case TypeId::Float8: return floatHash(loadRaw<double>(v));
    case TypeId::Numeric: return numericHash(loadRaw<NumericRep>(v));
    case TypeId::Char: return bpcharHash(loadRaw<const VarString*>(v)->view());
    case TypeId::Unknown:
    case TypeId::Varchar:
    case TypeId::Text:
    case TypeId::Bytea: return textHash(loadRaw<const VarString*>(v)->view());
    case TypeId::Interval: return intervalHash(unpackInterval(loadRaw<IntervalRep>(v)));
    case TypeId::Uuid: return uuidHash(loadRaw<UuidRep>(v));
    case TypeId::Array: return hashArray(loadRaw<const VarString*>(v));
    case TypeId::Record: return hashRecord(loadRaw<const VarString*>(v));
    case TypeId::Json: return textHash(loadRaw<const VarString*>(v)->view());
    case TypeId::Jsonb: return hashJsonb(JsonbRef::of(loadRaw<const VarString*>(v)));
  }
  return 0;
}

}  // namespace duet
