// The redo log's on-disk format (docs/logging.md, "Redo log format") and the file
// operations the writer, the reader and archive files share. Internal to logging/, but
// for LsnFile, which archive_file.h lists archives as.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace duet::logging {

// Segment header: magic, u64 LSN of the segment's first record.
inline constexpr std::string_view kSegmentMagic = "DUETLOG1";
inline constexpr size_t kSegmentHeaderBytes = 16;
// Record frame before the payload: u32 payload length, u32 CRC32C(LSN bytes + payload), u64 LSN.
inline constexpr size_t kRecordHeaderBytes = 16;

inline void putU32(char* out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out[i] = static_cast<char>(v >> (8 * i));
}
inline void putU64(char* out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out[i] = static_cast<char>(v >> (8 * i));
}
inline uint32_t getU32(const char* in) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= uint32_t{static_cast<unsigned char>(in[i])} << (8 * i);
  return v;
}
inline uint64_t getU64(const char* in) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= uint64_t{static_cast<unsigned char>(in[i])} << (8 * i);
  return v;
}

// CRC32C of a record's 8 stored LSN bytes followed by its payload.
uint32_t recordChecksum(const char* lsnBytes, std::string_view payload);
// Appends the segment header for a segment starting at firstLsn.
void appendSegmentHeader(std::string& out, uint64_t firstLsn);
// Writes the kRecordHeaderBytes that frame payload as record lsn.
void encodeRecordHeader(char* out, uint64_t lsn, std::string_view payload);

// Files named after an LSN: 20 zero-padded digits and a suffix, so that name order is LSN
// order. Log segments are "<LSN of their first record>.log", archives "<LSN>.archive"
// (archive_file.h).
struct LsnFile {
  uint64_t lsn;  // from the file name
  std::string path;
};
std::string lsnFileName(uint64_t lsn, std::string_view suffix);
// The LSN a file name gives, if it is such a name with that suffix.
std::optional<uint64_t> lsnOfFileName(std::string_view name, std::string_view suffix);
// The files of dir with that suffix, oldest first (other files are ignored); empty if dir
// is missing. Throws std::system_error when dir cannot be listed.
std::vector<LsnFile> listLsnFiles(const std::string& dir, std::string_view suffix);

inline constexpr std::string_view kSegmentSuffix = ".log";
// A segment file being created: it gets its final name only once its header is durable,
// so that a crash never leaves a segment without one (docs/logging.md, "Writing").
inline constexpr std::string_view kSegmentTmpSuffix = ".log.tmp";
using SegmentFile = LsnFile;  // lsn: the segment's first record
inline std::string segmentFileName(uint64_t firstLsn) { return lsnFileName(firstLsn, kSegmentSuffix); }
inline std::vector<SegmentFile> listSegments(const std::string& dir) { return listLsnFiles(dir, kSegmentSuffix); }

// A segment file kept for reuse (docs/logging.md, "Writing"): "<LSN>.spare", named after the
// first LSN it held. Not a segment: recovery leaves it alone.
inline constexpr std::string_view kSpareSuffix = ".spare";

// Writes all of data, retrying short writes and EINTR; false with errno set on failure.
bool writeAll(int fd, const char* data, size_t size);
// The same at a file offset (pwrite), leaving the file position alone.
bool writeAllAt(int fd, const char* data, size_t size, uint64_t offset);
// `data` and right after it `then`, in one system call when the file takes them whole.
bool writeAllAt(int fd, const char* data, size_t size, const char* then, size_t thenSize, uint64_t offset);
// fsync of a directory, so that files created or removed in it stay so after a crash.
// Throws std::system_error.
void syncDirectory(const std::string& dir);

}  // namespace duet::logging
