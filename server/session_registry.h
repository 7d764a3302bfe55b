// Live sessions by backend pid, for CancelRequest (from a fresh connection, any I/O thread)
// and for the executor's idle-timeout callback (which needs the owning connection).
//
// Entries are added and removed on the executor thread, around the Session's lifetime, and
// the mutex is held while requestCancel() runs, so a cancel never reaches a destroyed session.
#pragma once
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "session/session_api.h"

namespace duet::wire {

class Connection;

class SessionRegistry {
 public:
  // A new backend pid and secret key for BackendKeyData.
  std::pair<int32_t, int32_t> newBackendKey();

  void add(int32_t pid, int32_t secret, Session* session, std::weak_ptr<Connection> connection);
  void remove(int32_t pid);
  // Requests cancellation when pid and secret match; returns whether they did.
  bool cancel(int32_t pid, int32_t secret);
  std::shared_ptr<Connection> connectionOf(Session* session);

 private:
  struct Entry {
    int32_t secret;
    Session* session;
    std::weak_ptr<Connection> connection;
  };
  std::mutex mutex_;
  int32_t nextPid_ = 10000;
  std::unordered_map<int32_t, Entry> byPid_;
  std::unordered_map<Session*, int32_t> pidOf_;
};

}  // namespace duet::wire
