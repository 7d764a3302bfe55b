// Where a bound cursor stands in its rows, and how FETCH and MOVE move it: PostgreSQL's
// portal over an executor (pquery.c's DoPortalRunFetch, PortalRunSelect and
// DoPortalRewind), replayed over rows the cursor keeps. The portal's own bookkeeping
// (at start, at end, position) is kept as PostgreSQL keeps it, because it decides which
// moves go backwards (55000 for a NO SCROLL cursor) and what MOVE BACKWARD ALL counts.
#pragma once
#include <cstdint>

#include "compiler/plpgsql/plpgsql_ast.h"

namespace duet::plpgsql {

class CursorPosition {
 public:
  CursorPosition(uint64_t rows, bool scrollable) : rows_(rows), scrollable_(scrollable) {}

  // FETCH (move false) or MOVE `kind` `count` (FetchDirection::kAll for ALL). Returns the
  // rows it processed: MOVE's ROW_COUNT; for FETCH 1 when it landed on a row, row().
  uint64_t fetch(FetchDirection::Kind kind, int64_t count, bool move);
  // The row the cursor is on, numbered from 1 (0 before the first, rows + 1 after the last).
  uint64_t row() const { return at_; }

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
};

}  // namespace duet::plpgsql
