// Where a cursor stands in its rows, and how FETCH and MOVE move it: PostgreSQL's portal
// over an executor (pquery.c's DoPortalRunFetch, PortalRunSelect and DoPortalRewind),
// replayed over rows the cursor keeps. The portal's own bookkeeping (at start, at end,
// position) is kept as PostgreSQL keeps it, because it decides which moves go backwards
// (55000 for a NO SCROLL cursor) and what MOVE BACKWARD ALL counts. SQL's FETCH and
// PL/pgSQL's use it alike: they move the same portals (portal.h).
#pragma once
#include <cstdint>
#include <vector>

namespace duet::rt {

// FETCH and MOVE directions; a count of kFetchAll is ALL (PostgreSQL's FETCH_ALL).
enum class FetchKind : uint8_t { Forward, Backward, Absolute, Relative };
inline constexpr int64_t kFetchAll = INT64_MAX;

class CursorPosition {
 public:
  CursorPosition(uint64_t rows, bool scrollable) : rows_(rows), scrollable_(scrollable) {}

  // FETCH (move false) or MOVE `kind` `count`. Returns the rows it processed: MOVE's
  // ROW_COUNT, FETCH's row count. `fetched`, when given, receives the rows FETCH returns,
  // numbered from 1 in the order it returns them.
  uint64_t fetch(FetchKind kind, int64_t count, bool move, std::vector<uint64_t>* fetched = nullptr);
  // The row the cursor is on, numbered from 1 (0 before the first, rows + 1 after the last).
  uint64_t row() const { return at_; }
  // Whether it stands on a row: neither before the first nor after the last.
  bool onRow() const { return !atStart_ && !atEnd_; }

 private:
  uint64_t runSelect(bool forward, int64_t count);
  uint64_t step(bool forward, int64_t count);
  void rewind();

  uint64_t rows_;
  bool scrollable_;
  uint64_t at_ = 0;  // the executor's place: 0 before the first row, rows_ + 1 past the last
  bool atStart_ = true;
  bool atEnd_ = false;
  uint64_t portalPos_ = 0;
  std::vector<uint64_t>* fetched_ = nullptr;  // the rows of the last runSelect, while fetch runs
};

}  // namespace duet::rt
