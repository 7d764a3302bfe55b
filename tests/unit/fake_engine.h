// A scripted Engine/Session for the executor and server tests: it understands a handful of
// fixed statements instead of SQL, and counts sessions and rollbacks so tests can check
// that nothing leaks.
//
//   SELECT 1        one int4 row "1"          GENERATE n   n rows 1..n (portal-resumable)
//   SELECT $1       one text row: the param    ERROR        SqlError 42601 with D, H, P
//   FATAL           fatal SqlError             NOTICE       a notice, then "DO"
//   BEGIN/COMMIT/ROLLBACK  block that holds the executor
//   COPY ... FROM STDIN    counts data lines   COPY OUT     two lines out
//   SLEEP           waits (up to 5 s) for a cancel, then 57014
//   ""              EmptyQueryResponse
#pragma once
#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "session/session_api.h"

namespace duet::test {

struct FakeEngineState {
  std::atomic<int> liveSessions = 0;
  std::atomic<int> rollbacks = 0;
  std::atomic<int> abortCurrentCalls = 0;
  std::atomic<int> idleTimeoutMs = 0;
};

class FakeSession final : public Session {
 public:
  explicit FakeSession(FakeEngineState& state) : state_(state) { ++state_.liveSessions; }
  ~FakeSession() override { --state_.liveSessions; }

  QueryState simpleQuery(std::string_view sql, ResultSink& sink) override;
  QueryState copyInData(std::string_view data, ResultSink& sink) override;
  void copyInFail(std::string_view message, ResultSink& sink) override;
  void parse(const std::string& name, std::string_view sql, const std::vector<uint32_t>& paramTypeOids) override;
  void bind(const std::string& portal, const std::string& statement, const std::vector<BindParam>& params,
            const std::vector<int16_t>& resultFormats) override;
  StatementDescription describeStatement(const std::string& name) override;
  StatementDescription describePortal(const std::string& name) override;
  ExecuteState execute(const std::string& portal, int64_t maxRows, ResultSink& sink) override;
  // No snapshots here: beside another session's block every statement waits for its end.
  void setBesideHolder(bool beside) override { beside_ = beside; }
  void closeStatement(const std::string& name) override { statements_.erase(name); }
  void closePortal(const std::string& name) override { portals_.erase(name); }
  void sync() override {}
  void abortCurrent() override {
    ++state_.abortCurrentCalls;
    if (inBlock_) failed_ = true;
  }
  TxnStatus txnStatus() const override {
    return !inBlock_ ? TxnStatus::Idle : failed_ ? TxnStatus::Failed : TxnStatus::InBlock;
  }
  bool holdsExecutor() const override { return inBlock_; }
  void rollbackOpenBlock() override;
  std::vector<std::pair<std::string, std::string>> reportedParameters() const override;
  void requestCancel() override { cancel_ = true; }
  void clearCancel() override { cancel_ = false; }
  int idleInTransactionTimeoutMs() const override { return state_.idleTimeoutMs; }

  // For executor tests that drive the block directly.
  void setInBlock(bool inBlock) { inBlock_ = inBlock; }

 private:
  struct Portal {
    std::string sql;
    std::vector<BindParam> params;
    int64_t position = 0;  // rows already returned
  };
  // Runs one statement; returns Suspended when maxRows stopped it early.
  ExecuteState run(Portal& portal, int64_t maxRows, ResultSink& sink, bool describeRows);

  FakeEngineState& state_;
  bool inBlock_ = false;
  bool beside_ = false;
  bool failed_ = false;
  std::atomic<bool> cancel_ = false;
  std::map<std::string, std::string> statements_;
  std::map<std::string, Portal> portals_;
};

class FakeEngine final : public Engine {
 public:
  std::unique_ptr<Session> openSession(const std::vector<std::pair<std::string, std::string>>& startupParams) override;
  FakeEngineState state;
};

}  // namespace duet::test
