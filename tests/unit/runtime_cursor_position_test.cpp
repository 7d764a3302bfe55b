// CursorPosition: FETCH and MOVE over a cursor's rows as PostgreSQL 15's portals move
// them. The sequences follow tests/sql/plpgsql/cursor_scroll.test (five rows), whose
// expected results come from PostgreSQL.
#include <catch2/catch.hpp>

#include "compiler/runtime/cursor_position.h"
#include "engine/error.h"

using namespace duet;
using namespace duet::rt;
using Kind = FetchKind;

namespace {

constexpr int64_t kAll = kFetchAll;

// FETCH: the row it lands on, or 0 for none.
uint64_t fetchRow(CursorPosition& c, Kind kind, int64_t count) { return c.fetch(kind, count, false) ? c.row() : 0; }

bool refusedBackwards(CursorPosition& c, Kind kind, int64_t count, bool move) {
  try {
    c.fetch(kind, count, move);
    return false;
  } catch (const SqlError& e) {
    return std::string(e.code) == "55000";
  }
}

}  // namespace

TEST_CASE("cursor position: FETCH and MOVE directions", "[runtime][cursor]") {
  CursorPosition c(5, true);
  CHECK(c.fetch(Kind::Forward, 2, true) == 2);
  CHECK(c.fetch(Kind::Forward, kAll, true) == 3);
  CHECK(c.fetch(Kind::Forward, kAll, true) == 0);
  CHECK(c.fetch(Kind::Backward, kAll, true) == 5);
  CHECK(c.fetch(Kind::Absolute, 3, true) == 1);
  CHECK(fetchRow(c, Kind::Forward, 1) == 4);
  CHECK(c.fetch(Kind::Forward, 0, true) == 1);
  CHECK(c.fetch(Kind::Forward, 1, true) == 1);
  CHECK(fetchRow(c, Kind::Absolute, -1) == 5);
  CHECK(fetchRow(c, Kind::Relative, -2) == 3);
  CHECK(fetchRow(c, Kind::Absolute, 9) == 0);
  CHECK(fetchRow(c, Kind::Backward, 1) == 5);
  CHECK(fetchRow(c, Kind::Relative, 0) == 5);
  CHECK(c.fetch(Kind::Backward, 10, true) == 4);
  CHECK(fetchRow(c, Kind::Relative, 0) == 0);
  CHECK(c.fetch(Kind::Relative, 7, true) == 0);
  CHECK(fetchRow(c, Kind::Backward, 1) == 5);
  CHECK(fetchRow(c, Kind::Absolute, 1) == 1);
  CHECK(fetchRow(c, Kind::Absolute, 0) == 0);
  CHECK(c.fetch(Kind::Forward, -1, true) == 0);  // BACKWARD 1 from before the first row
}

TEST_CASE("cursor position: an empty cursor", "[runtime][cursor]") {
  CursorPosition c(0, true);
  CHECK(fetchRow(c, Kind::Absolute, -1) == 0);
  CHECK(fetchRow(c, Kind::Backward, 1) == 0);
  CHECK(c.fetch(Kind::Forward, kAll, true) == 0);
  CHECK(c.fetch(Kind::Backward, kAll, true) == 0);
  CHECK(fetchRow(c, Kind::Absolute, 1) == 0);
}

TEST_CASE("cursor position: NO SCROLL refuses moves backwards", "[runtime][cursor]") {
  auto afterTwoRows = [] {
    CursorPosition c(5, false);
    c.fetch(Kind::Forward, 1, false);
    c.fetch(Kind::Forward, 1, false);
    return c;
  };
  CursorPosition start(5, false);
  CHECK(fetchRow(start, Kind::Absolute, 1) == 1);  // nothing read yet: no rewind needed
  CursorPosition fresh(5, false);
  CHECK(fresh.fetch(Kind::Backward, kAll, true) == 0);
  CursorPosition c = afterTwoRows();
  CHECK(fetchRow(c, Kind::Absolute, 4) == 4);
  CHECK(fetchRow(c, Kind::Relative, 1) == 5);
  CHECK(c.fetch(Kind::Relative, 0, true) == 1);
  for (auto [kind, count, move] :
       {std::tuple{Kind::Backward, int64_t{1}, false}, std::tuple{Kind::Absolute, int64_t{1}, false},
        std::tuple{Kind::Absolute, int64_t{-1}, false}, std::tuple{Kind::Absolute, int64_t{0}, false},
        std::tuple{Kind::Relative, int64_t{-1}, false}, std::tuple{Kind::Relative, int64_t{0}, false},
        std::tuple{Kind::Forward, int64_t{-1}, true}, std::tuple{Kind::Backward, kAll, true}}) {
    CursorPosition moved = afterTwoRows();
    CHECK(refusedBackwards(moved, kind, count, move));
  }
}

TEST_CASE("cursor position: the rows a FETCH returns, in its order", "[runtime][cursor]") {
  CursorPosition c(5, true);
  std::vector<uint64_t> rows;
  CHECK(c.fetch(Kind::Forward, 2, false, &rows) == 2);
  CHECK(rows == std::vector<uint64_t>{1, 2});
  c.fetch(Kind::Forward, 2, true);
  CHECK(c.fetch(Kind::Backward, kAll, false, &rows) == 3);
  CHECK(rows == std::vector<uint64_t>{3, 2, 1});
  CHECK(c.fetch(Kind::Absolute, -2, false, &rows) == 1);  // the moves before the last row return none
  CHECK(rows == std::vector<uint64_t>{4});
  CHECK(c.fetch(Kind::Forward, 0, false, &rows) == 1);
  CHECK(rows == std::vector<uint64_t>{4});
  CHECK(c.fetch(Kind::Absolute, 9, false, &rows) == 0);
  CHECK(rows.empty());
}
