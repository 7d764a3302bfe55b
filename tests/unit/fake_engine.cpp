#include "fake_engine.h"

#include <chrono>
#include <thread>

namespace duet::test {

namespace {

ColumnDesc int4Column(std::string name) {
  ColumnDesc c;
  c.name = std::move(name);
  c.typeOid = 23;
  c.typlen = 4;
  return c;
}

ColumnDesc textColumn(std::string name) {
  ColumnDesc c;
  c.name = std::move(name);
  c.typeOid = 25;
  return c;
}

bool isCopyIn(std::string_view sql) { return sql.starts_with("COPY") && sql.ends_with("FROM STDIN"); }

StatementDescription describe(std::string_view sql) {
  StatementDescription d;
  if (sql == "SELECT $1") {
    d.paramTypeOids = {25};
    d.returnsRows = true;
    d.columns = {textColumn("?column?")};
  } else if (sql == "SELECT 1" || sql.starts_with("GENERATE ")) {
    d.returnsRows = true;
    d.columns = {int4Column("?column?")};
  }
  return d;
}

void putText(ResultSink& sink, const std::string& text) {
  Field f{text.data(), static_cast<int32_t>(text.size())};
  sink.dataRow(&f, 1);
}

}  // namespace

QueryState FakeSession::simpleQuery(std::string_view sql, ResultSink& sink) {
  if (beside_) throw StatementDeferred{};
  if (isCopyIn(sql)) {
    sink.copyInBegin(1, false);
    return QueryState::CopyIn;
  }
  Portal portal{std::string(sql), {}, 0};
  run(portal, 0, sink, true);
  return QueryState::Done;
}

QueryState FakeSession::copyInData(std::string_view data, ResultSink& sink) {
  size_t lines = 0;
  for (char c : data) lines += c == '\n';
  sink.commandComplete("COPY " + std::to_string(lines));
  return QueryState::Done;
}

void FakeSession::copyInFail(std::string_view message, ResultSink&) {
  throw SqlError(sqlstate::kQueryCanceled, "COPY from stdin failed: " + std::string(message));
}

void FakeSession::parse(const std::string& name, std::string_view sql, const std::vector<uint32_t>&) {
  if (sql == "ERROR") throw SqlError(sqlstate::kSyntaxError, "fake syntax error", {}, {}, 1);
  if (!name.empty() && statements_.count(name))
    throw SqlError(sqlstate::kDuplicatePreparedStatement, "prepared statement \"" + name + "\" already exists");
  statements_[name] = std::string(sql);
}

void FakeSession::bind(const std::string& portal, const std::string& statement, const std::vector<BindParam>& params,
                       const std::vector<int16_t>&) {
  auto it = statements_.find(statement);
  if (it == statements_.end())
    throw SqlError(sqlstate::kUndefinedPstatement, "prepared statement \"" + statement + "\" does not exist");
  portals_[portal] = Portal{it->second, params, 0};
}

StatementDescription FakeSession::describeStatement(const std::string& name) {
  auto it = statements_.find(name);
  if (it == statements_.end()) throw SqlError(sqlstate::kUndefinedPstatement, "prepared statement does not exist");
  return describe(it->second);
}

StatementDescription FakeSession::describePortal(const std::string& name) {
  auto it = portals_.find(name);
  if (it == portals_.end()) throw SqlError(sqlstate::kInvalidCursorName, "portal does not exist");
  StatementDescription d = describe(it->second.sql);
  d.paramTypeOids.clear();
  return d;
}

ExecuteState FakeSession::execute(const std::string& name, int64_t maxRows, ResultSink& sink) {
  if (beside_) throw StatementDeferred{};
  auto it = portals_.find(name);
  if (it == portals_.end()) throw SqlError(sqlstate::kInvalidCursorName, "portal does not exist");
  if (isCopyIn(it->second.sql)) {
    sink.copyInBegin(1, false);
    return ExecuteState::Complete;
  }
  return run(it->second, maxRows, sink, false);
}

void FakeSession::rollbackOpenBlock() {
  if (!inBlock_) return;
  inBlock_ = false;
  failed_ = false;
  ++state_.rollbacks;
}

std::vector<std::pair<std::string, std::string>> FakeSession::reportedParameters() const {
  return {{"server_version", "15.0 (DuetDB fake)"},
          {"server_encoding", "UTF8"},
          {"client_encoding", "UTF8"},
          {"DateStyle", "ISO, MDY"},
          {"integer_datetimes", "on"},
          {"standard_conforming_strings", "on"}};
}

ExecuteState FakeSession::run(Portal& portal, int64_t maxRows, ResultSink& sink, bool describeRows) {
  const std::string& sql = portal.sql;
  if (sql == "COMMIT" || sql == "ROLLBACK") {
    inBlock_ = failed_ = false;
    sink.commandComplete(sql);
    return ExecuteState::Complete;
  }
  if (failed_)
    throw SqlError(sqlstate::kInFailedSqlTransaction,
                   "current transaction is aborted, commands ignored until end of transaction block");
  if (describeRows && describe(sql).returnsRows) sink.rowDescription(describe(sql).columns);
  if (sql.empty()) {
    sink.emptyQuery();
  } else if (sql == "SELECT 1") {
    putText(sink, "1");
    sink.commandComplete("SELECT 1");
  } else if (sql == "SELECT $1") {
    const auto& value = portal.params.at(0).value;
    Field f{value ? value->data() : nullptr, value ? static_cast<int32_t>(value->size()) : -1};
    sink.dataRow(&f, 1);
    sink.commandComplete("SELECT 1");
  } else if (sql.starts_with("GENERATE ")) {
    int64_t n = std::stoll(sql.substr(9));
    for (int64_t emitted = 0; portal.position < n; ++portal.position, ++emitted) {
      if (maxRows > 0 && emitted == maxRows) return ExecuteState::Suspended;
      putText(sink, std::to_string(portal.position + 1));
    }
    sink.commandComplete("SELECT " + std::to_string(n));
  } else if (sql == "BEGIN") {
    inBlock_ = true;
    sink.commandComplete("BEGIN");
  } else if (sql == "NOTICE") {
    sink.notice(Notice{"NOTICE", "00000", "fake notice", {}, {}});
    sink.commandComplete("DO");
  } else if (sql == "COPY OUT") {
    sink.copyOutBegin(1, false);
    sink.copyData("a\n");
    sink.copyData("b\n");
    sink.copyOutDone();
    sink.commandComplete("COPY 2");
  } else if (sql == "SLEEP") {
    auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (!cancel_ && std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (cancel_) throw SqlError(sqlstate::kQueryCanceled, "canceling statement due to user request");
    sink.commandComplete("SLEEP");
  } else if (sql == "ERROR") {
    if (inBlock_) failed_ = true;
    throw SqlError(sqlstate::kSyntaxError, "fake syntax error", "fake detail", "fake hint", 3);
  } else if (sql == "FATAL") {
    SqlError e(sqlstate::kAdminShutdown, "fake fatal error");
    e.fatal = true;
    throw e;
  } else {
    throw SqlError(sqlstate::kSyntaxError, "unknown fake statement \"" + sql + "\"");
  }
  return ExecuteState::Complete;
}

std::unique_ptr<Session> FakeEngine::openSession(
    const std::vector<std::pair<std::string, std::string>>& startupParams) {
  for (const auto& [name, value] : startupParams) {
    if (name == "database" && value == "nosuchdb") {
      SqlError e(sqlstate::kInvalidCatalogName, "database \"nosuchdb\" does not exist");
      e.fatal = true;
      throw e;
    }
  }
  return std::make_unique<FakeSession>(state);
}

}  // namespace duet::test
