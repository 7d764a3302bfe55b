// A POSIX TZ rule such as "EST5EDT,M3.2.0,M11.1.0", which a TZif file ends with to give
// the offsets after its last listed transition. Evaluated by the date library's ptz.h,
// which does not compile as C++20 (its hh_mm_ss is ambiguous with std::chrono's), so
// posix_tz_rule.cpp is built as C++17 and this header hides the library's types.
#pragma once
#include <cstdint>
#include <memory>
#include <string_view>

namespace duet {

class PosixTzRule {
 public:
  // Null when the date library cannot read the rule.
  static std::unique_ptr<PosixTzRule> parse(std::string_view rule);
  ~PosixTzRule();

  struct Interval {
    int32_t offsetEast;  // seconds east of UTC
    int64_t end;         // the next change, Unix seconds
  };
  // The interval containing an instant (Unix seconds; years up to 32767).
  Interval at(int64_t unixSeconds) const;

 private:
  struct Impl;
  explicit PosixTzRule(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace duet
