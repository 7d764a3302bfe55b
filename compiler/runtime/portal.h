// A cursor's portal: the rows its query gave when it was opened, and where the cursor
// stands in them. The session keeps portals by name (rt::SessionServices' cursor calls;
// session/session_state.h, SessionState::cursors): SQL's DECLARE opens one and PL/pgSQL's
// OPEN another, and FETCH, MOVE and CLOSE of either language reach both, as in
// PostgreSQL, where a function may open a cursor its caller then fetches from.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "compiler/runtime/cursor_position.h"
#include "compiler/runtime/query_runtime.h"

namespace duet::rt {

struct Portal {
  Portal(std::string name, const TupleLayout& layout, std::vector<std::string> columnNames, bool scrollable)
      : name(std::move(name)),
        columnNames(std::move(columnNames)),
        rows(std::make_unique<TupleBuffer>(layout)),
        scrollable(scrollable) {}

  std::string name;
  std::vector<std::string> columnNames;
  std::unique_ptr<TupleBuffer> rows;  // every row, read when the cursor opened
  bool scrollable = true;             // NO SCROLL: moves backwards are 55000
  // A PL/pgSQL FOR loop reads it: CLOSE is 24000, and a procedure's COMMIT keeps it open
  // (PostgreSQL makes such portals holdable before it commits).
  bool pinned = false;
  // Which opening of the session's it was: a savepoint rolled back to, or an EXCEPTION
  // block that caught an error, closes the portals opened since it began.
  uint64_t number = 0;

  // Where it stands, from the first FETCH or MOVE (all rows are in by then).
  CursorPosition& position() {
    if (!position_) position_.emplace(rows->size(), scrollable);
    return *position_;
  }

 private:
  std::optional<CursorPosition> position_;
};

}  // namespace duet::rt
