// The runtime functions of the json and jsonb operators and functions (json_functions.h),
// for generated code: values as `const VarString*` (json text, jsonb trees, text, text[]),
// results in the statement arena; a null pointer for a NULL result (the rows that can give
// one are marked nullResult in compiler/functions/builtin_functions.cpp).
#pragma once
#include <cstdint>

#include "engine/types/value.h"

extern "C" {
using duet::VarString;

// ->, ->>, #>, #>> (and json_extract_path[_text] with VARIADIC text): a NULL when the
// member, element or path is missing.
const VarString* duet_rt_json_object_field(const VarString* json, const VarString* key);
const VarString* duet_rt_json_object_field_text(const VarString* json, const VarString* key);
const VarString* duet_rt_json_array_element(const VarString* json, int32_t index);
const VarString* duet_rt_json_array_element_text(const VarString* json, int32_t index);
const VarString* duet_rt_json_extract_path(const VarString* json, const VarString* path);
const VarString* duet_rt_json_extract_path_text(const VarString* json, const VarString* path);
const VarString* duet_rt_jsonb_object_field(const VarString* jsonb, const VarString* key);
const VarString* duet_rt_jsonb_object_field_text(const VarString* jsonb, const VarString* key);
const VarString* duet_rt_jsonb_array_element(const VarString* jsonb, int32_t index);
const VarString* duet_rt_jsonb_array_element_text(const VarString* jsonb, int32_t index);
const VarString* duet_rt_jsonb_extract_path(const VarString* jsonb, const VarString* path);
const VarString* duet_rt_jsonb_extract_path_text(const VarString* jsonb, const VarString* path);

// jsonb's btree comparison (= <> < <= > >=), @>, <@, ?, ?|, ?&.
int32_t duet_rt_jsonb_cmp(const VarString* a, const VarString* b);
bool duet_rt_jsonb_contains(const VarString* a, const VarString* b);
bool duet_rt_jsonb_contained(const VarString* a, const VarString* b);
bool duet_rt_jsonb_exists(const VarString* jsonb, const VarString* key);
bool duet_rt_jsonb_exists_any(const VarString* jsonb, const VarString* keys);
bool duet_rt_jsonb_exists_all(const VarString* jsonb, const VarString* keys);

// ||, - text, - integer, - text[], #-, jsonb_set (create_missing true without the fourth
// argument), jsonb_insert (insert_after false without it).
const VarString* duet_rt_jsonb_concat(const VarString* a, const VarString* b);
const VarString* duet_rt_jsonb_delete(const VarString* jsonb, const VarString* key);
const VarString* duet_rt_jsonb_delete_index(const VarString* jsonb, int32_t index);
const VarString* duet_rt_jsonb_delete_keys(const VarString* jsonb, const VarString* keys);
const VarString* duet_rt_jsonb_delete_path(const VarString* jsonb, const VarString* path);
const VarString* duet_rt_jsonb_set(const VarString* jsonb, const VarString* path, const VarString* value,
                                   bool createMissing);
const VarString* duet_rt_jsonb_set_create(const VarString* jsonb, const VarString* path, const VarString* value);
const VarString* duet_rt_jsonb_insert(const VarString* jsonb, const VarString* path, const VarString* value,
                                      bool insertAfter);
const VarString* duet_rt_jsonb_insert_before(const VarString* jsonb, const VarString* path, const VarString* value);

// json_typeof, json_array_length, json_strip_nulls and their jsonb forms; jsonb_pretty.
const VarString* duet_rt_json_typeof(const VarString* json);
const VarString* duet_rt_jsonb_typeof(const VarString* jsonb);
int32_t duet_rt_json_array_length(const VarString* json);
int32_t duet_rt_jsonb_array_length(const VarString* jsonb);
const VarString* duet_rt_json_strip_nulls(const VarString* json);
const VarString* duet_rt_jsonb_strip_nulls(const VarString* jsonb);
const VarString* duet_rt_jsonb_pretty(const VarString* jsonb);

// json_build_object/json_build_array and the jsonb forms over their arguments as JSON texts
// (a text[], NULL elements for NULL arguments); the forms without arguments.
const VarString* duet_rt_json_build_object(const VarString* jsonArgs);
const VarString* duet_rt_json_build_array(const VarString* jsonArgs);
const VarString* duet_rt_jsonb_build_object(const VarString* jsonArgs);
const VarString* duet_rt_jsonb_build_array(const VarString* jsonArgs);
const VarString* duet_rt_json_build_object_empty();
const VarString* duet_rt_json_build_array_empty();
const VarString* duet_rt_jsonb_build_object_empty();
const VarString* duet_rt_jsonb_build_array_empty();
// json_object(text[]) of key/value pairs, json_object(keys text[], values text[]); jsonb_object.
const VarString* duet_rt_json_object(const VarString* pairs);
const VarString* duet_rt_json_object_keys_values(const VarString* keys, const VarString* values);
const VarString* duet_rt_jsonb_object(const VarString* pairs);
const VarString* duet_rt_jsonb_object_keys_values(const VarString* keys, const VarString* values);
}
