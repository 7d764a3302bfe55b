// The duet_rt_* wrappers of json_functions.h (runtime_json.h).
#include "engine/types/runtime_json.h"

#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "engine/types/array.h"
#include "engine/types/json_functions.h"
#include "engine/types/json_values.h"

using namespace duet;

namespace {

Arena& arena() { return statementArena(); }
const VarString* text(std::string_view s) { return arena().makeString(s); }
const VarString* maybeText(const std::optional<std::string>& s) { return s ? text(*s) : nullptr; }
const VarString* maybeText(const std::optional<std::string_view>& s) { return s ? text(*s) : nullptr; }
JsonbRef ref(const VarString* jsonb) { return JsonbRef::of(jsonb); }
const VarString* jsonb(const JsonValue& v) { return makeJsonb(v, arena()); }
const VarString* node(const std::optional<JsonbRef>& n) { return n ? jsonbFromNode(*n, arena()) : nullptr; }
const VarString* nodeText(const std::optional<JsonbRef>& n) { return n ? maybeText(jsonbAsText(*n)) : nullptr; }
const VarString* rawText(const std::optional<std::string_view>& raw) {
  return raw ? maybeText(jsonAsText(*raw)) : nullptr;
}

// The elements of a text[], nullopt for NULL ones (views into the array).
std::vector<std::optional<std::string_view>> elements(const VarString* array) {
  ArrayView view(array);
  std::vector<std::optional<std::string_view>> out(view.size());
  for (uint32_t i = 0; i < view.size(); ++i) {
    if (view.isNull(i)) continue;
    alignas(16) unsigned char slot[16];
    view.load(i, slot);
    const VarString* element;
    std::memcpy(&element, slot, sizeof element);
    out[i] = element->view();
  }
  return out;
}

const VarString* setPath(const VarString* in, const VarString* path, const VarString* value, JsonbPathOp op) {
  JsonValue newValue = value ? jsonbToValue(ref(value)) : JsonValue{};
  auto steps = elements(path);
  return jsonb(jsonbSetPath(ref(in), steps, value ? &newValue : nullptr, op));
}

}  // namespace

extern "C" {

const VarString* duet_rt_json_object_field(const VarString* json, const VarString* key) {
  return maybeText(jsonField(json->view(), key->view()));
}
const VarString* duet_rt_json_object_field_text(const VarString* json, const VarString* key) {
  return rawText(jsonField(json->view(), key->view()));
}
const VarString* duet_rt_json_array_element(const VarString* json, int32_t index) {
  return maybeText(jsonElement(json->view(), index));
}
const VarString* duet_rt_json_array_element_text(const VarString* json, int32_t index) {
  return rawText(jsonElement(json->view(), index));
}
const VarString* duet_rt_json_extract_path(const VarString* json, const VarString* path) {
  return maybeText(jsonPath(json->view(), elements(path)));
}
const VarString* duet_rt_json_extract_path_text(const VarString* json, const VarString* path) {
  return rawText(jsonPath(json->view(), elements(path)));
}
const VarString* duet_rt_jsonb_object_field(const VarString* v, const VarString* key) {
  return node(jsonbField(ref(v), key->view()));
}
const VarString* duet_rt_jsonb_object_field_text(const VarString* v, const VarString* key) {
  return nodeText(jsonbField(ref(v), key->view()));
}
const VarString* duet_rt_jsonb_array_element(const VarString* v, int32_t index) {
  return node(jsonbElement(ref(v), index));
}
const VarString* duet_rt_jsonb_array_element_text(const VarString* v, int32_t index) {
  return nodeText(jsonbElement(ref(v), index));
}
const VarString* duet_rt_jsonb_extract_path(const VarString* v, const VarString* path) {
  return node(jsonbPath(ref(v), elements(path)));
}
const VarString* duet_rt_jsonb_extract_path_text(const VarString* v, const VarString* path) {
  return nodeText(jsonbPath(ref(v), elements(path)));
}

int32_t duet_rt_jsonb_cmp(const VarString* a, const VarString* b) { return compareJsonb(ref(a), ref(b)); }
bool duet_rt_jsonb_contains(const VarString* a, const VarString* b) { return jsonbContains(ref(a), ref(b)); }
bool duet_rt_jsonb_contained(const VarString* a, const VarString* b) { return jsonbContains(ref(b), ref(a)); }
bool duet_rt_jsonb_exists(const VarString* v, const VarString* key) { return jsonbExists(ref(v), key->view()); }
bool duet_rt_jsonb_exists_any(const VarString* v, const VarString* keys) {
  for (const auto& k : elements(keys))
    if (k && jsonbExists(ref(v), *k)) return true;
  return false;
}
bool duet_rt_jsonb_exists_all(const VarString* v, const VarString* keys) {
  for (const auto& k : elements(keys))
    if (k && !jsonbExists(ref(v), *k)) return false;
  return true;
}

const VarString* duet_rt_jsonb_concat(const VarString* a, const VarString* b) {
  return jsonb(jsonbConcat(ref(a), ref(b)));
}
const VarString* duet_rt_jsonb_delete(const VarString* v, const VarString* key) {
  std::optional<std::string_view> keys[] = {key->view()};
  return jsonb(jsonbDeleteKeys(ref(v), keys));
}
const VarString* duet_rt_jsonb_delete_index(const VarString* v, int32_t index) {
  return jsonb(jsonbDeleteIndex(ref(v), index));
}
const VarString* duet_rt_jsonb_delete_keys(const VarString* v, const VarString* keys) {
  return jsonb(jsonbDeleteKeys(ref(v), elements(keys)));
}
const VarString* duet_rt_jsonb_delete_path(const VarString* v, const VarString* path) {
  return setPath(v, path, nullptr, JsonbPathOp::Delete);
}
const VarString* duet_rt_jsonb_set(const VarString* v, const VarString* path, const VarString* value,
                                   bool createMissing) {
  return setPath(v, path, value, createMissing ? JsonbPathOp::Create : JsonbPathOp::Replace);
}
const VarString* duet_rt_jsonb_set_create(const VarString* v, const VarString* path, const VarString* value) {
  return setPath(v, path, value, JsonbPathOp::Create);
}
const VarString* duet_rt_jsonb_insert(const VarString* v, const VarString* path, const VarString* value,
                                      bool insertAfter) {
  return setPath(v, path, value, insertAfter ? JsonbPathOp::InsertAfter : JsonbPathOp::InsertBefore);
}
const VarString* duet_rt_jsonb_insert_before(const VarString* v, const VarString* path, const VarString* value) {
  return setPath(v, path, value, JsonbPathOp::InsertBefore);
}

const VarString* duet_rt_json_typeof(const VarString* json) { return text(jsonKindName(jsonKind(json->view()))); }
const VarString* duet_rt_jsonb_typeof(const VarString* v) { return text(jsonKindName(ref(v).kind())); }
int32_t duet_rt_json_array_length(const VarString* json) { return jsonArrayLength(json->view()); }
int32_t duet_rt_jsonb_array_length(const VarString* v) { return jsonbArrayLength(ref(v)); }
const VarString* duet_rt_json_strip_nulls(const VarString* json) { return text(jsonStripNulls(json->view())); }
const VarString* duet_rt_jsonb_strip_nulls(const VarString* v) { return jsonb(jsonbStripNulls(ref(v))); }
const VarString* duet_rt_jsonb_pretty(const VarString* v) {
  std::string out;
  formatJsonbPretty(ref(v), out);
  return text(out);
}

const VarString* duet_rt_json_build_object(const VarString* args) { return text(jsonBuildObject(elements(args))); }
const VarString* duet_rt_json_build_array(const VarString* args) { return text(jsonBuildArray(elements(args))); }
const VarString* duet_rt_jsonb_build_object(const VarString* args) { return jsonb(jsonbBuildObject(elements(args))); }
const VarString* duet_rt_jsonb_build_array(const VarString* args) { return jsonb(jsonbBuildArray(elements(args))); }
const VarString* duet_rt_json_build_object_empty() { return text("{}"); }
const VarString* duet_rt_json_build_array_empty() { return text("[]"); }
const VarString* duet_rt_jsonb_build_object_empty() { return jsonbIn("{}", arena()); }
const VarString* duet_rt_jsonb_build_array_empty() { return jsonbIn("[]", arena()); }
const VarString* duet_rt_json_object(const VarString* pairs) {
  return text(jsonObjectFromPairs(elements(pairs), false));
}
const VarString* duet_rt_json_object_keys_values(const VarString* keys, const VarString* values) {
  return text(jsonObjectFromArrays(elements(keys), elements(values), false));
}
const VarString* duet_rt_jsonb_object(const VarString* pairs) {
  return jsonbIn(jsonObjectFromPairs(elements(pairs), true), arena());
}
const VarString* duet_rt_jsonb_object_keys_values(const VarString* keys, const VarString* values) {
  return jsonbIn(jsonObjectFromArrays(elements(keys), elements(values), true), arena());
}

}  // extern "C"
