// Distinct counts for ANALYZE: an exact set of hashes or a HyperLogLog sketch.
#include "engine/storage/distinct_counter.h"

#include <cmath>

#include "engine/types/hash.h"

namespace duet {

DistinctCounter::DistinctCounter(bool exact) : exact_(exact) {
  if (!exact_) registers_.assign(size_t{1} << kPrecision, 0);
}

void DistinctCounter::add(uint64_t hash) {
  if (exact_) {
    seen_.insert(hash);
    return;
  }
  // Value hashes of small integers are not uniform enough for the sketch: mix them.
  uint64_t h = hashMix64(hash);
  uint32_t index = static_cast<uint32_t>(h >> (64 - kPrecision));
  uint64_t rest = h << kPrecision;
  // The rank: the position of the first 1 bit in the remaining 50 bits (51 when all are 0).
  auto rank = static_cast<uint8_t>(rest == 0 ? 64 - kPrecision + 1 : __builtin_clzll(rest) + 1);
  if (rank > registers_[index]) registers_[index] = rank;
}

double DistinctCounter::estimate() const {
  if (exact_) return static_cast<double>(seen_.size());
  const double m = static_cast<double>(registers_.size());
  double sum = 0;
  uint32_t zeros = 0;
  for (uint8_t r : registers_) {
    sum += std::ldexp(1.0, -r);
    zeros += r == 0;
  }
  const double alpha = 0.7213 / (1 + 1.079 / m);
  double raw = alpha * m * m / sum;
  // Few values: most registers still empty, and linear counting is the better estimate.
  if (raw <= 2.5 * m && zeros > 0) return m * std::log(m / zeros);
  return raw;
}

}  // namespace duet
