// Advisory locks (docs/sql.md, "Advisory locks"): locks on numbers an application chooses,
// held by a session until it gives them back (or ends), or by a transaction until it ends.
//
// The executor runs one transaction at a time, so a statement can never wait for a lock
// another session holds: while it waited, the holder could not run the statement that
// gives the lock back. pg_advisory_lock() on such a lock therefore fails with 55P03, and
// pg_try_advisory_lock() answers false, as PostgreSQL's does. A session's own holds never
// conflict with each other, as in PostgreSQL.
//
// Recovery takes no locks: every answer a lock request got is kept with the statement in
// the redo log (LoggedStatement::lockOutcomes), and a replay hands them out in order.
#pragma once
#include <compare>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "compiler/compiler.h"

namespace duet {

struct SessionState;

// One lock, as pg_locks names it: its database and its key (rt::AdvisoryLockKey).
struct AdvisoryLockTag {
  uint32_t database = 0;
  uint64_t key = 0;
  bool pair = false;  // two int4 keys (objsubid 2), else one bigint (objsubid 1)
  auto operator<=>(const AdvisoryLockTag&) const = default;
};

// The engine's advisory locks: who holds which, in which mode, how many times and for how
// long. Only the executor thread uses it.
class AdvisoryLockTable {
 public:
  using Holder = const SessionState*;
  enum class Scope : uint8_t { Session, Transaction };

  // One more hold of `tag` for `holder`; false, taking nothing, when another holder has it
  // in a conflicting mode (an exclusive hold conflicts with every other, a shared one with
  // exclusive ones).
  bool acquire(const AdvisoryLockTag& tag, Holder holder, bool shared, Scope scope);
  // Gives back one session-scope hold; false when `holder` has none in that mode.
  bool releaseSessionHold(const AdvisoryLockTag& tag, Holder holder, bool shared);
  void releaseSessionHolds(Holder holder);
  // The transaction-scope holds of `holder` in the order taken: how many, and giving back
  // all after the first `keep` (ROLLBACK TO a savepoint; 0 when the transaction ends).
  size_t transactionHolds(Holder holder) const;
  void releaseTransactionHolds(Holder holder, size_t keep);

  // pg_locks: one entry per lock, holder and mode held.
  struct Held {
    AdvisoryLockTag tag;
    Holder holder;
    bool shared;
  };
  std::vector<Held> held() const;

 private:
  struct Holds {
    uint32_t session[2] = {0, 0};  // by mode: exclusive, shared
    uint32_t transaction[2] = {0, 0};
    bool holds(bool shared) const { return session[shared] + transaction[shared] > 0; }
    bool empty() const { return !holds(false) && !holds(true); }
  };
  // Takes one hold away (it exists), forgetting the lock when nobody holds it any more.
  void drop(const AdvisoryLockTag& tag, Holder holder, bool shared, Scope scope);

  std::map<AdvisoryLockTag, std::map<Holder, Holds>> locks_;
  std::map<Holder, std::vector<std::pair<AdvisoryLockTag, bool>>> transactionOrder_;  // (tag, shared)
};

// One session's advisory locks: its requests to the engine's table, the answers kept for
// the redo log, and the holds it gives back when its transaction ends, at ROLLBACK TO a
// savepoint, at DISCARD ALL and when it ends.
class SessionAdvisoryLocks {
 public:
  explicit SessionAdvisoryLocks(SessionState& state) : state_(state) {}

  // rt::SessionServices::advisoryLock and advisoryUnlock (55P03, the WARNING).
  bool lock(rt::AdvisoryLockKey key, bool shared, bool transactionScope, bool wait);
  bool unlock(rt::AdvisoryLockKey key, bool shared);
  void unlockAll();  // the session-scope holds (pg_advisory_unlock_all, DISCARD ALL)

  // The answers the running transaction's requests got, in order (the redo log takes each
  // statement's share); a replay hands out `outcomes` to the next statement's requests.
  const std::vector<bool>& outcomes() const { return outcomes_; }
  void replayStatement(std::vector<bool> outcomes);

  size_t savepointMark() const;
  void rollbackToSavepoint(size_t mark);
  void transactionEnded();
  void sessionEnded();

 private:
  AdvisoryLockTag tag(rt::AdvisoryLockKey key) const;
  // The next recorded answer when replaying (granted once the record has no more).
  std::optional<bool> replayed();

  SessionState& state_;
  std::vector<bool> outcomes_;
  std::optional<std::vector<bool>> replay_;  // set in a session that replays the redo log
  size_t replayNext_ = 0;
};

}  // namespace duet
