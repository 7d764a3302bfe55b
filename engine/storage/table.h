// A table's rows and indexes. All calls come from the one executor thread; nothing here
// locks. Rows live in Chunks (layout.h), each one zeroed block allocated lazily - the first
// with calloc, later ones from the table's huge-page extents (huge_memory.h): private
// anonymous memory, so fork() snapshots see them copy-on-write - and never move
// while the table lives. A slot freed by a committed delete is reused by later inserts,
// and the strings of deleted or replaced rows are freed at commit, so steady update/delete
// workloads run in bounded memory.
//
// Inline strings: each char(n) / varchar(n) column with a small n has room for one string
// per row: in the row store right after the row's tuple, in the same slot (rowStride()
// bytes per slot); in the column store in an array of its own per chunk, beside the
// column's values. An inserted string that fits is copied there and the tuple's pointer
// points at it, so reading the row brings its short strings into cache with it (TPC-C's
// stock s_dist_xx, item i_data), and a scan of a column reads its strings in order
// (TPC-H's l_returnflag: 8 rows per cache line), instead of chasing one malloc'd block
// per string. Everything that reads strings still follows the pointer and sees no
// difference. The room is written
// only while the slot is not live (at insert), never in place: an update that changes such
// a string puts the new one on the heap, so undo images, index keys and readers holding the
// old pointer stay valid exactly as they do for heap strings.
#pragma once
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "engine/storage/analysis_queue.h"
#include "engine/storage/foreign_key.h"
#include "engine/storage/huge_memory.h"
#include "engine/storage/index.h"
#include "engine/storage/layout.h"
#include "engine/storage/table_statistics.h"
#include "engine/storage/undo_log.h"
#include "engine/types/value.h"

namespace duet {

struct ColumnSpec {
  std::string name;
  SqlType type;
  bool notNull = false;
};

// PostgreSQL's autovacuum_analyze_threshold and autovacuum_analyze_scale_factor.
inline constexpr uint64_t kAnalysisBaseThreshold = 50;
inline constexpr double kAnalysisScaleFactor = 0.1;

class Table {
 public:
  Table(std::string name, std::vector<ColumnSpec> columns, StorageKind kind);
  Table(const Table&) = delete;
  Table& operator=(const Table&) = delete;
  ~Table();

  const std::string& name() const { return name_; }
  // ALTER TABLE RENAME: constraint errors name the table and its columns as they are now.
  void setName(std::string name) { name_ = std::move(name); }
  void renameColumn(uint32_t column, std::string name) { columns_.at(column).name = std::move(name); }
  // The schema the catalog put it in: constraint errors name it (SqlError::schemaName).
  const std::string& schemaName() const { return schemaName_; }
  void setSchemaName(std::string schema) { schemaName_ = std::move(schema); }
  const std::vector<ColumnSpec>& columns() const { return columns_; }
  const TupleLayout& layout() const { return layout_; }
  StorageKind kind() const { return kind_; }
  // Row store: bytes from one row to the next in a chunk (the tuple, then its inline
  // string room); generated code addresses rows with it.
  uint32_t rowStride() const { return rowStride_; }
  // The chunk array scans walk. The array may be reallocated as the table grows (re-read
  // it per chunk); the chunks themselves stay put.
  const ChunkDirectory& directory() const { return directory_; }
  uint64_t liveRowCount() const { return liveRows_; }

  // Rows. Tuples are in layout() format; strings are copied into table-owned memory.
  // insert/update raise 23502 (NOT NULL) and 23505 (unique index) before changing anything.
  RowId insert(const uint8_t* tuple, UndoLog& undo);
  void update(RowId row, const uint8_t* newTuple, UndoLog& undo);
  void erase(RowId row, UndoLog& undo);
  // INSERT ... ON CONFLICT: the row whose key in the unique index `arbiter` equals the key
  // of `tuple` (a row about to be inserted), or kNoRow. Raises 23502 first, as insert()
  // would, for a tuple that breaks NOT NULL: PostgreSQL checks a row before it looks for a
  // conflict, so a row that breaks NOT NULL fails even where it would have been skipped.
  RowId findConflict(const uint8_t* tuple, const Index& arbiter);
  // 23502 for a tuple with NULL in a NOT NULL column. Every row written passes here (and a
  // row a CHECK refused, which PostgreSQL checks for NOT NULL first): the NULL flags, eight
  // at a time, against the words of the NOT NULL mask that are not zero; the column to
  // name is searched only on failure.
  void checkNotNull(const uint8_t* tuple) const {
    uint64_t anyNull = 0;
    for (const MaskWord& m : notNullFlags_) {
      uint64_t flags;
      std::memcpy(&flags, tuple + m.offset, 8);  // the fields follow the flags
      anyNull |= flags & m.bits;
    }
    if (anyNull) throwNotNull(tuple);
  }
  // Copies the row into tupleOut; strings point into table memory, valid until the row is
  // updated or deleted and that change commits.
  void read(RowId row, uint8_t* tupleOut) const;
  bool isLive(RowId row) const;
  // Asks the cache for a live row's first bytes (up to four lines of a row-store slot;
  // nothing for the column store, whose values lie in separate arrays).
  void prefetchRow(RowId row) const {
    const uint8_t* at = rowAt(chunkOf(row), slotOf(row));
    if (!at) return;
    uint32_t bytes = rowStride_ < 256 ? rowStride_ : 256;
    for (uint32_t offset = 0; offset < bytes; offset += 64) __builtin_prefetch(at + offset);
  }
  // Removes every row; ROLLBACK brings them (and the index entries) back.
  void truncate(UndoLog& undo);

  // ALTER TABLE ADD PRIMARY KEY and SET NOT NULL make columns NOT NULL (the caller checked
  // the rows).
  void setNotNull(const std::vector<uint32_t>& columns, bool notNull);

  // Indexes, kept in step with the rows. createIndex fills the new index from existing rows
  // (23505 "could not create unique index" on duplicates); both are undone by rollback.
  Index* createIndex(std::string name, std::vector<uint32_t> columns, IndexKind kind, bool unique, UndoLog& undo);
  void dropIndex(Index* index, UndoLog& undo);
  const std::vector<std::shared_ptr<Index>>& indexes() const { return indexes_; }
  // The key of a row in index.keyLayout() format (buffer of keyLayout().size bytes).
  void readKey(RowId row, const Index& index, uint8_t* keyOut) const;

  // FOREIGN KEY constraints (foreign_key.h; the catalog owns them): attach registers one
  // with both its tables, whose row changes check it from then on; detach forgets it.
  static void attachForeignKey(ForeignKey& fk);
  static void detachForeignKey(ForeignKey& fk);
  const std::vector<ForeignKey*>& references() const { return references_; }
  const std::vector<ForeignKey*>& referencedBy() const { return referencedBy_; }

  // Statistics (table_statistics.h, docs/statistics.md): what the last ANALYZE found, or
  // null when the table was never analysed (then plan from liveRowCount()). Valid until
  // the next analysis replaces it; the planner reads it while planning and keeps nothing.
  const TableStatistics* statistics() const { return statistics_.get(); }
  // Installs new statistics. resetModifications: the whole table was analysed (not a
  // column list), so the count of changes since starts again and the threshold moves.
  void setStatistics(TableStatistics statistics, bool resetModifications);
  // Rows inserted, updated and deleted since the last whole-table analysis (counted as
  // they happen, rolled-back changes included; TRUNCATE counts the rows it removes).
  uint64_t modifiedSinceAnalysis() const { return modifiedSinceAnalysis_; }
  uint64_t analysisCount() const { return analysisCount_; }          // by ANALYZE
  uint64_t autoAnalysisCount() const { return autoAnalysisCount_; }  // automatic
  // When the last ANALYZE / automatic analysis ran (TableStatistics::analyzedAt), or 0.
  int64_t lastAnalysisAt() const { return lastAnalysisAt_; }
  int64_t lastAutoAnalysisAt() const { return lastAutoAnalysisAt_; }
  // Where the table puts itself when it becomes due for automatic analysis; null (system
  // tables) never.
  void setAnalysisQueue(AnalysisQueue* queue);

  // Accounting, for tests and monitoring.
  size_t stringBytes() const { return stringBytes_; }
  size_t freeSlotCount() const { return freeSlots_.size(); }
  size_t chunkCount() const { return chunks_.size(); }
  // The bytes of its chunks and their strings (pg_relation_size; indexes not included).
  size_t memoryBytes() const;

  // Undo-log hooks (UndoLog calls these; nothing else should).
  void undoInsert(RowId row);
  void undoUpdate(RowId row, const uint8_t* images);
  void commitUpdate(const uint8_t* images);
  void undoErase(RowId row);
  void commitErase(RowId row, const Chunk* chunk);

 private:
  struct ChunkSet;  // the chunks and free slots a TRUNCATE sets aside

  Chunk* newChunk();
  size_t layOutChunk(Chunk* chunk, uint8_t* block) const;
  void freeChunk(Chunk* chunk, bool freeLiveStrings);
  Chunk* chunkOf(RowId row) const { return chunks_[row >> kChunkShift]; }
  static uint32_t slotOf(RowId row) { return static_cast<uint32_t>(row & (kChunkRows - 1)); }
  // What update() leaves after the two images for commitUpdate().
  struct UpdateTrailer {
    const Chunk* chunk;  // the row's chunk and slot, whose inline strings are not freed
    uint32_t slot;
    bool replacesString;  // whether the old image holds a string to free at commit
  };
  // The bytes update() asks imageSpace() for: the two images and the trailer.
  size_t updateImageBytes() const;
  uint8_t* rowAt(const Chunk* chunk, uint32_t slot) const {
    return chunk->rows ? chunk->rows + static_cast<size_t>(slot) * rowStride_ : nullptr;
  }
  void readFrom(const Chunk* chunk, uint32_t slot, uint8_t* out) const;
  void writeTo(Chunk* chunk, uint32_t slot, const uint8_t* tuple);
  RowId allocateSlot();
  // Takes a live row out of scans and indexes; returns its image (in rowScratch_).
  uint8_t* hideRow(RowId row);
  void syncDirectory();
  // The write path's part of automatic analysis: one addition and one comparison.
  void noteModified(uint64_t rows) {
    modifiedSinceAnalysis_ += rows;
    if (modifiedSinceAnalysis_ > analysisThreshold_ && analysisQueue_ && !analysisDue_) becomeDue();
  }
  void becomeDue();

  [[noreturn]] void throwNotNull(const uint8_t* tuple) const;
  void notNullChanged();  // recomputes notNullColumns_ and notNullFlags_
  [[noreturn]] void throwUnique(const Index& index, const uint8_t* key, bool creating) const;
  void keyOf(const uint8_t* tuple, const Index& index, uint8_t* keyOut) const;
  // Whether two row images hold the same bytes in the index's key columns.
  bool sameKey(const Index& index, const uint8_t* a, const uint8_t* b) const;
  // Byte masks over a tuple (0xff on the NULL flags and value bytes of some columns): for
  // the string columns, and for every column that is part of some index's key. An update
  // whose images agree under a mask skips the per-column work for those columns. Only the
  // 8-byte words the mask touches are kept: a wide row's few key words are all compared.
  struct MaskWord {
    uint32_t offset;  // of the word in the tuple
    uint64_t bits;
  };
  using ByteMask = std::vector<MaskWord>;
  ByteMask columnsMask(const std::vector<uint32_t>& columns) const;
  // The non-zero 8-byte words of a byte mask (its size a multiple of 8).
  static ByteMask wordsOf(const std::vector<uint8_t>& bytes);
  void indexesChanged();  // recomputes keyColumnsMask_
  // Whether two tuples differ in some byte under the mask.
  static bool differUnder(const uint8_t* a, const uint8_t* b, const ByteMask& mask);
  void addToIndexes(RowId row, const uint8_t* tuple);
  // The same, raising 23505 (with no index changed) when a unique index holds the key.
  void addToIndexesUnique(RowId row, const uint8_t* tuple);
  void removeFromIndexes(RowId row, const uint8_t* tuple);
  // Re-keys the indexes whose key bytes differ between two images of one row; with
  // checkUnique, raises 23505 (with every index back as it was) on a duplicate key.
  void rekey(RowId row, const uint8_t* from, const uint8_t* to, bool checkUnique);
  // Moves the row's entry in one index from from's key to to's; with checkUnique, when a
  // unique index holds to's key, puts it back and returns false.
  bool moveKey(Index& index, RowId row, const uint8_t* from, const uint8_t* to, bool checkUnique);
  void rebuildIndexes();
  void foreignKeysAfterUpdate(RowId row, const uint8_t* before, const uint8_t* after, UndoLog& undo);
  bool columnsDiffer(const std::vector<uint32_t>& columns, const uint8_t* a, const uint8_t* b) const;

  // Column c's inline string room of a slot; null when the column has none.
  uint8_t* inlineRoom(const Chunk* chunk, uint32_t slot, uint32_t c) const {
    if (kind_ == StorageKind::Row) return inlineOffset_[c] ? rowAt(chunk, slot) + inlineOffset_[c] : nullptr;
    // The room follows the column's values (layOutChunk).
    return roomStride_[c] ? chunk->columnValues[c] + size_t{kChunkRows} * physicalSize(columns_[c].type.id) +
                                static_cast<size_t>(slot) * roomStride_[c]
                          : nullptr;
  }
  const VarString* copyString(const VarString* s);
  // The string for column c of a row whose inline room for it is `room` (may be null): in
  // the room when it fits, else a heap copy.
  const VarString* placeString(uint32_t c, uint8_t* room, const VarString* s);
  void freeString(const VarString* s);
  // Frees the heap strings of `image` that `keep` does not share (keep may be null); the
  // image is the row of `slot` in `chunk`, whose inline strings are not freed.
  void freeStringsNotIn(const uint8_t* image, const uint8_t* keep, const Chunk* chunk, uint32_t slot);

  std::string name_;
  std::string schemaName_;
  std::vector<ColumnSpec> columns_;
  TupleLayout layout_;
  StorageKind kind_;
  std::vector<uint32_t> stringColumns_;
  std::vector<uint32_t> notNullColumns_;  // kept in step with columns_[c].notNull
  ByteMask notNullFlags_;                 // 0xff on the NULL flag of each NOT NULL column
  ByteMask stringColumnsMask_;
  ByteMask keyColumnsMask_;
  // Per column: how many string bytes its inline room holds (0: none); in the row store
  // where the room starts in the slot, in the column store the room's bytes per row (its
  // array follows the column's values in each chunk).
  std::vector<uint32_t> inlineCapacity_;
  std::vector<uint32_t> inlineOffset_;
  std::vector<uint32_t> roomStride_;
  uint32_t rowStride_ = 0;
  std::vector<Chunk*> chunks_;
  // Where chunks past the first get their arrays (huge pages: cheap forks, huge_memory.h).
  std::unique_ptr<ChunkExtents> extents_ = std::make_unique<ChunkExtents>();
  ChunkDirectory directory_{nullptr, 0};
  std::vector<RowId> freeSlots_;
  uint64_t liveRows_ = 0;
  size_t stringBytes_ = 0;
  std::vector<std::shared_ptr<Index>> indexes_;
  std::unique_ptr<const TableStatistics> statistics_;
  uint64_t modifiedSinceAnalysis_ = 0;
  // autovacuum_analyze_threshold + autovacuum_analyze_scale_factor * rows at the last
  // analysis: 50 + 10%.
  uint64_t analysisThreshold_ = kAnalysisBaseThreshold;
  uint64_t analysisCount_ = 0;
  uint64_t autoAnalysisCount_ = 0;
  int64_t lastAnalysisAt_ = 0;
  int64_t lastAutoAnalysisAt_ = 0;
  AnalysisQueue* analysisQueue_ = nullptr;
  bool analysisDue_ = false;               // in analysisQueue_->due
  std::vector<ForeignKey*> references_;    // constraints whose referencing table this is
  std::vector<ForeignKey*> referencedBy_;  // constraints whose referenced table this is
  // Work buffers for the hot paths (one executor thread, calls never nest): a row image,
  // and two keys of the widest index.
  std::vector<uint8_t> rowScratch_;
  mutable std::vector<uint8_t> keyScratch_;
};

}  // namespace duet
