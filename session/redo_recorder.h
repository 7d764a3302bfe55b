// The redo log's record of the running transaction (docs/logging.md): each statement that
// changed something, as a LoggedStatement with the inputs it ran with - its text, explicit
// parameters as text, the settings that affect it, its statement timestamp, random state
// and clock readings - taken as it succeeds, and handed to the engine's commit log at
// commit (TransactionControl). Needs only the SessionState.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "session/session_state.h"
#include "session/statement.h"
#include "session/transaction_record.h"

namespace duet {

// Fills in whose transaction it is: database, user, now(), the server run, and the
// temporary objects' session (docs/logging.md, "Temporary tables").
void stampTransaction(const SessionState& state, LoggedTransaction& t);

class RedoRecorder {
 public:
  explicit RedoRecorder(SessionState& state) : state_(state) {}

  // What a statement's entry needs from the moment it starts, before it reads the clock or
  // draws random numbers.
  struct StatementInputs {
    int64_t statementTimestamp;
    uint64_t randomState;
    size_t clockReadings;    // clock readings before it began
    size_t lockOutcomes;     // advisory lock answers before it began
    uint64_t transactionId;  // the transaction's id then (0: none yet)
  };
  StatementInputs statementInputs() {
    TransactionState& txn = state_.txn;
    return StatementInputs{txn.statementTimestamp(), *txn.randomState(), txn.clock()->readings.size(),
                           state_.advisoryLocks.outcomes().size(), txn.assignedTransactionId()};
  }
  // Whether the statement gave the transaction its id: it is logged then, even if it
  // changed nothing, so that recovery knows the id was handed out.
  bool tookTransactionId(const StatementInputs& inputs) const {
    return state_.txn.assignedTransactionId() != inputs.transactionId;
  }
  // The entry of a statement that succeeded; `params` is its parameter tuple (null for a
  // utility statement); `explained`: the $n values EXPLAIN ANALYZE ran it with.
  LoggedStatement loggedStatement(const Statement& st, const uint8_t* params, const StatementInputs& inputs,
                                  const TextParams* explained = nullptr);
  void add(LoggedStatement statement) { logged_.statements.push_back(std::move(statement)); }
  // Whether the transaction has recorded nothing yet.
  bool empty() const { return logged_.statements.empty(); }
  void clear() {
    logged_.statements.clear();
    logged_.callTransaction = 0;
    logged_.callEnded = false;
  }
  // The record is transaction `number` of a CALL that ends transactions (CallTransactions).
  void setCallTransaction(uint32_t number, bool ended) {
    logged_.callTransaction = number;
    logged_.callEnded = ended;
  }
  // ROLLBACK TO SAVEPOINT: the statements after the first `n` are undone.
  size_t size() const { return logged_.statements.size(); }
  void truncate(size_t n) { logged_.statements.resize(std::min(n, logged_.statements.size())); }
  // The cursors whose statements (LoggedStatement::cursor) are after the first `n`.
  std::set<std::string, std::less<>> cursorsAfter(size_t n) const {
    std::set<std::string, std::less<>> names;
    for (size_t i = n; i < logged_.statements.size(); ++i)
      if (!logged_.statements[i].cursor.empty()) names.insert(logged_.statements[i].cursor);
    return names;
  }
  // The cursor statements (LoggedStatement::cursor) of the record, but for those of the
  // cursors in `used` (WHERE CURRENT OF needs them replayed), leave it.
  void keepCursorStatements(const std::set<std::string, std::less<>>& used) {
    std::erase_if(logged_.statements,
                  [&](const LoggedStatement& s) { return !s.cursor.empty() && !used.count(s.cursor); });
  }
  // At commit, before the changes become permanent, when the engine has a commit log and
  // the transaction recorded something: the record goes to the log. Throws the log's
  // refusal (54000: over its size limit).
  void appendToLog();

 private:
  SessionState& state_;
  LoggedTransaction logged_;
  // The settings each logged statement records, as of Settings::version() (loggedStatement).
  std::vector<std::pair<std::string, std::string>> loggedSettings_;
  uint64_t loggedSettingsVersion_ = 0;  // Settings::version() is never 0
};

}  // namespace duet
