#include "compiler/runtime/transaction_functions.h"

using duet::VarString;
using duet::rt::AdvisoryLockKey;
using duet::rt::QueryContext;
using duet::rt::sessionFor;

namespace {

AdvisoryLockKey single(int64_t key) { return AdvisoryLockKey{static_cast<uint64_t>(key), false}; }

AdvisoryLockKey pair(int32_t key1, int32_t key2) {
  return AdvisoryLockKey{(uint64_t{static_cast<uint32_t>(key1)} << 32) | static_cast<uint32_t>(key2), true};
}

bool lock(QueryContext* ctx, AdvisoryLockKey key, bool shared, bool transactionScope, bool wait) {
  return sessionFor(ctx, "pg_advisory_lock()").advisoryLock(key, shared, transactionScope, wait);
}

const VarString* voidResult() { return duet::statementArena().makeString(""); }

}  // namespace

#define DUET_DEFINE_ADVISORY_LOCK_FUNCTIONS(name, shared, transactionScope)              \
  const VarString* duet_q_##name(QueryContext* ctx, int64_t key) {                       \
    lock(ctx, single(key), shared, transactionScope, true);                              \
    return voidResult();                                                                 \
  }                                                                                      \
  const VarString* duet_q_##name##_pair(QueryContext* ctx, int32_t key1, int32_t key2) { \
    lock(ctx, pair(key1, key2), shared, transactionScope, true);                         \
    return voidResult();                                                                 \
  }                                                                                      \
  bool duet_q_try_##name(QueryContext* ctx, int64_t key) {                               \
    return lock(ctx, single(key), shared, transactionScope, false);                      \
  }                                                                                      \
  bool duet_q_try_##name##_pair(QueryContext* ctx, int32_t key1, int32_t key2) {         \
    return lock(ctx, pair(key1, key2), shared, transactionScope, false);                 \
  }

extern "C" {

int64_t duet_q_txid_current(QueryContext* ctx) { return sessionFor(ctx, "txid_current()").transactionId(); }

DUET_DEFINE_ADVISORY_LOCK_FUNCTIONS(advisory_lock, false, false)
DUET_DEFINE_ADVISORY_LOCK_FUNCTIONS(advisory_lock_shared, true, false)
DUET_DEFINE_ADVISORY_LOCK_FUNCTIONS(advisory_xact_lock, false, true)
DUET_DEFINE_ADVISORY_LOCK_FUNCTIONS(advisory_xact_lock_shared, true, true)

bool duet_q_advisory_unlock(QueryContext* ctx, int64_t key) {
  return sessionFor(ctx, "pg_advisory_unlock()").advisoryUnlock(single(key), false);
}
bool duet_q_advisory_unlock_pair(QueryContext* ctx, int32_t key1, int32_t key2) {
  return sessionFor(ctx, "pg_advisory_unlock()").advisoryUnlock(pair(key1, key2), false);
}
bool duet_q_advisory_unlock_shared(QueryContext* ctx, int64_t key) {
  return sessionFor(ctx, "pg_advisory_unlock()").advisoryUnlock(single(key), true);
}
bool duet_q_advisory_unlock_shared_pair(QueryContext* ctx, int32_t key1, int32_t key2) {
  return sessionFor(ctx, "pg_advisory_unlock()").advisoryUnlock(pair(key1, key2), true);
}

const VarString* duet_q_advisory_unlock_all(QueryContext* ctx) {
  sessionFor(ctx, "pg_advisory_unlock_all()").advisoryUnlockAll();
  return voidResult();
}

}  // extern "C"
