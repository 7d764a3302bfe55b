// TransactionState: the I/T/E status, implicit and explicit transactions, failed blocks,
// the access mode (READ ONLY / READ WRITE).
#include <catch2/catch.hpp>

#include <vector>

#include "compiler/runtime/query_runtime.h"
#include "engine/error.h"
#include "session/transaction_state.h"

using namespace duet;

TEST_CASE("transaction state: implicit transactions stay idle to the client") {
  TransactionState t;
  CHECK(t.status() == TxnStatus::Idle);
  t.ensureStarted();
  CHECK(t.mode() == TransactionState::Mode::Implicit);
  CHECK(t.status() == TxnStatus::Idle);
  CHECK(t.startTimestamp() > 0);
  t.commit();
  CHECK(t.mode() == TransactionState::Mode::None);
}

TEST_CASE("transaction state: a failed statement fails a block, rolls back the rest") {
  TransactionState t;
  t.beginBlock();
  CHECK(t.status() == TxnStatus::InBlock);
  int undone = 0;
  t.undo().recordAction([&] { ++undone; });
  UndoLog::Mark m = t.undo().mark();
  t.undo().recordAction([&] { ++undone; });
  t.statementFailed(m);
  CHECK(undone == 1);
  CHECK(t.status() == TxnStatus::Failed);
  t.rollback();
  CHECK(undone == 2);
  CHECK(t.status() == TxnStatus::Idle);

  t.ensureStarted();
  t.undo().recordAction([&] { ++undone; });
  t.noteDdl();
  t.statementFailed(0);
  CHECK(undone == 3);
  CHECK(t.mode() == TransactionState::Mode::None);
  CHECK(t.takeRolledBackDdl());
  CHECK_FALSE(t.takeRolledBackDdl());
}

TEST_CASE("transaction state: transaction blocks, explicit and implicit (multi-statement Query)") {
  TransactionState t;
  t.ensureStarted();
  CHECK_FALSE(t.inTransactionBlock());  // a lone statement's implicit transaction is no block
  t.commit();
  t.startImplicitBlock();
  CHECK(t.mode() == TransactionState::Mode::Implicit);
  CHECK(t.inTransactionBlock());
  CHECK(t.status() == TxnStatus::Idle);
  t.commit();
  CHECK_FALSE(t.inTransactionBlock());  // the mark ends with the transaction
  t.ensureStarted();
  CHECK_FALSE(t.inTransactionBlock());
  t.rollback();
  t.beginBlock();
  CHECK(t.inTransactionBlock());
  t.rollback();
  CHECK_FALSE(t.inTransactionBlock());
}

TEST_CASE("random(): the transaction records the generator state it started from") {
  TransactionState t;
  uint64_t before = *t.randomState();
  t.ensureStarted();
  CHECK(t.randomStateAtStart() == before);
  rt::QueryContext ctx;
  ctx.randomState = t.randomState();
  std::vector<double> first;
  for (int i = 0; i < 5; ++i) first.push_back(duet_q_random(&ctx));
  for (double v : first) CHECK((v >= 0.0 && v < 1.0));
  CHECK(first[0] != first[1]);
  t.commit();
  // A replay restores the recorded state and gets the same values.
  uint64_t replay = t.randomStateAtStart();
  ctx.randomState = &replay;
  for (double v : first) CHECK(duet_q_random(&ctx) == v);
}

TEST_CASE("transaction state: the first statement sets the access mode, the end clears it") {
  TransactionState t;
  t.startStatement(true);  // default_transaction_read_only = on
  CHECK(t.readOnly());
  CHECK_THROWS_AS(t.undo().checkWritable("INSERT"), SqlError);
  t.setReadOnly(false);    // SET TRANSACTION READ WRITE
  t.startStatement(true);  // a later statement keeps the transaction's mode
  CHECK_FALSE(t.readOnly());
  t.undo().checkWritable("INSERT");
  t.beginBlock();
  t.setReadOnly(true);  // BEGIN READ ONLY
  t.rollback();
  CHECK_FALSE(t.readOnly());
  t.startStatement(false);
  CHECK_FALSE(t.readOnly());
  t.commit();
}
