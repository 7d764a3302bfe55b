// Recovery (docs/logging.md): a logged transaction runs again, statement by statement,
// through the same entry points a client uses, with the settings, statement times, random
// state, clock readings, transaction id and advisory lock answers it first ran with. Its answers go nowhere.
#include "engine/error.h"
#include "session/sql_session.h"

namespace duet {

void SqlSession::replay(const LoggedTransaction& t) {
  IgnoringSink sink;
  // One statement ran on its own (it may be one that refuses a block, CREATE DATABASE);
  // several ran in a block or in one multi-statement Query, which commit as one.
  bool block = t.statements.size() > 1;
  state_.txn.replayTransactionStart(t.startTimestamp, t.transactionId);
  if (block) simpleQuery("BEGIN", sink);
  for (const LoggedStatement& s : t.statements) {
    // Most statements ran with the settings of the one before: applied only on a change.
    if (replayedSettings_ != s.settings) {
      state_.settings.resetAll();
      for (const auto& [name, value] : s.settings) {
        try {
          state_.settings.set(name, value, false);
        } catch (const SqlError&) {
          // A setting that can no longer be set changes nothing the statement computes.
        }
      }
      state_.settings.set("duet.snapshot_routing", "never", false);  // no snapshots during recovery
      replayedSettings_ = s.settings;
    }
    state_.txn.replayStatement(s.statementTimestamp, s.randomState, s.clockOffsets);
    state_.advisoryLocks.replayStatement(s.lockOutcomes);
    if (s.params.empty()) {
      if (simpleQuery(s.sql, sink) == QueryState::CopyIn) copyInData(s.copyData.value_or(""), sink);
      continue;
    }
    parse("", s.sql, s.paramTypeOids);
    std::vector<BindParam> params;
    for (const auto& p : s.params) params.push_back(BindParam{p, 0});
    bind("", "", params, {});
    execute("", 0, sink);
    if (!block) sync();
  }
  if (block) simpleQuery("COMMIT", sink);
}

void SqlSession::replayCall(const std::vector<LoggedTransaction>& parts) {
  calls_.replayNextCall(parts);
  try {
    replay(parts.front());
  } catch (const SqlError&) {
    // Stopped after the last transaction logged: the rest never committed.
    if (!calls_.takeReplayStopped()) throw;
    if (!parts.front().statements.front().params.empty()) sync();
  }
}

}  // namespace duet
