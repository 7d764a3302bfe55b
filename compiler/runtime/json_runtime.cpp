#include "compiler/runtime/json_runtime.h"

#include <fmt/format.h>

#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "engine/error.h"
#include "engine/types/json_functions.h"
#include "engine/types/json_values.h"
#include "engine/types/record.h"

using namespace duet;
using duet::rt::QueryContext;
using duet::rt::TupleBuffer;

namespace {

const TypeContext& typeContext(QueryContext* ctx) {
  static const TypeContext kDefault;
  return ctx->typeContext ? *ctx->typeContext : kDefault;
}

std::string valueJson(QueryContext* ctx, const void* value, int32_t type, int32_t element, int32_t alias) {
  SqlType t{static_cast<TypeId>(type), -1, static_cast<TypeId>(element), static_cast<TypeAlias>(alias)};
  std::string out;
  appendValueJson(t, value, out, typeContext(ctx));
  return out;
}

// A row of one string-like value; NULL when `value` is null.
void appendRow(TupleBuffer* rows, const TupleLayout* layout, const VarString* value) {
  alignas(16) uint8_t tuple[64] = {};
  if (value)
    std::memcpy(tuple + layout->offsets[0], &value, sizeof value);
  else
    tuple[layout->nullOffset(0)] = 1;
  rows->append(tuple);
}

void checkCancelEvery(QueryContext* ctx, const TupleBuffer* rows) {
  if ((rows->size() & 4095) == 0) duet_q_check_cancel(ctx);
}

[[noreturn]] void invalidParameter(const char* message) { throw SqlError(sqlstate::kInvalidParameterValue, message); }

// The elements of a json array (parsed once), each as text or as JSON.
TupleBuffer* jsonElements(QueryContext* ctx, const VarString* json, const TupleLayout* layout, bool asText) {
  JsonValue v = parseJson(json->view(), true);
  if (v.kind == JsonKind::Object) invalidParameter("cannot extract elements from an object");
  if (v.kind != JsonKind::Array) invalidParameter("cannot extract elements from a scalar");
  TupleBuffer* rows = duet_q_buffer_new(ctx, layout);
  Arena& arena = statementArena();
  for (const JsonValue& e : v.items) {
    std::optional<std::string> text = asText ? jsonAsText(e.raw) : std::optional(std::string(e.raw));
    appendRow(rows, layout, text ? arena.makeString(*text) : nullptr);
    checkCancelEvery(ctx, rows);
  }
  return rows;
}

TupleBuffer* jsonbElements(QueryContext* ctx, const VarString* jsonb, const TupleLayout* layout, bool asText) {
  JsonbRef v = JsonbRef::of(jsonb);
  if (v.isScalar()) invalidParameter("cannot extract elements from a scalar");
  if (v.kind() == JsonKind::Object) invalidParameter("cannot extract elements from an object");
  TupleBuffer* rows = duet_q_buffer_new(ctx, layout);
  Arena& arena = statementArena();
  for (uint32_t i = 0; i < v.count(); ++i) {
    if (asText) {
      std::optional<std::string> text = jsonbAsText(v.element(i));
      appendRow(rows, layout, text ? arena.makeString(*text) : nullptr);
    } else {
      appendRow(rows, layout, jsonbFromNode(v.element(i), arena));
    }
    checkCancelEvery(ctx, rows);
  }
  return rows;
}

// A record (key, value) of `layout`'s record type, whose fields have `fieldTypes`; the value
// NULL when `value` is null.
void appendMember(TupleBuffer* rows, const TupleLayout* layout, std::span<const SqlType> fieldTypes,
                  std::string_view key, const VarString* value) {
  Arena& arena = statementArena();
  const VarString* name = arena.makeString(key);
  const void* fields[2] = {&name, &value};
  uint8_t nulls[2] = {0, static_cast<uint8_t>(value ? 0 : 1)};
  appendRow(rows, layout, makeRecord(layout->types[0], fieldTypes, fields, nulls, arena));
}

// json_each[_text]: a record (key, value) per member of a json object, the value as
// written or as text.
TupleBuffer* jsonMembers(QueryContext* ctx, const VarString* json, const TupleLayout* layout, bool asText) {
  JsonValue v = parseJson(json->view(), true);
  if (v.kind == JsonKind::Array) invalidParameter("cannot deconstruct an array as an object");
  if (v.kind != JsonKind::Object) invalidParameter("cannot deconstruct a scalar");
  TupleBuffer* rows = duet_q_buffer_new(ctx, layout);
  Arena& arena = statementArena();
  std::vector<SqlType> fieldTypes = recordFieldTypes(layout->types[0]);
  for (size_t i = 0; i < v.keys.size(); ++i) {
    std::optional<std::string> text = asText ? jsonAsText(v.items[i].raw) : std::optional(std::string(v.items[i].raw));
    appendMember(rows, layout, fieldTypes, v.keys[i], text ? arena.makeString(*text) : nullptr);
    checkCancelEvery(ctx, rows);
  }
  return rows;
}

// jsonb_each[_text]: the same for a jsonb object, in its canonical key order.
TupleBuffer* jsonbMembers(QueryContext* ctx, const VarString* jsonb, const TupleLayout* layout, bool asText,
                          const char* function) {
  JsonbRef v = JsonbRef::of(jsonb);
  if (v.isScalar() || v.kind() != JsonKind::Object)
    throw SqlError(sqlstate::kInvalidParameterValue, fmt::format("cannot call {} on a non-object", function));
  TupleBuffer* rows = duet_q_buffer_new(ctx, layout);
  Arena& arena = statementArena();
  std::vector<SqlType> fieldTypes = recordFieldTypes(layout->types[0]);
  for (uint32_t i = 0; i < v.count(); ++i) {
    const VarString* value = nullptr;
    if (!asText) {
      value = jsonbFromNode(v.value(i), arena);
    } else if (std::optional<std::string> text = jsonbAsText(v.value(i))) {
      value = arena.makeString(*text);
    }
    appendMember(rows, layout, fieldTypes, v.key(i), value);
    checkCancelEvery(ctx, rows);
  }
  return rows;
}

struct JsonRows {
  const TupleLayout& layout;
  TupleBuffer* rows;
  bool isNull(size_t i, uint32_t column) const { return rows->at(i)[layout.nullOffset(column)] != 0; }
  std::string_view text(size_t i, uint32_t column) const {
    const VarString* s;
    std::memcpy(&s, rows->at(i) + layout.offsets[column], sizeof s);
    return s->view();
  }
  std::optional<std::string_view> value(size_t i, uint32_t column) const {
    return isNull(i, column) ? std::nullopt : std::optional(text(i, column));
  }
};

// The key/value pairs of json_object_agg's rows, as json_build_object's arguments.
std::vector<std::optional<std::string_view>> objectAggPairs(TupleBuffer* rows, uint32_t column) {
  JsonRows r{rows->layout(), rows};
  std::vector<std::optional<std::string_view>> pairs;
  for (size_t i = 0; i < rows->size(); ++i) {
    if (r.isNull(i, column)) invalidParameter("field name must not be null");
    pairs.push_back(r.value(i, column));
    pairs.push_back(r.value(i, column + 1));
  }
  return pairs;
}

std::vector<std::optional<std::string_view>> aggValues(TupleBuffer* rows, uint32_t column) {
  JsonRows r{rows->layout(), rows};
  std::vector<std::optional<std::string_view>> values;
  for (size_t i = 0; i < rows->size(); ++i) values.push_back(r.value(i, column));
  return values;
}

}  // namespace

extern "C" {

const VarString* duet_q_to_json(QueryContext* ctx, const void* value, int32_t type, int32_t element, int32_t alias) {
  return statementArena().makeString(valueJson(ctx, value, type, element, alias));
}

const VarString* duet_q_to_jsonb(QueryContext* ctx, const void* value, int32_t type, int32_t element, int32_t alias) {
  return jsonbIn(valueJson(ctx, value, type, element, alias), statementArena());
}

TupleBuffer* duet_q_json_array_elements(QueryContext* ctx, const VarString* json, const TupleLayout* layout) {
  return jsonElements(ctx, json, layout, false);
}
TupleBuffer* duet_q_json_array_elements_text(QueryContext* ctx, const VarString* json, const TupleLayout* layout) {
  return jsonElements(ctx, json, layout, true);
}
TupleBuffer* duet_q_jsonb_array_elements(QueryContext* ctx, const VarString* jsonb, const TupleLayout* layout) {
  return jsonbElements(ctx, jsonb, layout, false);
}
TupleBuffer* duet_q_jsonb_array_elements_text(QueryContext* ctx, const VarString* jsonb, const TupleLayout* layout) {
  return jsonbElements(ctx, jsonb, layout, true);
}

TupleBuffer* duet_q_json_each(QueryContext* ctx, const VarString* json, const TupleLayout* layout) {
  return jsonMembers(ctx, json, layout, false);
}
TupleBuffer* duet_q_json_each_text(QueryContext* ctx, const VarString* json, const TupleLayout* layout) {
  return jsonMembers(ctx, json, layout, true);
}
TupleBuffer* duet_q_jsonb_each(QueryContext* ctx, const VarString* jsonb, const TupleLayout* layout) {
  return jsonbMembers(ctx, jsonb, layout, false, "jsonb_each");
}
TupleBuffer* duet_q_jsonb_each_text(QueryContext* ctx, const VarString* jsonb, const TupleLayout* layout) {
  return jsonbMembers(ctx, jsonb, layout, true, "jsonb_each_text");
}

TupleBuffer* duet_q_json_object_keys(QueryContext* ctx, const VarString* json, const TupleLayout* layout) {
  JsonValue v = parseJson(json->view(), true);
  if (v.kind == JsonKind::Array) invalidParameter("cannot call json_object_keys on an array");
  if (v.kind != JsonKind::Object) invalidParameter("cannot call json_object_keys on a scalar");
  TupleBuffer* rows = duet_q_buffer_new(ctx, layout);
  for (const std::string& k : v.keys) appendRow(rows, layout, statementArena().makeString(k));
  return rows;
}

TupleBuffer* duet_q_jsonb_object_keys(QueryContext* ctx, const VarString* jsonb, const TupleLayout* layout) {
  JsonbRef v = JsonbRef::of(jsonb);
  if (v.isScalar()) invalidParameter("cannot call jsonb_object_keys on a scalar");
  if (v.kind() == JsonKind::Array) invalidParameter("cannot call jsonb_object_keys on an array");
  TupleBuffer* rows = duet_q_buffer_new(ctx, layout);
  for (uint32_t i = 0; i < v.count(); ++i) appendRow(rows, layout, statementArena().makeString(v.key(i)));
  return rows;
}

const VarString* duet_q_agg_json_agg_final(TupleBuffer* rows, uint32_t column, bool*) {
  return statementArena().makeString(jsonBuildArray(aggValues(rows, column)));
}

const VarString* duet_q_agg_jsonb_agg_final(TupleBuffer* rows, uint32_t column, bool*) {
  return makeJsonb(jsonbBuildArray(aggValues(rows, column)), statementArena());
}

const VarString* duet_q_agg_json_object_agg_final(TupleBuffer* rows, uint32_t column, bool*) {
  // json_object_agg's own spacing: "{ "a" : 1, "b" : 2 }".
  std::string built = jsonBuildObject(objectAggPairs(rows, column));
  return statementArena().makeString("{ " + built.substr(1, built.size() - 2) + " }");
}

const VarString* duet_q_agg_jsonb_object_agg_final(TupleBuffer* rows, uint32_t column, bool*) {
  return makeJsonb(jsonbBuildObject(objectAggPairs(rows, column)), statementArena());
}

}  // extern "C"
