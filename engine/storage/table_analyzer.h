// ANALYZE's computation (docs/statistics.md): over a sample of about kSampleRows of a
// table's live rows (all of a smaller table's), it counts NULLs, widths and how often each
// value occurs, keeps the smallest and largest value and the sorted sample for a
// histogram, and estimates the distinct values of the whole table as PostgreSQL does. Its
// cost stays the same however large the table (the executor runs it, between
// transactions). The sample is chosen by a hash of each row's position among the live
// rows in storage order, never by timing or chance: plans made from it are the same after
// a recovery that replays the same rows.
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
