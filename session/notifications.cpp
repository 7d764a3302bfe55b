#include "session/notifications.h"

namespace duet {

void NotificationHub::deliver(const std::vector<Notification>& notifications) {
  for (Listener* listener : listeners_) {
    bool woken = false;
    for (const Notification& n : notifications) {
      if (!listener->channels.count(n.channel)) continue;
      listener->queue.push_back(n);
      woken = true;
    }
    if (woken && listener->wake) listener->wake();
  }
}

}  // namespace duet
