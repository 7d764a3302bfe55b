#include "session/transaction_state.h"

#include <chrono>
#include <random>

namespace duet {

int64_t currentTimestamp() {
  constexpr int64_t kUnixToPostgresMicros = 946'684'800LL * 1'000'000;
  auto now = std::chrono::system_clock::now().time_since_epoch();
  return std::chrono::duration_cast<std::chrono::microseconds>(now).count() - kUnixToPostgresMicros;
}

uint64_t freshRandomState() {
  static std::random_device device;
  return (static_cast<uint64_t>(device()) << 32) ^ device();
}

TxnStatus TransactionState::status() const {
  if (mode_ != Mode::Block) return TxnStatus::Idle;
  return failed_ ? TxnStatus::Failed : TxnStatus::InBlock;
}

void TransactionState::ensureStarted() {
  if (mode_ != Mode::None) return;
  mode_ = Mode::Implicit;
  startTimestamp_ = replayStart_ ? *replayStart_ : currentTimestamp();
  replayStart_.reset();
  transactionId_ = 0;
  replayedTransactionId_ = replayTransactionId_;
  replayTransactionId_ = 0;
  randomAtStart_ = random_;
  clock_.restart(startTimestamp_);
  statements_ = 0;
}

void TransactionState::startStatement(bool defaultReadOnly) {
  ensureStarted();
  if (statements_++ == 0) {
    statementTimestamp_ = startTimestamp_;
    undo_.setReadOnly(defaultReadOnly);
  } else {
    statementTimestamp_ = replayStatementTimestamp_ ? *replayStatementTimestamp_ : clock_.read();
  }
  replayStatementTimestamp_.reset();
}

uint64_t TransactionState::transactionId(uint64_t& next) {
  if (transactionId_ == 0) transactionId_ = replayedTransactionId_ != 0 ? replayedTransactionId_ : next++;
  return transactionId_;
}

void TransactionState::replayStatement(int64_t statementTimestamp, uint64_t randomState,
                                       std::vector<int64_t> clockOffsets) {
  replayStatementTimestamp_ = statementTimestamp;
  random_ = randomState;
  clock_.replayOffsets = std::move(clockOffsets);
  clock_.replayNext = 0;
}

void TransactionState::startImplicitBlock() {
  ensureStarted();
  if (mode_ == Mode::Implicit) implicitBlock_ = true;
}

void TransactionState::beginBlock() {
  ensureStarted();
  mode_ = Mode::Block;
}

void TransactionState::statementFailed(UndoLog::Mark statementMark) {
  if (mode_ == Mode::Block) {
    undo_.rollbackTo(statementMark);
    rolledBackDdl_ = rolledBackDdl_ || hadDdl_;
    failed_ = true;
  } else {
    rollback();
  }
}

int TransactionState::findSavepoint(std::string_view name) const {
  for (size_t i = savepoints_.size(); i-- > 0;)
    if (savepoints_[i].name == name) return static_cast<int>(i);
  return -1;
}

void TransactionState::rollbackToSavepoint(size_t i) {
  undo_.rollbackTo(savepoints_[i].undoMark);
  rolledBackDdl_ = rolledBackDdl_ || hadDdl_;
  savepoints_.resize(i + 1);
  failed_ = false;
}

void TransactionState::commit() {
  undo_.commit();
  finish();
}

void TransactionState::rollback() {
  undo_.rollback();
  rolledBackDdl_ = rolledBackDdl_ || hadDdl_;
  finish();
}

bool TransactionState::takeRolledBackDdl() {
  bool r = rolledBackDdl_;
  rolledBackDdl_ = false;
  return r;
}

void TransactionState::finish() {
  mode_ = Mode::None;
  failed_ = false;
  implicitBlock_ = false;
  hadDdl_ = false;
  ranStatement_ = false;
  savepoints_.clear();
  undo_.setReadOnly(false);
}

}  // namespace duet
