// ANALYZE's computation (docs/statistics.md): one pass over a table's live rows in storage
// order that counts NULLs, widths and distinct values (distinct_counter.h), keeps the
// smallest and largest value, and takes every n-th row into the histogram's sample. It
// reads every row, so the result depends on the rows alone (and their order in storage
// for the histogram's sample), never on timing or chance: plans made from it are the same
// after a recovery that replays the same rows.
#pragma once
#include <cstdint>
#include <vector>

#include "engine/storage/table.h"
#include "engine/storage/table_statistics.h"

namespace duet {

// The statistics of `columns` (all columns when empty); the other columns keep what
// `previous` (may be null) has for them, and so do all of them when the table is empty.
TableStatistics analyzeTable(const Table& table, const std::vector<uint32_t>& columns, const TableStatistics* previous);

}  // namespace duet
