// The session's transaction: none, implicit (one statement, or the statements of one
// simple Query or of one extended-protocol Sync cycle), or an explicit BEGIN block, which
// may be failed (only ROLLBACK/COMMIT accepted). Owns the UndoLog every change goes to.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "compiler/compiler.h"
#include "engine/storage/undo_log.h"
#include "session/session_api.h"
#include "session/settings.h"

namespace duet {

// A random starting state for a session's random() generator.
uint64_t freshRandomState();

class TransactionState {
 public:
  enum class Mode : uint8_t { None, Implicit, Block };

  Mode mode() const { return mode_; }
  bool inBlock() const { return mode_ == Mode::Block; }
  // PostgreSQL's IsTransactionBlock(): a BEGIN block, or the implicit block that the
  // statements of one multi-statement simple Query form. DROP DATABASE and the like refuse
  // to run inside one (25001), as they cannot be rolled back in PostgreSQL.
  bool inTransactionBlock() const { return mode_ == Mode::Block || implicitBlock_; }
  bool failed() const { return failed_; }
  TxnStatus status() const;
  UndoLog& undo() { return undo_; }
  // now(): microseconds since 2000-01-01 UTC when the transaction began.
  int64_t startTimestamp() const { return startTimestamp_; }
  // random(): the session's generator state, advanced by every call. Its value when the
  // transaction began is, with the start timestamp, what a replay of the transaction needs
  // to compute the same values (the redo log records both).
  uint64_t* randomState() { return &random_; }
  uint64_t randomStateAtStart() const { return randomAtStart_; }
  // clock_timestamp(): the start timestamp plus monotonic offsets, each one kept for the
  // redo log (rt::TransactionClock), so that a replay reads the same clock.
  rt::TransactionClock* clock() { return &clock_; }
  // statement_timestamp(): the start timestamp for the transaction's first statement,
  // else the clock when the statement began.
  int64_t statementTimestamp() const { return statementTimestamp_; }

  // txid_current(): the transaction's id, taken from `next` (EngineState::nextTransactionId)
  // at the first call; assignedTransactionId() is 0 until then.
  uint64_t transactionId(uint64_t& next);
  uint64_t assignedTransactionId() const { return transactionId_; }

  // Recovery: the next transaction starts at `startTimestamp` instead of now(), its id is
  // `transactionId` (0: it took none), and the next statement gets these inputs instead of
  // reading the clock and the generator.
  void replayTransactionStart(int64_t startTimestamp, uint64_t transactionId) {
    replayStart_ = startTimestamp;
    replayTransactionId_ = transactionId;
  }
  void replayStatement(int64_t statementTimestamp, uint64_t randomState, std::vector<int64_t> clockOffsets);
  // Starts an implicit transaction unless one (or a block) is already running.
  void ensureStarted();
  // A client's statement begins: ensureStarted, and its statement timestamp. The
  // transaction's first statement gives it its access mode, read-only when
  // `defaultReadOnly` (default_transaction_read_only); BEGIN's modes and SET TRANSACTION,
  // which run as statements of it, come after.
  void startStatement(bool defaultReadOnly);
  // Starts (or continues) the implicit transaction of a Query with several statements,
  // marking it as an implicit transaction block until it ends.
  void startImplicitBlock();
  // BEGIN: turns the running implicit transaction (or none) into a block.
  void beginBlock();
  // A statement inside the transaction failed after `statementMark`: its changes are
  // undone; a block becomes failed, an implicit transaction is rolled back entirely.
  void statementFailed(UndoLog::Mark statementMark);
  // SAVEPOINT, RELEASE and ROLLBACK TO (TransactionControl): a block's savepoints, newest
  // last, each with where the undo log, the redo record and the settings stood.
  struct Savepoint {
    std::string name;
    UndoLog::Mark undoMark;
    size_t redoMark;
    Settings::Saved settings;
    // The session's LISTEN/UNLISTEN and NOTIFY lists, its cursor count and its
    // transaction-scope advisory locks then: what came after is undone too.
    size_t listens = 0, notifies = 0;
    uint64_t cursorsDeclared = 0;
    size_t advisoryLocks = 0;
  };
  std::vector<Savepoint>& savepoints() { return savepoints_; }
  // The newest savepoint of that name, or -1.
  int findSavepoint(std::string_view name) const;
  // Undoes the changes after savepoint i, which stays (the later ones go), and clears the
  // failed state.
  void rollbackToSavepoint(size_t i);
  // Ends the transaction (any mode): make the changes permanent or undo them all.
  void commit();
  void rollback();
  // A statement that PostgreSQL takes the transaction's snapshot for ran: anything but
  // transaction control, SET, SHOW and CHECKPOINT (PlannedStmtRequiresSnapshot). A block
  // takes the executor for itself only from then on (as PostgreSQL takes a block's snapshot
  // at its first such statement, not at BEGIN): a client's lone BEGIN round trip then keeps
  // no other session waiting.
  void noteStatement() { ranStatement_ = true; }
  bool ranStatement() const { return ranStatement_; }
  bool holdsExecutor() const { return mode_ == Mode::Block && ranStatement_; }
  // READ ONLY or READ WRITE. The undo log holds the mode, as every row change reads it
  // there; a transaction's end makes it read-write again.
  bool readOnly() const { return undo_.readOnly(); }
  void setReadOnly(bool on) { undo_.setReadOnly(on); }
  // A DDL statement ran: a rollback must then invalidate cached plans too.
  void noteDdl() { hadDdl_ = true; }
  // True when the last rollback undid DDL (reset by the call).
  bool takeRolledBackDdl();

 private:
  void finish();
  Mode mode_ = Mode::None;
  bool failed_ = false;
  bool implicitBlock_ = false;
  bool hadDdl_ = false;
  bool ranStatement_ = false;
  bool rolledBackDdl_ = false;
  int64_t startTimestamp_ = 0;
  uint64_t transactionId_ = 0;
  uint64_t random_ = freshRandomState();
  uint64_t randomAtStart_ = 0;
  rt::TransactionClock clock_;
  int64_t statementTimestamp_ = 0;
  uint64_t statements_ = 0;  // started in this transaction
  UndoLog undo_;
  std::vector<Savepoint> savepoints_;
  // Recovery's inputs for the next transaction and statement (replayTransactionStart,
  // replayStatement); unset outside a replay.
  std::optional<int64_t> replayStart_;
  uint64_t replayTransactionId_ = 0, replayedTransactionId_ = 0;
  std::optional<int64_t> replayStatementTimestamp_;
};

// Microseconds since 2000-01-01 00:00:00 UTC (PostgreSQL's timestamp epoch).
int64_t currentTimestamp();

}  // namespace duet
