#include "compiler/runtime/set_functions.h"

#include <cstring>

#include "engine/types/array.h"
#include "engine/types/regex.h"

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

}  // extern "C"
