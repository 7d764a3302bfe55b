// Milliseconds since a steady_clock reading: what the compile, planning, recovery and
// EXPLAIN timings report.
#pragma once
#include <chrono>

namespace duet {

inline double msSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace duet
