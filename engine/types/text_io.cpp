// Text-format input and output of every type, dispatching to the per-type functions.
#include <cstring>

#include "engine/types/array.h"
#include "engine/types/bytea.h"
#include "engine/types/datetime.h"
#include "engine/types/interval.h"
#include "engine/types/json_values.h"
#include "engine/types/jsonb.h"
#include "engine/types/numeric.h"
#include "engine/types/raw_value.h"
#include "engine/types/record.h"
#include "engine/types/scalar_text.h"
#include "engine/types/strings.h"
#include "engine/types/type_aliases.h"
#include "engine/types/uuid.h"
#include "engine/types/value_io.h"

namespace duet {

void formatText(SqlType type, const void* value, std::string& out, const TypeContext& ctx) {
  if (isVectorAlias(type.alias)) return formatVectorText(type, loadRaw<const VarString*>(value), out, ctx);
  if (!type.isArray() && isRegAlias(type.alias)) return formatRegOid(type.alias, loadRaw<int64_t>(value), out, ctx);
  switch (type.id) {
    case TypeId::Bool: return formatBool(loadRaw<uint8_t>(value) != 0, out);
    case TypeId::Int2: return formatInt(loadRaw<int16_t>(value), out);
    case TypeId::Int4: return formatInt(loadRaw<int32_t>(value), out);
    case TypeId::Int8: return formatInt(loadRaw<int64_t>(value), out);
    case TypeId::Float4: return formatFloat4(loadRaw<float>(value), out, ctx.extraFloatDigits);
    case TypeId::Float8: return formatFloat8(loadRaw<double>(value), out, ctx.extraFloatDigits);
    case TypeId::Numeric: return formatNumeric(loadRaw<NumericRep>(value), out);
    case TypeId::Unknown:
    case TypeId::Char:
    case TypeId::Varchar:
    case TypeId::Text: out.append(loadRaw<const VarString*>(value)->view()); return;
    case TypeId::Date: return formatDate(loadRaw<int32_t>(value), out);
    case TypeId::Timestamp: return formatTimestamp(loadRaw<int64_t>(value), out);
    case TypeId::TimestampTz: return formatTimestampTz(loadRaw<int64_t>(value), out, ctx);
    case TypeId::Interval: return formatInterval(unpackInterval(loadRaw<IntervalRep>(value)), out);
    case TypeId::Bytea: return formatBytea(loadRaw<const VarString*>(value)->view(), ctx.byteaOutput, out);
    case TypeId::Uuid: return formatUuid(loadRaw<UuidRep>(value), out);
    case TypeId::Array: return formatArrayText(loadRaw<const VarString*>(value), out, ctx);
    case TypeId::Record: return formatRecordText(loadRaw<const VarString*>(value), out, ctx);
    case TypeId::Json: out.append(loadRaw<const VarString*>(value)->view()); return;
    case TypeId::Jsonb: return formatJsonb(JsonbRef::of(loadRaw<const VarString*>(value)), out);
  }
}

void parseText(SqlType type, std::string_view text, void* out, Arena& arena, const TypeContext& ctx) {
  if (isVectorAlias(type.alias)) return storeRaw(out, parseVectorText(type, text, arena, ctx));
  if (type.isArray()) return storeRaw(out, parseArrayText(type, text, arena, ctx));
  if (type.alias == TypeAlias::Oid) return storeRaw(out, parseOid(text));
  if (isRegAlias(type.alias)) return storeRaw(out, parseRegOid(type.alias, text, ctx));
  if (type.alias != TypeAlias::None) {  // name, "char"
    checkUtf8(text);
    return storeRaw<const VarString*>(out, arena.makeString(aliasStringValue(type.alias, text)));
  }
  switch (type.id) {
    case TypeId::Bool: return storeRaw<uint8_t>(out, parseBool(text) ? 1 : 0);
    case TypeId::Int2: return storeRaw(out, parseInt2(text));
    case TypeId::Int4: return storeRaw(out, parseInt4(text));
    case TypeId::Int8: return storeRaw(out, parseInt8(text));
    case TypeId::Float4: return storeRaw(out, parseFloat4(text));
    case TypeId::Float8: return storeRaw(out, parseFloat8(text));
    case TypeId::Numeric: return storeRaw(out, numericApplyTypmod(parseNumeric(text), type.typmod));
    case TypeId::Unknown:
    case TypeId::Char:
    case TypeId::Varchar:
    case TypeId::Text: {
      checkUtf8(text);
      const VarString* s = coerceString(arena.makeString(text), type, false, arena);
      return storeRaw(out, s);
    }
    case TypeId::Date: return storeRaw(out, parseDate(text));
    case TypeId::Timestamp: return storeRaw(out, parseTimestamp(text));
    case TypeId::TimestampTz: return storeRaw(out, parseTimestampTz(text, ctx));
    case TypeId::Interval: return storeRaw(out, packInterval(parseInterval(text, type.typmod)));
    case TypeId::Bytea: return storeRaw<const VarString*>(out, arena.makeString(parseBytea(text)));
    case TypeId::Uuid: return storeRaw(out, parseUuid(text));
    case TypeId::Array: return storeRaw(out, parseArrayText(type, text, arena, ctx));
    case TypeId::Record:
      if (compositeTypeOid(type) == 0) anonymousRecordInput();
      return storeRaw(out, parseRecordText(type, text, arena, ctx));
    case TypeId::Json: return storeRaw(out, jsonIn(text, arena));
    case TypeId::Jsonb: return storeRaw(out, jsonbIn(text, arena));
  }
}

}  // namespace duet
