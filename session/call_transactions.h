// COMMIT and ROLLBACK inside procedures (docs/plpgsql.md, "Transaction control"): a CALL run
// on its own, outside any transaction block, may end the transaction it runs in and go on
// in a new one, as in PostgreSQL; anywhere else that is 2D000. Each transaction the call
// commits is logged as a record of its own holding the CALL, numbered within the call, and
// recovery runs the CALL once for the run of records, ending it after the last transaction
// logged (docs/logging.md, "Procedures that commit").
#pragma once
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "compiler/compiler.h"
#include "session/redo_recorder.h"
#include "session/session_state.h"
#include "session/statement.h"
#include "session/transaction_control.h"

namespace duet {

class CallTransactions {
  struct RunningCall {
    const Statement* statement;
    const uint8_t* params;
    RedoRecorder::StatementInputs inputs;  // as of its running transaction's start
    UndoLog::Mark* mark;
    uint32_t transaction = 1;  // the running one's number in the call
  };

 public:
  CallTransactions(SessionState& state, TransactionControl& transaction, RedoRecorder& redo)
      : state_(state), transaction_(transaction), redo_(redo) {}

  // While a statement runs (StatementRunner): when it is a CALL that may end transactions,
  // what its records need - the statement, its parameter tuple, its inputs - and its undo
  // mark, which a new transaction moves to that transaction's start.
  class Scope {
   public:
    Scope(CallTransactions& calls, const Statement& st, const uint8_t* params,
          const RedoRecorder::StatementInputs& inputs, UndoLog::Mark& mark);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    CallTransactions& calls_;
    std::optional<RunningCall> outer_;  // a statement run inside another (dynamic SQL)
  };
  // The running CALL ended transactions inside: its last transaction is logged even if it
  // changed nothing, numbered, as the call's end (StatementRunner, after the CALL returned).
  bool callEndedTransactions() const { return call_ && call_->transaction > 1; }
  void logCallEnd();

  // rt::SessionServices::endTransactionInCall: 2D000 unless the running statement is such
  // a CALL and no function or EXCEPTION block is running inside it.
  void endTransaction(rt::QueryContext& ctx, bool commit, bool chain);
  // A function runs inside the statement (RoutineCache::callRoutine), or an EXCEPTION
  // block's body: either makes the call atomic meanwhile.
  void enterAtomic() { ++atomic_; }
  void leaveAtomic() { --atomic_; }
  void subtransaction(bool started) { subtransactions_ += started ? 1 : -1; }
  bool inSubtransaction() const { return subtransactions_ > 0; }

  // Recovery: the records of one CALL's transactions, in order. The next CALL run on its
  // own hands out each record's inputs to its transaction in turn and, unless the last one
  // is the call's end, stops right after committing it, with an error that
  // takeReplayStopped() then tells from a real one.
  void replayNextCall(std::vector<LoggedTransaction> parts) { replayParts_ = std::move(parts); }
  bool takeReplayStopped() { return std::exchange(replayStopped_, false); }

 private:
  // The next transaction's recorded inputs, in a replay.
  void replayTransactionStart(uint32_t number);

  SessionState& state_;
  TransactionControl& transaction_;
  RedoRecorder& redo_;
  std::optional<RunningCall> call_;
  int atomic_ = 0;           // functions running inside the call
  int subtransactions_ = 0;  // EXCEPTION block bodies running
  std::vector<LoggedTransaction> replayParts_;
  bool replayStopped_ = false;
};

}  // namespace duet
