#include "compiler/runtime/set_functions.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

#include "engine/error.h"
#include "engine/types/array.h"
#include "engine/types/datetime_functions.h"
#include "engine/types/numeric.h"
#include "engine/types/record.h"
#include "engine/types/regex.h"
#include "engine/types/sql_keywords.h"

using namespace duet;
using duet::rt::QueryContext;
using duet::rt::TupleBuffer;

namespace {

// Appends a row of one string-like value (text or an array) that is not NULL.
void appendValue(TupleBuffer* rows, const TupleLayout* layout, const VarString* value) {
  alignas(16) uint8_t tuple[64] = {};  // null flag at byte 0, the pointer at offsets[0]
  std::memcpy(tuple + layout->offsets[0], &value, sizeof value);
  rows->append(tuple);
}

// Appends a row of one value of `size` bytes (its physical representation), or a NULL row.
void appendScalar(TupleBuffer* rows, const TupleLayout* layout, const void* value, size_t size) {
  alignas(16) uint8_t tuple[64] = {};
  if (value)
    std::memcpy(tuple + layout->offsets[0], value, size);
  else
    tuple[layout->nullOffset(0)] = 1;
  rows->append(tuple);
}

[[noreturn]] void raiseZeroStep() { throw SqlError(sqlstate::kInvalidParameterValue, "step size cannot equal zero"); }

// A series can be long: the statement's cancel and statement_timeout are checked as it grows.
void checkCancelEvery(QueryContext* ctx, const TupleBuffer* rows) {
  if ((rows->size() & 4095) == 0) duet_q_check_cancel(ctx);
}

template <class Int>
TupleBuffer* integerSeries(QueryContext* ctx, Int start, Int stop, Int step, const TupleLayout* layout) {
  if (step == 0) raiseZeroStep();
  TupleBuffer* rows = duet_q_buffer_new(ctx, layout);
  for (Int v = start; step > 0 ? v <= stop : v >= stop;) {
    appendScalar(rows, layout, &v, sizeof v);
    checkCancelEvery(ctx, rows);
    if (__builtin_add_overflow(v, step, &v)) break;  // the next value is past any stop
  }
  return rows;
}

TupleBuffer* numericSeries(QueryContext* ctx, NumericRep start, NumericRep stop, NumericRep step,
                           const TupleLayout* layout) {
  int direction = numericCompare(step, makeNumeric(0, 0));
  if (direction == 0) raiseZeroStep();
  TupleBuffer* rows = duet_q_buffer_new(ctx, layout);
  NumericRep v = start;
  while (direction > 0 ? numericCompare(v, stop) <= 0 : numericCompare(v, stop) >= 0) {
    appendScalar(rows, layout, &v, sizeof v);
    checkCancelEvery(ctx, rows);
    v = numericAdd(v, step);
  }
  return rows;
}

template <class Add>
TupleBuffer* timestampSeries(QueryContext* ctx, int64_t start, int64_t stop, IntervalRep stepRep,
                             const TupleLayout* layout, Add add) {
  Interval step = unpackInterval(stepRep);
  int direction = intervalCompare(step, Interval{});
  if (direction == 0) raiseZeroStep();
  TupleBuffer* rows = duet_q_buffer_new(ctx, layout);
  for (int64_t v = start; direction > 0 ? v <= stop : v >= stop; v = add(v, step)) {
    appendScalar(rows, layout, &v, sizeof v);
    checkCancelEvery(ctx, rows);
  }
  return rows;
}

TupleBuffer* matches(QueryContext* ctx, const VarString* s, const VarString* p, std::string_view flags,
                     const TupleLayout* layout) {
  TupleBuffer* rows = duet_q_buffer_new(ctx, layout);
  for (const auto& groups : regexpMatches(s->view(), p->view(), flags))
    appendValue(rows, layout, makeTextArray(groups, statementArena()));
  return rows;
}

TupleBuffer* split(QueryContext* ctx, const VarString* s, const VarString* p, std::string_view flags,
                   const TupleLayout* layout) {
  TupleBuffer* rows = duet_q_buffer_new(ctx, layout);
  for (std::string_view piece : regexpSplit(s->view(), p->view(), flags, "regexp_split_to_table"))
    appendValue(rows, layout, statementArena().makeString(piece));
  return rows;
}

// The subscripts of dimension `dim`, counting from `first`.
TupleBuffer* subscripts(QueryContext* ctx, const VarString* array, int32_t dim, bool reverse, int32_t first,
                        const TupleLayout* layout) {
  TupleBuffer* rows = duet_q_buffer_new(ctx, layout);
  int32_t n = dim == 1 ? static_cast<int32_t>(ArrayView(array).size()) : 0;
  for (int32_t i = 0; i < n; ++i) {
    int32_t subscript = first + (reverse ? n - 1 - i : i);
    appendScalar(rows, layout, &subscript, sizeof subscript);
    checkCancelEvery(ctx, rows);
  }
  return rows;
}

}  // namespace

extern "C" {

TupleBuffer* duet_q_regexp_matches(QueryContext* ctx, const VarString* s, const VarString* p,
                                   const TupleLayout* layout) {
  return matches(ctx, s, p, "", layout);
}
TupleBuffer* duet_q_regexp_matches_flags(QueryContext* ctx, const VarString* s, const VarString* p,
                                         const VarString* flags, const TupleLayout* layout) {
  return matches(ctx, s, p, flags->view(), layout);
}
TupleBuffer* duet_q_regexp_split_to_table(QueryContext* ctx, const VarString* s, const VarString* p,
                                          const TupleLayout* layout) {
  return split(ctx, s, p, "", layout);
}
TupleBuffer* duet_q_regexp_split_to_table_flags(QueryContext* ctx, const VarString* s, const VarString* p,
                                                const VarString* flags, const TupleLayout* layout) {
  return split(ctx, s, p, flags->view(), layout);
}

TupleBuffer* duet_q_pg_partition_ancestors(QueryContext* ctx, int64_t, const TupleLayout* layout) {
  return duet_q_buffer_new(ctx, layout);
}
TupleBuffer* duet_q_generate_series_int4(QueryContext* ctx, int32_t start, int32_t stop, const TupleLayout* layout) {
  return integerSeries<int32_t>(ctx, start, stop, 1, layout);
}
TupleBuffer* duet_q_generate_series_int4_step(QueryContext* ctx, int32_t start, int32_t stop, int32_t step,
                                              const TupleLayout* layout) {
  return integerSeries(ctx, start, stop, step, layout);
}
TupleBuffer* duet_q_generate_series_int8(QueryContext* ctx, int64_t start, int64_t stop, const TupleLayout* layout) {
  return integerSeries<int64_t>(ctx, start, stop, 1, layout);
}
TupleBuffer* duet_q_generate_series_int8_step(QueryContext* ctx, int64_t start, int64_t stop, int64_t step,
                                              const TupleLayout* layout) {
  return integerSeries(ctx, start, stop, step, layout);
}
TupleBuffer* duet_q_generate_series_numeric(QueryContext* ctx, NumericRep start, NumericRep stop,
                                            const TupleLayout* layout) {
  return numericSeries(ctx, start, stop, makeNumeric(1, 0), layout);
}
TupleBuffer* duet_q_generate_series_numeric_step(QueryContext* ctx, NumericRep start, NumericRep stop, NumericRep step,
                                                 const TupleLayout* layout) {
  return numericSeries(ctx, start, stop, step, layout);
}
TupleBuffer* duet_q_generate_series_timestamp(QueryContext* ctx, int64_t start, int64_t stop, IntervalRep step,
                                              const TupleLayout* layout) {
  return timestampSeries(ctx, start, stop, step, layout,
                         [](int64_t ts, const Interval& span) { return timestampPlusInterval(ts, span); });
}
TupleBuffer* duet_q_generate_series_timestamptz(QueryContext* ctx, int64_t start, int64_t stop, IntervalRep step,
                                                const TupleLayout* layout) {
  static const TypeContext kUtc;
  const TypeContext& tc = ctx->typeContext ? *ctx->typeContext : kUtc;
  return timestampSeries(ctx, start, stop, step, layout,
                         [&](int64_t ts, const Interval& span) { return timestampTzPlusInterval(ts, span, tc); });
}

TupleBuffer* duet_q_pg_get_keywords(QueryContext* ctx, const TupleLayout* layout) {
  TupleBuffer* rows = duet_q_buffer_new(ctx, layout);
  Arena& arena = statementArena();
  std::vector<SqlType> fieldTypes = recordFieldTypes(layout->types[0]);
  for (const SqlKeyword& k : sqlKeywords()) {
    const char* code = k.category == KeywordCategory::Reserved       ? "R"
                       : k.category == KeywordCategory::TypeFuncName ? "T"
                       : k.category == KeywordCategory::ColName      ? "C"
                                                                     : "U";
    const char* description = k.category == KeywordCategory::Reserved       ? "reserved"
                              : k.category == KeywordCategory::TypeFuncName ? "reserved (can be function or type name)"
                              : k.category == KeywordCategory::ColName ? "unreserved (cannot be function or type name)"
                                                                       : "unreserved";
    const VarString* word = arena.makeString(k.word);
    const VarString* catcode = arena.makeString(code);
    uint8_t bare = k.bareLabel ? 1 : 0;
    const VarString* catdesc = arena.makeString(description);
    const VarString* baredesc = arena.makeString(k.bareLabel ? "can be bare label" : "requires AS");
    const void* fields[5] = {&word, &catcode, &bare, &catdesc, &baredesc};
    uint8_t nulls[5] = {};
    const VarString* record = makeRecord(layout->types[0], fieldTypes, fields, nulls, arena);
    appendScalar(rows, layout, &record, sizeof record);
  }
  return rows;
}

TupleBuffer* duet_q_generate_subscripts_reverse(QueryContext* ctx, const VarString* array, int32_t dim, bool reverse,
                                                const TupleLayout* layout) {
  return subscripts(ctx, array, dim, reverse, 1, layout);
}

TupleBuffer* duet_q_generate_subscripts(QueryContext* ctx, const VarString* array, int32_t dim,
                                        const TupleLayout* layout) {
  return subscripts(ctx, array, dim, false, 1, layout);
}

TupleBuffer* duet_q_vector_subscripts_reverse(QueryContext* ctx, const VarString* array, int32_t dim, bool reverse,
                                              const TupleLayout* layout) {
  return subscripts(ctx, array, dim, reverse, 0, layout);
}

TupleBuffer* duet_q_vector_subscripts(QueryContext* ctx, const VarString* array, int32_t dim,
                                      const TupleLayout* layout) {
  return subscripts(ctx, array, dim, false, 0, layout);
}

TupleBuffer* duet_q_pg_expandarray(QueryContext* ctx, const VarString* array, const TupleLayout* layout) {
  TupleBuffer* rows = duet_q_buffer_new(ctx, layout);
  ArrayView view(array);
  std::vector<SqlType> fieldTypes = recordFieldTypes(layout->types[0]);
  alignas(16) uint8_t element[16];
  for (uint32_t i = 0, n = view.size(); i < n; ++i) {
    std::memset(element, 0, sizeof element);
    if (!view.isNull(i)) view.load(i, element);
    int32_t position = static_cast<int32_t>(i) + 1;
    const void* fields[2] = {element, &position};
    uint8_t nulls[2] = {static_cast<uint8_t>(view.isNull(i) ? 1 : 0), 0};
    const VarString* record = makeRecord(layout->types[0], fieldTypes, fields, nulls, statementArena());
    appendScalar(rows, layout, &record, sizeof record);
    checkCancelEvery(ctx, rows);
  }
  return rows;
}

TupleBuffer* duet_q_unnest_zip(QueryContext* ctx, const VarString* arrays, const TupleLayout* layout) {
  TupleBuffer* rows = duet_q_buffer_new(ctx, layout);
  std::vector<SqlType> fieldTypes = recordFieldTypes(layout->types[0]);
  RecordView input(arrays);
  uint32_t n = std::min<uint32_t>(input.size(), static_cast<uint32_t>(fieldTypes.size()));
  std::vector<const VarString*> columns(n, nullptr);  // null: a NULL array, no elements
  uint32_t longest = 0;
  for (uint32_t c = 0; c < n; ++c) {
    if (input.isNull(c)) continue;
    input.load(c, TypeId::Array, &columns[c]);
    longest = std::max(longest, ArrayView(columns[c]).size());
  }
  std::vector<std::array<uint8_t, 16>> elements(n);
  std::vector<const void*> fields(n);
  std::vector<uint8_t> nulls(n);
  for (uint32_t i = 0; i < longest; ++i) {
    for (uint32_t c = 0; c < n; ++c) {
      elements[c].fill(0);
      nulls[c] = 1;
      if (columns[c] && i < ArrayView(columns[c]).size() && !ArrayView(columns[c]).isNull(i)) {
        ArrayView(columns[c]).load(i, elements[c].data());
        nulls[c] = 0;
      }
      fields[c] = elements[c].data();
    }
    const VarString* record = makeRecord(layout->types[0], fieldTypes, fields.data(), nulls.data(), statementArena());
    appendScalar(rows, layout, &record, sizeof record);
    checkCancelEvery(ctx, rows);
  }
  return rows;
}

TupleBuffer* duet_q_unnest(QueryContext* ctx, const VarString* array, const TupleLayout* layout) {
  TupleBuffer* rows = duet_q_buffer_new(ctx, layout);
  ArrayView view(array);
  alignas(16) uint8_t value[16];
  for (uint32_t i = 0, n = view.size(); i < n; ++i) {
    if (view.isNull(i)) {
      appendScalar(rows, layout, nullptr, 0);
      continue;
    }
    view.load(i, value);
    appendScalar(rows, layout, value, physicalSize(view.elementType()));
    checkCancelEvery(ctx, rows);
  }
  return rows;
}

}  // extern "C"
