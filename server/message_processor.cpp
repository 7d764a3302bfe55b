#include "server/message_processor.h"

#include <fmt/format.h>

#include <utility>

#include "engine/limits/statement_memory.h"
#include "server/current_error.h"
#include "session/executor.h"
#include "wire/backend_messages.h"
#include "wire/message_reader.h"
#include "wire/wire_result_sink.h"

namespace duet::wire {

namespace {

// ReadyForQuery, after the notifications that came for the session (as PostgreSQL sends
// them, right before it).
void readyForQuery(std::string& out, Session& session) {
  for (const Notification& n : session.takeNotifications()) writeNotification(out, n);
  writeReadyForQuery(out, session.txnStatus());
}

uint32_t bodyLength(const char* p) { return readLength(p) - 4; }

// Format codes as Bind sends them: none (all text), one for all, or one per item.
// Counts are unsigned 16-bit, as PostgreSQL reads them (pq_getmsgint(msg, 2)): a statement
// may have up to 65,535 parameters.
uint16_t readCount(MessageReader& r) { return static_cast<uint16_t>(r.int16()); }

std::vector<int16_t> readFormats(MessageReader& r) {
  std::vector<int16_t> formats(readCount(r));
  for (auto& f : formats) f = r.int16();
  return formats;
}

}  // namespace

bool MessageProcessor::process(Session& session, std::string_view batch, const std::optional<std::string>& violation,
                               std::string& out, snapshot::SnapshotManager* snapshots,
                               std::optional<SnapshotHandoff>& handoff, std::optional<Rest>& rest) {
  WireResultSink sink(out);
  size_t at = 0;
  while (at < batch.size()) {
    size_t start = at;
    char type = batch[at];
    uint32_t length = bodyLength(batch.data() + at + 1);
    std::string_view body = batch.substr(at + 5, length);
    at += 5 + length;
    toSnapshot_ = false;
    startMessageAnswer();
    try {
      if (handle(session, type, body, sink, out)) return true;
    } catch (const StatementDeferred&) {
      rest = Rest{start, true};
      return false;
    } catch (...) {
      SqlError error = currentError();
      if (error.fatal) {
        writeError(out, error, "FATAL");
        return true;
      }
      reportExtendedError(session, error, out);
    }
    if (toSnapshot_) {
      toSnapshot_ = false;
      handoff = handOff(session, snapshots, type == 'Q', out);
      if (handoff) {
        handoff->consumed = at;
        return false;
      }
    }
    if (out.size() >= kYieldAnswerAt && at < batch.size()) {
      rest = Rest{at, false};
      return false;
    }
  }
  if (session.txnStatus() == TxnStatus::Idle) blockSnapshot_.reset();
  if (violation) {
    writeError(out, protocolViolation(*violation), "FATAL");
    return true;
  }
  return false;
}

bool MessageProcessor::handle(Session& session, char type, std::string_view body, WireResultSink& sink,
                              std::string& out) {
  if (copyIn_) return handleCopyMessage(session, type, body, sink, out);
  if (skipTillSync_ && type != 'S' && type != 'X') return false;
  MessageReader r(body);
  switch (type) {
    case 'Q': simpleQuery(session, body, sink, out); return false;
    case 'P': {
      std::string name(r.cstr());
      std::string_view sql = r.cstr();
      std::vector<uint32_t> oids(readCount(r));
      for (auto& oid : oids) oid = static_cast<uint32_t>(r.int32());
      r.expectEnd();
      session.parse(name, sql, oids);
      writeEmpty(out, '1');
      return false;
    }
    case 'B':
      bind(session, body);
      writeEmpty(out, '2');
      return false;
    case 'D': describe(session, body, out); return false;
    case 'E': execute(session, body, sink, out); return false;
    case 'C': {
      uint8_t kind = r.byte();
      std::string name(r.cstr());
      r.expectEnd();
      if (kind == 'S')
        session.closeStatement(name);
      else if (kind == 'P')
        session.closePortal(name);
      else
        throw SqlError(sqlstate::kProtocolViolation, fmt::format("invalid CLOSE message subtype {}", kind));
      writeEmpty(out, '3');
      return false;
    }
    case 'S':
      skipTillSync_ = false;
      try {
        session.sync();
      } catch (...) {
        SqlError error = currentError();
        writeError(out, error, error.fatal ? "FATAL" : "ERROR");
        if (error.fatal) return true;
      }
      readyForQuery(out, session);
      return false;
    case 'H':
      // Everything a batch produces is written when it ends, so a Flush has nothing to do.
      return false;
    case 'X': return true;
    case 'd':
    case 'c':
    case 'f':
      // Leftovers of a COPY that already failed: the protocol says to ignore them.
      return false;
    case 'F':
      writeError(out, SqlError(sqlstate::kFeatureNotSupported, "fastpath function calls are not supported"), "ERROR");
      readyForQuery(out, session);
      return false;
    default:
      // scanMessages() lets no other type through.
      throw protocolViolation(fmt::format("invalid frontend message type {}", int(uint8_t(type))));
  }
}

void MessageProcessor::simpleQuery(Session& session, std::string_view body, WireResultSink& sink, std::string& out) {
  MessageReader r(body);
  std::string_view sql = r.cstr();
  r.expectEnd();
  queryStep(session, [&] { return session.simpleQuery(sql, sink); }, sink, out);
}

void MessageProcessor::queryStep(Session& session, const std::function<QueryState()>& step, WireResultSink& sink,
                                 std::string& out) {
  try {
    QueryState state = step();
    if (state == QueryState::OnSnapshot) {
      toSnapshot_ = true;  // ReadyForQuery follows the snapshot's answer
      return;
    }
    if (state == QueryState::CopyIn) {
      sink.takeCopyInStarted();
      copyIn_ = true;
      copyFromSimpleQuery_ = true;
      return;
    }
  } catch (const StatementDeferred&) {
    throw;  // nothing of it ran: process() ends the batch before this message
  } catch (...) {
    sink.takeCopyInStarted();
    SqlError error = currentError();
    if (error.fatal) throw error;
    writeError(out, error, "ERROR");
  }
  readyForQuery(out, session);
}

void MessageProcessor::bind(Session& session, std::string_view body) {
  MessageReader r(body);
  std::string portal(r.cstr());
  std::string statement(r.cstr());
  std::vector<int16_t> paramFormats = readFormats(r);
  uint16_t n = readCount(r);
  if (paramFormats.size() > 1 && paramFormats.size() != static_cast<size_t>(n)) {
    throw SqlError(sqlstate::kProtocolViolation,
                   fmt::format("bind message has {} parameter formats but {} parameters", paramFormats.size(), n));
  }
  std::vector<BindParam> params(static_cast<size_t>(n));
  for (size_t i = 0; i < params.size(); ++i) {
    int32_t len = r.int32();
    if (len < -1) throw protocolViolation("invalid parameter length");
    if (len >= 0) params[i].value = std::string(r.bytes(static_cast<size_t>(len)));
    if (!paramFormats.empty()) params[i].format = paramFormats.size() == 1 ? paramFormats[0] : paramFormats[i];
  }
  std::vector<int16_t> resultFormats = readFormats(r);
  r.expectEnd();
  session.bind(portal, statement, params, resultFormats);
}

void MessageProcessor::describe(Session& session, std::string_view body, std::string& out) {
  MessageReader r(body);
  uint8_t kind = r.byte();
  std::string name(r.cstr());
  r.expectEnd();
  StatementDescription d;
  if (kind == 'S') {
    d = session.describeStatement(name);
    writeParameterDescription(out, d.paramTypeOids);
  } else if (kind == 'P') {
    d = session.describePortal(name);
  } else {
    throw SqlError(sqlstate::kProtocolViolation, fmt::format("invalid DESCRIBE message subtype {}", kind));
  }
  if (d.returnsRows)
    writeRowDescription(out, d.columns);
  else
    writeEmpty(out, 'n');
}

void MessageProcessor::execute(Session& session, std::string_view body, WireResultSink& sink, std::string& out) {
  MessageReader r(body);
  std::string portal(r.cstr());
  int32_t maxRows = r.int32();
  r.expectEnd();
  ExecuteState state;
  try {
    state = session.execute(portal, maxRows > 0 ? maxRows : 0, sink);
  } catch (...) {
    sink.takeCopyInStarted();
    throw;
  }
  if (sink.takeCopyInStarted()) {
    copyIn_ = true;
    copyFromSimpleQuery_ = false;
    return;
  }
  if (state == ExecuteState::Suspended) writeEmpty(out, 's');
  if (state == ExecuteState::OnSnapshot) {
    toSnapshot_ = true;
    snapshotPortal_ = std::move(portal);
    snapshotPieceRows_ = maxRows > 0 ? maxRows : 0;
  }
}

std::optional<SnapshotHandoff> MessageProcessor::handOff(Session& session, snapshot::SnapshotManager* snapshots,
                                                         bool simpleQuery, std::string& out) {
  SnapshotHandoff h;
  h.query = session.takeSnapshotQuery();
  h.simpleQuery = simpleQuery;
  h.continuesQuery = simpleQuery && session.queryContinues();
  if (!simpleQuery) {
    h.portal = std::move(snapshotPortal_);
    h.pieceRows = std::exchange(snapshotPieceRows_, 0);
  }
  try {
    if (snapshots == nullptr) throw SqlError(sqlstate::kInternalError, "this server has no snapshot processes");
    // Beside another session's open block a fork would copy its uncommitted changes: the
    // session routed here only with a snapshot in place (SnapshotRouter::snapshotAvailable).
    bool mayFork = !Executor::runningBesideHolder();
    if (!h.query.readOnlyBlock) {
      blockSnapshot_.reset();
      h.process = snapshots->acquire(h.query, mayFork);
    } else {
      if (!blockSnapshot_) blockSnapshot_ = snapshots->acquire(h.query, mayFork);
      h.process = blockSnapshot_;
    }
    if (!h.process)
      throw SqlError(sqlstate::kObjectNotInPrerequisiteState,
                     "no snapshot is available while another transaction block holds the server; try again");
  } catch (...) {
    SqlError error = currentError();
    if (simpleQuery) {
      writeError(out, error, "ERROR");
      try {
        session.abortCurrent();
      } catch (...) {
        // The client has its error already.
      }
      readyForQuery(out, session);
    } else {
      reportExtendedError(session, error, out);
    }
    return std::nullopt;
  }
  return h;
}

std::optional<SnapshotHandoff> MessageProcessor::snapshotAnswered(Session& session, const SnapshotHandoff& handoff,
                                                                  bool failed, std::string& out,
                                                                  snapshot::SnapshotManager* snapshots) {
  if (failed) {
    if (!handoff.simpleQuery) skipTillSync_ = true;
    try {
      session.abortCurrent();
    } catch (...) {
      // The client has its error already.
    }
  }
  if (handoff.pieceRows > 0) fillPortalFromSnapshot(session, handoff, failed, out);
  std::optional<SnapshotHandoff> next;
  if (handoff.simpleQuery && !failed && session.queryContinues()) {
    WireResultSink sink(out);
    startMessageAnswer();
    toSnapshot_ = false;
    queryStep(session, [&] { return session.resumeQuery(sink); }, sink, out);
    if (std::exchange(toSnapshot_, false)) next = handOff(session, snapshots, true, out);
  } else if (handoff.simpleQuery) {
    readyForQuery(out, session);
  }
  if (session.txnStatus() == TxnStatus::Idle) blockSnapshot_.reset();
  return next;
}

void MessageProcessor::fillPortalFromSnapshot(Session& session, const SnapshotHandoff& handoff, bool failed,
                                              std::string& out) {
  std::vector<std::vector<std::optional<std::string>>> rows;
  std::string tag;
  std::string_view answer = handoff.answer;
  for (size_t at = 0; at + 5 <= answer.size();) {
    char type = answer[at];
    uint32_t length = readLength(answer.data() + at + 1);
    std::string_view body = answer.substr(at + 5, length - 4);
    if (type == 'D') {
      MessageReader r(body);
      auto& row = rows.emplace_back(static_cast<size_t>(std::max<int16_t>(r.int16(), 0)));
      for (auto& field : row) {
        int32_t n = r.int32();
        if (n >= 0) field.emplace(r.bytes(static_cast<size_t>(n)));
      }
    } else if (type == 'C') {
      tag = std::string(MessageReader(body).cstr());
    } else {
      out.append(answer.substr(at, 1 + length));  // an error or a notice: the client's now
    }
    at += 1 + length;
  }
  if (failed) return;  // the error went out above; the statement failed
  try {
    session.fillPortal(handoff.portal, std::move(rows), std::move(tag));
    WireResultSink sink(out);
    if (session.execute(handoff.portal, handoff.pieceRows, sink) == ExecuteState::Suspended) writeEmpty(out, 's');
  } catch (...) {
    reportExtendedError(session, currentError(), out);
  }
}

bool MessageProcessor::handleCopyMessage(Session& session, char type, std::string_view body, WireResultSink& sink,
                                         std::string& out) {
  switch (type) {
    case 'd': copyData_.append(body); return false;
    case 'c':
      try {
        QueryState state = session.copyInData(copyData_, sink);
        std::string().swap(copyData_);
        if (state == QueryState::CopyIn) {
          sink.takeCopyInStarted();
          return false;
        }
      } catch (...) {
        failCopy(session, currentError(), out);
        return false;
      }
      copyIn_ = false;
      if (copyFromSimpleQuery_) readyForQuery(out, session);
      return false;
    case 'f': {
      MessageReader r(body);
      std::string message(r.cstr());
      // The engine may report the failure itself by throwing; if it does not, we do, as
      // PostgreSQL words it.
      SqlError error(sqlstate::kQueryCanceled, "COPY from stdin failed: " + message);
      try {
        session.copyInFail(message, sink);
      } catch (...) {
        error = currentError();
      }
      failCopy(session, error, out);
      return false;
    }
    case 'H':
    case 'S':
      // PostgreSQL ignores these during COPY FROM STDIN.
      return false;
    case 'X': return true;
    default: {
      std::string message = fmt::format("unexpected message type 0x{:02X} during COPY from stdin", int(uint8_t(type)));
      try {
        session.copyInFail(message, sink);
      } catch (...) {
        // The protocol error below is what the client needs to hear about.
      }
      failCopy(session, SqlError(sqlstate::kProtocolViolation, message), out);
      return false;
    }
  }
}

void MessageProcessor::failCopy(Session& session, const SqlError& error, std::string& out) {
  copyIn_ = false;
  std::string().swap(copyData_);
  if (error.fatal) throw error;
  if (copyFromSimpleQuery_) {
    writeError(out, error, "ERROR");
    readyForQuery(out, session);
  } else {
    reportExtendedError(session, error, out);
  }
}

void MessageProcessor::reportExtendedError(Session& session, const SqlError& error, std::string& out) {
  writeError(out, error, "ERROR");
  if (skipTillSync_) return;
  skipTillSync_ = true;
  try {
    session.abortCurrent();
  } catch (...) {
    // Marking the block failed cannot itself be reported: the client already has an error.
  }
}

}  // namespace duet::wire
