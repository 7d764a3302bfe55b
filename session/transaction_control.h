// The session's side of its transaction (TransactionState holds the transaction itself): a
// statement's start and failure, the access mode, DDL's mark, and the transaction's end.
// Ending is where other parts meet, so it lives here once for every caller (both
// protocols, COMMIT and ROLLBACK, snapshot routing, COPY): a commit first hands the redo
// record to the commit log (RedoRecorder), and a rollback that undid DDL moves the catalog
// version on and drops routine code that no longer fits (RoutineCache).
#pragma once
#include <string_view>

#include "session/redo_recorder.h"
#include "session/routine_cache.h"
#include "session/session_state.h"

namespace duet {

class TransactionControl {
 public:
  TransactionControl(SessionState& state, RedoRecorder& redo, RoutineCache& routines)
      : state_(state), redo_(redo), routines_(routines) {}

  // Whether the running transaction is read-only or, between transactions, whether the
  // next one starts so (default_transaction_read_only; its BEGIN may still say otherwise).
  bool transactionReadOnly() const;
  // 25P02 unless the transaction is healthy or stmt ends it (COMMIT / ROLLBACK).
  void checkNotFailed(const sql::Stmt& stmt) const;
  // A statement begins: the statement arena is reset, the transaction started (if none
  // runs) with its access mode, and the statement's timestamp taken.
  void startStatement() {
    state_.arena.reset();
    // In a snapshot process every transaction is read-only (its image is thrown away), while
    // the client's settings, which its statements may read, stay as the client set them.
    state_.txn.startStatement(state_.settings.defaultTransactionReadOnly() || state_.engine.snapshotProcess);
    // What the statement's SHOW transaction_read_only prints: the mode it runs in, which the
    // statements before it (BEGIN, SET TRANSACTION) may have changed.
    state_.settings.showTransactionReadOnly(state_.txn.readOnly());
  }
  // BEGIN READ ONLY/WRITE, SET TRANSACTION, SET transaction_read_only: 25001 for read-write
  // after the transaction's first query.
  void setTransactionReadOnly(bool on);
  // A DDL statement changed the catalog: the catalog version moves on (plans and routine
  // code made before are stale), and the transaction notes it for a rollback to do the same.
  void ddlDone();
  // The statement's changes are undone to `mark`: a block becomes failed, an implicit
  // transaction rolls back.
  void failStatement(UndoLog::Mark mark);
  // Commits (the redo record first: a record the log refuses rolls back and is rethrown)
  // or rolls back; a rollback logs where the sequences it moved stand, unless
  // !logSequences (a CALL's own ROLLBACK: recovery runs the call again, which moves them).
  void endTransaction(bool commit, bool logSequences = true);
  void rollbackOpenBlock();
  // SAVEPOINT name, RELEASE [SAVEPOINT] name, ROLLBACK TO [SAVEPOINT] name: 25P01 outside a
  // transaction block, 3B001 for a savepoint that does not exist.
  void defineSavepoint(const std::string& name);
  void releaseSavepoint(const std::string& name);
  void rollbackToSavepoint(const std::string& name);
  // Session::abortCurrent, after an error the server reported: fails the block or rolls
  // back the implicit transaction.
  void abortCurrent();

 private:
  // After a rollback (of the transaction, or of a failed statement's changes): if it undid
  // DDL, the catalog version moves on and routine code that no longer fits is dropped.
  void noteRolledBackDdl();
  // After a rollback: the sequences the transaction moved, logged where they stand as a
  // transaction of their own (session_sequences.h).
  void logSequencePositions();

  SessionState& state_;
  RedoRecorder& redo_;
  RoutineCache& routines_;
};

}  // namespace duet
