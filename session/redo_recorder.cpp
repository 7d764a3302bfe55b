// The redo log's record of a transaction (docs/logging.md): the entries of its statements
// and the hand-off to the commit log.
#include "session/redo_recorder.h"

namespace duet {

LoggedStatement RedoRecorder::loggedStatement(const Statement& st, const uint8_t* params, const StatementInputs& inputs,
                                              const TextParams* explained) {
  LoggedStatement l;
  const sql::Stmt& stmt = *st.parsed.stmt;
  l.sql = st.sql.substr(stmt.begin, stmt.end - stmt.begin);
  // Lifted literals are in the text; only the extended protocol's $n values are not.
  if (st.plan && params) {
    TextParams text = explicitParamsAsText(st, *st.plan, params, state_.settings.typeContext());
    l.paramTypeOids = std::move(text.typeOids);
    l.params = std::move(text.values);
  } else if (explained) {
    l.paramTypeOids = explained->typeOids;
    l.params = explained->values;
  }
  // Settings that would make a replay refuse or stop what once ran are left out. They
  // change rarely: computed again only when some setting did.
  Settings& settings = state_.settings;
  if (loggedSettingsVersion_ != settings.version()) {
    loggedSettings_.clear();
    for (auto& [name, value] : settings.nonDefaultValues()) {
      if (name == "statement_timeout" || name == "idle_in_transaction_session_timeout" ||
          name == "default_transaction_read_only" || name == "lock_timeout")
        continue;
      loggedSettings_.emplace_back(name, value);
    }
    loggedSettingsVersion_ = settings.version();
  }
  l.settings = loggedSettings_;
  l.statementTimestamp = inputs.statementTimestamp;
  l.randomState = inputs.randomState;
  const std::vector<int64_t>& readings = state_.txn.clock()->readings;
  l.clockOffsets.assign(readings.begin() + static_cast<std::ptrdiff_t>(inputs.clockReadings), readings.end());
  const std::vector<bool>& outcomes = state_.advisoryLocks.outcomes();
  l.lockOutcomes.assign(outcomes.begin() + static_cast<std::ptrdiff_t>(inputs.lockOutcomes), outcomes.end());
  return l;
}

void stampTransaction(const SessionState& state, LoggedTransaction& t) {
  t.database = state.dbName;
  t.user = state.user;
  t.startTimestamp = state.txn.startTimestamp();
  t.transactionId = state.txn.assignedTransactionId();
  t.serverStart = state.engine.startTimestamp;
  // Once a session has had temporary objects, its replay needs a session of its own.
  if (state.tempSessionId.number != 0) {
    t.tempSession = state.tempSessionId.number;
    t.tempSchema = state.tempSchemaName;
  }
}

void RedoRecorder::appendToLog() {
  stampTransaction(state_, logged_);
  state_.engine.commitLog(encodeTransaction(logged_));
}

}  // namespace duet
