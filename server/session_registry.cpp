#include "server/session_registry.h"

#include "server/connection.h"

#include <cstdint>
#include <random>

namespace duet::wire {

std::pair<int32_t, int32_t> SessionRegistry::newBackendKey() {
  std::random_device random;
  int32_t secret = static_cast<int32_t>(random());
  std::lock_guard lock(mutex_);
  int32_t pid = nextPid_;
  nextPid_ = pid == INT32_MAX ? 10000 : pid + 1;
  return {pid, secret};
}

void SessionRegistry::add(int32_t pid, int32_t secret, Session* session, std::weak_ptr<Connection> connection) {
  std::lock_guard lock(mutex_);
  byPid_[pid] = Entry{secret, session, std::move(connection)};
  pidOf_[session] = pid;
}

void SessionRegistry::remove(int32_t pid) {
  std::lock_guard lock(mutex_);
  auto it = byPid_.find(pid);
  if (it == byPid_.end()) return;
  pidOf_.erase(it->second.session);
  byPid_.erase(it);
}

bool SessionRegistry::cancel(int32_t pid, int32_t secret) {
  std::shared_ptr<Connection> connection;
  {
    std::lock_guard lock(mutex_);
    auto it = byPid_.find(pid);
    if (it == byPid_.end() || it->second.secret != secret) return false;
    it->second.session->requestCancel();
    connection = it->second.connection.lock();
  }
  // A statement running on a snapshot is cancelled there.
  if (connection) connection->cancelSnapshotQuery();
  return true;
}

std::shared_ptr<Connection> SessionRegistry::connectionOf(Session* session) {
  std::lock_guard lock(mutex_);
  auto it = pidOf_.find(session);
  if (it == pidOf_.end()) return nullptr;
  return byPid_.at(it->second).connection.lock();
}

}  // namespace duet::wire
