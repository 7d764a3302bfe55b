// The json and jsonb functions that need the query's context: values of any type as JSON
// (to_json, to_jsonb, and what json_build_object and the aggregates are given), the
// set-returning functions (their rows in a buffer of the query's, as set_functions.h's)
// and the final functions of json_agg and json_object_agg (Collected aggregates over the
// values already made JSON, aggregate_runtime.h's convention).
#pragma once
#include <cstdint>

#include "compiler/runtime/query_runtime.h"
#include "engine/types/value.h"

extern "C" {
// to_json / to_jsonb: `value` points at the physical representation of a value of type
// (`type`, `element`, `alias`) (TypeId, TypeId of an array's elements, TypeAlias).
const duet::VarString* duet_q_to_json(duet::rt::QueryContext* ctx, const void* value, int32_t type, int32_t element,
                                      int32_t alias);
const duet::VarString* duet_q_to_jsonb(duet::rt::QueryContext* ctx, const void* value, int32_t type, int32_t element,
                                       int32_t alias);

// json_each[_text] and jsonb_each[_text]: a record (key, value) per member of an object
// (the value json, jsonb or text; NULL for a JSON null as text); 22023 on an array or a
// scalar, with PostgreSQL's messages.
duet::rt::TupleBuffer* duet_q_json_each(duet::rt::QueryContext* ctx, const duet::VarString* json,
                                        const duet::TupleLayout* layout);
duet::rt::TupleBuffer* duet_q_json_each_text(duet::rt::QueryContext* ctx, const duet::VarString* json,
                                             const duet::TupleLayout* layout);
duet::rt::TupleBuffer* duet_q_jsonb_each(duet::rt::QueryContext* ctx, const duet::VarString* jsonb,
                                         const duet::TupleLayout* layout);
duet::rt::TupleBuffer* duet_q_jsonb_each_text(duet::rt::QueryContext* ctx, const duet::VarString* jsonb,
                                              const duet::TupleLayout* layout);
// json_array_elements[_text], json_object_keys and their jsonb forms: a row per element or
// key (22023 "cannot extract elements from a scalar" / "from an object", "cannot call
// json_object_keys on a scalar" / "on an array").
duet::rt::TupleBuffer* duet_q_json_array_elements(duet::rt::QueryContext* ctx, const duet::VarString* json,
                                                  const duet::TupleLayout* layout);
duet::rt::TupleBuffer* duet_q_json_array_elements_text(duet::rt::QueryContext* ctx, const duet::VarString* json,
                                                       const duet::TupleLayout* layout);
duet::rt::TupleBuffer* duet_q_jsonb_array_elements(duet::rt::QueryContext* ctx, const duet::VarString* jsonb,
                                                   const duet::TupleLayout* layout);
duet::rt::TupleBuffer* duet_q_jsonb_array_elements_text(duet::rt::QueryContext* ctx, const duet::VarString* jsonb,
                                                        const duet::TupleLayout* layout);
duet::rt::TupleBuffer* duet_q_json_object_keys(duet::rt::QueryContext* ctx, const duet::VarString* json,
                                               const duet::TupleLayout* layout);
duet::rt::TupleBuffer* duet_q_jsonb_object_keys(duet::rt::QueryContext* ctx, const duet::VarString* jsonb,
                                                const duet::TupleLayout* layout);

// json_agg / jsonb_agg (NULLs as null) and json_object_agg / jsonb_object_agg (the key in
// `column`, the value after it; 22023 "field name must not be null").
const duet::VarString* duet_q_agg_json_agg_final(duet::rt::TupleBuffer* rows, uint32_t column, bool* isNull);
const duet::VarString* duet_q_agg_jsonb_agg_final(duet::rt::TupleBuffer* rows, uint32_t column, bool* isNull);
const duet::VarString* duet_q_agg_json_object_agg_final(duet::rt::TupleBuffer* rows, uint32_t column, bool* isNull);
const duet::VarString* duet_q_agg_jsonb_object_agg_final(duet::rt::TupleBuffer* rows, uint32_t column, bool* isNull);
}
