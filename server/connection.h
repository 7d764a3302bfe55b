// One client connection: the network-thread half of a session. All of its members are
// touched only on its strand, except what the executor tasks it submits use (the
// MessageProcessor, and the Session through a raw pointer), which the one-batch-at-a-time
// rule keeps to a single task at once, and the socket's direct writes (sendDirect, under
// sendMutex_), by which a batch's answers leave from the executor or the log's flusher.
//
// Life cycle: startup packet (SSL/GSSENC answered 'N', CancelRequest served) → openSession on
// the executor → batches of messages, one executor task each → disconnect, whose cleanup
// task rolls back and destroys the Session on the executor.
#pragma once
// Boost 1.74's asio/awaitable.hpp uses std::exchange without including <utility>.
#include <utility>

#include <array>
#include <boost/asio.hpp>
#include <memory>
#include <mutex>
#include <string>

#include "logging/redo_log.h"
#include "server/message_processor.h"
#include "server/session_registry.h"
#include "session/executor.h"
#include "session/session_api.h"
#include "snapshot/checkpointer.h"
#include "snapshot/snapshot_manager.h"

namespace duet::wire {

struct ServerContext {
  Engine& engine;
  Executor& executor;
  SessionRegistry& registry;
  boost::asio::io_context& io;
  snapshot::SnapshotManager* snapshots = nullptr;  // null: every statement runs on the executor
  // The redo log: a batch's answers leave only once the log is durable as far as it was
  // when the batch ended (docs/logging.md). Null: no log (nothing waits).
  logging::RedoLog* log = nullptr;
  // CHECKPOINT's answer waits for the archive it asked for (docs/logging.md). Null: none.
  snapshot::Checkpointer* checkpointer = nullptr;
};

class Connection : public std::enable_shared_from_this<Connection> {
 public:
  Connection(boost::asio::ip::tcp::socket socket, ServerContext& context);

  void start();
  // Any thread: the executor rolled back this connection's idle block; send 25P03, close.
  void terminateForIdleTimeout();
  // Any thread: the server is stopping; send 57P01, close.
  void terminateForShutdown();
  // Any thread: a CancelRequest for this session; a statement on a snapshot stops there.
  void cancelSnapshotQuery();

 private:
  enum class Phase { Startup, Running };

  void readMore();
  void onRead(const boost::system::error_code& ec, size_t n);
  void processInput();
  // Returns true when it consumed an SSL/GSSENC request and the next packet may follow.
  bool handleStartupPacket();
  void submitStartup(std::vector<std::pair<std::string, std::string>> params, std::string prelude);
  void onStartupDone(std::shared_ptr<Session> session, std::string out, bool close);
  void submitBatch();
  void onBatchDone(std::string out, bool close, std::optional<SnapshotHandoff> handoff = std::nullopt);
  // LISTEN / NOTIFY: notifications came for the session (on the strand).
  void onNotification();
  void flushNotifications();
  // Streaming a snapshot's answer (docs/snapshots.md): send the query, forward the answer's
  // complete messages to the client, then let the executor settle the session.
  void startSnapshotAnswer(SnapshotHandoff handoff);
  void readSnapshotAnswer();
  void onSnapshotAnswer(const boost::system::error_code& ec, size_t n);
  // Complete answer messages: to the client, or kept for a portal fetched in pieces.
  void passSnapshotAnswer(std::string messages);
  void finishSnapshotAnswer(bool failed);
  void terminate(const SqlError& error);
  void queueWrite(std::string data);
  void onWritten(const boost::system::error_code& ec);
  void closeAfterWrite();
  void finishClose();
  void disconnect();
  void releaseSession();
  void post(std::function<void()> fn);
  // So much output waits for the client that no more input is processed until it reads.
  bool outputBacklogged() const;
  // Executor thread, after a task of ours ran statements: once what they committed (or
  // read) is durable and a CHECKPOINT among them has its archive (with a warning put before
  // `out` when that failed), `out` goes to the client (sendDirect) and `deliver` runs on the
  // strand with what is left of it to queue. endedBefore: the session's
  // endedTransactions() before the task; a task that ended none inside a block does not wait.
  void deliverWhenDurable(Session& session, uint64_t endedBefore, std::string out,
                          std::function<void(std::string out)> deliver);
  // Any thread: writes `out` to the socket at once when the strand is writing nothing (a
  // batch's answers usually are), without blocking; what does not fit waits in unsent_
  // for the strand's next write. Returns what the caller must still queue: all of `out`
  // when the socket was not free, else nothing.
  std::string sendDirect(std::string out);

  boost::asio::ip::tcp::socket socket_;
  ServerContext& context_;
  Phase phase_ = Phase::Startup;
  std::array<char, 64 * 1024> readChunk_;
  std::string input_;
  bool reading_ = false;
  bool busy_ = false;                  // a task of ours is queued or running on the executor
  bool notificationsPending_ = false;  // the session has notifications the client has not had
  // The last batch stopped at a message that waits for another session's block to end:
  // the next batch must not run beside it (Executor::submit, besideHolder).
  bool resumeDeferred_ = false;
  bool closing_ = false;  // no more input is processed
  bool closeAfterWrite_ = false;
  bool disconnected_ = false;  // the socket is closed
  size_t drainedBytes_ = 0;
  boost::asio::steady_timer drainTimer_;
  std::string writing_;
  std::string pendingOutput_;
  bool writeInFlight_ = false;
  // Guarded by sendMutex_, the only members other threads touch (sendDirect): whether a
  // write of the strand's is in flight or due (or the socket is closing), and the part of a
  // direct send that did not fit.
  std::mutex sendMutex_;
  bool socketBusy_ = false;
  std::string unsent_;
  std::shared_ptr<Session> session_;  // the only owner; moved into the cleanup task
  int32_t pid_ = 0;
  int32_t secret_ = 0;
  std::string clientAddress_;  // the peer, for pg_stat_activity
  int32_t clientPort_ = -1;
  MessageProcessor processor_;
  // The answer being streamed from a snapshot, while busy_.
  std::optional<SnapshotHandoff> snapshotQuery_;
  std::optional<boost::asio::local::stream_protocol::socket> answerSocket_;
  std::string answerInput_;
  std::array<char, 64 * 1024> answerChunk_;
  bool answerReading_ = false;
};

}  // namespace duet::wire
