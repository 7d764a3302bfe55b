#include "compiler/runtime/changed_rows.h"

#include "compiler/runtime/query_runtime.h"
#include "engine/error.h"

using duet::rt::ChangedRows;
using duet::rt::QueryContext;

extern "C" {

ChangedRows* duet_q_changed_rows_fresh(QueryContext* ctx, ChangedRows* rows) {
  if (!rows) {
    ctx->changedRows.push_back(std::make_unique<ChangedRows>());
    return ctx->changedRows.back().get();
  }
  rows->rows.clear();
  return rows;
}

void duet_q_changed_rows_add(ChangedRows* rows, int64_t row) { rows->rows.insert(row); }

void duet_q_changed_rows_check(const ChangedRows* rows, int64_t row) {
  if (rows->rows.contains(row))
    throw duet::SqlError(duet::sqlstate::kCardinalityViolation,
                         "ON CONFLICT DO UPDATE command cannot affect row a second time", {},
                         "Ensure that no rows proposed for insertion within the same command have duplicate "
                         "constrained values.");
}

}  // extern "C"
