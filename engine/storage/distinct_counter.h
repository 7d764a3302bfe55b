// Counts the distinct values of one column for ANALYZE (table_analyzer.h), from their
// 64-bit hashes (hashValue, consistent with SQL equality): exactly, in a hash set, for
// small tables; with a HyperLogLog sketch (Flajolet et al. 2007, with the linear-counting
// correction for small counts) for large ones, whose estimate is within about 1% (2^14
// registers) and costs 16 KiB per column however large the table. Both are deterministic:
// the same values give the same count.
#pragma once
#include <cstdint>
#include <unordered_set>
#include <vector>

namespace duet {

class DistinctCounter {
 public:
  explicit DistinctCounter(bool exact);
  void add(uint64_t hash);
  double estimate() const;
  bool exact() const { return exact_; }

 private:
  static constexpr uint32_t kPrecision = 14;  // 2^14 registers
  bool exact_;
  std::unordered_set<uint64_t> seen_;  // exact: the hashes seen
  std::vector<uint8_t> registers_;     // sketch: per register, the largest rank seen
};

}  // namespace duet
