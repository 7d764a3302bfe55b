#include "server/connection.h"

#include <sys/socket.h>
#include <unistd.h>
#include <cerrno>

#include <fmt/format.h>

#include "snapshot/snapshot_protocol.h"

#include "server/current_error.h"
#include "wire/backend_messages.h"
#include "wire/frontend_framing.h"
#include "wire/message_reader.h"

namespace duet::wire {

namespace asio = boost::asio;

namespace {
// While a batch runs, stop reading once this much input waits: TCP then pushes back.
constexpr size_t kPauseReadingAt = 8 << 20;
// No new batch runs while this much output waits for a client that does not read: its
// answers would pile up in memory (PostgreSQL's backend blocks on the socket instead).
constexpr size_t kPauseProcessingAt = 8 << 20;
// After a FATAL we read and drop what the client still sends (so closing does not reset the
// connection before it reads the error), but not forever.
constexpr size_t kMaxDrainBytes = 1 << 20;
constexpr auto kDrainTimeout = std::chrono::seconds(1);
}  // namespace

Connection::Connection(asio::ip::tcp::socket socket, ServerContext& context)
    : socket_(std::move(socket)), context_(context), drainTimer_(socket_.get_executor()) {}

void Connection::start() {
  boost::system::error_code ignored;
  socket_.set_option(asio::ip::tcp::no_delay(true), ignored);
  asio::ip::tcp::endpoint peer = socket_.remote_endpoint(ignored);
  if (!ignored) {
    clientAddress_ = peer.address().to_string();
    clientPort_ = peer.port();
  }
  post([self = shared_from_this()] { self->readMore(); });
}

void Connection::post(std::function<void()> fn) { asio::post(socket_.get_executor(), std::move(fn)); }

void Connection::terminateForIdleTimeout() {
  post([self = shared_from_this()] {
    if (self->closing_) return;
    self->terminate(
        SqlError(sqlstate::kIdleInTransactionTimeout, "terminating connection due to idle-in-transaction timeout"));
  });
}

void Connection::terminateForShutdown() {
  post([self = shared_from_this()] {
    if (self->disconnected_ || self->closeAfterWrite_) return;
    self->terminate(SqlError(sqlstate::kAdminShutdown, "terminating connection due to administrator command"));
  });
}

void Connection::readMore() {
  if (reading_ || disconnected_) return;
  if ((busy_ || outputBacklogged()) && input_.size() >= kPauseReadingAt) return;
  reading_ = true;
  socket_.async_read_some(asio::buffer(readChunk_), [self = shared_from_this()](const boost::system::error_code& ec,
                                                                                size_t n) { self->onRead(ec, n); });
}

void Connection::onRead(const boost::system::error_code& ec, size_t n) {
  reading_ = false;
  if (ec) {
    disconnect();
    return;
  }
  if (closing_) {
    drainedBytes_ += n;
    if (drainedBytes_ > kMaxDrainBytes) {
      disconnect();
      return;
    }
  } else {
    input_.append(readChunk_.data(), n);
    processInput();
  }
  readMore();
}

void Connection::processInput() {
  while (!closing_ && !busy_ && !outputBacklogged()) {
    if (phase_ == Phase::Running) {
      submitBatch();
      return;
    }
    if (!handleStartupPacket()) return;
  }
}

bool Connection::handleStartupPacket() {
  StartupPacket packet = parseStartupPacket(input_);
  switch (packet.kind) {
    case StartupPacket::Kind::Incomplete: return false;
    case StartupPacket::Kind::Invalid: {
      SqlError error(packet.errorCode, packet.error);
      terminate(error);
      return false;
    }
    case StartupPacket::Kind::SslRequest:
    case StartupPacket::Kind::GssEncRequest:
      // No encryption: the client goes on in plain text with a new startup packet.
      input_.erase(0, packet.length);
      queueWrite("N");
      return true;
    case StartupPacket::Kind::Cancel:
      // PostgreSQL answers a cancel request with nothing but closing the connection.
      context_.registry.cancel(packet.cancelPid, packet.cancelSecret);
      disconnect();
      return false;
    case StartupPacket::Kind::Startup: break;
  }
  input_.erase(0, packet.length);
  auto& params = packet.params;
  auto find = [&](std::string_view name) {
    for (auto& [key, value] : params)
      if (key == name) return &value;
    return static_cast<std::string*>(nullptr);
  };
  std::string* user = find("user");
  if (user == nullptr || user->empty()) {
    terminate(SqlError(sqlstate::kInvalidAuthorization, "no PostgreSQL user name specified in startup packet"));
    return false;
  }
  if (std::string* database = find("database"); database == nullptr || database->empty()) {
    std::string name = *user;  // PostgreSQL's default database is the user's name
    if (database != nullptr)
      *database = name;
    else
      params.emplace_back("database", name);
  }
  std::string prelude;
  if (packet.protocolMinor > 0 || !packet.unknownOptions.empty())
    writeNegotiateProtocolVersion(prelude, 0, packet.unknownOptions);
  submitStartup(std::move(params), std::move(prelude));
  return false;
}

void Connection::submitStartup(std::vector<std::pair<std::string, std::string>> params, std::string prelude) {
  std::tie(pid_, secret_) = context_.registry.newBackendKey();
  busy_ = true;
  auto task = [self = shared_from_this(), guard = asio::make_work_guard(context_.io), params = std::move(params),
               prelude = std::move(prelude)]() mutable {
    std::string out = std::move(prelude);
    std::shared_ptr<Session> session;
    bool close = false;
    try {
      session = self->context_.engine.openSession(params);
      session->setClientInfo(self->pid_, self->clientAddress_, self->clientPort_);
      // Called on the executor when a NOTIFY this session listens for commits.
      session->setNotificationTarget(self->pid_, [weak = self->weak_from_this()] {
        if (auto c = weak.lock()) c->post([c] { c->onNotification(); });
      });
      writeAuthenticationOk(out);
      for (const auto& [name, value] : session->reportedParameters()) writeParameterStatus(out, name, value);
      writeBackendKeyData(out, self->pid_, self->secret_);
      writeReadyForQuery(out, session->txnStatus());
      self->context_.registry.add(self->pid_, self->secret_, session.get(), self->weak_from_this());
    } catch (...) {
      writeError(out, currentError(), "FATAL");
      close = true;
      session.reset();
    }
    self->post([self, session = std::move(session), out = std::move(out), close]() mutable {
      self->onStartupDone(std::move(session), std::move(out), close);
    });
  };
  // Opening a session reads the catalog and no table data: a new connection does not wait
  // for another session's open block, as in PostgreSQL.
  if (!context_.executor.submit(nullptr, std::move(task), true)) disconnect();
}

void Connection::onStartupDone(std::shared_ptr<Session> session, std::string out, bool close) {
  busy_ = false;
  session_ = std::move(session);
  if (disconnected_) {
    releaseSession();
    return;
  }
  queueWrite(std::move(out));
  if (close) {
    closeAfterWrite();
    return;
  }
  phase_ = Phase::Running;
  processInput();
  readMore();
}

void Connection::submitBatch() {
  FrameScan scan = scanMessages(input_);
  if (scan.completeBytes == 0 && !scan.violation) return;
  std::string batch;
  if (scan.completeBytes == input_.size()) {
    batch.swap(input_);
  } else {
    batch.assign(input_, 0, scan.completeBytes);
    input_.erase(0, scan.completeBytes);
  }
  // Nothing after a malformed message can be framed: stop reading input.
  if (scan.violation) closing_ = true;
  busy_ = true;
  session_->clearCancel();
  // A batch of only Parse/Describe/Close/Sync/Flush touches no table data. One that also
  // has Query, Bind and Execute messages may run beside another session's open block for
  // as long as its statements go to snapshots; the rest of it waits (deferred below).
  bool dataFree = !scan.violation && !batch.empty();
  bool besideHolder = !scan.violation && !batch.empty() && !resumeDeferred_;
  resumeDeferred_ = false;
  for (size_t pos = 0; (dataFree || besideHolder) && pos + 5 <= batch.size();) {
    char type = batch[pos];
    uint32_t len = readLength(batch.data() + pos + 1);
    bool noTable = type == 'P' || type == 'D' || type == 'C' || type == 'S' || type == 'H';
    dataFree = dataFree && noTable;
    besideHolder = besideHolder && (noTable || type == 'Q' || type == 'B' || type == 'E');
    pos += 1 + len;
  }
  auto task = [self = shared_from_this(), guard = asio::make_work_guard(context_.io), session = session_.get(),
               batch = std::move(batch), violation = std::move(scan.violation)]() mutable {
    std::string out;
    std::optional<SnapshotHandoff> handoff;
    std::optional<MessageProcessor::Rest> unprocessed;
    const uint64_t endedBefore = session->endedTransactions();
    session->setBesideHolder(Executor::runningBesideHolder());
    bool close =
        self->processor_.process(*session, batch, violation, out, self->context_.snapshots, handoff, unprocessed);
    session->setBesideHolder(false);
    // Messages after one that went to a snapshot wait for its answer; from one that must
    // wait for another session's block, they go again as a task that waits for it; after
    // a large answer, they go again once it is on its way.
    std::string rest = handoff       ? batch.substr(handoff->consumed)
                       : unprocessed ? batch.substr(unprocessed->at)
                                     : std::string();
    self->deliverWhenDurable(*session, endedBefore, std::move(out),
                             [self, close, handoff = std::move(handoff), rest = std::move(rest),
                              deferred = unprocessed && unprocessed->waitsForBlock](std::string out) mutable {
                               if (!rest.empty()) self->input_.insert(0, rest);
                               if (deferred) self->resumeDeferred_ = true;
                               self->onBatchDone(std::move(out), close, std::move(handoff));
                             });
  };
  if (!context_.executor.submit(session_.get(), std::move(task), dataFree, besideHolder)) disconnect();
}

void Connection::deliverWhenDurable(Session& session, uint64_t endedBefore, std::string out,
                                    std::function<void(std::string out)> deliver) {
  // synchronous_commit: the answers of a batch that ended a transaction wait until every
  // commit logged so far is durable - the session's own, and any other it may have read
  // (the executor shows a commit to everyone at once, before its log record reaches the
  // disk). A batch that only ran statements of a block still open answers at once: what
  // they read is durable before the block's COMMIT is answered, and a crash before that
  // loses the block too (early lock release; the block holds the executor, and waiting
  // here would hold it for a whole fdatasync).
  logging::RedoLog* log = context_.log;
  const bool endedTransaction = session.txnStatus() == TxnStatus::Idle || session.endedTransactions() != endedBefore;
  uint64_t logged = log && session.synchronousCommit() && endedTransaction ? log->appendedLsn() : 0;
  // The answers go to the socket from the thread that has them (sendDirect), and the rest of
  // the batch's bookkeeping to the strand: the client does not wait for the strand to wake.
  auto send = [self = shared_from_this(), deliver = std::move(deliver)](std::string out) mutable {
    out = self->sendDirect(std::move(out));
    self->post([deliver = std::move(deliver), out = std::move(out)]() mutable { deliver(std::move(out)); });
  };
  auto whenDurable = [log, logged, out = std::move(out), send = std::move(send)](std::string notice) mutable {
    out.insert(0, notice);  // a failed CHECKPOINT's warning only
    if (logged > 0 && log->durableLsn() < logged) {
      log->whenDurable(logged, [send = std::move(send), out = std::move(out)]() mutable { send(std::move(out)); });
    } else {
      send(std::move(out));
    }
  };
  // CHECKPOINT answers once its archive is in place. Inside a transaction block the
  // archive must wait for the block's end, which the client can only send after this
  // answer: there it is asked for without waiting.
  snapshot::Checkpointer* checkpointer = context_.checkpointer;
  if (session.takeCheckpointRequest() && checkpointer) {
    if (session.txnStatus() != TxnStatus::Idle) {
      checkpointer->request(nullptr);
    } else {
      checkpointer->request([whenDurable = std::move(whenDurable)](const std::string& error) mutable {
        std::string notice;
        if (!error.empty())
          writeNotice(notice, Notice::make("WARNING", "58000", "checkpoint request failed: " + error));
        whenDurable(std::move(notice));
      });
      return;
    }
  }
  whenDurable({});
}

void Connection::onNotification() {
  notificationsPending_ = true;
  flushNotifications();
}

// An idle client hears of notifications at once, as PostgreSQL tells it: a task of their
// own takes them from the session. A busy one gets them before its next ReadyForQuery.
void Connection::flushNotifications() {
  if (!notificationsPending_ || busy_ || phase_ != Phase::Running || disconnected_ || closeAfterWrite_ || closing_ ||
      !session_)
    return;
  notificationsPending_ = false;
  busy_ = true;
  auto task = [self = shared_from_this(), guard = asio::make_work_guard(context_.io), session = session_.get()] {
    std::string out;
    for (const Notification& n : session->takeNotifications()) writeNotification(out, n);
    self->post([self, out = std::move(out)]() mutable { self->onBatchDone(std::move(out), false); });
  };
  if (!context_.executor.submit(session_.get(), std::move(task), true)) disconnect();
}

void Connection::onBatchDone(std::string out, bool close, std::optional<SnapshotHandoff> handoff) {
  busy_ = false;
  if (disconnected_ || closeAfterWrite_) return;
  queueWrite(std::move(out));
  if (close) {
    closeAfterWrite();
    return;
  }
  if (handoff) {
    busy_ = true;
    startSnapshotAnswer(std::move(*handoff));
    return;
  }
  processInput();
  readMore();
  flushNotifications();
}

void Connection::startSnapshotAnswer(SnapshotHandoff handoff) {
  snapshotQuery_ = std::move(handoff);
  answerInput_.clear();
  int sockets[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sockets) != 0) {
    std::string out;
    writeError(out, SqlError(sqlstate::kInsufficientResources, "could not reach the snapshot process"), "ERROR");
    queueWrite(std::move(out));
    finishSnapshotAnswer(true);
    return;
  }
  snapshotQuery_->process->running.fetch_add(1);
  bool sent = snapshotQuery_->process->send(snapshotQuery_->query, sockets[1]);
  ::close(sockets[1]);
  answerSocket_.emplace(socket_.get_executor(), asio::local::stream_protocol(), sockets[0]);
  if (!sent) {
    // The process is gone: the read below sees the end of the stream at once.
    boost::system::error_code ignored;
    answerSocket_->shutdown(asio::socket_base::shutdown_send, ignored);
  }
  readSnapshotAnswer();
}

void Connection::readSnapshotAnswer() {
  if (answerReading_ || !answerSocket_) return;
  // Backpressure: the client reads slower than the snapshot answers.
  if (writing_.size() + pendingOutput_.size() > kPauseReadingAt) return;
  answerReading_ = true;
  answerSocket_->async_read_some(
      asio::buffer(answerChunk_),
      [self = shared_from_this()](const boost::system::error_code& ec, size_t n) { self->onSnapshotAnswer(ec, n); });
}

void Connection::onSnapshotAnswer(const boost::system::error_code& ec, size_t n) {
  answerReading_ = false;
  if (!answerSocket_ || disconnected_) {
    finishSnapshotAnswer(true);
    return;
  }
  if (ec) {
    // The stream ended before its end message: the snapshot process died.
    snapshotQuery_->process->died.store(true);
    std::string out;
    writeError(out,
               SqlError(sqlstate::kInternalError, fmt::format("snapshot process {} ended while running the statement",
                                                              snapshotQuery_->process->pid())),
               "ERROR");
    queueWrite(std::move(out));
    finishSnapshotAnswer(true);
    return;
  }
  answerInput_.append(answerChunk_.data(), n);
  // Forward complete messages only: a process dying mid-message must not leave the client
  // half of one.
  size_t at = 0;
  while (answerInput_.size() - at >= 5) {
    const char* p = answerInput_.data() + at;
    uint32_t length = readLength(p + 1);
    if (answerInput_.size() - at < 1 + size_t(length)) break;
    if (p[0] == snapshot::kAnswerEnd) {
      bool failed = length < 5 || p[5] != char(snapshot::AnswerStatus::Ok);
      passSnapshotAnswer(answerInput_.substr(0, at));
      finishSnapshotAnswer(failed);
      return;
    }
    at += 1 + length;
  }
  passSnapshotAnswer(answerInput_.substr(0, at));
  answerInput_.erase(0, at);
  readSnapshotAnswer();
}

void Connection::passSnapshotAnswer(std::string messages) {
  // A portal fetched in pieces takes the whole answer first (MessageProcessor::snapshotAnswered).
  if (snapshotQuery_->pieceRows > 0) {
    snapshotQuery_->answer.append(messages);
  } else {
    queueWrite(std::move(messages));
  }
}

void Connection::finishSnapshotAnswer(bool failed) {
  SnapshotHandoff handoff = std::move(*snapshotQuery_);
  snapshotQuery_.reset();
  if (answerSocket_) {
    boost::system::error_code ignored;
    answerSocket_->close(ignored);
    answerSocket_.reset();
    handoff.process->running.fetch_sub(1);
  }
  answerInput_.clear();
  if (disconnected_ || closeAfterWrite_ || !session_) {
    busy_ = false;
    return;
  }
  // The session learns the outcome on the executor (a failed statement fails its block);
  // touching no table data, this may run while another session holds the executor -
  // unless the statements of the Query that followed the routed one run now.
  bool dataFree = !handoff.continuesQuery;
  auto task = [self = shared_from_this(), guard = asio::make_work_guard(context_.io), session = session_.get(),
               handoff = std::move(handoff), failed]() mutable {
    std::string out;
    const uint64_t endedBefore = session->endedTransactions();
    std::optional<SnapshotHandoff> next =
        self->processor_.snapshotAnswered(*session, handoff, failed, out, self->context_.snapshots);
    handoff.process.reset();
    self->deliverWhenDurable(*session, endedBefore, std::move(out),
                             [self, next = std::move(next)](std::string out) mutable {
                               self->onBatchDone(std::move(out), false, std::move(next));
                             });
  };
  if (!context_.executor.submit(session_.get(), std::move(task), dataFree)) disconnect();
}

void Connection::cancelSnapshotQuery() {
  post([self = shared_from_this()] {
    if (!self->answerSocket_) return;
    // Any byte on the answer socket asks the snapshot to cancel the statement.
    boost::system::error_code ignored;
    char byte = 'c';
    self->answerSocket_->write_some(asio::buffer(&byte, 1), ignored);
  });
}

void Connection::terminate(const SqlError& error) {
  std::string out;
  writeError(out, error, "FATAL");
  queueWrite(std::move(out));
  closeAfterWrite();
}

std::string Connection::sendDirect(std::string out) {
  std::lock_guard lock(sendMutex_);
  if (socketBusy_ || out.empty()) return out;
  size_t sent = 0;
  while (sent < out.size()) {
    ssize_t n = ::send(socket_.native_handle(), out.data() + sent, out.size() - sent, MSG_DONTWAIT | MSG_NOSIGNAL);
    if (n > 0) {
      sent += static_cast<size_t>(n);
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      break;  // a full socket buffer, or an error the strand's own write will meet
    }
  }
  out.erase(0, sent);
  // What did not fit goes first on the strand: nothing else may be written before it.
  if (!out.empty()) {
    unsent_ = std::move(out);
    socketBusy_ = true;
  }
  return {};
}

void Connection::queueWrite(std::string data) {
  {
    std::lock_guard lock(sendMutex_);
    if (!unsent_.empty()) {
      data.insert(0, unsent_);
      unsent_.clear();
    }
    if (data.empty() || disconnected_) {
      socketBusy_ = writeInFlight_ || disconnected_ || closeAfterWrite_;
      return;
    }
    socketBusy_ = true;
  }
  if (writeInFlight_) {
    pendingOutput_.append(data);
    return;
  }
  writing_ = std::move(data);
  writeInFlight_ = true;
  asio::async_write(socket_, asio::buffer(writing_),
                    [self = shared_from_this()](const boost::system::error_code& ec, size_t) { self->onWritten(ec); });
}

void Connection::onWritten(const boost::system::error_code& ec) {
  writeInFlight_ = false;
  if (ec) {
    disconnect();
    return;
  }
  if (!pendingOutput_.empty()) {
    std::string next;
    next.swap(pendingOutput_);
    queueWrite(std::move(next));
  } else {
    writing_.clear();
    std::lock_guard lock(sendMutex_);
    socketBusy_ = !unsent_.empty() || closeAfterWrite_;
  }
  readSnapshotAnswer();
  if (closeAfterWrite_) {
    if (!writeInFlight_) finishClose();
    return;
  }
  // Input that waited for the backlog to shrink.
  processInput();
  readMore();
}

bool Connection::outputBacklogged() const {
  return writeInFlight_ && writing_.size() + pendingOutput_.size() > kPauseProcessingAt;
}

void Connection::closeAfterWrite() {
  closing_ = true;
  closeAfterWrite_ = true;
  {
    std::lock_guard lock(sendMutex_);
    socketBusy_ = true;
  }
  releaseSession();
  if (!writeInFlight_) finishClose();
}

void Connection::finishClose() {
  if (disconnected_) return;
  boost::system::error_code ignored;
  socket_.shutdown(asio::ip::tcp::socket::shutdown_send, ignored);
  drainTimer_.expires_after(kDrainTimeout);
  drainTimer_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
    if (!ec) self->disconnect();
  });
  readMore();
}

void Connection::disconnect() {
  if (disconnected_) return;
  disconnected_ = true;
  closing_ = true;
  boost::system::error_code ignored;
  {
    // No other thread sends on the descriptor once it is closed (and perhaps reused).
    std::lock_guard lock(sendMutex_);
    socketBusy_ = true;
    socket_.shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
    socket_.close(ignored);
  }
  drainTimer_.cancel();
  // A statement on a snapshot sees its answer socket close and stops.
  if (answerSocket_) answerSocket_->close(ignored);
  releaseSession();
}

void Connection::releaseSession() {
  if (!session_) return;
  // From here on no cancel request can reach the session, and a running statement stops.
  context_.registry.remove(pid_);
  session_->requestCancel();
  Session* raw = session_.get();
  auto cleanup = [session = std::move(session_)]() mutable {
    session->rollbackOpenBlock();
    session.reset();
  };
  // A stopped executor runs nothing any more, so destroying the session here is safe.
  context_.executor.submitCleanup(raw, std::move(cleanup));
}

}  // namespace duet::wire
