// Array functions that print elements, and so need the session's TypeContext.
#pragma once
#include "compiler/runtime/query_runtime.h"

extern "C" {
// array_to_string(array, delimiter [, null_string]): the elements' text joined by the
// delimiter; NULL elements are left out, or printed as null_string.
const duet::VarString* duet_q_array_to_string(duet::rt::QueryContext* ctx, const duet::VarString* array,
                                              const duet::VarString* delimiter);
// array_remove(array, element): the array without the elements equal to `element` (a
// pointer to its physical representation, of the array's element type: anycompatible),
// or without its NULL elements when `element` is null (array_remove(a, NULL)).
const duet::VarString* duet_q_array_remove(duet::rt::QueryContext* ctx, const duet::VarString* array,
                                           const void* element);
// f(..., VARIADIC array) of a VARIADIC "any" built-in (concat, format, json_build_array):
// the array's elements as its "any" arguments, in the text[] those functions take - each
// element's output text (`json`: its JSON text, to_json's), a NULL element NULL.
const duet::VarString* duet_q_array_element_texts(duet::rt::QueryContext* ctx, const duet::VarString* array, bool json);
const duet::VarString* duet_q_array_to_string_nulls(duet::rt::QueryContext* ctx, const duet::VarString* array,
                                                    const duet::VarString* delimiter,
                                                    const duet::VarString* nullString);
}
