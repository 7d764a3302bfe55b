#include "bench/tpcc/inprocess_session.h"

#include <stdexcept>

#include "engine/error.h"
#include "session/sql_engine.h"

namespace tpcc {
namespace {

// Gathers a simple Query's rows as text (the default format of a simple Query).
class TextSink final : public duet::IgnoringSink {
 public:
  std::vector<TextRow> rows;

  void dataRow(const duet::Field* fields, std::size_t count) override {
    TextRow& row = rows.emplace_back(count);
    for (std::size_t i = 0; i < count; ++i)
      if (fields[i].len >= 0) row[i].emplace(fields[i].data, static_cast<std::size_t>(fields[i].len));
  }
};

// What SessionTerminal needs of a call's result: the row count and whether the first value
// is NULL. Nothing is copied, so a call costs what the engine's side of a wire call costs,
// less the network and the encoding into protocol messages.
class ShapeSink final : public duet::IgnoringSink {
 public:
  int rows = 0;
  bool firstIsNull = false;

  void dataRow(const duet::Field* fields, std::size_t count) override {
    if (rows++ == 0) firstIsNull = count > 0 && fields[0].len < 0;
  }
};

}  // namespace

std::string currentErrorText() {
  try {
    throw;
  } catch (const duet::SqlError& e) {
    return e.code + ": " + e.what();
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "unknown exception";
  }
}

InProcessDb::InProcessDb() : engine_(duet::createSqlEngine(duet::EngineConfig{})) {
  session_ = engine_->openSession({{"user", "postgres"}, {"database", "postgres"}});
}

// The session goes before the engine whose state it refers to.
InProcessDb::~InProcessDb() { session_.reset(); }

std::vector<TextRow> InProcessDb::query(std::string_view sql) {
  TextSink sink;
  bool copyIn = false;
  try {
    copyIn = session_->simpleQuery(sql, sink) == duet::QueryState::CopyIn;
  } catch (...) {
    throw std::runtime_error(currentErrorText());
  }
  if (copyIn) {
    try {
      session_->copyInFail("no data: use a SessionCopyTarget", sink);
    } catch (...) {
      // The COPY is over either way; the error below says why.
    }
    throw std::runtime_error("unexpected COPY FROM STDIN in a query");
  }
  return std::move(sink.rows);
}

void SessionCopyTarget::start(std::string_view table) {
  table_ = table;
  data_.clear();
  duet::IgnoringSink sink;
  try {
    if (db_.session().simpleQuery("COPY " + table_ + " FROM STDIN", sink) == duet::QueryState::CopyIn) return;
  } catch (...) {
    throw std::runtime_error("COPY " + table_ + " FROM STDIN: " + currentErrorText());
  }
  throw std::runtime_error("COPY " + table_ + " FROM STDIN did not start a COPY");
}

void SessionCopyTarget::finish() {
  duet::IgnoringSink sink;
  try {
    db_.session().copyInData(data_, sink);
  } catch (...) {
    throw std::runtime_error("COPY " + table_ + ": " + currentErrorText());
  }
  std::string().swap(data_);
}

SessionTerminal::SessionTerminal(InProcessDb& db) : session_(db.session()) {
  for (std::size_t t = 0; t < kStatements.size(); ++t) {
    const CallStatement& s = kStatements[t];
    try {
      session_.parse(s.name, s.sql, std::vector<std::uint32_t>(s.types.begin(), s.types.begin() + s.paramCount));
      session_.sync();
      const duet::StatementDescription description = session_.describeStatement(s.name);
      columns_[t] = static_cast<int>(description.columns.size());
    } catch (...) {
      throw std::runtime_error(std::string("prepare ") + s.name + ": " + currentErrorText());
    }
  }
}

Outcome SessionTerminal::run(const Call& call) {
  const CallStatement& statement = kStatements[index(call.type)];
  params_.resize(static_cast<std::size_t>(call.paramCount));
  for (std::size_t i = 0; i < params_.size(); ++i) params_[i].value = call.params[i];
  Outcome outcome;
  ShapeSink sink;
  try {
    // As a client's Bind, Execute, Sync: the unnamed portal, text parameters, text results.
    session_.bind("", statement.name, params_, {});
    session_.execute("", 0, sink);
    session_.sync();
  } catch (...) {
    outcome.kind = Outcome::kFailed;
    outcome.error = std::string(statement.name) + ": " + currentErrorText();
    // What the server does after an error in the extended protocol: mark the current work
    // failed, then the client's Sync ends the implicit transaction.
    try {
      session_.abortCurrent();
      session_.sync();
    } catch (...) {
      outcome.error += "; then at Sync: " + currentErrorText();
    }
    return outcome;
  }
  bool rolledBack = false;
  const ResultShape shape{sink.rows, columns_[index(call.type)], sink.firstIsNull};
  outcome.error = checkResult(call, shape, &rolledBack);
  outcome.kind = !outcome.error.empty() ? Outcome::kFailed : rolledBack ? Outcome::kRolledBack : Outcome::kCommitted;
  return outcome;
}

}  // namespace tpcc
