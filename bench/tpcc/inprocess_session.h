// DuetDB in this process: an engine and one session opened through the C++ session API the
// server uses (session/session_api.h), with no sockets and no executor thread. Whoever holds
// an InProcessDb is the executor: every call must come from one thread at a time.
//
// For duet_tpcc_inprocess: simple queries whose rows come back as text, COPY FROM STDIN for
// the population (a CopyTarget), and a CallRunner that runs the five TPC-C calls as the
// extended protocol does (Parse once, then Bind, Execute and Sync per call).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bench/tpcc/copy_stream.h"
#include "bench/tpcc/driver_mix.h"
#include "session/session_api.h"

namespace tpcc {

using TextRow = std::vector<std::optional<std::string>>;  // nullopt is NULL

class InProcessDb {
 public:
  // A fresh engine with its database "postgres", and a session on it as user postgres.
  InProcessDb();
  ~InProcessDb();

  // Runs one or more ';'-separated statements as a simple Query; returns the rows of all of
  // them as text. Throws std::runtime_error "SQLSTATE: message" if a statement fails.
  std::vector<TextRow> query(std::string_view sql);

  duet::Session& session() { return *session_; }

 private:
  std::unique_ptr<duet::Engine> engine_;
  std::unique_ptr<duet::Session> session_;
};

// "SQLSTATE: message" of the exception being handled (a duet::SqlError or any other).
std::string currentErrorText();

// COPY table FROM STDIN through the session: the engine takes a COPY's data in one piece
// (as the server hands it over at CopyDone), so send() gathers the rows and finish() passes
// them to Session::copyInData.
class SessionCopyTarget final : public CopyTarget {
 public:
  explicit SessionCopyTarget(InProcessDb& db) : db_(db) {}
  void start(std::string_view table) override;
  void send(std::string_view rows) override { data_ += rows; }
  void finish() override;

 private:
  InProcessDb& db_;
  std::string table_;
  std::string data_;
};

// The five calls prepared once on the session; run() binds a call's text parameters to
// its statement, executes it in autocommit and checks the result as duet_tpcc_driver does.
// There are no retries: one session has no concurrent transaction to conflict with.
class SessionTerminal final : public CallRunner {
 public:
  // Prepares the statements; throws std::runtime_error if one fails.
  explicit SessionTerminal(InProcessDb& db);
  Outcome run(const Call& call) override;

 private:
  duet::Session& session_;
  std::array<int, kTxnTypes> columns_{};  // result columns as Describe reports them
  std::vector<duet::BindParam> params_;   // reused: the strings keep their capacity
};

}  // namespace tpcc
