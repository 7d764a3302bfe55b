// The memory layout of table data, as JIT-generated code reads it directly. Storage
// (engine/storage) owns and fills these structures; the code generator (compiler/codegen)
// emits loads against exactly these offsets. Change both together.
//
// Tuple layout (TupleLayout): the canonical row format of a table. A tuple is
//   [null flags: one byte per column, 1 = NULL][padding][field 0][field 1]...
// with each field at its natural alignment (physicalAlign) and the whole tuple padded to
// 16 bytes. Row-store chunks hold tuples back to back; tuple buffers passed to storage
// calls (insert, update, index keys) use the same layout.
//
// Column-store chunks hold, per column, a value array (physicalSize(type) bytes per row)
// and a null-flag array (one byte per row).
#pragma once
#include <cstdint>
#include <type_traits>
#include <vector>

#include "engine/types/type_id.h"

namespace duet {

inline constexpr uint32_t kChunkShift = 14;
inline constexpr uint32_t kChunkRows = 1u << kChunkShift;  // rows per chunk

// A row's identity: chunk index << kChunkShift | slot. Stable while the row lives.
using RowId = uint64_t;
inline constexpr RowId kNoRow = ~RowId{0};

struct TupleLayout {
  std::vector<SqlType> types;
  std::vector<uint32_t> offsets;  // byte offset of each field in the tuple
  uint32_t size = 0;              // bytes per tuple, multiple of 16
  static TupleLayout of(const std::vector<SqlType>& types);
  uint32_t nullOffset(uint32_t column) const { return column; }
};

enum class StorageKind : uint8_t { Row, Column };

// One chunk of kChunkRows slots. Field order matters: generated code uses offsetof.
struct Chunk {
  uint32_t used;           // slots [0, used) have been handed out (live or dead)
  uint32_t liveCount;      // live slots in this chunk
  uint8_t* live;           // live[i] != 0: slot i holds a row visible to scans
  uint8_t* rows;           // row store: tuple i at rows + i * Table::rowStride()
  uint8_t** columnValues;  // column store: columnValues[c] + i * physicalSize
  uint8_t** columnNulls;   // column store: columnNulls[c][i] != 0 when NULL
  bool inExtent;           // its block (all its arrays) is in the table's ChunkExtents, not calloc'd
};

// What a scan needs: the chunk array of a table. Chunks are never moved or freed while
// the table lives (only appended), so a scan may cache chunk pointers.
struct ChunkDirectory {
  Chunk** chunks;
  uint32_t count;
};
static_assert(std::is_standard_layout_v<Chunk> && std::is_standard_layout_v<ChunkDirectory>,
              "generated code reads Chunk and ChunkDirectory fields by offsetof");

}  // namespace duet
