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

namespace duet {
class Table;
}

namespace duet::rt {

// What WHERE CURRENT OF finds in a cursor's rows (PostgreSQL's execCurrentOf): the ids of
// the table rows each row came from, kept in the row past the columns FETCH returns.
struct CursorRowIds {
  // Where one table's row id (int8) lies in a row: its column (the NULL flag's place, set
  // when an outer join gave no row of the table) and its byte offset.
  struct Source {
    const Table* table;
    uint32_t column;
    uint32_t offset;
  };
  // FOR UPDATE/SHARE: the tables it locks, in any query; without, the one table of a
  // simply updatable scan (a scan under filters, projections and LIMIT), or none.
  bool forUpdate = false;
  std::vector<Source> tables;
};

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

  CursorRowIds rowIds;
  // The redo log replays a transaction's statements, not its cursor moves: a PL/pgSQL
  // OPEN, FETCH or MOVE is replayed only as part of the statement that ran the routine,
  // which the log keeps when it changed something. WHERE CURRENT OF therefore takes a
  // cursor that routines opened or moved only within the statement running now
  // (routineUse: since that statement began), and refuses one they touched in an earlier
  // statement (replayable false, set where each top-level statement ends), which a
  // replay could find elsewhere or not at all.
  bool routineUse = false;
  bool replayable = true;

  // Where it stands, from the first FETCH or MOVE (all rows are in by then).
  CursorPosition& position() {
    if (!position_) position_.emplace(rows->size(), scrollable);
    return *position_;
  }

  // WHERE CURRENT OF on `table`: the id of its row that the row the cursor stands on came
  // from, or kNoRow when the row has none (an outer join's missing side). 24000 when the
  // cursor does not read the table so, or stands on no row.
  uint64_t currentRow(const Table& table) const;

 private:
  std::optional<CursorPosition> position_;
};

}  // namespace duet::rt
