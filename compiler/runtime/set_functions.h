// The built-in set-returning functions (rows with returnsSet in
// compiler/functions/builtin_functions.cpp): each returns its rows, one column of the row's
// result type laid out as `layout`, in a buffer of the query's (duet_q_buffer_new), which
// FunctionScan and ProjectSet loop over as they do over a routine's rows.
#pragma once
#include <cstdint>

#include "compiler/runtime/query_runtime.h"
#include "engine/types/value.h"

extern "C" {
// regexp_matches(s, pattern [, flags]): a text[] per match (every match with g).
duet::rt::TupleBuffer* duet_q_regexp_matches(duet::rt::QueryContext* ctx, const duet::VarString* s,
                                             const duet::VarString* pattern, const duet::TupleLayout* layout);
duet::rt::TupleBuffer* duet_q_regexp_matches_flags(duet::rt::QueryContext* ctx, const duet::VarString* s,
                                                   const duet::VarString* pattern, const duet::VarString* flags,
                                                   const duet::TupleLayout* layout);
// regexp_split_to_table(s, pattern [, flags]): a text per piece.
duet::rt::TupleBuffer* duet_q_regexp_split_to_table(duet::rt::QueryContext* ctx, const duet::VarString* s,
                                                    const duet::VarString* pattern, const duet::TupleLayout* layout);
duet::rt::TupleBuffer* duet_q_regexp_split_to_table_flags(duet::rt::QueryContext* ctx, const duet::VarString* s,
                                                          const duet::VarString* pattern, const duet::VarString* flags,
                                                          const duet::TupleLayout* layout);
}
