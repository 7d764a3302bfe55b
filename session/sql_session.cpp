// The SQL session's facade: the parts wired together, and the calls that involve more than
// one of them (COPY's data ending a simple Query's wait, aborting after an error).
#include "session/sql_session.h"

#include "compiler/compiler.h"

namespace duet {

SqlSession::SqlSession(EngineState& engine, Database& db, std::string user, std::string dbName,
                       const std::vector<std::pair<std::string, std::string>>& startupParams)
    : state_(engine, db, std::move(user), std::move(dbName), startupParams, *this),
      routines_(state_),
      redo_(state_),
      transaction_(state_, redo_, routines_),
      calls_(state_, transaction_, redo_),
      planner_(state_, routines_),
      routineStatements_(state_, transaction_, routines_),
      viewStatements_(state_, transaction_, routines_),
      sequenceStatements_(state_, transaction_),
      constraints_(state_, transaction_, planner_),
      utility_(state_, transaction_, planner_, routineStatements_, viewStatements_, sequenceStatements_, constraints_),
      copy_(state_, transaction_, planner_, redo_),
      runner_(state_, transaction_, planner_, redo_, routines_, utility_, copy_, calls_),
      dynamic_(state_, planner_, routines_, utility_, runner_.explain()),
      router_(state_, transaction_, planner_, routines_, redo_),
      simpleQuery_(state_, transaction_, planner_, runner_, router_, copy_),
      extended_(state_, transaction_, planner_, runner_, router_) {
  routines_.setCallTransactions(&calls_);
  runner_.setPrepare([this](const std::string& name, std::string_view sql, const std::vector<uint32_t>& types) {
    extended_.prepare(name, sql, types);
  });
}

SqlSession::~SqlSession() {
  transaction_.rollbackOpenBlock();
  // The session's temporary objects go with it, as a DISCARD TEMP of its own that the redo
  // log records (a replay's session for it then ends too: docs/logging.md).
  if (state_.tempSchema()) {
    state_.cancel = false;  // the connection's end asked the running statement to stop
    IgnoringSink sink;
    simpleQuery("DISCARD TEMP", sink);
  }
  // Runtime functions allocate in the thread's statement arena: never leave it pointing here.
  if (&statementArena() == &state_.arena) setStatementArena(nullptr);
}

QueryState SqlSession::copyInData(std::string_view data, ResultSink& sink) {
  bool receiving = copy_.receiving();
  try {
    if (!copy_.receive(data, sink)) return QueryState::Done;
  } catch (const SqlError&) {
    if (receiving) simpleQuery_.dropPending();  // the COPY failed, and its Query with it
    throw;
  }
  return simpleQuery_.continueQuery(sink, false);
}

void SqlSession::copyInFail(std::string_view message, ResultSink& sink) {
  if (!copy_.receiving()) return;
  simpleQuery_.dropPending();
  copy_.fail(message, sink);
}

void SqlSession::abortCurrent() {
  copy_.abort();
  simpleQuery_.dropPending();
  transaction_.abortCurrent();
}

void SqlSession::notice(const char* severity, std::string message) {
  // Filtered now, at the client_min_messages of the moment it is raised, as PostgreSQL does.
  if (!state_.reachesClient(severity)) return;
  std::string code = std::string_view(severity) == "WARNING" ? "01000" : "00000";
  state_.pendingNotices.push_back(Notice::make(severity, code, std::move(message)));
}

const std::string* SqlSession::currentSetting(std::string_view name) const { return state_.settings.find(name); }

void SqlSession::notify(std::string_view channel, std::string_view payload) { state_.notify(channel, payload); }

void SqlSession::setNotificationTarget(int32_t pid, std::function<void()> wake) {
  state_.listener.pid = pid;
  state_.listener.wake = std::move(wake);
}

std::vector<Notification> SqlSession::takeNotifications() {
  std::vector<Notification> out;
  // As in PostgreSQL, not inside a transaction block: after it ends.
  if (state_.txn.inBlock()) return out;
  out.swap(state_.listener.queue);
  return out;
}

std::string SqlSession::setSetting(std::string_view name, std::string_view value, bool local) {
  state_.settings.set(name, value, local);
  return state_.settings.get(name);
}

}  // namespace duet
