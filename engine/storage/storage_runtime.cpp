// C entry points for generated code (see storage_runtime.h).
#include "engine/storage/storage_runtime.h"

#include <algorithm>
#include <cstring>
#include <new>

#include <fmt/format.h>

#include "engine/error.h"
#include "engine/storage/hash_index.h"
#include "engine/storage/key_ops.h"
#include "engine/storage/ordered_index.h"
#include "engine/storage/table.h"
#include "engine/storage/undo_log.h"

namespace duet {
namespace {

struct RangeState {
  const OrderedIndex* index;
  OrderedIndex::Tree::Iterator cursor;  // the next entry to look at; end(): done
  // The cursor's entry and the index version it was taken at: when the caller changed the
  // index since (deleting or updating the row it was handed moves entries), the walk
  // finds its place again from the entry itself.
  OrderedIndex::Entry next;
  uint64_t version;
  OrderedIndex::Bound stop;  // the bound the walk runs towards: upper, or lower when descending
  uint32_t boundedColumns;   // entries with NULL among these are skipped
  bool descending;

  void remember() {
    version = index->version();
    if (cursor != index->end()) next = *cursor;
  }
  void refind() {
    auto it = index->lowerBound(next);
    if (!descending)
      cursor = it;
    else
      cursor = it != index->end() && index->same(*it, next) ? it : index->prev(it);
  }
};
RangeState* stateOf(DuetIndexRange* r) { return std::launder(reinterpret_cast<RangeState*>(r->opaque)); }

bool prefixHasNull(const uint8_t* key, uint32_t columns) {
  for (uint32_t c = 0; c < columns; ++c)
    if (key[c]) return true;
  return false;
}

}  // namespace

extern "C" {

RowId duet_index_lookup(const Index* index, const uint8_t* key) { return index->find(key); }

RowId duet_index_lookup_int(const Index* index, int64_t key) {
  if (index->kind() == IndexKind::Hash) {
    auto* hash = static_cast<const HashIndex*>(index);
    if (hash->singleInteger()) return hash->findInteger(key);
  }
  // Other indexes: build the one-column key tuple.
  const TupleLayout& l = index->keyLayout();
  alignas(16) uint8_t buf[32] = {};
  uint32_t off = l.offsets[0];
  switch (physicalSize(l.types[0].id)) {
    case 1: buf[off] = static_cast<uint8_t>(key); break;
    case 2: {
      auto v = static_cast<int16_t>(key);
      if (v != key) return kNoRow;
      std::memcpy(buf + off, &v, 2);
      break;
    }
    case 4: {
      auto v = static_cast<int32_t>(key);
      if (v != key) return kNoRow;
      std::memcpy(buf + off, &v, 4);
      break;
    }
    default: std::memcpy(buf + off, &key, 8); break;
  }
  return index->find(buf);
}

void duet_index_range_open(DuetIndexRange* range, const Index* index, const uint8_t* lower, uint32_t lowerColumns,
                           bool lowerInclusive, const uint8_t* upper, uint32_t upperColumns, bool upperInclusive,
                           bool descending) {
  auto* ordered = static_cast<const OrderedIndex*>(index);
  auto* s = new (range->opaque)
      RangeState{ordered, ordered->end(), {}, 0, {}, std::max(lowerColumns, upperColumns), descending};
  if (prefixHasNull(lower, lowerColumns) || prefixHasNull(upper, upperColumns)) return;
  s->stop = descending ? ordered->bound(lower, lowerColumns, lowerInclusive)
                       : ordered->bound(upper, upperColumns, upperInclusive);
  if (!descending) {
    s->cursor = ordered->lowerBound(lower, lowerColumns, lowerInclusive);
  } else {
    // The last entry within the upper bound: the one before the first entry past it.
    auto past = upperColumns ? ordered->lowerBound(upper, upperColumns, !upperInclusive) : ordered->end();
    s->cursor = past == ordered->begin() ? ordered->end() : ordered->prev(past);
  }
  s->remember();
}

RowId duet_index_range_next(DuetIndexRange* range) {
  RangeState* s = stateOf(range);
  const OrderedIndex& index = *s->index;
  if (s->cursor != index.end() && s->version != index.version()) s->refind();
  while (s->cursor != index.end()) {
    const OrderedIndex::Entry e = *s->cursor;
    bool outside = s->descending ? index.before(e, s->stop) : index.beyond(e, s->stop);
    if (outside) {
      s->cursor = index.end();
      break;
    }
    // Step off the entry before handing out its row, which the caller may delete.
    if (!s->descending)
      ++s->cursor;
    else
      s->cursor = s->cursor == index.begin() ? index.end() : index.prev(s->cursor);
    if (index.hasNull(e, s->boundedColumns)) continue;
    s->remember();
    return e.row;
  }
  return kNoRow;
}

void duet_index_prefetch_probe(const Index* index, const uint8_t* key) { index->prefetchProbe(key); }

void duet_index_prefetch_row(const Index* index, const Table* table, const uint8_t* key) {
  RowId row = index->peek(key);
  if (row != kNoRow) table->prefetchRow(row);
}

// A read-only transaction refuses the change (UndoLog::checkWritable): the session refuses
// a writing statement before it runs, but not the statements a routine runs.
RowId duet_table_insert(Table* table, const uint8_t* tuple, UndoLog* undo) {
  undo->checkWritable("INSERT");
  return table->insert(tuple, *undo);
}
RowId duet_table_find_conflict(Table* table, const Index* arbiter, const uint8_t* tuple) {
  return table->findConflict(tuple, *arbiter);
}
void duet_table_update(Table* table, RowId row, const uint8_t* tuple, UndoLog* undo) {
  undo->checkWritable("UPDATE");
  table->update(row, tuple, *undo);
}
void duet_table_erase(Table* table, RowId row, UndoLog* undo) {
  undo->checkWritable("DELETE");
  table->erase(row, *undo);
}
void duet_table_read(const Table* table, RowId row, uint8_t* tupleOut) { table->read(row, tupleOut); }
void duet_undo_run_deferred(UndoLog* undo) { undo->runDeferred(); }
void duet_table_check_failed(const Table* table, const VarString* constraint, const uint8_t* tuple) {
  // PostgreSQL's ExecConstraints checks NOT NULL before CHECK: a row that breaks both is
  // 23502. Checked here, where a CHECK has failed, so that rows that pass pay nothing.
  table->checkNotNull(tuple);
  std::string name(constraint->data, constraint->len);
  SqlError error(sqlstate::kCheckViolation,
                 fmt::format("new row for relation \"{}\" violates check constraint \"{}\"", table->name(), name),
                 fmt::format("Failing row contains ({}).", formatTuple(table->layout(), tuple)));
  error.schemaName = table->schemaName();
  error.tableName = table->name();
  error.constraintName = std::move(name);
  throw error;
}

}  // extern "C"

const std::vector<RuntimeSymbol>& storageRuntimeSymbols() {
  static const std::vector<RuntimeSymbol> symbols = {
      {"duet_index_lookup", reinterpret_cast<void*>(&duet_index_lookup)},
      {"duet_index_lookup_int", reinterpret_cast<void*>(&duet_index_lookup_int)},
      {"duet_index_range_open", reinterpret_cast<void*>(&duet_index_range_open)},
      {"duet_index_range_next", reinterpret_cast<void*>(&duet_index_range_next)},
      {"duet_index_prefetch_probe", reinterpret_cast<void*>(&duet_index_prefetch_probe)},
      {"duet_index_prefetch_row", reinterpret_cast<void*>(&duet_index_prefetch_row)},
      {"duet_table_insert", reinterpret_cast<void*>(&duet_table_insert)},
      {"duet_table_find_conflict", reinterpret_cast<void*>(&duet_table_find_conflict)},
      {"duet_table_update", reinterpret_cast<void*>(&duet_table_update)},
      {"duet_table_erase", reinterpret_cast<void*>(&duet_table_erase)},
      {"duet_table_read", reinterpret_cast<void*>(&duet_table_read)},
      {"duet_table_check_failed", reinterpret_cast<void*>(&duet_table_check_failed)},
      {"duet_undo_run_deferred", reinterpret_cast<void*>(&duet_undo_run_deferred)},
  };
  return symbols;
}

}  // namespace duet
