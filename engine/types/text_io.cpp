// Text-format input and output of every type, dispatching to the per-type functions.
#include <cstring>

#include "engine/types/datetime.h"
#include "engine/types/numeric.h"
#include "engine/types/scalar_text.h"
#include "engine/types/strings.h"
#include "engine/types/value_io.h"

namespace duet {

namespace {
template <typename T>
T load(const void* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
template <typename T>
void store(void* p, T v) {
  std::memcpy(p, &v, sizeof v);
}
}  // namespace

void formatText(SqlType type, const void* value, std::string& out, const TypeContext& ctx) {
  switch (type.id) {
    case TypeId::Bool: return formatBool(load<uint8_t>(value) != 0, out);
    case TypeId::Int2: return formatInt(load<int16_t>(value), out);
    case TypeId::Int4: return formatInt(load<int32_t>(value), out);
    case TypeId::Int8: return formatInt(load<int64_t>(value), out);
    case TypeId::Float4: return formatFloat4(load<float>(value), out, ctx.extraFloatDigits);
    case TypeId::Float8: return formatFloat8(load<double>(value), out, ctx.extraFloatDigits);
    case TypeId::Numeric: return formatNumeric(load<NumericRep>(value), out);
    case TypeId::Unknown:
    case TypeId::Char:
    case TypeId::Varchar:
    case TypeId::Text: out.append(load<const VarString*>(value)->view()); return;
    case TypeId::Date: return formatDate(load<int32_t>(value), out);
    case TypeId::Timestamp: return formatTimestamp(load<int64_t>(value), out);
    case TypeId::TimestampTz: return formatTimestampTz(load<int64_t>(value), out, ctx);
  }
}

void parseText(SqlType type, std::string_view text, void* out, Arena& arena,
               const TypeContext& ctx) {
  switch (type.id) {
    case TypeId::Bool: return store<uint8_t>(out, parseBool(text) ? 1 : 0);
    case TypeId::Int2: return store(out, parseInt2(text));
    case TypeId::Int4: return store(out, parseInt4(text));
    case TypeId::Int8: return store(out, parseInt8(text));
    case TypeId::Float4: return store(out, parseFloat4(text));
    case TypeId::Float8: return store(out, parseFloat8(text));
    case TypeId::Numeric:
      return store(out, numericApplyTypmod(parseNumeric(text), type.typmod));
    case TypeId::Unknown:
    case TypeId::Char:
    case TypeId::Varchar:
    case TypeId::Text: {
      checkUtf8(text);
      const VarString* s = coerceString(arena.makeString(text), type, false, arena);
      return store(out, s);
    }
    case TypeId::Date: return store(out, parseDate(text));
    case TypeId::Timestamp: return store(out, parseTimestamp(text));
    case TypeId::TimestampTz: return store(out, parseTimestampTz(text, ctx));
  }
}

}  // namespace duet
