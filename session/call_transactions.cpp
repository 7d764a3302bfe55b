// COMMIT and ROLLBACK inside procedures: where a CALL may end its transaction, how each of
// its transactions is logged, and how recovery runs it again.
#include "session/call_transactions.h"

#include <fmt/format.h>

#include "engine/error.h"

namespace duet {

CallTransactions::Scope::Scope(CallTransactions& calls, const Statement& st, const uint8_t* params,
                               const RedoRecorder::StatementInputs& inputs, UndoLog::Mark& mark)
    : calls_(calls), outer_(std::move(calls.call_)) {
  calls.call_.reset();
  // PostgreSQL's non-atomic context: a CALL at the top level, outside a transaction block
  // (a BEGIN block or a multi-statement Query's implicit one). The transaction must also
  // hold nothing before it (the extended protocol's earlier Executes before a Sync): its
  // records then hold the CALL alone, which recovery runs as a call of its own.
  const bool alone = st.parsed.stmt->kind == sql::StmtKind::Call && !calls.state_.txn.inTransactionBlock() &&
                     calls.redo_.empty() && calls.state_.txn.undo().empty();
  if (alone) calls.call_ = RunningCall{&st, params, inputs, &mark};
}

CallTransactions::Scope::~Scope() {
  // PostgreSQL drops auto-held portals when the command ends (PortalErrorCleanup after an
  // error; a FOR loop that ran to its end closed its own).
  if (calls_.call_) calls_.state_.dropAutoHeldCursors();
  calls_.call_ = std::move(outer_);
  if (!calls_.call_) calls_.replayParts_.clear();
}

void CallTransactions::endTransaction(rt::QueryContext& ctx, bool commit, bool chain) {
  if (!call_ || atomic_ > 0)
    throw SqlError(sqlstate::kInvalidTransactionTermination, "invalid transaction termination");
  if (subtransactions_ > 0)
    throw SqlError(sqlstate::kInvalidTransactionTermination,
                   fmt::format("cannot {} while a subtransaction is active", commit ? "commit" : "roll back"));
  RunningCall& call = *call_;
  // The transaction's record: the CALL, whatever this part of it changed (a replay runs the
  // whole call and must know how far it got). A rolled-back part leaves none, not even the
  // sequences it moved: the replay of the call moves them again.
  if (commit && state_.engine.commitLog) {
    redo_.add(redo_.loggedStatement(*call.statement, call.params, call.inputs));
    redo_.setCallTransaction(call.transaction, false);
  }
  const bool readOnly = state_.txn.readOnly();
  state_.holdPinnedCursors();
  transaction_.endTransaction(commit, /*logSequences=*/false);
  const bool lastReplayed = !replayParts_.empty() && call.transaction >= replayParts_.back().callTransaction &&
                            !replayParts_.back().callEnded;
  ++call.transaction;
  if (lastReplayed) {
    // Recovery: the log ends this call here (the server stopped during it, or the rest failed).
    replayParts_.clear();
    replayStopped_ = true;
    throw SqlError(sqlstate::kQueryCanceled, "the call's logged transactions end here");
  }
  replayTransactionStart(call.transaction);
  state_.txn.ensureStarted();
  if (chain) state_.txn.setReadOnly(readOnly);  // AND CHAIN: the same characteristics
  *call.mark = state_.txn.undo().mark();
  call.inputs = redo_.statementInputs();
  ctx.transactionTimestamp = state_.txn.startTimestamp();
}

void CallTransactions::logCallEnd() {
  if (!state_.engine.commitLog) return;
  RunningCall& call = *call_;
  redo_.add(redo_.loggedStatement(*call.statement, call.params, call.inputs));
  redo_.setCallTransaction(call.transaction, true);
}

void CallTransactions::replayTransactionStart(uint32_t number) {
  for (const LoggedTransaction& part : replayParts_) {
    if (part.callTransaction != number) continue;
    state_.txn.replayTransactionStart(part.startTimestamp, part.transactionId);
    if (!part.statements.empty()) {
      const LoggedStatement& s = part.statements.front();
      state_.txn.replayStatement(s.statementTimestamp, s.randomState, s.clockOffsets);
      state_.advisoryLocks.replayStatement(s.lockOutcomes);
    }
    return;
  }
}

}  // namespace duet
