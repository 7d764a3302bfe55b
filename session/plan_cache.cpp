#include "session/engine_state.h"

namespace duet {

std::shared_ptr<PreparedPlan> PlanCache::find(const std::string& key, uint64_t catalogVersion) {
  auto it = plans_.find(key);
  if (it == plans_.end()) return nullptr;
  if (it->second->catalogVersion != catalogVersion) {
    plans_.erase(it);  // stale: drop it so its code and layouts can be freed
    return nullptr;
  }
  return it->second;
}

void PlanCache::put(const std::string& key, std::shared_ptr<PreparedPlan> plan) { plans_[key] = std::move(plan); }

}  // namespace duet
