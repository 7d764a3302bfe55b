// txid_current() and the advisory lock functions: generated code calls these, and they ask
// the session (rt::SessionServices), which owns the transaction's id and the session's
// locks (session/transaction_state.h, session/advisory_locks.h). Each lock function takes
// a bigint key or a pair of int4 keys (the _pair symbols), as PostgreSQL's do; the ones
// PostgreSQL declares void return '' (text), as pg_notify does.
#pragma once
#include <cstdint>

#include "compiler/runtime/query_runtime.h"

// pg_[try_]advisory_[xact_]lock[_shared] for one lock kind: `name` is the function's
// name after "pg_".
#define DUET_DECLARE_ADVISORY_LOCK_FUNCTIONS(name)                                                      \
  const duet::VarString* duet_q_##name(duet::rt::QueryContext* ctx, int64_t key);                       \
  const duet::VarString* duet_q_##name##_pair(duet::rt::QueryContext* ctx, int32_t key1, int32_t key2); \
  bool duet_q_try_##name(duet::rt::QueryContext* ctx, int64_t key);                                     \
  bool duet_q_try_##name##_pair(duet::rt::QueryContext* ctx, int32_t key1, int32_t key2);

extern "C" {
// txid_current(): the transaction's id, the same for every call in it.
int64_t duet_q_txid_current(duet::rt::QueryContext* ctx);

DUET_DECLARE_ADVISORY_LOCK_FUNCTIONS(advisory_lock)
DUET_DECLARE_ADVISORY_LOCK_FUNCTIONS(advisory_lock_shared)
DUET_DECLARE_ADVISORY_LOCK_FUNCTIONS(advisory_xact_lock)
DUET_DECLARE_ADVISORY_LOCK_FUNCTIONS(advisory_xact_lock_shared)

// pg_advisory_unlock[_shared]: whether the session held the lock in that mode.
bool duet_q_advisory_unlock(duet::rt::QueryContext* ctx, int64_t key);
bool duet_q_advisory_unlock_pair(duet::rt::QueryContext* ctx, int32_t key1, int32_t key2);
bool duet_q_advisory_unlock_shared(duet::rt::QueryContext* ctx, int64_t key);
bool duet_q_advisory_unlock_shared_pair(duet::rt::QueryContext* ctx, int32_t key1, int32_t key2);
// pg_advisory_unlock_all() (asyncpg's connection reset calls it).
const duet::VarString* duet_q_advisory_unlock_all(duet::rt::QueryContext* ctx);
}
