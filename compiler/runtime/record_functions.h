// What generated code calls for record values (engine/types/record.h): ROW(...) built from
// a tuple of its fields, and `(r).field` read into a one-field tuple, so the code on
// either side is the ordinary tuple code of every other value.
#pragma once
#include <cstdint>

#include "compiler/runtime/query_runtime.h"
#include "engine/types/value.h"

extern "C" {
// A record of row type `rowType` (its SqlType's typmod) from `tuple`, laid out as `layout`
// (one column per field), in the statement's arena.
const duet::VarString* duet_q_record_build(duet::rt::QueryContext* ctx, const uint8_t* tuple,
                                           const duet::TupleLayout* layout, int32_t rowType);
// Field `index` of `record` into column 0 of `tuple`, laid out as `layout` (the field's
// type): its value or its NULL flag.
void duet_q_record_field(duet::rt::QueryContext* ctx, const duet::VarString* record, int32_t index, uint8_t* tuple,
                         const duet::TupleLayout* layout);
// `record IS NULL` (notNull false): every field is NULL; `record IS NOT NULL` (notNull
// true): no field is. The caller answers for a NULL record.
bool duet_q_record_null_test(duet::rt::QueryContext* ctx, const duet::VarString* record, bool notNull);
}
