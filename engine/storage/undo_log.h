// The running transaction's undo log: before-images of row changes plus closures for rare
// operations (DDL). There is one writer (the executor thread) and no concurrency control;
// the log exists so ROLLBACK, failed statements (rollbackTo a mark) and later savepoints
// restore tables and their indexes exactly, and so that COMMIT knows which slots and
// strings of deleted/replaced rows may now be reused.
#pragma once
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "engine/storage/layout.h"

namespace duet {

class Table;
struct ForeignKey;

class UndoLog {
 public:
  using Mark = size_t;

  UndoLog() = default;
  UndoLog(const UndoLog&) = delete;
  UndoLog& operator=(const UndoLog&) = delete;
  ~UndoLog();  // an unfinished transaction is rolled back

  Mark mark() const { return records_.size(); }
  // Undoes every change made after m, newest first; the log keeps the records before m.
  void rollbackTo(Mark m);
  void rollback() {
    rollbackTo(0);
    endConstraintModes();
  }
  // Makes every change permanent: frees replaced strings and hands deleted slots back to
  // their tables' free lists. The log is empty afterwards.
  void commit();
  bool empty() const { return records_.empty(); }
  size_t size() const { return records_.size(); }
  // Undo logs of this thread that hold uncommitted changes now. Zero on the executor thread
  // means no transaction is halfway: a fork() then sees only committed states (an archive
  // must, docs/logging.md). An implicit extended-protocol transaction whose Sync has not
  // come yet holds changes without holding the executor, so this is the only sure test.
  static size_t withChanges() { return withChanges_; }

  // The transaction is read-only (BEGIN READ ONLY, default_transaction_read_only): the
  // session sets this for it and clears it when it ends. Row changes that compiled code
  // makes, routines' included, are refused here, so this one check covers every statement
  // a routine runs, as PostgreSQL checks each of them.
  void setReadOnly(bool on) { readOnly_ = on; }
  bool readOnly() const { return readOnly_; }
  // 25006 "cannot execute <command> in a read-only transaction" if it is read-only.
  void checkWritable(const char* command) const {
    if (readOnly_) [[unlikely]]
      refuseWrite(command);
  }

  // Recorders, called by Table (row changes) and the catalog (DDL).
  void recordInsert(Table* table, RowId row);
  // images: the old tuple followed by the new one, in space from imageSpace().
  void recordUpdate(Table* table, RowId row, uint8_t* images);
  // 16-byte aligned space for an update's images, valid until the transaction ends (the
  // log is empty again): a bump allocation instead of a malloc and free per updated row.
  uint8_t* imageSpace(size_t bytes);
  // chunk: the chunk the row lived in, so a commit after TRUNCATE can tell the slot is gone.
  void recordErase(Table* table, RowId row, const Chunk* chunk);
  // undo runs on rollback; onCommit (optional) on commit. Neither may throw.
  void recordAction(std::function<void()> undo, std::function<void()> onCommit = {});

  // Checks that wait for the end of the statement (PostgreSQL's foreign key checks run
  // then: foreign_key.h). runDeferred runs them in order, forgetting each before it runs
  // (one may throw); a rollback forgets them.
  void defer(std::function<void()> check) { deferred_.push_back(std::move(check)); }
  bool hasDeferred() const { return !deferred_.empty(); }
  void runDeferred();

  // Checks that wait for the commit: those of a DEFERRABLE foreign key while it is deferred
  // (INITIALLY DEFERRED, or SET CONSTRAINTS ... DEFERRED). Kept through ROLLBACK TO (a check
  // of a row undone since finds it gone), forgotten at the transaction's end.
  bool deferredNow(const ForeignKey& fk) const;
  void deferToCommit(const ForeignKey& fk, std::function<void()> check);
  // SET CONSTRAINTS: every deferrable foreign key (`fk` null) or one, DEFERRED or IMMEDIATE
  // for the rest of the transaction. Checks of those now IMMEDIATE run when the statement
  // ends (runDeferred), as PostgreSQL runs them.
  void setConstraintMode(const ForeignKey* fk, bool deferred);
  // At commit: every check that waited, in order; the first failure throws.
  void runCommitChecks();
  // Whether checks wait for the commit on a foreign key of table `t` (DDL that changes the
  // table refuses then, 55006, as PostgreSQL's "pending trigger events").
  bool hasCommitChecks(const Table* t) const;

 private:
  enum class Kind : uint8_t { Insert, Update, Erase, Action };
  struct Action {
    std::function<void()> undo, onCommit;
  };
  struct Record {
    Kind kind;
    Table* table;
    RowId row;
    void* payload;  // Update: images; Erase: the Chunk; Action: Action*
  };
  void releaseImagesIfEmpty();
  // The transaction ended: no check waits any more, and SET CONSTRAINTS is forgotten.
  void endConstraintModes() {
    commitChecks_.clear();
    allDeferred_.reset();
    fkDeferred_.clear();
  }
  void push(const Record& r) {
    if (records_.empty()) ++withChanges_;
    records_.push_back(r);
  }
  void noteEmptied() {
    if (records_.empty() && withChanges_ > 0) --withChanges_;
  }
  static thread_local size_t withChanges_;
  [[noreturn]] static void refuseWrite(const char* command);

  std::vector<Record> records_;
  bool readOnly_ = false;  // next to records_: a row change reads both
  struct Block {
    std::unique_ptr<uint8_t[]> bytes;
    size_t size;
  };
  std::vector<Block> blocks_;  // image space; the first block is kept between transactions
  std::vector<std::function<void()>> deferred_;
  std::vector<std::pair<const ForeignKey*, std::function<void()>>> commitChecks_;
  std::optional<bool> allDeferred_;               // SET CONSTRAINTS ALL
  std::map<const ForeignKey*, bool> fkDeferred_;  // SET CONSTRAINTS name (after ALL)
  size_t used_ = 0;                               // bytes handed out of blocks_.back()
};

}  // namespace duet
