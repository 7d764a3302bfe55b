// Archive files (docs/logging.md, "Archive format"): the whole database as of one redo log
// LSN, as a sequence of checksummed records whose payloads are opaque here (the engine
// writes and loads them). A file is written under a temporary name, synced and renamed,
// so a file with the final name is complete unless the disk damaged it; loading checks
// every record before the first is handed out, so a damaged archive loads nothing and
// recovery can fall back to the one before it.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "logging/log_format.h"

namespace duet::logging {

// Writes DIR/<lsn>.archive.tmp, then finish() makes it DIR/<lsn>.archive. Throws
// std::system_error on any I/O error; a writer destroyed before finish() removes its file.
class ArchiveWriter {
 public:
  ArchiveWriter(std::string dir, uint64_t lsn);
  ~ArchiveWriter();
  ArchiveWriter(const ArchiveWriter&) = delete;
  ArchiveWriter& operator=(const ArchiveWriter&) = delete;

  void add(std::string_view payload);
  // The end mark, fsync, rename into place, fsync of the directory. Returns the path.
  std::string finish();
  uint64_t records() const { return records_; }
  uint64_t bytes() const { return bytes_; }

 private:
  void writeBuffer();
  std::string dir_, tmpPath_, path_;
  int fd_ = -1;
  std::string buffer_;
  uint64_t records_ = 0;
  uint64_t bytes_ = 0;
};

using ArchiveFile = LsnFile;
// Complete archives of dir (by name: temporary files are not listed), newest first; empty if
// dir is missing. Throws std::system_error when dir cannot be listed.
std::vector<ArchiveFile> listArchives(const std::string& dir);
// Removes what a writer left unfinished (a crash while writing). Returns how many.
int removeUnfinishedArchives(const std::string& dir);

struct ArchiveLoad {
  std::string damage;    // empty when the archive was whole; else what is wrong and where
  uint64_t records = 0;  // visited
  uint64_t bytes = 0;    // the file's size
};
// Checks every record's checksum and sequence and the end mark; only if all is well calls
// visit for each payload, in order (valid during the call). Exceptions from visit
// propagate; I/O errors are reported as damage.
ArchiveLoad loadArchive(const std::string& path, const std::function<void(std::string_view payload)>& visit);

}  // namespace duet::logging
