#include "compiler/runtime/portal.h"

#include <cstring>

#include <fmt/format.h>

#include "engine/error.h"
#include "engine/storage/table.h"

namespace duet::rt {

uint64_t Portal::currentRow(const Table& table) const {
  const CursorRowIds::Source* source = nullptr;
  for (const CursorRowIds::Source& s : rowIds.tables) {
    if (s.table != &table) continue;
    if (source)
      throw SqlError(
          sqlstate::kInvalidCursorState,
          fmt::format("cursor \"{}\" has multiple FOR UPDATE/SHARE references to table \"{}\"", name, table.name()));
    source = &s;
  }
  if (!source) {
    throw SqlError(
        sqlstate::kInvalidCursorState,
        rowIds.forUpdate
            ? fmt::format("cursor \"{}\" does not have a FOR UPDATE/SHARE reference to table \"{}\"", name,
                          table.name())
            : fmt::format("cursor \"{}\" is not a simply updatable scan of table \"{}\"", name, table.name()));
  }
  if (!replayable)
    throw SqlError(sqlstate::kFeatureNotSupported,
                   fmt::format("WHERE CURRENT OF cursor \"{}\" is not supported: a function opened or moved it in an "
                               "earlier statement",
                               name),
                   {}, "Declare the cursor with SQL's DECLARE, or use it in the statement whose function moves it.");
  if (!position_ || !position_->onRow())
    throw SqlError(sqlstate::kInvalidCursorState, fmt::format("cursor \"{}\" is not positioned on a row", name));
  const uint8_t* row = rows->at(position_->row() - 1);
  if (row[source->column]) return kNoRow;
  uint64_t id;
  std::memcpy(&id, row + source->offset, sizeof id);
  return id;
}

}  // namespace duet::rt
