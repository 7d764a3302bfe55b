// The json and jsonb operators and functions, as PostgreSQL 15's jsonfuncs.c and json.c
// define them, on values (runtime_json.cpp wraps them for generated code). A missing
// member, element or path gives std::nullopt (SQL NULL).
#pragma once
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "engine/types/json.h"
#include "engine/types/jsonb.h"

namespace duet {

// A step of a path (#>, #>>, json_extract_path): a member name, or an array index as
// text (an index that is not an integer finds nothing; negative ones count from the end).
using JsonPath = std::span<const std::optional<std::string_view>>;

// ->, #>: the value found. json's keep their text as written (a node of the parsed text);
// jsonb's are nodes of the tree.
std::optional<std::string_view> jsonField(std::string_view json, std::string_view key);
std::optional<std::string_view> jsonElement(std::string_view json, int32_t index);
std::optional<std::string_view> jsonPath(std::string_view json, JsonPath path);
std::optional<JsonbRef> jsonbField(JsonbRef v, std::string_view key);
std::optional<JsonbRef> jsonbElement(JsonbRef v, int32_t index);
std::optional<JsonbRef> jsonbPath(JsonbRef v, JsonPath path);
// ->>, #>>: a string's text, JSON null as SQL NULL, anything else as JSON text.
std::optional<std::string> jsonAsText(std::string_view json);
std::optional<std::string> jsonbAsText(JsonbRef v);

// json_typeof / json_array_length (22023 "cannot get array length of a scalar" / "of a
// non-array").
JsonKind jsonKind(std::string_view json);
int32_t jsonArrayLength(std::string_view json);
int32_t jsonbArrayLength(JsonbRef v);
// json_strip_nulls (json text without its null members, whitespace dropped) and
// jsonb_strip_nulls.
std::string jsonStripNulls(std::string_view json);
JsonValue jsonbStripNulls(JsonbRef v);

// ?, ?|, ?&: a top-level key, or a string element of a top-level array (or scalar).
bool jsonbExists(JsonbRef v, std::string_view key);

// ||, - text, - integer, - text[], #-, jsonb_set, jsonb_insert, with PostgreSQL's errors
// (22023 "cannot delete from scalar", "cannot set path in scalar", "cannot replace
// existing key"; 22P02 "path element at position 2 is not an integer: "x""; 22004 "path
// element at position 1 is null").
JsonValue jsonbConcat(JsonbRef a, JsonbRef b);
JsonValue jsonbDeleteKeys(JsonbRef v, std::span<const std::optional<std::string_view>> keys);
JsonValue jsonbDeleteIndex(JsonbRef v, int32_t index);
enum class JsonbPathOp : uint8_t { Replace, Create, InsertBefore, InsertAfter, Delete };
JsonValue jsonbSetPath(JsonbRef v, JsonPath path, const JsonValue* newValue, JsonbPathOp op);

// json_build_object / json_build_array / json_object: PostgreSQL's json spacing
// ({"a" : 1, "b" : 2}, [1, 2]) over values given as JSON texts (NULL: null); keys are
// the text of a JSON string or scalar. 22023 for an odd list or a NULL key.
std::string jsonBuildObject(std::span<const std::optional<std::string_view>> jsonArgs);
std::string jsonBuildArray(std::span<const std::optional<std::string_view>> jsonArgs);
JsonValue jsonbBuildObject(std::span<const std::optional<std::string_view>> jsonArgs);
JsonValue jsonbBuildArray(std::span<const std::optional<std::string_view>> jsonArgs);
// json_object(text[]) pairs, and json_object(keys, values); 2202E for an odd or mismatched
// list, 22004 "null value not allowed for object key".
std::string jsonObjectFromPairs(std::span<const std::optional<std::string_view>> pairs, bool jsonb);
std::string jsonObjectFromArrays(std::span<const std::optional<std::string_view>> keys,
                                 std::span<const std::optional<std::string_view>> values, bool jsonb);
// The text of an object key given as JSON (a string's text, a scalar's JSON text).
std::string jsonKeyText(std::string_view json);

}  // namespace duet
