#include "snapshot/snapshot_manager.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>

namespace duet::snapshot {
namespace {

// Private_Clean + Private_Dirty of /proc/PID/smaps_rollup: the pages only this process
// maps. After a fork these are the old versions of pages the server changed since, plus
// the snapshot's own allocations: what ending it gives back.
int64_t privateBytes(int pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/smaps_rollup");
  int64_t total = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("Private_Clean:", 0) == 0 || line.rfind("Private_Dirty:", 0) == 0)
      total += std::stoll(line.substr(line.find(':') + 1));
  }
  return total * 1024;
}

}  // namespace

SnapshotManager::SnapshotManager(Engine& engine, SnapshotConfig config, int defaultMaxAgeMs)
    : engine_(engine), config_(config), defaultMaxAgeMs_(defaultMaxAgeMs) {}

SnapshotManager::~SnapshotManager() { shutdown(); }

std::shared_ptr<SnapshotProcess> SnapshotManager::freshest(const SnapshotQuery& query) {
  auto now = std::chrono::steady_clock::now();
  auto freshEnough = [&](const SnapshotProcess& p) {
    if (p.commitCount() >= query.currentCommit) return true;
    return p.commitCount() >= query.minCommit && now - p.forkedAt() <= std::chrono::milliseconds(query.maxAgeMs);
  };
  std::shared_ptr<SnapshotProcess> best;
  for (auto it = live_.rbegin(); it != live_.rend(); ++it) {
    if (!freshEnough(**it)) break;                      // older ones are no fresher
    if ((*it)->died.load() || (*it)->reap()) continue;  // killed or crashed: maintain() moves it out
    if (!best || (*it)->running.load() < best->running.load()) best = *it;
  }
  return best;
}

bool SnapshotManager::exists(const SnapshotQuery& query) {
  std::lock_guard lock(mutex_);
  return freshest(query) != nullptr;
}

std::shared_ptr<SnapshotProcess> SnapshotManager::acquire(const SnapshotQuery& query, bool mayFork) {
  {
    std::lock_guard lock(mutex_);
    std::shared_ptr<SnapshotProcess> best = freshest(query);
    bool busy = best && best->running.load() > 0 && static_cast<int>(live_.size()) < config_.maxProcesses;
    if ((best && !busy) || !mayFork) return best;
  }
  // Forked outside mutex_, so that maintain(), list() and anyProcess() on the network
  // thread do not wait for a fork. Only the executor acquires: no other fork races this one.
  std::shared_ptr<SnapshotProcess> fresh = SnapshotProcess::fork(engine_, config_, query.currentCommit);
  std::lock_guard lock(mutex_);
  live_.push_back(fresh);
  return fresh;
}

void SnapshotManager::maintain() {
  std::vector<std::shared_ptr<SnapshotProcess>> reaped;  // destroyed outside the lock
  std::lock_guard lock(mutex_);
  uint64_t commits = engine_.commitCount();
  auto now = std::chrono::steady_clock::now();
  for (size_t i = 0; i < live_.size();) {
    auto& p = live_[i];
    bool newest = i + 1 == live_.size();
    bool stale = p->commitCount() < commits && now - p->forkedAt() > std::chrono::milliseconds(defaultMaxAgeMs_);
    // The manager's reference is the only one: no query and no read-only block uses it.
    bool unused = p.use_count() == 1 && p->running.load() == 0;
    bool dead = p->reap();
    if (dead || (unused && (!newest || stale))) {
      p->retire();
      ending_.push_back(std::move(p));
      live_.erase(live_.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      ++i;
    }
  }
  for (size_t i = 0; i < ending_.size();) {
    if (ending_[i]->reap() && ending_[i].use_count() == 1) {
      reaped.push_back(std::move(ending_[i]));
      ending_.erase(ending_.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      ++i;
    }
  }
}

std::vector<SnapshotListing> SnapshotManager::list() {
  std::lock_guard lock(mutex_);
  std::vector<SnapshotListing> out;
  auto now = std::chrono::steady_clock::now();
  auto add = [&](const SnapshotProcess& p, bool ending) {
    SnapshotListing s;
    s.pid = p.pid();
    s.forkedAtUnixMicros = p.forkedAtUnixMicros();
    s.ageSeconds = std::chrono::duration<double>(now - p.forkedAt()).count();
    s.forkMillis = p.forkMillis();
    s.commits = static_cast<int64_t>(p.commitCount());
    s.queries = p.running.load();
    s.memoryBytes = privateBytes(p.pid());
    s.ending = ending;
    out.push_back(s);
  };
  for (const auto& p : live_) add(*p, false);
  for (const auto& p : ending_) add(*p, true);
  return out;
}

void SnapshotManager::shutdown() {
  std::vector<std::shared_ptr<SnapshotProcess>> all;
  {
    std::lock_guard lock(mutex_);
    all.swap(live_);
    for (auto& p : ending_) all.push_back(std::move(p));
    ending_.clear();
  }
  for (auto& p : all) p->kill();
}

bool SnapshotManager::anyProcess() {
  std::lock_guard lock(mutex_);
  return !live_.empty() || !ending_.empty();
}

}  // namespace duet::snapshot
