// The extended query protocol. Not implemented yet: every message is refused with 0A000
// so that clients get a clear error instead of a wrong answer.
#include "engine/session/sql_session.h"

namespace duet {
namespace {
[[noreturn]] void notYet() {
  throw SqlError(sqlstate::kFeatureNotSupported, "the extended query protocol is not supported");
}
}  // namespace

QueryState SqlSession::copyInData(std::string_view, ResultSink&) {
  throw SqlError(sqlstate::kProtocolViolation, "unexpected COPY data: no COPY is in progress");
}
void SqlSession::copyInFail(std::string_view, ResultSink&) {}
void SqlSession::parse(const std::string&, std::string_view, const std::vector<uint32_t>&) {
  notYet();
}
void SqlSession::bind(const std::string&, const std::string&, const std::vector<BindParam>&,
                      const std::vector<int16_t>&) {
  notYet();
}
StatementDescription SqlSession::describeStatement(const std::string&) { notYet(); }
StatementDescription SqlSession::describePortal(const std::string&) { notYet(); }
ExecuteState SqlSession::execute(const std::string&, int64_t, ResultSink&) { notYet(); }
void SqlSession::closeStatement(const std::string& name) { statements_.erase(name); }
void SqlSession::sync() {
  if (txn_.mode() == TransactionState::Mode::Implicit) endTransaction(true);
}
void SqlSession::abortCurrent() {
  if (txn_.inBlock()) txn_.statementFailed(txn_.undo().mark());
}

}  // namespace duet
