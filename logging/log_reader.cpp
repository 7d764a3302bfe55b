// readLog: recovery's pass over the segments, and the cut that makes a damaged log
// appendable again.
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <stdexcept>
#include <system_error>

#include "logging/log_format.h"
#include "logging/redo_log.h"

namespace duet::logging {

namespace {

[[noreturn]] void throwError(int err, const std::string& what) {
  throw std::system_error(err, std::generic_category(), "redo log: " + what);
}

// Closes fd, then throws what failed with the errno it failed with.
[[noreturn]] void closeAndThrow(int fd, const std::string& what) {
  const int err = errno;
  ::close(fd);
  throwError(err, what);
}

std::string readFile(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throwError(errno, "cannot open " + path);
  struct stat st;
  if (::fstat(fd, &st) != 0) closeAndThrow(fd, "cannot stat " + path);
  std::string data(static_cast<size_t>(st.st_size), '\0');
  size_t size = 0;
  while (size < data.size()) {
    ssize_t n = ::read(fd, data.data() + size, data.size() - size);
    if (n > 0) {
      size += static_cast<size_t>(n);
    } else if (n == 0) {
      break;  // shorter than fstat said
    } else if (errno != EINTR) {
      closeAndThrow(fd, "cannot read " + path);
    }
  }
  ::close(fd);
  data.resize(size);
  return data;
}

void truncateFile(const std::string& path, uint64_t size) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) throwError(errno, "cannot open " + path);
  if (::ftruncate(fd, static_cast<off_t>(size)) != 0 || ::fsync(fd) != 0) closeAndThrow(fd, "cannot truncate " + path);
  ::close(fd);
}

void removeFile(const std::string& path) {
  if (::unlink(path.c_str()) != 0) throwError(errno, "cannot remove " + path);
}

using Visit = std::function<void(uint64_t lsn, std::string_view payload)>;

// One segment's records, checked and visited in order.
struct SegmentScan {
  size_t goodEnd = 0;      // end of the last good record
  std::string stopReason;  // empty when the segment was good to its end
};

// What no crash leaves behind: recovery stops rather than cut the log there, since what
// lies beyond it may hold acknowledged commits (docs/logging.md, "Recovery").
[[noreturn]] void refuse(const std::string& what, const std::string& dir) {
  throw std::runtime_error(
      fmt::format("recovery failed: the redo log in {} is damaged: {}. Nothing was changed; restore the "
                  "damaged file, or move it and every later segment away to start without the commits "
                  "they hold",
                  dir, what));
}

// A torn tail is cut, but only in the newest segment: the writer fdatasyncs a segment
// before it creates the next one, and a segment gets its name only once its header is
// durable (RedoLog::startSegment), so a bad header, a gap between segments or a bad
// record before the newest segment is damage, not a crash. Records end at the file's end
// or at a header of zeros: the writer follows every batch with one (RedoLog::writeBatch),
// so that a preallocated file's zeros or a reused spare's old records never look torn.
SegmentScan scanSegment(const SegmentFile& segment, const std::string& data, uint64_t& expectedLsn, uint64_t afterLsn,
                        const Visit& visit, ReadResult& result) {
  SegmentScan scan;
  const std::string name = std::filesystem::path(segment.path).filename().string();
  const std::string dir = std::filesystem::path(segment.path).parent_path().string();
  if (data.size() < kSegmentHeaderBytes)
    refuse(fmt::format("segment {} is {} bytes long, shorter than its header", name, data.size()), dir);
  if (std::string_view(data.data(), kSegmentMagic.size()) != kSegmentMagic ||
      getU64(data.data() + kSegmentMagic.size()) != segment.lsn)
    refuse(fmt::format("bad header in segment {}", name), dir);
  // The first segment may start anywhere: older ones are removed once archived.
  if (expectedLsn != 0 && segment.lsn != expectedLsn)
    refuse(fmt::format("segment {} starts at LSN {}, expected {}", name, segment.lsn, expectedLsn), dir);
  expectedLsn = segment.lsn;

  size_t pos = kSegmentHeaderBytes;
  scan.goodEnd = pos;
  while (pos < data.size()) {
    const char* record = data.data() + pos;
    const size_t left = data.size() - pos;
    // The end marker (no record has LSN 0): the records end here.
    if (std::all_of(record, record + std::min(left, kRecordHeaderBytes), [](char c) { return c == 0; })) return scan;
    if (left < kRecordHeaderBytes) {
      scan.stopReason = fmt::format("torn record at segment {} offset {}", name, pos);
      return scan;
    }
    const uint32_t length = getU32(record);
    if (length > kMaxPayloadBytes) {
      scan.stopReason = fmt::format("record length {} at segment {} offset {} exceeds the maximum", length, name, pos);
      return scan;
    }
    if (left - kRecordHeaderBytes < length) {
      scan.stopReason = fmt::format("torn record at segment {} offset {}", name, pos);
      return scan;
    }
    const std::string_view payload(record + kRecordHeaderBytes, length);
    if (recordChecksum(record + 8, payload) != getU32(record + 4)) {
      scan.stopReason = fmt::format("checksum mismatch at segment {} offset {}", name, pos);
      return scan;
    }
    const uint64_t lsn = getU64(record + 8);
    if (lsn != expectedLsn) {
      scan.stopReason = fmt::format("LSN {} at segment {} offset {}, expected {}", lsn, name, pos, expectedLsn);
      return scan;
    }
    if (lsn > afterLsn) {
      visit(lsn, payload);
      ++result.records;
    }
    result.lastLsn = lsn;
    ++expectedLsn;
    pos += kRecordHeaderBytes + length;
    scan.goodEnd = pos;
  }
  return scan;
}

}  // namespace

ReadResult readLog(const std::string& dir, uint64_t afterLsn, const Visit& visit) {
  ReadResult result;
  // A segment file still being created when the server stopped: it never held a record.
  bool removed = false;
  for (const LsnFile& tmp : listLsnFiles(dir, kSegmentTmpSuffix)) {
    removeFile(tmp.path);
    removed = true;
  }
  if (removed) syncDirectory(dir);
  const std::vector<SegmentFile> segments = listSegments(dir);
  if (segments.empty()) return result;

  uint64_t expectedLsn = 0;  // set by the first segment's header
  size_t last = 0;           // the segment the log ends in
  SegmentScan scan;
  size_t lastFileSize = 0;
  for (; last < segments.size(); ++last) {
    // A segment whose records all come before afterLsn (the next one starts at or before
    // afterLsn + 1) is not read: an archive holds what it holds. Its successor starts
    // where it ended.
    if (last + 1 < segments.size() && segments[last + 1].lsn <= afterLsn + 1) {
      expectedLsn = segments[last + 1].lsn;
      result.lastLsn = expectedLsn - 1;
      continue;
    }
    const std::string data = readFile(segments[last].path);
    scan = scanSegment(segments[last], data, expectedLsn, afterLsn, visit, result);
    lastFileSize = data.size();
    if (last + 1 == segments.size()) break;
    if (!scan.stopReason.empty())
      refuse(scan.stopReason + fmt::format(", before {} later segment(s)", segments.size() - last - 1), dir);
  }
  result.stopReason = scan.stopReason;

  // Cut the newest segment after its last good record.
  removed = false;
  if (scan.goodEnd <= kSegmentHeaderBytes) {
    // No record in it: gone, so that the next RedoLog can start a segment of its name.
    removeFile(segments[last].path);
    removed = true;
  } else if (!scan.stopReason.empty() && scan.goodEnd < lastFileSize) {
    truncateFile(segments[last].path, scan.goodEnd);
  }
  if (removed) syncDirectory(dir);
  return result;
}

}  // namespace duet::logging
