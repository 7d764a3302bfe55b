#include "compiler/runtime/cursor_position.h"

#include "engine/error.h"

namespace duet::rt {
namespace {

constexpr int64_t kAll = kFetchAll;

[[noreturn]] void forwardOnly() {
  throw SqlError("55000", "cursor can only scan forward", {}, "Declare it with SCROLL option to enable backward scan.");
}

}  // namespace

// DoPortalRunFetch: every direction becomes moves of the executor forwards or backwards.
// Only the last runSelect returns rows: the ones before it move the portal (DoPortalRunFetch
// runs them with no destination).
uint64_t CursorPosition::fetch(FetchKind kind, int64_t count, bool move, std::vector<uint64_t>* fetched) {
  using Kind = FetchKind;
  fetched_ = fetched;
  if (fetched_) fetched_->clear();
  switch (kind) {
    case Kind::Forward:
      if (count < 0) return fetch(Kind::Backward, -count, move, fetched);
      break;
    case Kind::Backward:
      if (count < 0) return fetch(Kind::Forward, -count, move, fetched);
      break;
    case Kind::Absolute:
      if (count > 0) {
        // From the start, or from here when the row is less than halfway back to it.
        if (static_cast<uint64_t>(count - 1) <= portalPos_ / 2) {
          rewind();
          if (count > 1) runSelect(true, count - 1);
        } else {
          auto pos = static_cast<int64_t>(portalPos_) + (atEnd_ ? 1 : 0);  // one more fetch when past the end
          if (count <= pos)
            runSelect(false, pos - count + 1);
          else if (count > pos + 1)
            runSelect(true, count - pos - 1);
        }
        return runSelect(true, 1);
      }
      if (count < 0) {
        runSelect(true, kAll);
        if (count < -1) runSelect(false, -count - 1);
        return runSelect(false, 1);
      }
      rewind();
      return 0;
    case Kind::Relative:
      if (count > 0) {
        if (count > 1) runSelect(true, count - 1);
        return runSelect(true, 1);
      }
      if (count < 0) {
        if (count < -1) runSelect(false, -count - 1);
        return runSelect(false, 1);
      }
      kind = Kind::Forward;  // RELATIVE 0 is FORWARD 0
      break;
  }
  bool forward = kind == Kind::Forward;
  if (count == 0) {  // the current row again, if the cursor is on one
    bool onRow = !atStart_ && !atEnd_;
    if (move) return onRow ? 1 : 0;
    if (!onRow) return runSelect(forward, 0);
    runSelect(false, 1);
    return runSelect(true, 1);
  }
  if (!forward && count == kAll && move) {  // MOVE BACKWARD ALL: a rewind that counts
    uint64_t passed = portalPos_;
    if (passed > 0 && !atEnd_) --passed;
    rewind();
    return passed;
  }
  return runSelect(forward, count);
}

// PortalRunSelect: up to `count` rows (all for kAll) in one direction; no movement past
// an end the portal knows it reached.
uint64_t CursorPosition::runSelect(bool forward, int64_t count) {
  if (fetched_) fetched_->clear();
  if (!forward && !scrollable_) forwardOnly();
  if (forward ? atEnd_ : atStart_) return 0;
  if (count <= 0) return 0;
  uint64_t processed = step(forward, count);
  bool all = count == kAll || processed < static_cast<uint64_t>(count);
  if (forward) {
    if (processed > 0) atStart_ = false;
    if (all) atEnd_ = true;
    portalPos_ += processed;
  } else {
    if (processed > 0 && atEnd_) {
      atEnd_ = false;
      ++portalPos_;
    }
    if (all) {
      atStart_ = true;
      portalPos_ = 0;
    } else {
      portalPos_ -= processed;
    }
  }
  return processed;
}

// The executor: a row at a time until `count` rows or an end (where it stays).
uint64_t CursorPosition::step(bool forward, int64_t count) {
  uint64_t processed = 0;
  while (count == kAll || processed < static_cast<uint64_t>(count)) {
    if (forward ? at_ > rows_ : at_ == 0) break;
    at_ = forward ? at_ + 1 : at_ - 1;
    if (at_ == 0 || at_ > rows_) break;
    ++processed;
    if (fetched_) fetched_->push_back(at_);
  }
  return processed;
}

// DoPortalRewind: back before the first row; only a scrollable cursor that has moved.
void CursorPosition::rewind() {
  if (atStart_ && !atEnd_) return;
  if (!scrollable_) forwardOnly();
  at_ = 0;
  atStart_ = true;
  atEnd_ = false;
  portalPos_ = 0;
}

}  // namespace duet::rt
