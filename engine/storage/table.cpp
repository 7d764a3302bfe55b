// Table rows, string ownership, constraint checks and index maintenance (see table.h).
#include "engine/storage/table.h"

#include "engine/storage/tuple_storage.h"

#include <fmt/format.h>

#include <algorithm>
#include <cassert>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

#include "engine/error.h"
#include "engine/storage/hash_index.h"
#include "engine/storage/key_ops.h"
#include "engine/storage/ordered_index.h"
#include "engine/storage/tuple_storage.h"
#include "engine/types/value.h"
#include "engine/types/value_io.h"

namespace duet {
namespace {

void* callocOrThrow(size_t n, size_t size) {
  void* p = std::calloc(n, size);
  if (!p) throw std::bad_alloc();
  return p;
}

const VarString* loadString(const uint8_t* p) {
  const VarString* s;
  std::memcpy(&s, p, sizeof s);
  return s;
}

void storeString(uint8_t* p, const VarString* s) { std::memcpy(p, &s, sizeof s); }

// Strings of char(n) / varchar(n) columns up to this many bytes get inline room in the row
// (n characters take n bytes when they are ASCII; longer ones go to the heap as before).
constexpr int kInlineStringMax = 64;
// Inline room per row, at most: a wide table keeps its rows within a few cache lines.
constexpr uint32_t kInlineRowMax = 1024;

}  // namespace

struct Table::ChunkSet {
  std::vector<Chunk*> chunks;
  std::unique_ptr<ChunkExtents> extents;
  std::vector<RowId> freeSlots;
  uint64_t liveRows = 0;
};

Table::Table(std::string name, std::vector<ColumnSpec> columns, StorageKind kind)
    : name_(std::move(name)), columns_(std::move(columns)), kind_(kind) {
  std::vector<SqlType> types;
  for (uint32_t c = 0; c < columns_.size(); ++c) {
    types.push_back(columns_[c].type);
    // Arrays are held like strings (engine/types/array.h): copied in, freed with the row.
    if (isVarlenaType(columns_[c].type.id)) stringColumns_.push_back(c);
  }
  notNullChanged();
  layout_ = TupleLayout::of(types);
  rowScratch_.resize(layout_.size);
  inlineOffset_.assign(columns_.size(), 0);
  inlineCapacity_.assign(columns_.size(), 0);
  roomStride_.assign(columns_.size(), 0);
  uint32_t end = layout_.size;
  for (uint32_t c : stringColumns_) {
    const SqlType& t = columns_[c].type;
    int n = t.charLength();
    if ((t.id != TypeId::Char && t.id != TypeId::Varchar) || n <= 0 || n > kInlineStringMax) continue;
    auto room = static_cast<uint32_t>((sizeof(VarString) + n + 3) / 4 * 4);  // 4-aligned: the length is a uint32_t
    if (kind_ == StorageKind::Column) {
      roomStride_[c] = room;
    } else if (end + room - layout_.size <= kInlineRowMax) {
      inlineOffset_[c] = end;
      end += room;
    } else {
      continue;
    }
    inlineCapacity_[c] = static_cast<uint32_t>(n);
  }
  rowStride_ = (end + 15) / 16 * 16;
  stringColumnsMask_ = columnsMask(stringColumns_);
  indexesChanged();
}

Table::~Table() {
  setAnalysisQueue(nullptr);
  indexes_.clear();
  for (Chunk* c : chunks_) freeChunk(c, true);
}

// ---- chunks -------------------------------------------------------------------------------

// A chunk's arrays lie back to back in one zeroed block, each 64-byte aligned: the live
// flags, then the rows (row store) or each column's values and NULL flags (column store),
// after the two arrays of pointers to those. With `block` null this only measures.
size_t Table::layOutChunk(Chunk* c, uint8_t* block) const {
  size_t used = 0;
  auto take = [&](size_t bytes) {
    uint8_t* p = block ? block + used : nullptr;
    used += (bytes + 63) / 64 * 64;
    return p;
  };
  c->live = take(kChunkRows);
  if (kind_ == StorageKind::Row) {
    c->rows = take(size_t{kChunkRows} * rowStride_);
    return used;
  }
  size_t n = columns_.size();
  c->columnValues = reinterpret_cast<uint8_t**>(take(n * sizeof(uint8_t*)));
  c->columnNulls = reinterpret_cast<uint8_t**>(take(n * sizeof(uint8_t*)));
  for (size_t i = 0; i < n; ++i) {
    // A column's inline string room right after its values, where inlineRoom() finds it.
    uint8_t* values = take(size_t{kChunkRows} * physicalSize(columns_[i].type.id));
    if (roomStride_[i]) take(size_t{kChunkRows} * roomStride_[i]);
    uint8_t* nulls = take(kChunkRows);
    if (block) {
      c->columnValues[i] = values;
      c->columnNulls[i] = nulls;
    }
  }
  return used;
}

size_t Table::memoryBytes() const {
  Chunk layout{};
  return chunks_.size() * (sizeof(Chunk) + layOutChunk(&layout, nullptr)) + stringBytes_;
}

Chunk* Table::newChunk() {
  auto* c = static_cast<Chunk*>(callocOrThrow(1, sizeof(Chunk)));
  try {
    size_t bytes = layOutChunk(c, nullptr);
    // The first chunk comes from calloc (a large block maps fresh zero pages: untouched
    // slots cost no memory), so a small table takes no 2 MiB page; later ones from the
    // table's huge-page extents.
    c->inExtent = !chunks_.empty();
    layOutChunk(c, c->inExtent ? extents_->allocate(bytes) : static_cast<uint8_t*>(callocOrThrow(1, bytes)));
  } catch (...) {
    std::free(c);
    throw;
  }
  return c;
}

void Table::freeChunk(Chunk* c, bool freeLiveStrings) {
  if (freeLiveStrings && !stringColumns_.empty()) {
    std::vector<uint8_t> image(layout_.size);
    for (uint32_t s = 0; s < c->used; ++s) {
      if (!c->live[s]) continue;
      readFrom(c, s, image.data());
      freeStringsNotIn(image.data(), nullptr, c, s);
    }
  }
  // The block starts with the live flags. One in the extents goes with them, when the
  // table or its truncated set does.
  if (!c->inExtent) std::free(c->live);
  std::free(c);
}

void Table::syncDirectory() {
  directory_.chunks = chunks_.data();
  directory_.count = static_cast<uint32_t>(chunks_.size());
}

RowId Table::allocateSlot() {
  if (!freeSlots_.empty()) {
    RowId r = freeSlots_.back();
    freeSlots_.pop_back();
    return r;
  }
  if (chunks_.empty() || chunks_.back()->used == kChunkRows) {
    Chunk* c = newChunk();
    try {
      chunks_.push_back(c);
    } catch (...) {
      freeChunk(c, false);
      throw;
    }
    syncDirectory();
  }
  Chunk* c = chunks_.back();
  return (static_cast<RowId>(chunks_.size() - 1) << kChunkShift) | c->used++;
}

void Table::readFrom(const Chunk* c, uint32_t slot, uint8_t* out) const {
  if (kind_ == StorageKind::Row) {
    std::memcpy(out, rowAt(c, slot), layout_.size);
    return;
  }
  std::memset(out, 0, layout_.size);
  for (size_t i = 0; i < columns_.size(); ++i) {
    uint32_t w = physicalSize(columns_[i].type.id);
    out[i] = c->columnNulls[i][slot];
    copyValueBytes(out + layout_.offsets[i], c->columnValues[i] + static_cast<size_t>(slot) * w, w);
  }
}

void Table::writeTo(Chunk* c, uint32_t slot, const uint8_t* tuple) {
  if (kind_ == StorageKind::Row) {
    std::memcpy(rowAt(c, slot), tuple, layout_.size);
    return;
  }
  for (size_t i = 0; i < columns_.size(); ++i) {
    uint32_t w = physicalSize(columns_[i].type.id);
    c->columnNulls[i][slot] = tuple[i] ? 1 : 0;
    copyValueBytes(c->columnValues[i] + static_cast<size_t>(slot) * w, tuple + layout_.offsets[i], w);
  }
}

// ---- strings ------------------------------------------------------------------------------

const VarString* Table::copyString(const VarString* s) {
  size_t bytes = sizeof(VarString) + s->len;
  auto* copy = static_cast<VarString*>(std::malloc(bytes));
  if (!copy) throw std::bad_alloc();
  copy->len = s->len;
  std::memcpy(copy->data, s->data, s->len);
  stringBytes_ += bytes;
  return copy;
}

const VarString* Table::placeString(uint32_t c, uint8_t* room, const VarString* s) {
  if (!room || s->len > inlineCapacity_[c]) return copyString(s);
  auto* inlined = reinterpret_cast<VarString*>(room);
  inlined->len = s->len;
  std::memcpy(inlined->data, s->data, s->len);
  return inlined;
}

void Table::freeString(const VarString* s) {
  stringBytes_ -= sizeof(VarString) + s->len;
  std::free(const_cast<VarString*>(s));
}

void Table::freeStringsNotIn(const uint8_t* image, const uint8_t* keep, const Chunk* chunk, uint32_t slot) {
  for (uint32_t c : stringColumns_) {
    if (image[c]) continue;
    const VarString* s = loadString(image + layout_.offsets[c]);
    if (keep && !keep[c] && loadString(keep + layout_.offsets[c]) == s) continue;
    if (reinterpret_cast<const uint8_t*>(s) == inlineRoom(chunk, slot, c)) continue;  // the row's own room
    freeString(s);
  }
}

void Table::setNotNull(const std::vector<uint32_t>& columns, bool notNull) {
  for (uint32_t c : columns) columns_.at(c).notNull = notNull;
  notNullChanged();
}

// ---- constraints and indexes --------------------------------------------------------------

void Table::notNullChanged() {
  notNullColumns_.clear();
  std::vector<uint8_t> bytes((columns_.size() + 7) / 8 * 8, 0);
  for (uint32_t c = 0; c < columns_.size(); ++c) {
    if (!columns_[c].notNull) continue;
    notNullColumns_.push_back(c);
    bytes[c] = 0xff;
  }
  notNullFlags_ = wordsOf(bytes);
}

void Table::throwNotNull(const uint8_t* tuple) const {
  for (uint32_t c : notNullColumns_) {
    if (!tuple[c]) continue;
    SqlError error(sqlstate::kNotNullViolation,
                   fmt::format("null value in column \"{}\" of relation \"{}\" violates "
                               "not-null constraint",
                               columns_[c].name, name_),
                   fmt::format("Failing row contains ({}).", formatTuple(layout_, tuple)));
    error.schemaName = schemaName_;
    error.tableName = name_;
    error.columnName = columns_[c].name;
    throw error;
  }
  throw SqlError(sqlstate::kInternalError, "NOT NULL check failed on no NOT NULL column");
}

void Table::keyOf(const uint8_t* tuple, const Index& index, uint8_t* keyOut) const {
  assert(index.keyFields().size() == index.columns().size());  // setRowLayout at CREATE INDEX
  std::memset(keyOut, 0, index.keyLayout().size);              // deterministic padding: rekey compares key bytes
  uint8_t* nullFlag = keyOut;
  for (const Index::KeyField& f : index.keyFields()) {
    uint8_t isNull = tuple[f.column];
    *nullFlag++ = isNull;
    if (!isNull) copyValueBytes(keyOut + f.keyOffset, tuple + f.rowOffset, f.size);
  }
}

RowId Table::findConflict(const uint8_t* tuple, const Index& arbiter) {
  checkNotNull(tuple);
  uint8_t* key = keyScratch_.data();
  keyOf(tuple, arbiter, key);
  return arbiter.find(key);
}

void Table::readKey(RowId row, const Index& index, uint8_t* keyOut) const {
  std::vector<uint8_t> image(layout_.size);
  read(row, image.data());
  keyOf(image.data(), index, keyOut);
}

void Table::throwUnique(const Index& index, const uint8_t* key, bool creating) const {
  std::string names;
  for (uint32_t col : index.columns()) {
    if (!names.empty()) names += ", ";
    names += columns_[col].name;
  }
  std::string values = formatTuple(index.keyLayout(), key);
  SqlError error =
      creating ? SqlError(sqlstate::kUniqueViolation, fmt::format("could not create unique index \"{}\"", index.name()),
                          fmt::format("Key ({})=({}) is duplicated.", names, values))
               : SqlError(sqlstate::kUniqueViolation,
                          fmt::format("duplicate key value violates unique constraint \"{}\"", index.name()),
                          fmt::format("Key ({})=({}) already exists.", names, values));
  error.schemaName = schemaName_;
  error.tableName = name_;
  error.constraintName = index.name();
  throw error;
}

Table::ByteMask Table::wordsOf(const std::vector<uint8_t>& bytes) {
  ByteMask mask;
  for (uint32_t w = 0; w < bytes.size(); w += 8) {
    uint64_t bits;
    std::memcpy(&bits, bytes.data() + w, 8);
    if (bits) mask.push_back({w, bits});
  }
  return mask;
}

Table::ByteMask Table::columnsMask(const std::vector<uint32_t>& columns) const {
  std::vector<uint8_t> bytes(layout_.size, 0);  // a multiple of 16: whole words
  for (uint32_t c : columns) {
    bytes[c] = 0xff;
    std::memset(bytes.data() + layout_.offsets[c], 0xff, physicalSize(columns_[c].type.id));
  }
  return wordsOf(bytes);
}

void Table::indexesChanged() {
  std::vector<uint32_t> keyColumns;
  for (const auto& index : indexes_)
    keyColumns.insert(keyColumns.end(), index->columns().begin(), index->columns().end());
  keyColumnsMask_ = columnsMask(keyColumns);
}

bool Table::differUnder(const uint8_t* a, const uint8_t* b, const ByteMask& mask) {
  uint64_t diff = 0;
  for (const MaskWord& m : mask) {
    uint64_t x, y;
    std::memcpy(&x, a + m.offset, 8);
    std::memcpy(&y, b + m.offset, 8);
    diff |= (x ^ y) & m.bits;
  }
  return diff != 0;
}

bool Table::sameKey(const Index& index, const uint8_t* a, const uint8_t* b) const {
  for (const Index::KeyField& f : index.keyFields()) {
    if (a[f.column] != b[f.column]) return false;
    if (!a[f.column] && std::memcmp(a + f.rowOffset, b + f.rowOffset, f.size) != 0) return false;
  }
  return true;
}

void Table::addToIndexes(RowId row, const uint8_t* tuple) {
  uint8_t* key = keyScratch_.data();
  for (const auto& index : indexes_) {
    keyOf(tuple, *index, key);
    index->insert(key, row);
  }
}

void Table::addToIndexesUnique(RowId row, const uint8_t* tuple) {
  uint8_t* key = keyScratch_.data();
  size_t done = 0;
  try {
    for (; done < indexes_.size(); ++done) {
      Index& index = *indexes_[done];
      keyOf(tuple, index, key);
      if (!index.insertUnique(key, row)) throwUnique(index, key, false);
    }
  } catch (...) {
    while (done-- > 0) {
      keyOf(tuple, *indexes_[done], key);
      indexes_[done]->remove(key, row);
    }
    throw;
  }
}

void Table::removeFromIndexes(RowId row, const uint8_t* tuple) {
  uint8_t* key = keyScratch_.data();
  for (const auto& index : indexes_) {
    keyOf(tuple, *index, key);
    index->remove(key, row);
  }
}

bool Table::moveKey(Index& index, RowId row, const uint8_t* from, const uint8_t* to, bool checkUnique) {
  uint8_t* a = keyScratch_.data();
  uint8_t* b = a + index.keyLayout().size;
  keyOf(from, index, a);
  keyOf(to, index, b);
  index.remove(a, row);
  if (!checkUnique) {
    index.insert(b, row);
    return true;
  }
  if (index.insertUnique(b, row)) return true;
  index.insert(a, row);
  return false;
}

void Table::rekey(RowId row, const uint8_t* from, const uint8_t* to, bool checkUnique) {
  if (!differUnder(from, to, keyColumnsMask_)) return;  // no key column touched (most updates)
  size_t done = 0;
  try {
    for (; done < indexes_.size(); ++done) {
      Index& index = *indexes_[done];
      // Byte comparison, not SQL equality: an equal key held in a new string must still be
      // re-entered, because the index's key copy points at the string it was given.
      if (sameKey(index, from, to) || moveKey(index, row, from, to, checkUnique)) continue;
      keyOf(to, index, keyScratch_.data());
      throwUnique(index, keyScratch_.data(), false);
    }
  } catch (...) {
    // Back to `from` in the indexes re-keyed so far.
    while (done-- > 0)
      if (!sameKey(*indexes_[done], from, to)) moveKey(*indexes_[done], row, to, from, false);
    throw;
  }
}

void Table::rebuildIndexes() {
  for (const auto& index : indexes_) index->clear();
  std::vector<uint8_t> image(layout_.size);
  for (size_t ci = 0; ci < chunks_.size(); ++ci) {
    const Chunk* c = chunks_[ci];
    for (uint32_t s = 0; s < c->used; ++s) {
      if (!c->live[s]) continue;
      readFrom(c, s, image.data());
      addToIndexes((static_cast<RowId>(ci) << kChunkShift) | s, image.data());
    }
  }
}

Index* Table::createIndex(std::string name, std::vector<uint32_t> columns, IndexKind kind, bool unique, UndoLog& undo) {
  std::vector<SqlType> types;
  for (uint32_t col : columns) types.push_back(columns_.at(col).type);
  TupleLayout keyLayout = TupleLayout::of(types);
  std::shared_ptr<Index> index;
  if (kind == IndexKind::Hash)
    index = std::make_shared<HashIndex>(std::move(name), std::move(columns), keyLayout);
  else
    index = std::make_shared<OrderedIndex>(std::move(name), std::move(columns), keyLayout, unique);
  index->setRowLayout(layout_);

  std::vector<uint8_t> image(layout_.size), key(keyLayout.size);
  for (size_t ci = 0; ci < chunks_.size(); ++ci) {
    const Chunk* c = chunks_[ci];
    for (uint32_t s = 0; s < c->used; ++s) {
      if (!c->live[s]) continue;
      readFrom(c, s, image.data());
      keyOf(image.data(), *index, key.data());
      if (index->unique() && !tupleHasNull(keyLayout, key.data()) && index->find(key.data()) != kNoRow)
        throwUnique(*index, key.data(), true);
      index->insert(key.data(), (static_cast<RowId>(ci) << kChunkShift) | s);
    }
  }
  if (keyScratch_.size() < 2 * keyLayout.size) keyScratch_.resize(2 * keyLayout.size);
  indexes_.push_back(index);
  indexesChanged();
  Index* raw = index.get();
  undo.recordAction([this, raw] {
    indexes_.erase(std::find_if(indexes_.begin(), indexes_.end(), [raw](const auto& p) { return p.get() == raw; }));
    indexesChanged();
  });
  return raw;
}

void Table::dropIndex(Index* index, UndoLog& undo) {
  auto it = std::find_if(indexes_.begin(), indexes_.end(), [index](const auto& p) { return p.get() == index; });
  if (it == indexes_.end()) return;
  size_t position = static_cast<size_t>(it - indexes_.begin());
  std::shared_ptr<Index> kept = *it;
  indexes_.erase(it);
  indexesChanged();
  // Rollback undoes later row changes first, so the detached index matches the rows again
  // by the time it is put back.
  undo.recordAction([this, kept, position] {
    indexes_.insert(indexes_.begin() + position, kept);
    indexesChanged();
  });
}

// ---- rows ---------------------------------------------------------------------------------

bool Table::isLive(RowId row) const {
  size_t ci = row >> kChunkShift;
  if (ci >= chunks_.size()) return false;
  const Chunk* c = chunks_[ci];
  uint32_t s = slotOf(row);
  return s < c->used && c->live[s];
}

void Table::read(RowId row, uint8_t* tupleOut) const { readFrom(chunkOf(row), slotOf(row), tupleOut); }

// Inserts and updates check uniqueness while they enter the new keys (one index lookup
// for both) and take back what they did when a check fails, so that a failing statement
// still leaves nothing half done.
RowId Table::insert(const uint8_t* tuple, UndoLog& undo) {
  checkNotNull(tuple);
  uint8_t* image = rowScratch_.data();
  std::memcpy(image, tuple, layout_.size);
  RowId row = allocateSlot();
  Chunk* chunk = chunkOf(row);
  uint32_t slot = slotOf(row);
  size_t copied = 0;  // string columns placed so far
  try {
    for (; copied < stringColumns_.size(); ++copied) {
      uint32_t c = stringColumns_[copied];
      if (!image[c])
        storeString(image + layout_.offsets[c],
                    placeString(c, inlineRoom(chunk, slot, c), loadString(tuple + layout_.offsets[c])));
    }
    addToIndexesUnique(row, image);
  } catch (...) {
    // Columns not placed yet still point at the caller's strings: flagged NULL in the
    // scratch image so that only this insert's own copies are freed.
    for (size_t i = copied; i < stringColumns_.size(); ++i) image[stringColumns_[i]] = 1;
    freeStringsNotIn(image, nullptr, chunk, slot);
    freeSlots_.push_back(row);  // never live: reusable at once
    throw;
  }
  writeTo(chunk, slot, image);
  chunk->live[slot] = 1;
  ++chunk->liveCount;
  ++liveRows_;
  noteModified(1);
  undo.recordInsert(this, row);
  for (const ForeignKey* fk : references_) deferForeignKeyRow(*fk, row, undo);
  return row;
}

void Table::update(RowId row, const uint8_t* newTuple, UndoLog& undo) {
  checkNotNull(newTuple);
  noteModified(1);
  // A failed check leaves the space unused until the transaction ends: no free needed.
  uint8_t* images = undo.imageSpace(updateImageBytes());
  uint8_t* before = images;
  uint8_t* after = images + layout_.size;
  Chunk* chunk = chunkOf(row);
  uint32_t slot = slotOf(row);
  readFrom(chunk, slot, before);
  std::memcpy(after, newTuple, layout_.size);
  bool replacesString = false;  // whether commit has an old string to free
  // Most updates hand every string back unchanged (read, then update): one masked compare.
  if (differUnder(before, after, stringColumnsMask_)) {
    for (uint32_t c : stringColumns_) {
      uint32_t off = layout_.offsets[c];
      if (after[c]) {
        replacesString |= !before[c];
        continue;
      }
      const VarString* s = loadString(after + off);
      // A string handed back unchanged (read() then update()) is the table's own: keep it.
      // A changed one goes to the heap, never into the inline room (see table.h).
      if (!before[c] && loadString(before + off) == s) continue;
      replacesString |= !before[c];
      storeString(after + off, copyString(s));
    }
  }
  // For commit: whether there is an old string to free, and the row's chunk and slot, by
  // which it tells the row's inline strings (a TRUNCATE later in the transaction takes the
  // chunk out of chunks_, but frees it only when it commits, after this).
  UpdateTrailer trailer{chunk, slot, replacesString};
  std::memcpy(images + 2 * static_cast<size_t>(layout_.size), &trailer, sizeof trailer);
  try {
    rekey(row, before, after, true);
  } catch (...) {
    freeStringsNotIn(after, before, chunk, slot);
    throw;
  }
  writeTo(chunk, slot, after);
  undo.recordUpdate(this, row, images);
  if (!references_.empty() || !referencedBy_.empty()) foreignKeysAfterUpdate(row, before, after, undo);
}

// A changed referencing key is looked up; a changed referenced key takes its constraints'
// actions. The images are copied first: cascades write more images into the undo log.
void Table::foreignKeysAfterUpdate(RowId row, const uint8_t* before, const uint8_t* after, UndoLog& undo) {
  std::vector<uint8_t> oldRow(before, before + layout_.size), newRow(after, after + layout_.size);
  for (const ForeignKey* fk : references_)
    if (columnsDiffer(fk->columns, oldRow.data(), newRow.data())) deferForeignKeyRow(*fk, row, undo);
  for (const ForeignKey* fk : referencedBy_)
    if (columnsDiffer(fk->refColumns, oldRow.data(), newRow.data()))
      referencedRowChanged(*fk, oldRow.data(), newRow.data(), undo);
}

bool Table::columnsDiffer(const std::vector<uint32_t>& columns, const uint8_t* a, const uint8_t* b) const {
  for (uint32_t c : columns) {
    if (a[c] != b[c]) return true;
    if (!a[c] && compareValues(layout_.types[c], a + layout_.offsets[c], b + layout_.offsets[c]) != 0) return true;
  }
  return false;
}

void Table::attachForeignKey(ForeignKey& fk) {
  fk.child->references_.push_back(&fk);
  fk.parent->referencedBy_.push_back(&fk);
}

void Table::detachForeignKey(ForeignKey& fk) {
  auto forget = [&](std::vector<ForeignKey*>& list) { std::erase(list, &fk); };
  forget(fk.child->references_);
  forget(fk.parent->referencedBy_);
}

// ---- statistics ----------------------------------------------------------------------------

void Table::setStatistics(TableStatistics statistics, bool resetModifications) {
  (statistics.automatic ? autoAnalysisCount_ : analysisCount_) += 1;
  (statistics.automatic ? lastAutoAnalysisAt_ : lastAnalysisAt_) = statistics.analyzedAt;
  if (resetModifications) {
    modifiedSinceAnalysis_ = 0;
    analysisThreshold_ = kAnalysisBaseThreshold + static_cast<uint64_t>(kAnalysisScaleFactor * statistics.rows);
  }
  statistics_ = std::make_unique<const TableStatistics>(std::move(statistics));
  if (analysisQueue_) {
    ++analysisQueue_->version;
    if (analysisDue_ && modifiedSinceAnalysis_ <= analysisThreshold_) {
      std::erase(analysisQueue_->due, this);
      analysisDue_ = false;
    }
  }
}

void Table::setAnalysisQueue(AnalysisQueue* queue) {
  if (analysisDue_) std::erase(analysisQueue_->due, this);
  analysisDue_ = false;
  analysisQueue_ = queue;
  noteModified(0);  // due already, when rows came before the queue
}

void Table::becomeDue() {
  analysisQueue_->due.push_back(this);
  analysisDue_ = true;
}

uint8_t* Table::hideRow(RowId row) {
  Chunk* chunk = chunkOf(row);
  uint32_t slot = slotOf(row);
  uint8_t* image = rowScratch_.data();
  readFrom(chunk, slot, image);
  removeFromIndexes(row, image);
  chunk->live[slot] = 0;
  --chunk->liveCount;
  --liveRows_;
  return image;
}

void Table::erase(RowId row, UndoLog& undo) {
  uint8_t* image = hideRow(row);
  noteModified(1);
  // The bytes stay in the slot until commit: rollback only has to flip live back.
  undo.recordErase(this, row, chunkOf(row));
  if (referencedBy_.empty()) return;
  std::vector<uint8_t> oldRow(image, image + layout_.size);  // cascades reuse rowScratch_
  for (const ForeignKey* fk : referencedBy_) referencedRowChanged(*fk, oldRow.data(), nullptr, undo);
}

void Table::truncate(UndoLog& undo) {
  auto saved = std::make_shared<ChunkSet>();
  saved->chunks.swap(chunks_);
  saved->freeSlots.swap(freeSlots_);
  saved->liveRows = liveRows_;
  noteModified(liveRows_);
  saved->extents = std::exchange(extents_, std::make_unique<ChunkExtents>());
  liveRows_ = 0;
  syncDirectory();
  for (const auto& index : indexes_) index->clear();
  undo.recordAction(
      [this, saved] {
        // Rows added since the TRUNCATE have been undone already: these chunks are empty.
        for (Chunk* c : chunks_) freeChunk(c, false);
        chunks_.swap(saved->chunks);
        extents_ = std::move(saved->extents);
        freeSlots_.swap(saved->freeSlots);
        liveRows_ = saved->liveRows;
        saved->chunks.clear();
        syncDirectory();
        rebuildIndexes();
      },
      [this, saved] {
        for (Chunk* c : saved->chunks) freeChunk(c, true);
        saved->chunks.clear();
        saved->extents.reset();
      });
}

// ---- undo hooks ---------------------------------------------------------------------------

void Table::undoInsert(RowId row) {
  uint8_t* image = hideRow(row);
  freeStringsNotIn(image, nullptr, chunkOf(row), slotOf(row));
  freeSlots_.push_back(row);  // never committed, so reusable at once
}

void Table::undoUpdate(RowId row, const uint8_t* images) {
  const uint8_t* before = images;
  const uint8_t* after = images + layout_.size;
  rekey(row, after, before, false);
  writeTo(chunkOf(row), slotOf(row), before);
  freeStringsNotIn(after, before, chunkOf(row), slotOf(row));
}

void Table::commitUpdate(const uint8_t* images) {
  UpdateTrailer trailer;
  std::memcpy(&trailer, images + 2 * static_cast<size_t>(layout_.size), sizeof trailer);
  if (trailer.replacesString) freeStringsNotIn(images, images + layout_.size, trailer.chunk, trailer.slot);
}

size_t Table::updateImageBytes() const { return 2 * static_cast<size_t>(layout_.size) + sizeof(UpdateTrailer); }

void Table::undoErase(RowId row) {
  Chunk* chunk = chunkOf(row);
  uint32_t slot = slotOf(row);
  chunk->live[slot] = 1;
  ++chunk->liveCount;
  ++liveRows_;
  uint8_t* image = rowScratch_.data();
  readFrom(chunk, slot, image);
  addToIndexes(row, image);
}

void Table::commitErase(RowId row, const Chunk* chunk) {
  uint8_t* image = rowScratch_.data();
  readFrom(chunk, slotOf(row), image);
  freeStringsNotIn(image, nullptr, chunk, slotOf(row));
  // After a TRUNCATE in the same transaction the slot belongs to a set-aside chunk that
  // the TRUNCATE's own commit frees; only a slot of a current chunk is reusable.
  size_t ci = row >> kChunkShift;
  if (ci < chunks_.size() && chunks_[ci] == chunk) freeSlots_.push_back(row);
}

}  // namespace duet
