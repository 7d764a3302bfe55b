// json and jsonb I/O, their casts, and datum_to_json (json_values.h).
#include "engine/types/json_values.h"

#include <fmt/format.h>

#include "engine/error.h"
#include "engine/types/array.h"
#include "engine/types/datetime.h"
#include "engine/types/json.h"
#include "engine/types/jsonb.h"
#include "engine/types/numeric.h"
#include "engine/types/raw_value.h"
#include "engine/types/record.h"
#include "engine/types/scalar_text.h"
#include "engine/types/strings.h"
#include "engine/types/value_io.h"

namespace duet {

const VarString* jsonIn(std::string_view text, Arena& arena) {
  checkUtf8(text);
  validateJson(text);
  return arena.makeString(text);
}

const VarString* jsonbIn(std::string_view text, Arena& arena) {
  checkUtf8(text);
  return makeJsonb(parseJson(text, true), arena);
}

void jsonbSend(const VarString* jsonb, std::string& out) {
  out += '\1';
  formatJsonb(JsonbRef::of(jsonb), out);
}

const VarString* jsonbRecv(std::string_view data, Arena& arena) {
  if (data.empty() || data[0] != 1)
    throw SqlError(sqlstate::kInternalError,
                   fmt::format("unsupported jsonb version number {}", data.empty() ? 0 : static_cast<int>(data[0])));
  return jsonbIn(data.substr(1), arena);
}

const VarString* jsonToJsonb(const VarString* json, Arena& arena) { return jsonbIn(json->view(), arena); }

const VarString* jsonbToJson(const VarString* jsonb, Arena& arena) {
  std::string text;
  formatJsonb(JsonbRef::of(jsonb), text);
  return arena.makeString(text);
}

void castJsonbToScalar(const VarString* jsonb, SqlType to, void* out) {
  JsonbRef v = JsonbRef::of(jsonb);
  bool wanted =
      to.id == TypeId::Bool ? v.kind() == JsonKind::True || v.kind() == JsonKind::False : v.kind() == JsonKind::Number;
  if (!wanted) {
    // cannotCastJsonbValue's names of the kinds (a number is "numeric" there).
    const char* kind = v.kind() == JsonKind::Number                                ? "numeric"
                       : v.kind() == JsonKind::True || v.kind() == JsonKind::False ? "boolean"
                                                                                   : jsonKindName(v.kind());
    throw SqlError(sqlstate::kInvalidParameterValue,
                   fmt::format("cannot cast jsonb {} to type {}", kind, typeName(to.withoutTypmod())));
  }
  switch (to.id) {
    case TypeId::Bool: return storeRaw<uint8_t>(out, v.kind() == JsonKind::True);
    case TypeId::Float4: return storeRaw(out, parseFloat4(v.text()));  // numeric_float4: via the text
    case TypeId::Float8: return storeRaw(out, parseFloat8(v.text()));
    default: {
      NumericRep n = parseNumeric(v.text());
      return castNumber({TypeId::Numeric, -1}, &n, to, out);
    }
  }
}

namespace {

// JsonEncodeDateTime's ISO 8601 (XSD) form of an ISO-style timestamp: a T between date
// and time, a UTC offset with minutes.
void appendXsdTimestamp(std::string iso, bool withZone, std::string& out) {
  if (iso.size() > 10 && iso[10] == ' ') iso[10] = 'T';
  if (withZone) {
    size_t sign = iso.find_last_of("+-");
    if (sign != std::string::npos && sign > 10 && iso.size() - sign == 3) iso += ":00";
  }
  appendJsonString(iso, out);
}

}  // namespace

void appendValueJson(SqlType type, const void* value, std::string& out, const TypeContext& ctx) {
  if (type.isArray()) {
    if (type.alias != TypeAlias::None && isVectorAlias(type.alias)) {
      std::string text;
      formatText(type, value, text, ctx);
      return appendJsonString(text, out);
    }
    ArrayView array(loadRaw<const VarString*>(value));
    SqlType element = type.elementType();
    out += '[';
    for (uint32_t i = 0; i < array.size(); ++i) {
      if (i > 0) out += ',';
      if (array.isNull(i)) {
        out += "null";
        continue;
      }
      alignas(16) unsigned char slot[16];
      array.load(i, slot);
      appendValueJson(element, slot, out, ctx);
    }
    out += ']';
    return;
  }
  if (type.id == TypeId::Record) {  // an object of its fields, as composite_to_json
    RecordView record(loadRaw<const VarString*>(value));
    const std::vector<RecordField>& fields = recordFields(record.type());
    out += '{';
    for (uint32_t i = 0; i < record.size(); ++i) {
      if (i > 0) out += ',';
      appendJsonString(fields[i].name, out);
      out += ':';
      if (record.isNull(i)) {
        out += "null";
        continue;
      }
      alignas(16) unsigned char slot[16];
      record.load(i, fields[i].type.id, slot);
      appendValueJson(fields[i].type, slot, out, ctx);
    }
    out += '}';
    return;
  }
  if (type.alias == TypeAlias::None) {
    switch (type.id) {
      case TypeId::Bool: out += loadRaw<uint8_t>(value) ? "true" : "false"; return;
      case TypeId::Json: out.append(loadRaw<const VarString*>(value)->view()); return;
      case TypeId::Jsonb: return formatJsonb(JsonbRef::of(loadRaw<const VarString*>(value)), out);
      case TypeId::Date: {
        std::string text;
        formatDate(loadRaw<int32_t>(value), text);
        return appendJsonString(text, out);
      }
      case TypeId::Timestamp:
      case TypeId::TimestampTz: {
        std::string text;
        formatText(type, value, text, ctx);
        return appendXsdTimestamp(std::move(text), type.id == TypeId::TimestampTz, out);
      }
      default: break;
    }
  }
  std::string text;
  formatText(type, value, text, ctx);
  if (type.alias == TypeAlias::None && isNumericCategory(type.id) && isJsonNumber(text))
    out += text;
  else
    appendJsonString(text, out);
}

}  // namespace duet
