// The PostgreSQL wire-protocol server: one acceptor and a pool of I/O threads, each client a
// Connection on its own strand. All statement work goes to the shared Executor.
#pragma once
// Boost 1.74's asio/awaitable.hpp uses std::exchange without including <utility>.
#include <utility>

#include <atomic>
#include <boost/asio.hpp>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "server/connection.h"
#include "server/session_registry.h"
#include "session/executor.h"
#include "session/session_api.h"
#include "snapshot/checkpointer.h"
#include "snapshot/huge_page_collapser.h"
#include "snapshot/snapshot_manager.h"

namespace duet {

struct ServerConfig {
  std::string listenAddress = "127.0.0.1";
  uint16_t port = 5432;  // 0 picks a free port; see Server::port()
  // One network thread keeps up with the one executor (framing and copying bytes is cheap)
  // and costs the fewest thread handoffs per round trip; measured in docs/benchmarks-history.md.
  int ioThreads = 1;
  // Read-only statements may run on fork()ed snapshots (docs/snapshots.md); the engine
  // must have been created with EngineConfig::snapshots to send any.
  bool snapshots = true;
  snapshot::SnapshotConfig snapshot;
  // Join huge pages that forks split, while no forked child is alive
  // (snapshot/huge_page_collapser.h).
  bool collapseHugePages = true;
  // While snapshots are alive: join a split range once this share of its pages (percent)
  // are the server's own; 0: only once no child is alive (snapshot/huge_page_collapser.h).
  unsigned collapseWhileAlivePercent = 0;
};

class Server {
 public:
  // The executor must be running from start() until stop() has returned.
  // `log`: the redo log commits are acknowledged against (null: none). `checkpointer`:
  // writes archives for CHECKPOINT and when due (null: none).
  Server(Engine& engine, Executor& executor, ServerConfig config, logging::RedoLog* log = nullptr,
         snapshot::Checkpointer* checkpointer = nullptr);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds and listens (throws boost::system::system_error), then starts the I/O threads.
  void start();
  uint16_t port() const { return boundPort_; }
  // Stops accepting, sends every client FATAL 57P01, waits until their sessions are
  // cleaned up on the executor and the I/O threads have finished, ends the snapshots.
  void stop();

 private:
  void accept();
  // Every 100 ms: snapshots nobody needs end, ended ones are reaped; a checkpoint due starts,
  // a finished one is reaped.
  void maintain();

  ServerConfig config_;
  Executor& executor_;
  boost::asio::io_context io_;
  wire::SessionRegistry registry_;
  std::unique_ptr<snapshot::SnapshotManager> snapshots_;
  snapshot::Checkpointer* checkpointer_;
  std::unique_ptr<snapshot::HugePageCollapser> collapser_;
  boost::asio::steady_timer maintenanceTimer_;
  wire::ServerContext context_;
  boost::asio::ip::tcp::acceptor acceptor_;
  // After a failed accept (out of descriptors), the next one waits this long (acceptor's strand).
  static constexpr std::chrono::milliseconds kAcceptRetryDelay{100};
  boost::asio::steady_timer acceptRetryTimer_;
  bool acceptFailing_ = false;  // acceptor's strand: the failure was logged
  std::optional<boost::asio::executor_work_guard<boost::asio::io_context::executor_type>> work_;
  std::vector<std::thread> threads_;
  std::mutex connectionsMutex_;
  std::vector<std::weak_ptr<wire::Connection>> connections_;
  std::atomic<bool> stopping_ = false;
  bool started_ = false;
  uint16_t boundPort_ = 0;
};

}  // namespace duet
