// The C entry points generated code calls for index lookups, index range scans and row
// changes, plus the table of their names and addresses the JIT registers. They are thin
// wrappers over Table and Index; SqlError exceptions propagate through the generated frames.
#pragma once
#include <cstdint>
#include <vector>

#include "engine/storage/index.h"
#include "engine/storage/layout.h"
#include "engine/types/runtime.h"  // RuntimeSymbol

namespace duet {

class Table;
class UndoLog;

// Iterator state of an index range scan; generated code reserves one on its stack and
// treats it as opaque. The bound key buffers must stay valid until the scan ends.
struct alignas(16) DuetIndexRange {
  uint8_t opaque[192];
};

extern "C" {
// The row with exactly this key (in the index's key layout), or kNoRow.
RowId duet_index_lookup(const Index* index, const uint8_t* key);
// The same for an index on a single integer-like column, without building a key tuple.
RowId duet_index_lookup_int(const Index* index, int64_t key);

// Opens a scan of an ordered index over [lower, upper], each bound over its first
// *Columns key columns (0: unbounded) and inclusive or not. Equality on a prefix is
// lower == upper, both inclusive. Entries with NULL in a bounded column are skipped, as no
// comparison with NULL is true; a NULL in a bound makes the scan empty. Rows come in key
// order, or in reverse key order when `descending`. The scan steps past a row before
// returning it, so the caller may delete or update the returned row, but rows it moves
// further along the walk will be seen again.
void duet_index_range_open(DuetIndexRange* range, const Index* index, const uint8_t* lower, uint32_t lowerColumns,
                           bool lowerInclusive, const uint8_t* upper, uint32_t upperColumns, bool upperInclusive,
                           bool descending);
// The next row of the scan, or kNoRow at the end.
RowId duet_index_range_next(DuetIndexRange* range);

// Prefetch hints ahead of index lookups (Index::prefetchProbe, then Index::peek and the
// row it names); they change nothing.
void duet_index_prefetch_probe(const Index* index, const uint8_t* key);
void duet_index_prefetch_row(const Index* index, const Table* table, const uint8_t* key);
RowId duet_table_insert(Table* table, const uint8_t* tuple, UndoLog* undo);
// INSERT ... ON CONFLICT: Table::findConflict.
RowId duet_table_find_conflict(Table* table, const Index* arbiter, const uint8_t* tuple);
void duet_table_update(Table* table, RowId row, const uint8_t* tuple, UndoLog* undo);
void duet_table_erase(Table* table, RowId row, UndoLog* undo);
void duet_table_read(const Table* table, RowId row, uint8_t* tupleOut);
// The end of a statement that changed rows of a table in a foreign key: its deferred checks.
void duet_undo_run_deferred(UndoLog* undo);
// A CHECK constraint refused the new row `tuple`: 23514 with the row in the detail, or
// 23502 when the row also breaks NOT NULL (checked first, as in PostgreSQL).
[[noreturn]] void duet_table_check_failed(const Table* table, const VarString* constraint, const uint8_t* tuple);
}

const std::vector<RuntimeSymbol>& storageRuntimeSymbols();

}  // namespace duet
