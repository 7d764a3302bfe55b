// The precompiled half of window functions (the Window plan node): the node's rows, sorted
// by PARTITION BY then ORDER BY, and the partitions and peer groups (rows equal in every
// sort key) generated code walks, with the search a RANGE frame with an offset needs.
#pragma once
#include <cstdint>

#include "compiler/runtime/query_runtime.h"

namespace duet::rt {

class WindowBuffer : public Sorter {
 public:
  WindowBuffer(TupleLayout layout, std::vector<SortSpec> keys, uint32_t partitionKeys)
      : Sorter(std::move(layout), std::move(keys)), partitionKeys_(partitionKeys) {}
  // The end of the partition that starts at row `start` (sorted rows); its peer groups'
  // starts are then groupStarts()[0 .. groups()), with the partition's end after them.
  uint64_t nextPartition(uint64_t start);
  const uint64_t* groupStarts() const { return starts_.data(); }
  uint64_t groups() const { return starts_.size() - 1; }
  // The first row of [start, end) whose ORDER BY key (the one after PARTITION BY's) does
  // not sort before (`after`: sorts after) the key in `bound`, a tuple of the rows' layout.
  uint64_t rangeBound(uint64_t start, uint64_t end, const uint8_t* bound, bool after) const;

 private:
  uint32_t partitionKeys_;
  StatementVector<uint64_t> starts_;
};

}  // namespace duet::rt

extern "C" {
duet::rt::WindowBuffer* duet_q_window_new(duet::rt::QueryContext* ctx, const duet::TupleLayout* layout,
                                          const duet::rt::SortSpec* keys, uint32_t nkeys, uint32_t partitionKeys);
uint64_t duet_q_window_partition(duet::rt::WindowBuffer* w, uint64_t start);
const uint64_t* duet_q_window_group_starts(duet::rt::WindowBuffer* w);
uint64_t duet_q_window_groups(duet::rt::WindowBuffer* w);
uint64_t duet_q_window_range_bound(duet::rt::WindowBuffer* w, uint64_t start, uint64_t end, const uint8_t* bound,
                                   bool after);
// The errors of window arguments a row decides (which: see WindowArgumentError).
[[noreturn]] void duet_q_window_argument_error(int32_t which);
}

namespace duet::rt {
enum class WindowArgumentError : int32_t {
  StartNull,           // 22004 frame starting offset must not be null
  EndNull,             // 22004 frame ending offset must not be null
  StartNegative,       // 22013 frame starting offset must not be negative
  EndNegative,         // 22013 frame ending offset must not be negative
  RangeOffsetInvalid,  // 22013 invalid preceding or following size in window function
  NtileNotPositive,    // 22014 argument of ntile must be greater than zero
  NthValueNotPositive  // 22016 argument of nth_value must be greater than zero
};
}
