// A session's side of sequences: nextval, currval, setval and lastval as compiled code
// calls them (rt::SessionServices), the values currval remembers, and what keeps the redo
// log's replay handing out the same values.
//
// A sequence moves outside transactions: a rolled-back nextval is not given back. Replay
// runs the logged statements again, so it hands out the same values only if every move
// is in the log, in order. A statement that moved one is logged even if it changed no
// row (`changedInStatement`); the moves of statements that leave the record (a rollback,
// ROLLBACK TO SAVEPOINT) are logged as setval()s of the sequences the transaction moved:
// at the savepoint inside the record, or after a rollback as a transaction of their own.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "engine/catalog/catalog.h"
#include "session/transaction_record.h"

namespace duet {

struct SessionState;

class SessionSequences {
 public:
  explicit SessionSequences(SessionState& state) : state_(state) {}

  int64_t nextval(uint32_t oid);
  int64_t currval(uint32_t oid);  // 55000 before this session's first nextval of it
  void setval(uint32_t oid, int64_t value, bool isCalled);
  int64_t lastval();                            // the value of this session's last nextval (55000 before one)
  int64_t value(uint32_t oid, bool* isCalled);  // where it stands, for SELECT ... FROM s

  // Whether the running statement moved a sequence (so the redo log records it); cleared
  // as each statement starts.
  bool changedInStatement = false;
  // The setval() statements that put every sequence the transaction moved where it is
  // now; empty when it moved none. Called where statements leave the record.
  std::vector<LoggedStatement> positions();
  // The transaction ended: what it moved is no longer its own.
  void transactionEnded() { changedInTransaction_.clear(); }

 private:
  // The sequence with relation oid `oid`: 42809 when the relation is something else.
  SequenceInfo& sequence(uint32_t oid);
  void noteChange(uint32_t oid);

  SessionState& state_;
  std::unordered_map<uint32_t, int64_t> current_;  // currval
  uint32_t lastUsed_ = 0;                          // lastval's sequence
  std::unordered_set<uint32_t> changedInTransaction_;
  // Sequences by oid, as of catalog version `byOidVersion_`.
  std::unordered_map<uint32_t, SequenceInfo*> byOid_;
  uint64_t byOidVersion_ = ~uint64_t{0};
};

}  // namespace duet
