// castValue: every conversion PostgreSQL allows among our types (pg_cast plus the I/O
// conversions to and from the string types), with PostgreSQL's value errors.
#include <cstring>

#include <fmt/format.h>

#include "engine/error.h"
#include "engine/types/array.h"
#include "engine/types/datetime.h"
#include "engine/types/interval.h"
#include "engine/types/json_values.h"
#include "engine/types/numeric.h"
#include "engine/types/raw_value.h"
#include "engine/types/scalar_text.h"
#include "engine/types/strings.h"
#include "engine/types/type_errors.h"
#include "engine/types/value_io.h"

namespace duet {

namespace {

bool isString(TypeId t) { return isStringType(t); }
bool isDatetime(TypeId t) { return t == TypeId::Date || t == TypeId::Timestamp || t == TypeId::TimestampTz; }
bool isFloat(TypeId t) { return t == TypeId::Float4 || t == TypeId::Float8; }

void castDatetime(TypeId f, const void* in, TypeId t, void* out, const TypeContext& ctx) {
  if (f == t) return std::memcpy(out, in, physicalSize(t)), void();
  if (f == TypeId::Date) {
    int32_t d = loadRaw<int32_t>(in);
    return storeRaw(out, t == TypeId::Timestamp ? dateToTimestamp(d) : dateToTimestampTz(d, ctx));
  }
  int64_t ts = loadRaw<int64_t>(in);
  if (f == TypeId::Timestamp)
    return t == TypeId::Date ? storeRaw(out, timestampToDate(ts)) : storeRaw(out, timestampToTimestampTz(ts, ctx));
  return t == TypeId::Date ? storeRaw(out, timestampTzToDate(ts, ctx)) : storeRaw(out, timestampTzToTimestamp(ts, ctx));
}

}  // namespace

void castNumber(SqlType from, const void* in, SqlType to, void* out) {
  TypeId f = from.id, t = to.id;
  if (isIntegerType(f)) {
    int64_t v = f == TypeId::Int2   ? loadRaw<int16_t>(in)
                : f == TypeId::Int4 ? loadRaw<int32_t>(in)
                                    : loadRaw<int64_t>(in);
    switch (t) {
      case TypeId::Int2:
        if (v < INT16_MIN || v > INT16_MAX) raiseIntegerOutOfRange(t);
        return storeRaw(out, static_cast<int16_t>(v));
      case TypeId::Int4:
        if (v < INT32_MIN || v > INT32_MAX) raiseIntegerOutOfRange(t);
        return storeRaw(out, static_cast<int32_t>(v));
      case TypeId::Int8: return storeRaw(out, v);
      case TypeId::Float4: return storeRaw(out, static_cast<float>(v));
      case TypeId::Float8: return storeRaw(out, static_cast<double>(v));
      default: return storeRaw(out, numericApplyTypmod(numericFromInt64(v), to.typmod));
    }
  }
  if (isFloat(f)) {
    bool single = f == TypeId::Float4;
    double d = single ? static_cast<double>(loadRaw<float>(in)) : loadRaw<double>(in);
    switch (t) {
      case TypeId::Int2: return storeRaw(out, static_cast<int16_t>(floatToInteger(d, t)));
      case TypeId::Int4: return storeRaw(out, static_cast<int32_t>(floatToInteger(d, t)));
      case TypeId::Int8: return storeRaw(out, floatToInteger(d, t));
      case TypeId::Float4: return storeRaw(out, single ? loadRaw<float>(in) : float8ToFloat4(d));
      case TypeId::Float8: return storeRaw(out, d);
      default: {
        NumericRep n = single ? numericFromFloat(loadRaw<float>(in)) : numericFromDouble(d);
        return storeRaw(out, numericApplyTypmod(n, to.typmod));
      }
    }
  }
  NumericRep n = loadRaw<NumericRep>(in);
  switch (t) {
    case TypeId::Int2: return storeRaw(out, static_cast<int16_t>(numericToInteger(n, t)));
    case TypeId::Int4: return storeRaw(out, static_cast<int32_t>(numericToInteger(n, t)));
    case TypeId::Int8: return storeRaw(out, numericToInteger(n, t));
    case TypeId::Float4: return storeRaw(out, numericToFloat(n));
    case TypeId::Float8: return storeRaw(out, numericToDouble(n));
    default: return storeRaw(out, numericApplyTypmod(n, to.typmod));
  }
}

bool castExists(TypeId from, TypeId to) {
  // Array to array: castValue also checks the element types.
  if (from == to || isString(from) || isString(to)) return true;
  if (isNumericCategory(from) && isNumericCategory(to)) return true;
  if ((from == TypeId::Bool && to == TypeId::Int4) || (from == TypeId::Int4 && to == TypeId::Bool)) return true;
  // json <-> jsonb, and jsonb to the numbers and boolean.
  if (isJsonType(from) && isJsonType(to)) return true;
  if (from == TypeId::Jsonb && (isNumericCategory(to) || to == TypeId::Bool)) return true;
  return isDatetime(from) && isDatetime(to);
}

void castValue(SqlType from, const void* in, SqlType to, void* out, bool explicitCast, Arena& arena,
               const TypeContext& ctx) {
  if (from.isArray() && to.isArray()) {
    const VarString* a = loadRaw<const VarString*>(in);
    if (!castExists(from.element, to.element))
      throw SqlError(sqlstate::kCannotCoerce, fmt::format("cannot cast type {} to {}", typeName(from.withoutTypmod()),
                                                          typeName(to.withoutTypmod())));
    return storeRaw(out, castArray(a, to, explicitCast, arena, ctx));
  }
  if (!castExists(from.id, to.id))
    throw SqlError(sqlstate::kCannotCoerce, fmt::format("cannot cast type {} to {}", typeName(from.withoutTypmod()),
                                                        typeName(to.withoutTypmod())));
  if (isString(to.id)) {
    const VarString* s;
    if (isString(from.id)) {
      s = loadRaw<const VarString*>(in);
      // char(n) loses its padding when it becomes text or varchar (PostgreSQL's rtrim1).
      if (from.id == TypeId::Char && to.id != TypeId::Char) {
        std::string_view trimmed = bpcharTrim(s->view());
        if (trimmed.size() != s->len) s = arena.makeString(trimmed);
      }
    } else {
      std::string text;
      if (from.id == TypeId::Bool)
        text = loadRaw<uint8_t>(in) ? "true" : "false";  // booltext
      else
        formatText(from, in, text, ctx);
      s = arena.makeString(text);
    }
    return storeRaw(out, coerceString(s, to, explicitCast, arena));
  }
  if (isString(from.id)) {
    // The target's input function; a char(n) source keeps its spaces, which every input
    // function skips.
    return parseText(to, loadRaw<const VarString*>(in)->view(), out, arena, ctx);
  }
  if (isNumericCategory(from.id) && isNumericCategory(to.id)) return castNumber(from, in, to, out);
  if (from.id == to.id && isJsonType(from.id)) return storeRaw(out, loadRaw<const VarString*>(in));
  if (from.id == TypeId::Json && to.id == TypeId::Jsonb)
    return storeRaw(out, jsonToJsonb(loadRaw<const VarString*>(in), arena));
  if (from.id == TypeId::Jsonb && to.id == TypeId::Json)
    return storeRaw(out, jsonbToJson(loadRaw<const VarString*>(in), arena));
  if (from.id == TypeId::Jsonb) return castJsonbToScalar(loadRaw<const VarString*>(in), to, out);
  if (from.id == TypeId::Bool && to.id == TypeId::Int4) return storeRaw<int32_t>(out, loadRaw<uint8_t>(in) ? 1 : 0);
  if (from.id == TypeId::Int4 && to.id == TypeId::Bool) return storeRaw<uint8_t>(out, loadRaw<int32_t>(in) != 0);
  if (from.id == TypeId::Bool) return storeRaw(out, loadRaw<uint8_t>(in));
  if (from.id == TypeId::Interval)  // interval to interval(fields, precision)
    return storeRaw(out, packInterval(intervalApplyTypmod(unpackInterval(loadRaw<IntervalRep>(in)), to.typmod)));
  return castDatetime(from.id, in, to.id, out, ctx);
}

}  // namespace duet
