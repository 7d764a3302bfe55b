// FOREIGN KEY enforcement (foreign_key.h): lookups in the referenced key's unique index,
// scans of the referencing table, and the referential actions, with PostgreSQL's messages
// (ri_triggers.c's ri_ReportViolation).
#include "engine/storage/foreign_key.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <memory>

#include "engine/error.h"
#include "engine/storage/key_ops.h"
#include "engine/storage/ordered_index.h"
#include "engine/storage/table.h"
#include "engine/storage/tuple_storage.h"
#include "engine/types/value_io.h"

namespace duet {
namespace {

// "(a, b)=(1, 2)": the named columns of a tuple and their values, as error details print keys.
std::string keyText(const Table& table, const std::vector<uint32_t>& columns, const uint8_t* tuple) {
  static const TypeContext utc;  // as formatTuple: storage does not know the session's zone
  const TupleLayout& layout = table.layout();
  std::string names, values;
  for (uint32_t c : columns) {
    if (!names.empty()) {
      names += ", ";
      values += ", ";
    }
    names += table.columns()[c].name;
    if (tuple[c])
      values += "null";
    else
      formatText(layout.types[c], tuple + layout.offsets[c], values, utc);
  }
  return fmt::format("({})=({})", names, values);
}

SqlError violation(const ForeignKey& fk, std::string message, std::string detail, const Table& reported) {
  SqlError error(sqlstate::kForeignKeyViolation, std::move(message), std::move(detail));
  error.schemaName = reported.schemaName();
  error.tableName = reported.name();
  error.constraintName = fk.name;
  return error;
}

[[noreturn]] void throwNotPresent(const ForeignKey& fk, const uint8_t* childTuple) {
  throw violation(
      fk,
      fmt::format("insert or update on table \"{}\" violates foreign key constraint \"{}\"", fk.child->name(), fk.name),
      fmt::format("Key {} is not present in table \"{}\".", keyText(*fk.child, fk.columns, childTuple),
                  fk.parent->name()),
      *fk.child);
}

// A referencing and a referenced value: of one type, or integers of two widths (smallint,
// integer, bigint), which compare as numbers.
int compareKeyValues(SqlType a, const uint8_t* av, SqlType b, const uint8_t* bv) {
  if (a.id == b.id || !isIntegerType(a.id) || !isIntegerType(b.id)) return compareValues(a, av, bv);
  int64_t x = loadIntegerLike(a.id, av), y = loadIntegerLike(b.id, bv);
  return x < y ? -1 : x > y ? 1 : 0;
}

// Copies value `from` (of type `fromType`) into a field of type `to`, converting between
// integer widths; false when it does not fit.
bool copyKeyValue(TypeId fromType, const uint8_t* from, TypeId to, uint8_t* out) {
  if (fromType == to || !isIntegerType(fromType) || !isIntegerType(to)) {
    copyValueBytes(out, from, physicalSize(to));
    return true;
  }
  int64_t v = loadIntegerLike(fromType, from);
  switch (to) {
    case TypeId::Int2: {
      if (v < INT16_MIN || v > INT16_MAX) return false;
      auto n = static_cast<int16_t>(v);
      std::memcpy(out, &n, 2);
      return true;
    }
    case TypeId::Int4: {
      if (v < INT32_MIN || v > INT32_MAX) return false;
      auto n = static_cast<int32_t>(v);
      std::memcpy(out, &n, 4);
      return true;
    }
    default: std::memcpy(out, &v, 8); return true;
  }
}

// The referencing table's rows whose key equals the referenced row's.
// An index of the referencing table that finds the rows of one referencing key: one whose
// leading columns are the referencing columns (in any order), or null.
const Index* referencingIndex(const ForeignKey& fk) {
  size_t n = fk.columns.size();
  for (const auto& index : fk.child->indexes()) {
    const std::vector<uint32_t>& columns = index->columns();
    if (columns.size() < n || (index->kind() == IndexKind::Hash && columns.size() != n)) continue;
    if (std::is_permutation(columns.begin(), columns.begin() + static_cast<std::ptrdiff_t>(n), fk.columns.begin()))
      return index.get();
  }
  return nullptr;
}

// The referencing rows of a key through such an index: its leading key columns set from
// the referenced row (a value they cannot hold is referenced by no row).
void indexedReferencingRows(const ForeignKey& fk, const Index& index, const uint8_t* parentTuple,
                            std::vector<RowId>& rows) {
  const TupleLayout& kl = index.keyLayout();
  const TupleLayout& pl = fk.parent->layout();
  std::vector<uint8_t> key(kl.size, 0);
  size_t n = fk.columns.size();
  for (size_t k = 0; k < n; ++k) {
    size_t i = 0;
    while (fk.columns[i] != index.columns()[k]) ++i;
    uint32_t p = fk.refColumns[i];
    if (!copyKeyValue(pl.types[p].id, parentTuple + pl.offsets[p], kl.types[k].id, key.data() + kl.offsets[k])) return;
  }
  if (index.kind() == IndexKind::Hash) {
    if (RowId row = index.find(key.data()); row != kNoRow) rows.push_back(row);
    return;
  }
  const auto& ordered = static_cast<const OrderedIndex&>(index);
  auto columns = static_cast<uint32_t>(n);
  OrderedIndex::Bound upper = ordered.bound(key.data(), columns, true);
  for (auto it = ordered.lowerBound(key.data(), columns, true); it != ordered.end(); ++it) {
    const OrderedIndex::Entry e = *it;
    if (ordered.beyond(e, upper)) break;
    rows.push_back(e.row);
  }
}

std::vector<RowId> referencingRows(const ForeignKey& fk, const uint8_t* parentTuple) {
  std::vector<RowId> rows;
  if (const Index* index = referencingIndex(fk)) {
    indexedReferencingRows(fk, *index, parentTuple, rows);
    return rows;
  }
  const Table& child = *fk.child;
  const TupleLayout& cl = child.layout();
  const TupleLayout& pl = fk.parent->layout();
  std::vector<uint8_t> image(cl.size);
  const ChunkDirectory& dir = child.directory();
  for (uint32_t ci = 0; ci < dir.count; ++ci) {
    const Chunk* chunk = dir.chunks[ci];
    for (uint32_t slot = 0; slot < chunk->used; ++slot) {
      if (!chunk->live[slot]) continue;
      RowId row = (static_cast<RowId>(ci) << kChunkShift) | slot;
      child.read(row, image.data());
      bool equal = true;
      for (size_t i = 0; i < fk.columns.size() && equal; ++i) {
        uint32_t c = fk.columns[i], p = fk.refColumns[i];
        equal = !image[c] && compareKeyValues(cl.types[c], image.data() + cl.offsets[c], pl.types[p],
                                              parentTuple + pl.offsets[p]) == 0;
      }
      if (equal) rows.push_back(row);
    }
  }
  return rows;
}

// Whether the referenced table has a row with this referenced row's key.
bool referencedKeyPresent(const ForeignKey& fk, const uint8_t* parentTuple) {
  const Index& index = *fk.parentIndex;
  std::vector<uint8_t> key(index.keyLayout().size, 0);
  uint8_t* nullFlag = key.data();
  for (const Index::KeyField& f : index.keyFields()) {
    *nullFlag++ = parentTuple[f.column];
    copyValueBytes(key.data() + f.keyOffset, parentTuple + f.rowOffset, f.size);
  }
  return index.find(key.data()) != kNoRow;
}

[[noreturn]] void throwStillReferenced(const ForeignKey& fk, const uint8_t* parentTuple) {
  throw violation(fk,
                  fmt::format("update or delete on table \"{}\" violates foreign key constraint \"{}\" on table \"{}\"",
                              fk.parent->name(), fk.name, fk.child->name()),
                  fmt::format("Key {} is still referenced from table \"{}\".",
                              keyText(*fk.parent, fk.refColumns, parentTuple), fk.child->name()),
                  *fk.parent);
}

}  // namespace

void deferForeignKeyRow(const ForeignKey& fk, RowId row, UndoLog& undo) {
  auto check = [&fk, row] {
    const Table& child = *fk.child;
    if (!child.isLive(row)) return;  // deleted again by the statement (or the transaction)
    std::vector<uint8_t> image(child.layout().size);
    child.read(row, image.data());
    checkForeignKeyRow(fk, image.data());
  };
  if (undo.deferredNow(fk))
    undo.deferToCommit(fk, std::move(check));
  else
    undo.defer(std::move(check));
}

bool foreignKeyApplies(const ForeignKey& fk, const uint8_t* childTuple) {
  size_t nulls = 0;
  for (uint32_t c : fk.columns) nulls += childTuple[c] != 0;
  if (nulls == 0) return true;
  if (fk.match == fk_match::kFull && nulls < fk.columns.size()) {
    throw violation(fk,
                    fmt::format("insert or update on table \"{}\" violates foreign key constraint \"{}\"",
                                fk.child->name(), fk.name),
                    "MATCH FULL does not allow mixing of null and nonnull key values.", *fk.child);
  }
  return false;
}

void checkForeignKeyRow(const ForeignKey& fk, const uint8_t* childTuple) {
  if (!foreignKeyApplies(fk, childTuple)) return;
  const Index& index = *fk.parentIndex;
  const TupleLayout& cl = fk.child->layout();
  const TupleLayout& pl = fk.parent->layout();
  std::vector<uint8_t> key(index.keyLayout().size, 0);
  uint8_t* nullFlag = key.data();
  for (const Index::KeyField& f : index.keyFields()) {
    size_t i = 0;
    while (fk.refColumns[i] != f.column) ++i;
    uint32_t c = fk.columns[i];
    *nullFlag++ = 0;
    // A value the referenced column's type cannot hold is in no row of it.
    if (!copyKeyValue(cl.types[c].id, childTuple + cl.offsets[c], pl.types[f.column].id, key.data() + f.keyOffset))
      throwNotPresent(fk, childTuple);
  }
  if (index.find(key.data()) == kNoRow) throwNotPresent(fk, childTuple);
}

void referencedRowChanged(const ForeignKey& fk, const uint8_t* oldTuple, const uint8_t* newTuple, UndoLog& undo) {
  char action = newTuple ? fk.onUpdate : fk.onDelete;
  const TupleLayout& pl = fk.parent->layout();
  if (action == fk_action::kNoAction) {
    // At the end of the statement: by then another row may have the key, or the rows that
    // referenced it may be gone.
    auto old = std::make_shared<std::vector<uint8_t>>(oldTuple, oldTuple + pl.size);
    auto check = [&fk, old] {
      if (!referencedKeyPresent(fk, old->data()) && !referencingRows(fk, old->data()).empty())
        throwStillReferenced(fk, old->data());
    };
    if (undo.deferredNow(fk))
      undo.deferToCommit(fk, std::move(check));
    else
      undo.defer(std::move(check));
    return;
  }
  std::vector<RowId> rows = referencingRows(fk, oldTuple);
  if (rows.empty()) return;
  Table& child = *fk.child;
  const TupleLayout& cl = child.layout();
  switch (action) {
    case fk_action::kRestrict: throwStillReferenced(fk, oldTuple);
    case fk_action::kCascade:
      if (!newTuple) {
        for (RowId row : rows)
          if (child.isLive(row)) child.erase(row, undo);  // a self-reference may have erased it already
        return;
      }
      break;
    default: break;
  }
  // CASCADE on update, SET NULL, SET DEFAULT: the referencing columns take new values.
  std::vector<uint8_t> image(cl.size);
  for (RowId row : rows) {
    if (!child.isLive(row)) continue;
    child.read(row, image.data());
    for (size_t i = 0; i < fk.columns.size(); ++i) {
      uint32_t c = fk.columns[i];
      if (action == fk_action::kCascade) {
        uint32_t p = fk.refColumns[i];
        image[c] = newTuple[p];
        if (!newTuple[p] &&
            !copyKeyValue(pl.types[p].id, newTuple + pl.offsets[p], cl.types[c].id, image.data() + cl.offsets[c]))
          throw SqlError(sqlstate::kNumericValueOutOfRange,
                         cl.types[c].id == TypeId::Int2 ? "smallint out of range" : "integer out of range");
      } else if (action == fk_action::kSetNull) {
        image[c] = 1;
      } else {
        image[c] = fk.defaults[c];
        copyValueBytes(image.data() + cl.offsets[c], fk.defaults.data() + cl.offsets[c], physicalSize(cl.types[c].id));
      }
    }
    child.update(row, image.data(), undo);
  }
}

void validateForeignKey(const ForeignKey& fk) {
  const Table& child = *fk.child;
  std::vector<uint8_t> image(child.layout().size);
  const ChunkDirectory& dir = child.directory();
  for (uint32_t ci = 0; ci < dir.count; ++ci) {
    const Chunk* chunk = dir.chunks[ci];
    for (uint32_t slot = 0; slot < chunk->used; ++slot) {
      if (!chunk->live[slot]) continue;
      child.read((static_cast<RowId>(ci) << kChunkShift) | slot, image.data());
      checkForeignKeyRow(fk, image.data());
    }
  }
}

}  // namespace duet
