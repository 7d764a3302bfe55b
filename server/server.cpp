#include "server/server.h"

#include <algorithm>
#include <cstdio>
#include <future>

namespace duet {

namespace asio = boost::asio;

Server::Server(Engine& engine, Executor& executor, ServerConfig config, logging::RedoLog* log,
               snapshot::Checkpointer* checkpointer)
    : config_(std::move(config)),
      executor_(executor),
      checkpointer_(checkpointer),
      maintenanceTimer_(io_),
      context_{engine, executor, registry_, io_, nullptr, log, checkpointer},
      acceptor_(asio::make_strand(io_)),
      acceptRetryTimer_(acceptor_.get_executor()) {
  if ((config_.snapshots || checkpointer_) && config_.collapseHugePages)
    collapser_ =
        std::make_unique<snapshot::HugePageCollapser>(config_.snapshot.nice, config_.collapseWhileAlivePercent);
  if (config_.snapshots) {
    snapshots_ = std::make_unique<snapshot::SnapshotManager>(engine, config_.snapshot);
    context_.snapshots = snapshots_.get();
    engine.setSnapshotLister([manager = snapshots_.get()] { return manager->list(); });
    engine.setSnapshotProbe([manager = snapshots_.get()](const SnapshotQuery& q) { return manager->exists(q); });
  }
  executor_.setIdleTimeoutHandler([this](Session* session) {
    if (auto connection = registry_.connectionOf(session)) connection->terminateForIdleTimeout();
  });
}

Server::~Server() {
  stop();
  if (snapshots_) {
    context_.engine.setSnapshotLister(nullptr);
    context_.engine.setSnapshotProbe(nullptr);
  }
  executor_.setIdleTimeoutHandler(nullptr);
}

void Server::start() {
  asio::ip::tcp::endpoint endpoint(asio::ip::make_address(config_.listenAddress), config_.port);
  acceptor_.open(endpoint.protocol());
  acceptor_.set_option(asio::ip::tcp::acceptor::reuse_address(true));
  acceptor_.bind(endpoint);
  acceptor_.listen(asio::socket_base::max_listen_connections);
  boundPort_ = acceptor_.local_endpoint().port();
  work_.emplace(io_.get_executor());
  accept();
  if (snapshots_ || checkpointer_) maintain();
  started_ = true;
  for (int i = 0; i < std::max(1, config_.ioThreads); ++i) threads_.emplace_back([this] { io_.run(); });
}

void Server::accept() {
  acceptor_.async_accept(
      asio::make_strand(io_), [this](const boost::system::error_code& ec, asio::ip::tcp::socket socket) {
        if (ec == asio::error::operation_aborted || stopping_) return;
        if (ec) {
          // Out of descriptors (EMFILE, ENFILE) or memory: the pending connection stays queued
          // and the next accept would fail at once, so retrying now would spin. Wait until
          // connections have had time to close, as nginx and PostgreSQL do, and say so once
          // per run of failures.
          if (!acceptFailing_)
            std::fprintf(stderr, "duetd: could not accept new connection: %s\n", ec.message().c_str());
          acceptFailing_ = true;
          acceptRetryTimer_.expires_after(kAcceptRetryDelay);
          acceptRetryTimer_.async_wait([this](const boost::system::error_code& timerError) {
            if (!timerError && !stopping_) accept();
          });
          return;
        }
        acceptFailing_ = false;
        auto connection = std::make_shared<wire::Connection>(std::move(socket), context_);
        {
          std::lock_guard lock(connectionsMutex_);
          std::erase_if(connections_, [](const auto& weak) { return weak.expired(); });
          connections_.push_back(connection);
        }
        connection->start();
        accept();
      });
}

void Server::maintain() {
  maintenanceTimer_.expires_after(std::chrono::milliseconds(100));
  maintenanceTimer_.async_wait([this](const boost::system::error_code& ec) {
    if (ec || stopping_) return;
    if (snapshots_) snapshots_->maintain();
    if (checkpointer_) checkpointer_->tick();
    if (collapser_)
      collapser_->tick((snapshots_ && snapshots_->anyProcess()) || (checkpointer_ && checkpointer_->writing()));
    maintain();
  });
}

void Server::stop() {
  if (!started_ || stopping_.exchange(true)) return;
  asio::post(acceptor_.get_executor(), [this] {
    boost::system::error_code ignored;
    acceptor_.close(ignored);
    acceptRetryTimer_.cancel();
  });
  asio::post(io_, [this] { maintenanceTimer_.cancel(); });
  {
    std::lock_guard lock(connectionsMutex_);
    for (auto& weak : connections_)
      if (auto connection = weak.lock()) connection->terminateForShutdown();
    connections_.clear();
  }
  // The I/O threads return once every connection is closed and no executor task of theirs
  // is outstanding (each holds a work guard).
  work_.reset();
  for (auto& thread : threads_) thread.join();
  threads_.clear();
  // Cleanup tasks run in submission order, so once this one ran, every session is gone.
  std::promise<void> drained;
  if (executor_.submitCleanup(nullptr, [&drained] { drained.set_value(); })) drained.get_future().wait();
  if (snapshots_) snapshots_->shutdown();
}

}  // namespace duet
