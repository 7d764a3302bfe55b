// Built as C++17: see posix_tz_rule.h.
#include "engine/types/posix_tz_rule.h"

#include <date/ptz.h>

#include <exception>
#include <string>

namespace duet {

struct PosixTzRule::Impl {
  Posix::time_zone zone;
};

PosixTzRule::PosixTzRule(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
PosixTzRule::~PosixTzRule() = default;

std::unique_ptr<PosixTzRule> PosixTzRule::parse(std::string_view rule) {
  try {
    return std::unique_ptr<PosixTzRule>(new PosixTzRule(std::make_unique<Impl>(Impl{Posix::time_zone(rule)})));
  } catch (const std::exception&) {  // ptz.h reports a rule it cannot read by throwing
    return nullptr;
  }
}

PosixTzRule::Interval PosixTzRule::at(int64_t unixSeconds) const {
  date::sys_info info = impl_->zone.get_info(date::sys_seconds{std::chrono::seconds{unixSeconds}});
  return {static_cast<int32_t>(info.offset.count()), info.end.time_since_epoch().count()};
}

}  // namespace duet
