// The json and jsonb functions' rows of the built-in table (builtin_functions.h), and the
// functions behind their operators (->, ->>, #>, #>>, @>, <@, ?, ?|, ?&, ||, -, #-), which
// the binder calls by these rows' symbols.
#include "compiler/functions/builtin_functions.h"
#include "compiler/runtime/json_runtime.h"
#include "engine/types/runtime_json.h"

namespace duet {

namespace {

#define DUET_FN(fn) .symbol = #fn, .address = reinterpret_cast<void*>(&fn)

using enum TypeId;
constexpr Volatility kImmutable = Volatility::Immutable;
constexpr Volatility kStable = Volatility::Stable;

}  // namespace

std::vector<BuiltinFunction> jsonBuiltinFunctions() {
  // clang-format off: one function a line
  return {
      // Members, elements and paths; NULL where there is none (#>'s function is
      // json_extract_path, whose VARIADIC text arrives as the "any" arguments' text[]).
      {.name = "json_object_field", .args = {Json, Text}, .result = Json, .volatility = kImmutable, .strict = true, DUET_FN(duet_rt_json_object_field), .nullResult = true},
      {.name = "json_object_field_text", .args = {Json, Text}, .result = Text, .volatility = kImmutable, .strict = true, DUET_FN(duet_rt_json_object_field_text), .nullResult = true},
      {.name = "json_array_element", .args = {Json, Int4}, .result = Json, .volatility = kImmutable, .strict = true, DUET_FN(duet_rt_json_array_element), .nullResult = true},
      {.name = "json_array_element_text", .args = {Json, Int4}, .result = Text, .volatility = kImmutable, .strict = true, DUET_FN(duet_rt_json_array_element_text), .nullResult = true},
      {.name = "json_extract_path", .args = {Json}, .result = Json, .volatility = kImmutable, .strict = true, DUET_FN(duet_rt_json_extract_path), .anyArgs = kVariadicAny, .nullResult = true},
      {.name = "json_extract_path_text", .args = {Json}, .result = Text, .volatility = kImmutable, .strict = true, DUET_FN(duet_rt_json_extract_path_text), .anyArgs = kVariadicAny, .nullResult = true},
      {.name = "jsonb_object_field", .args = {Jsonb, Text}, .result = Jsonb, .volatility = kImmutable, .strict = true, DUET_FN(duet_rt_jsonb_object_field), .nullResult = true},
      {.name = "jsonb_object_field_text", .args = {Jsonb, Text}, .result = Text, .volatility = kImmutable, .strict = true, DUET_FN(duet_rt_jsonb_object_field_text), .nullResult = true},
      {.name = "jsonb_array_element", .args = {Jsonb, Int4}, .result = Jsonb, .volatility = kImmutable, .strict = true, DUET_FN(duet_rt_jsonb_array_element), .nullResult = true},
      {.name = "jsonb_array_element_text", .args = {Jsonb, Int4}, .result = Text, .volatility = kImmutable, .strict = true, DUET_FN(duet_rt_jsonb_array_element_text), .nullResult = true},
      {.name = "jsonb_extract_path", .args = {Jsonb}, .result = Jsonb, .volatility = kImmutable, .strict = true, DUET_FN(duet_rt_jsonb_extract_path), .anyArgs = kVariadicAny, .nullResult = true},
      {.name = "jsonb_extract_path_text", .args = {Jsonb}, .result = Text, .volatility = kImmutable, .strict = true, DUET_FN(duet_rt_jsonb_extract_path_text), .anyArgs = kVariadicAny, .nullResult = true},
      // Containment and keys.
      {.name = "jsonb_contains", .args = {Jsonb, Jsonb}, .result = Bool, .volatility = kImmutable, .strict = true, DUET_FN(duet_rt_jsonb_contains)},
      {.name = "jsonb_contained", .args = {Jsonb, Jsonb}, .result = Bool, .volatility = kImmutable, .strict = true, DUET_FN(duet_rt_jsonb_contained)},
      {.name = "jsonb_exists", .args = {Jsonb, Text}, .result = Bool, .volatility = kImmutable, .strict = true, DUET_FN(duet_rt_jsonb_exists)},
      {.name = "jsonb_exists_any", .args = {Jsonb, Array}, .result = Bool, .volatility = kImmutable, .strict = true, DUET_FN(duet_rt_jsonb_exists_any), .argElement = Text},
      {.name = "jsonb_exists_all", .args = {Jsonb, Array}, .result = Bool, .volatility = kImmutable, .strict = true, DUET_FN(duet_rt_jsonb_exists_all), .argElement = Text},
      // Changes.
      {.name = "jsonb_concat", .args = {Jsonb, Jsonb}, .result = Jsonb, .volatility = kImmutable, .strict = true, DUET_FN(duet_rt_jsonb_concat)},
      {.name = "jsonb_delete", .args = {Jsonb, Text}, .result = Jsonb, .volatility = kImmutable, .strict = true, DUET_FN(duet_rt_jsonb_delete)},
      {.name = "jsonb_delete", .args = {Jsonb, Int4}, .result = Jsonb, .volatility = kImmutable, .strict = true, DUET_FN(duet_rt_jsonb_delete_index)},
      {.name = "jsonb_delete", .args = {Jsonb, Array}, .result = Jsonb, .volatility = kImmutable, .strict = true, DUET_FN(duet_rt_jsonb_delete_keys), .argElement = Text},
      {.name = "jsonb_delete_path", .args = {Jsonb, Array}, .result = Jsonb, .volatility = kImmutable, .strict = true, DUET_FN(duet_rt_jsonb_delete_path), .argElement = Text},
      {.name = "jsonb_set", .args = {Jsonb, Array, Jsonb, Bool}, .result = Jsonb, .volatility = kImmutable, .strict = true, DUET_FN(duet_rt_jsonb_set), .argElement = Text},
      {.name = "jsonb_set", .args = {Jsonb, Array, Jsonb}, .result = Jsonb, .volatility = kImmutable, .strict = true, DUET_FN(duet_rt_jsonb_set_create), .argElement = Text},
      {.name = "jsonb_insert", .args = {Jsonb, Array, Jsonb, Bool}, .result = Jsonb, .volatility = kImmutable, .strict = true, DUET_FN(duet_rt_jsonb_insert), .argElement = Text},
      {.name = "jsonb_insert", .args = {Jsonb, Array, Jsonb}, .result = Jsonb, .volatility = kImmutable, .strict = true, DUET_FN(duet_rt_jsonb_insert_before), .argElement = Text},
      {.name = "jsonb_strip_nulls", .args = {Jsonb}, .result = Jsonb, .volatility = kImmutable, .strict = true, DUET_FN(duet_rt_jsonb_strip_nulls)},
      {.name = "json_strip_nulls", .args = {Json}, .result = Json, .volatility = kImmutable, .strict = true, DUET_FN(duet_rt_json_strip_nulls)},
      // Inspection.
      {.name = "json_typeof", .args = {Json}, .result = Text, .volatility = kImmutable, .strict = true, DUET_FN(duet_rt_json_typeof)},
      {.name = "jsonb_typeof", .args = {Jsonb}, .result = Text, .volatility = kImmutable, .strict = true, DUET_FN(duet_rt_jsonb_typeof)},
      {.name = "json_array_length", .args = {Json}, .result = Int4, .volatility = kImmutable, .strict = true, DUET_FN(duet_rt_json_array_length)},
      {.name = "jsonb_array_length", .args = {Jsonb}, .result = Int4, .volatility = kImmutable, .strict = true, DUET_FN(duet_rt_jsonb_array_length)},
      {.name = "jsonb_pretty", .args = {Jsonb}, .result = Text, .volatility = kImmutable, .strict = true, DUET_FN(duet_rt_jsonb_pretty)},
      // Construction: values of any type as JSON. to_json(x) is bound by the binder, which
      // passes x by address with its type (anyCompatible's convention).
      {.name = "to_json", .args = {Unknown, Int4, Int4, Int4}, .result = Json, .volatility = kStable, .strict = true, DUET_FN(duet_q_to_json), .anyCompatible = true},
      {.name = "to_jsonb", .args = {Unknown, Int4, Int4, Int4}, .result = Jsonb, .volatility = kStable, .strict = true, DUET_FN(duet_q_to_jsonb), .anyCompatible = true},
      {.name = "json_build_object", .args = {}, .result = Json, .volatility = kStable, .strict = true, DUET_FN(duet_rt_json_build_object), .anyArgs = kVariadicAny, .anyArgsAsJson = true},
      {.name = "json_build_object", .args = {}, .result = Json, .volatility = kStable, .strict = true, DUET_FN(duet_rt_json_build_object_empty)},
      {.name = "json_build_array", .args = {}, .result = Json, .volatility = kStable, .strict = true, DUET_FN(duet_rt_json_build_array), .anyArgs = kVariadicAny, .anyArgsAsJson = true},
      {.name = "json_build_array", .args = {}, .result = Json, .volatility = kStable, .strict = true, DUET_FN(duet_rt_json_build_array_empty)},
      {.name = "jsonb_build_object", .args = {}, .result = Jsonb, .volatility = kStable, .strict = true, DUET_FN(duet_rt_jsonb_build_object), .anyArgs = kVariadicAny, .anyArgsAsJson = true},
      {.name = "jsonb_build_object", .args = {}, .result = Jsonb, .volatility = kStable, .strict = true, DUET_FN(duet_rt_jsonb_build_object_empty)},
      {.name = "jsonb_build_array", .args = {}, .result = Jsonb, .volatility = kStable, .strict = true, DUET_FN(duet_rt_jsonb_build_array), .anyArgs = kVariadicAny, .anyArgsAsJson = true},
      {.name = "jsonb_build_array", .args = {}, .result = Jsonb, .volatility = kStable, .strict = true, DUET_FN(duet_rt_jsonb_build_array_empty)},
      {.name = "json_object", .args = {Array}, .result = Json, .volatility = kImmutable, .strict = true, DUET_FN(duet_rt_json_object), .argElement = Text},
      {.name = "json_object", .args = {Array, Array}, .result = Json, .volatility = kImmutable, .strict = true, DUET_FN(duet_rt_json_object_keys_values), .argElement = Text},
      {.name = "jsonb_object", .args = {Array}, .result = Jsonb, .volatility = kImmutable, .strict = true, DUET_FN(duet_rt_jsonb_object), .argElement = Text},
      {.name = "jsonb_object", .args = {Array, Array}, .result = Jsonb, .volatility = kImmutable, .strict = true, DUET_FN(duet_rt_jsonb_object_keys_values), .argElement = Text},
      // Sets.
      {.name = "json_array_elements", .args = {Json}, .result = Json, .volatility = kImmutable, .strict = true, DUET_FN(duet_q_json_array_elements), .returnsSet = true},
      {.name = "json_array_elements_text", .args = {Json}, .result = Text, .volatility = kImmutable, .strict = true, DUET_FN(duet_q_json_array_elements_text), .returnsSet = true},
      {.name = "jsonb_array_elements", .args = {Jsonb}, .result = Jsonb, .volatility = kImmutable, .strict = true, DUET_FN(duet_q_jsonb_array_elements), .returnsSet = true},
      {.name = "jsonb_array_elements_text", .args = {Jsonb}, .result = Text, .volatility = kImmutable, .strict = true, DUET_FN(duet_q_jsonb_array_elements_text), .returnsSet = true},
      {.name = "json_each", .args = {Json}, .result = Record, .volatility = kImmutable, .strict = true, DUET_FN(duet_q_json_each), .returnsSet = true, .recordFields = {{"key", Text}, {"value", Json}}},
      {.name = "json_each_text", .args = {Json}, .result = Record, .volatility = kImmutable, .strict = true, DUET_FN(duet_q_json_each_text), .returnsSet = true, .recordFields = {{"key", Text}, {"value", Text}}},
      {.name = "jsonb_each", .args = {Jsonb}, .result = Record, .volatility = kImmutable, .strict = true, DUET_FN(duet_q_jsonb_each), .returnsSet = true, .recordFields = {{"key", Text}, {"value", Jsonb}}},
      {.name = "jsonb_each_text", .args = {Jsonb}, .result = Record, .volatility = kImmutable, .strict = true, DUET_FN(duet_q_jsonb_each_text), .returnsSet = true, .recordFields = {{"key", Text}, {"value", Text}}},
      {.name = "json_object_keys", .args = {Json}, .result = Text, .volatility = kImmutable, .strict = true, DUET_FN(duet_q_json_object_keys), .returnsSet = true},
      {.name = "jsonb_object_keys", .args = {Jsonb}, .result = Text, .volatility = kImmutable, .strict = true, DUET_FN(duet_q_jsonb_object_keys), .returnsSet = true},
  };
  // clang-format on
}

#undef DUET_FN

}  // namespace duet
