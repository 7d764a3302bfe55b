// LISTEN / NOTIFY between the sessions of one engine (docs/session.md): which session
// listens on which channel, and the notifications each has still to send its client. Only
// the executor thread touches it; a listener's `wake` (set by the server) is how a session
// that sits idle learns it has something to send.
#pragma once
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "session/session_api.h"

namespace duet {

class NotificationHub {
 public:
  struct Listener {
    int32_t pid = 0;             // the backend pid its client knows it by
    std::function<void()> wake;  // any thread may call it; unset: the next ReadyForQuery sends them
    std::set<std::string> channels;
    std::vector<Notification> queue;  // delivered, not yet sent to the client
  };

  void add(Listener* listener) { listeners_.insert(listener); }
  void remove(Listener* listener) { listeners_.erase(listener); }
  // A transaction that notified committed: each notification goes to every listener on
  // its channel (the notifying session's own included), which is then woken.
  void deliver(const std::vector<Notification>& notifications);

 private:
  std::set<Listener*> listeners_;
};

}  // namespace duet
