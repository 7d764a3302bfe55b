// Starting, failing and ending a session's transactions around its statements.
#include "session/transaction_control.h"

#include "session/temp_objects.h"

#include <algorithm>
#include <exception>

#include <fmt/format.h>

namespace duet {

bool TransactionControl::transactionReadOnly() const {
  const TransactionState& txn = state_.txn;
  return txn.mode() == TransactionState::Mode::None ? state_.settings.defaultTransactionReadOnly() : txn.readOnly();
}

void TransactionControl::checkNotFailed(const sql::Stmt& stmt) const {
  if (!state_.txn.failed()) return;
  bool ends = stmt.kind == sql::StmtKind::Transaction &&
              (stmt.as<sql::TransactionStmt>().action == sql::TransactionKind::Commit ||
               stmt.as<sql::TransactionStmt>().action == sql::TransactionKind::Rollback ||
               stmt.as<sql::TransactionStmt>().action == sql::TransactionKind::RollbackTo);
  if (!ends) {
    throw SqlError(sqlstate::kInFailedSqlTransaction,
                   "current transaction is aborted, commands ignored until end of "
                   "transaction block");
  }
}

void TransactionControl::setTransactionReadOnly(bool on) {
  TransactionState& txn = state_.txn;
  // PostgreSQL lets a transaction become read-only at any time, but read-write again only
  // before it took its snapshot (check_transaction_read_only).
  if (!on && txn.readOnly() && txn.ranStatement()) {
    throw SqlError(sqlstate::kActiveSqlTransaction, "transaction read-write mode must be set before any query");
  }
  txn.setReadOnly(on);
}

void TransactionControl::ddlDone() {
  state_.txn.noteDdl();
  ++state_.engine.catalogVersion;
}

void TransactionControl::failStatement(UndoLog::Mark mark) {
  TransactionState& txn = state_.txn;
  bool implicit = !txn.inBlock();
  txn.statementFailed(mark);
  if (implicit) {
    state_.settings.endTransaction(false);
    redo_.clear();
    logSequencePositions();
    state_.transactionEnded(false);
  }
  noteRolledBackDdl();
}

void TransactionControl::endTransaction(bool commit, bool logSequences) {
  TransactionState& txn = state_.txn;
  // The log takes the record before the changes become permanent: a record it refuses
  // (54000, over its size limit) rolls the transaction back instead of leaving a commit in
  // memory that a recovery would not bring back. Appending does no I/O, and nobody else
  // runs in between, so the order is invisible otherwise.
  std::exception_ptr refused;
  // Foreign keys deferred to the commit are checked first: a violation rolls back.
  if (commit) {
    try {
      txn.undo().runCommitChecks();
    } catch (const SqlError&) {
      refused = std::current_exception();
      commit = false;
    }
  }
  redo_.keepCursorStatements(state_.currentOfCursors);
  if (commit && state_.engine.commitLog && !redo_.empty()) {
    try {
      redo_.appendToLog();
    } catch (const SqlError&) {
      refused = std::current_exception();
      commit = false;
    }
  }
  DatabaseStats& stats = state_.engine.databaseStats[state_.db->oid];
  ++(commit ? stats.commits : stats.rollbacks);
  if (commit) {
    // ON COMMIT DELETE ROWS and DROP: part of the commit, which a replay of the logged
    // statements commits alike, so they need no record of their own.
    if (TempObjects(state_).atCommit()) ++state_.engine.catalogVersion;
    bool wrote = !txn.undo().empty() || !redo_.empty();
    txn.commit();
    if (wrote) state_.lastCommit = state_.engine.commitCount.fetch_add(1, std::memory_order_release) + 1;
  } else {
    txn.rollback();
  }
  redo_.clear();
  if (commit || !logSequences) {
    state_.sequences.transactionEnded();
  } else {
    logSequencePositions();
  }
  state_.settings.endTransaction(commit);
  noteRolledBackDdl();
  state_.transactionEnded(commit);
  if (refused) std::rethrow_exception(refused);
}

void TransactionControl::noteRolledBackDdl() {
  if (state_.txn.takeRolledBackDdl()) {
    ++state_.engine.catalogVersion;
    routines_.discardStaleRoutines();
  }
}

void TransactionControl::logSequencePositions() {
  if (state_.engine.commitLog) {
    LoggedTransaction t;
    t.statements = state_.sequences.positions();
    if (!t.statements.empty()) {
      stampTransaction(state_, t);
      // A few short statements: never over the log's size limit, the one refusal it has.
      state_.engine.commitLog(encodeTransaction(t));
    }
  }
  state_.sequences.transactionEnded();
}

void TransactionControl::rollbackOpenBlock() {
  if (state_.txn.mode() != TransactionState::Mode::None) endTransaction(false);
}

namespace {
void requireBlock(const SessionState& state, const char* command) {
  if (!state.txn.inBlock()) {
    throw SqlError(sqlstate::kNoActiveSqlTransaction,
                   fmt::format("{} can only be used in transaction blocks", command));
  }
}
size_t existingSavepoint(const SessionState& state, const std::string& name) {
  int i = state.txn.findSavepoint(name);
  if (i < 0) throw SqlError("3B001", fmt::format("savepoint \"{}\" does not exist", name));
  return static_cast<size_t>(i);
}
}  // namespace

void TransactionControl::defineSavepoint(const std::string& name) {
  requireBlock(state_, "SAVEPOINT");
  state_.txn.savepoints().push_back({name, state_.txn.undo().mark(), redo_.size(), state_.settings.save(),
                                     state_.pendingListens.size(), state_.pendingNotifies.size(),
                                     state_.cursorsDeclared, state_.advisoryLocks.savepointMark()});
}

void TransactionControl::releaseSavepoint(const std::string& name) {
  requireBlock(state_, "RELEASE SAVEPOINT");
  state_.txn.savepoints().resize(existingSavepoint(state_, name));
}

void TransactionControl::rollbackToSavepoint(const std::string& name) {
  requireBlock(state_, "ROLLBACK TO SAVEPOINT");
  size_t i = existingSavepoint(state_, name);
  TransactionState::Savepoint& sp = state_.txn.savepoints()[i];
  // A cursor's FETCHes leave the record with the undone statements but not its place: a
  // replay would find it elsewhere, so it serves no WHERE CURRENT OF (rt::Portal::replayable).
  for (const std::string& name : redo_.cursorsAfter(sp.redoMark))
    if (auto it = state_.cursors.find(name); it != state_.cursors.end()) it->second.portal.replayable = false;
  redo_.truncate(sp.redoMark);
  // What the undone statements moved stays moved: the record says where it stands.
  if (state_.engine.commitLog)
    for (LoggedStatement& position : state_.sequences.positions()) redo_.add(std::move(position));
  state_.settings.restore(sp.settings);
  state_.pendingListens.resize(std::min(sp.listens, state_.pendingListens.size()));
  state_.pendingNotifies.resize(std::min(sp.notifies, state_.pendingNotifies.size()));
  state_.closeCursorsOpenedSince(sp.cursorsDeclared);
  state_.advisoryLocks.rollbackToSavepoint(sp.advisoryLocks);
  state_.txn.rollbackToSavepoint(i);
  noteRolledBackDdl();
}

void TransactionControl::abortCurrent() {
  TransactionState& txn = state_.txn;
  if (txn.inBlock()) {
    txn.statementFailed(txn.undo().mark());
  } else if (txn.mode() == TransactionState::Mode::Implicit) {
    failStatement(txn.undo().mark());
  }
}

}  // namespace duet
