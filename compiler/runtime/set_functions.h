// The built-in set-returning functions (rows with returnsSet in
// compiler/functions/builtin_functions.cpp): each returns its rows, one column of the row's
// result type laid out as `layout`, in a buffer of the query's (duet_q_buffer_new), which
// FunctionScan and ProjectSet loop over as they do over a routine's rows.
#pragma once
#include <cstdint>

#include "compiler/runtime/query_runtime.h"
#include "engine/types/interval.h"
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
// pg_partition_ancestors(regclass): a partition's ancestors and itself; DuetDB has no
// partitions, so no rows (what PostgreSQL answers for a table that is not one). psql's \d
// asks it for the "Referenced by" section.
duet::rt::TupleBuffer* duet_q_pg_partition_ancestors(duet::rt::QueryContext* ctx, int64_t relation,
                                                     const duet::TupleLayout* layout);
// pg_get_keywords(): a record per PostgreSQL 15 keyword (engine/types/sql_keywords.h).
duet::rt::TupleBuffer* duet_q_pg_get_keywords(duet::rt::QueryContext* ctx, const duet::TupleLayout* layout);
// generate_subscripts(array, dim [, reverse]): 1 .. the array's length for dim 1 (in
// reverse when asked), no rows for another dimension.
duet::rt::TupleBuffer* duet_q_generate_subscripts(duet::rt::QueryContext* ctx, const duet::VarString* array,
                                                  int32_t dim, const duet::TupleLayout* layout);
duet::rt::TupleBuffer* duet_q_generate_subscripts_reverse(duet::rt::QueryContext* ctx, const duet::VarString* array,
                                                          int32_t dim, bool reverse, const duet::TupleLayout* layout);
// The same for an int2vector or oidvector, whose subscripts count from 0.
duet::rt::TupleBuffer* duet_q_vector_subscripts(duet::rt::QueryContext* ctx, const duet::VarString* array, int32_t dim,
                                                const duet::TupleLayout* layout);
duet::rt::TupleBuffer* duet_q_vector_subscripts_reverse(duet::rt::QueryContext* ctx, const duet::VarString* array,
                                                        int32_t dim, bool reverse, const duet::TupleLayout* layout);
// unnest(a, b, ...) in FROM: `arrays` is a record of the arrays; a record per row of
// `layout`'s record type holds element i of each array (NULL past its end, or for a NULL
// array), for i up to the longest's length (PostgreSQL's ROWS FROM (unnest(a), unnest(b))).
duet::rt::TupleBuffer* duet_q_unnest_zip(duet::rt::QueryContext* ctx, const duet::VarString* arrays,
                                         const duet::TupleLayout* layout);
// information_schema._pg_expandarray(array): a record (element, position) per element;
// `layout`'s one column is of that record type.
duet::rt::TupleBuffer* duet_q_pg_expandarray(duet::rt::QueryContext* ctx, const duet::VarString* array,
                                             const duet::TupleLayout* layout);
// generate_series(start, stop [, step]): start, start + step, ... while not past stop; no
// rows when start is already past it; 22023 "step size cannot equal zero". The integer
// forms stop where the next value would overflow; numeric rows keep the larger scale of
// start and step (PostgreSQL's add_var).
duet::rt::TupleBuffer* duet_q_generate_series_int4(duet::rt::QueryContext* ctx, int32_t start, int32_t stop,
                                                   const duet::TupleLayout* layout);
duet::rt::TupleBuffer* duet_q_generate_series_int4_step(duet::rt::QueryContext* ctx, int32_t start, int32_t stop,
                                                        int32_t step, const duet::TupleLayout* layout);
duet::rt::TupleBuffer* duet_q_generate_series_int8(duet::rt::QueryContext* ctx, int64_t start, int64_t stop,
                                                   const duet::TupleLayout* layout);
duet::rt::TupleBuffer* duet_q_generate_series_int8_step(duet::rt::QueryContext* ctx, int64_t start, int64_t stop,
                                                        int64_t step, const duet::TupleLayout* layout);
duet::rt::TupleBuffer* duet_q_generate_series_numeric(duet::rt::QueryContext* ctx, duet::NumericRep start,
                                                      duet::NumericRep stop, const duet::TupleLayout* layout);
duet::rt::TupleBuffer* duet_q_generate_series_numeric_step(duet::rt::QueryContext* ctx, duet::NumericRep start,
                                                           duet::NumericRep stop, duet::NumericRep step,
                                                           const duet::TupleLayout* layout);
// The timestamp forms add the interval as timestamp + interval does (timestamptz: in the
// session's time zone); a step of zero length ('1 mon -30 days' too) is 22023.
duet::rt::TupleBuffer* duet_q_generate_series_timestamp(duet::rt::QueryContext* ctx, int64_t start, int64_t stop,
                                                        duet::IntervalRep step, const duet::TupleLayout* layout);
duet::rt::TupleBuffer* duet_q_generate_series_timestamptz(duet::rt::QueryContext* ctx, int64_t start, int64_t stop,
                                                          duet::IntervalRep step, const duet::TupleLayout* layout);
// unnest(anyarray): a row per element, NULL elements as NULL rows.
duet::rt::TupleBuffer* duet_q_unnest(duet::rt::QueryContext* ctx, const duet::VarString* array,
                                     const duet::TupleLayout* layout);
}
