// The rows one execution of INSERT ... ON CONFLICT DO UPDATE inserted or updated: a later
// proposed row of the same statement may not update one of them again (PostgreSQL's 21000
// "command cannot affect row a second time": the outcome would depend on the order of the
// proposed rows).
#pragma once
#include <cstdint>
#include <unordered_set>

namespace duet::rt {

struct QueryContext;

struct ChangedRows {
  std::unordered_set<int64_t> rows;
};

}  // namespace duet::rt

extern "C" {
// A set emptied for this execution: `rows` as returned last time, or null the first time
// (then one is made in the context).
duet::rt::ChangedRows* duet_q_changed_rows_fresh(duet::rt::QueryContext* ctx, duet::rt::ChangedRows* rows);
void duet_q_changed_rows_add(duet::rt::ChangedRows* rows, int64_t row);
// Raises 21000 when `row` is in the set: the statement changed it already.
void duet_q_changed_rows_check(const duet::rt::ChangedRows* rows, int64_t row);
}
