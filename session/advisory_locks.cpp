#include "session/advisory_locks.h"

#include <algorithm>

#include "engine/error.h"
#include "session/session_state.h"

namespace duet {

// ---- AdvisoryLockTable

bool AdvisoryLockTable::acquire(const AdvisoryLockTag& tag, Holder holder, bool shared, Scope scope) {
  std::map<Holder, Holds>& holders = locks_[tag];
  for (const auto& [other, holds] : holders)
    if (other != holder && (holds.holds(false) || (!shared && holds.holds(true)))) return false;
  Holds& mine = holders[holder];
  if (scope == Scope::Session) {
    ++mine.session[shared];
  } else {
    ++mine.transaction[shared];
    transactionOrder_[holder].emplace_back(tag, shared);
  }
  return true;
}

void AdvisoryLockTable::drop(const AdvisoryLockTag& tag, Holder holder, bool shared, Scope scope) {
  auto lock = locks_.find(tag);
  auto mine = lock->second.find(holder);
  --(scope == Scope::Session ? mine->second.session : mine->second.transaction)[shared];
  if (!mine->second.empty()) return;
  lock->second.erase(mine);
  if (lock->second.empty()) locks_.erase(lock);
}

bool AdvisoryLockTable::releaseSessionHold(const AdvisoryLockTag& tag, Holder holder, bool shared) {
  auto lock = locks_.find(tag);
  if (lock == locks_.end()) return false;
  auto mine = lock->second.find(holder);
  if (mine == lock->second.end() || mine->second.session[shared] == 0) return false;
  drop(tag, holder, shared, Scope::Session);
  return true;
}

void AdvisoryLockTable::releaseSessionHolds(Holder holder) {
  for (auto lock = locks_.begin(); lock != locks_.end();) {
    auto mine = lock->second.find(holder);
    if (mine != lock->second.end()) {
      mine->second.session[0] = mine->second.session[1] = 0;
      if (mine->second.empty()) lock->second.erase(mine);
    }
    lock = lock->second.empty() ? locks_.erase(lock) : std::next(lock);
  }
}

size_t AdvisoryLockTable::transactionHolds(Holder holder) const {
  auto order = transactionOrder_.find(holder);
  return order == transactionOrder_.end() ? 0 : order->second.size();
}

void AdvisoryLockTable::releaseTransactionHolds(Holder holder, size_t keep) {
  auto order = transactionOrder_.find(holder);
  if (order == transactionOrder_.end()) return;
  std::vector<std::pair<AdvisoryLockTag, bool>>& taken = order->second;
  while (taken.size() > keep) {
    drop(taken.back().first, holder, taken.back().second, Scope::Transaction);
    taken.pop_back();
  }
  if (taken.empty()) transactionOrder_.erase(order);
}

std::vector<AdvisoryLockTable::Held> AdvisoryLockTable::held() const {
  std::vector<Held> out;
  for (const auto& [tag, holders] : locks_)
    for (const auto& [holder, holds] : holders)
      for (bool shared : {false, true})
        if (holds.holds(shared)) out.push_back(Held{tag, holder, shared});
  return out;
}

// ---- SessionAdvisoryLocks

AdvisoryLockTag SessionAdvisoryLocks::tag(rt::AdvisoryLockKey key) const {
  return AdvisoryLockTag{state_.db->oid, key.value, key.pair};
}

std::optional<bool> SessionAdvisoryLocks::replayed() {
  if (!replay_) return std::nullopt;
  return replayNext_ < replay_->size() ? (*replay_)[replayNext_++] : true;
}

bool SessionAdvisoryLocks::lock(rt::AdvisoryLockKey key, bool shared, bool transactionScope, bool wait) {
  std::optional<bool> granted = replayed();
  if (!granted) {
    using Scope = AdvisoryLockTable::Scope;
    granted = state_.engine.advisoryLocks.acquire(tag(key), &state_, shared,
                                                  transactionScope ? Scope::Transaction : Scope::Session);
  }
  outcomes_.push_back(*granted);
  if (!*granted && wait) {
    throw SqlError(sqlstate::kLockNotAvailable, "could not obtain advisory lock: another session holds it",
                   "DuetDB runs one transaction at a time, so a statement cannot wait for a lock that another "
                   "session holds.",
                   "Use pg_try_advisory_lock() and try again later.");
  }
  return *granted;
}

bool SessionAdvisoryLocks::unlock(rt::AdvisoryLockKey key, bool shared) {
  std::optional<bool> released = replayed();
  if (!released) released = state_.engine.advisoryLocks.releaseSessionHold(tag(key), &state_, shared);
  outcomes_.push_back(*released);
  if (!*released)
    state_.services.notice(
        "WARNING", shared ? "you don't own a lock of type ShareLock" : "you don't own a lock of type ExclusiveLock");
  return *released;
}

void SessionAdvisoryLocks::unlockAll() {
  if (!replay_) state_.engine.advisoryLocks.releaseSessionHolds(&state_);
}

void SessionAdvisoryLocks::replayStatement(std::vector<bool> outcomes) {
  replay_ = std::move(outcomes);
  replayNext_ = 0;
}

size_t SessionAdvisoryLocks::savepointMark() const { return state_.engine.advisoryLocks.transactionHolds(&state_); }

void SessionAdvisoryLocks::rollbackToSavepoint(size_t mark) {
  state_.engine.advisoryLocks.releaseTransactionHolds(&state_, mark);
}

void SessionAdvisoryLocks::transactionEnded() {
  state_.engine.advisoryLocks.releaseTransactionHolds(&state_, 0);
  outcomes_.clear();
}

void SessionAdvisoryLocks::sessionEnded() {
  state_.engine.advisoryLocks.releaseTransactionHolds(&state_, 0);
  state_.engine.advisoryLocks.releaseSessionHolds(&state_);
}

}  // namespace duet
