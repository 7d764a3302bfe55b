#include "compiler/runtime/window_runtime.h"

#include "engine/error.h"

namespace duet::rt {

uint64_t WindowBuffer::nextPartition(uint64_t start) {
  starts_.clear();
  uint64_t n = size();
  size_t peerKeys = keys().size();
  uint64_t end = start;
  while (end < n && (end == start || compareKeys(at(start), at(end), 0, partitionKeys_) == 0)) {
    if (end == start || compareKeys(at(end - 1), at(end), partitionKeys_, peerKeys) != 0) starts_.push_back(end);
    ++end;
  }
  starts_.push_back(end);
  return end;
}

uint64_t WindowBuffer::rangeBound(uint64_t start, uint64_t end, const uint8_t* bound, bool after) const {
  uint64_t lo = start, hi = end;
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    int c = compareKeys(at(mid), bound, partitionKeys_, partitionKeys_ + 1);
    if (c < 0 || (after && c == 0))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

}  // namespace duet::rt

using duet::rt::WindowBuffer;

WindowBuffer* duet_q_window_new(duet::rt::QueryContext* ctx, const duet::TupleLayout* layout,
                                const duet::rt::SortSpec* keys, uint32_t nkeys, uint32_t partitionKeys) {
  auto w = std::make_unique<WindowBuffer>(*layout, std::vector<duet::rt::SortSpec>(keys, keys + nkeys), partitionKeys);
  WindowBuffer* raw = w.get();
  ctx->buffers.push_back(std::move(w));
  return raw;
}
uint64_t duet_q_window_partition(WindowBuffer* w, uint64_t start) { return w->nextPartition(start); }
const uint64_t* duet_q_window_group_starts(WindowBuffer* w) { return w->groupStarts(); }
uint64_t duet_q_window_groups(WindowBuffer* w) { return w->groups(); }
uint64_t duet_q_window_range_bound(WindowBuffer* w, uint64_t start, uint64_t end, const uint8_t* bound, bool after) {
  return w->rangeBound(start, end, bound, after);
}

void duet_q_window_argument_error(int32_t which) {
  using E = duet::rt::WindowArgumentError;
  namespace s = duet::sqlstate;
  switch (static_cast<E>(which)) {
    case E::StartNull: throw duet::SqlError(s::kNullValueNotAllowed, "frame starting offset must not be null");
    case E::EndNull: throw duet::SqlError(s::kNullValueNotAllowed, "frame ending offset must not be null");
    case E::StartNegative:
      throw duet::SqlError(s::kInvalidPrecedingOrFollowingSize, "frame starting offset must not be negative");
    case E::EndNegative:
      throw duet::SqlError(s::kInvalidPrecedingOrFollowingSize, "frame ending offset must not be negative");
    case E::RangeOffsetInvalid:
      throw duet::SqlError(s::kInvalidPrecedingOrFollowingSize,
                           "invalid preceding or following size in window function");
    case E::NtileNotPositive:
      throw duet::SqlError(s::kInvalidArgumentForNtile, "argument of ntile must be greater than zero");
    case E::NthValueNotPositive:
      throw duet::SqlError(s::kInvalidArgumentForNthValue, "argument of nth_value must be greater than zero");
  }
  throw duet::SqlError(s::kInternalError, "unknown window argument error");
}
