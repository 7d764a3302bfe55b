#include "logging/archive_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "logging/log_format.h"
#include "logging/redo_log.h"

namespace duet::logging {
namespace {

// Header: magic, u64 LSN. Records: the log's frame (u32 length, u32 CRC32C, u64 sequence
// number from 1) and payload. End mark: magic, u64 record count.
constexpr std::string_view kArchiveMagic = "DUETARC1";
constexpr std::string_view kEndMagic = "DUETEND1";
constexpr size_t kHeaderBytes = 16;
constexpr size_t kEndBytes = 16;
constexpr std::string_view kSuffix = ".archive";
constexpr std::string_view kTmpSuffix = ".archive.tmp";
constexpr size_t kWriteBuffer = size_t{1} << 20;

[[noreturn]] void ioError(const std::string& what) {
  throw std::system_error(errno, std::generic_category(), "archive: " + what);
}

}  // namespace

ArchiveWriter::ArchiveWriter(std::string dir, uint64_t lsn) : dir_(std::move(dir)) {
  std::filesystem::create_directories(dir_);
  tmpPath_ = (std::filesystem::path(dir_) / lsnFileName(lsn, kTmpSuffix)).string();
  path_ = (std::filesystem::path(dir_) / lsnFileName(lsn, kSuffix)).string();
  fd_ = ::open(tmpPath_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd_ < 0) ioError("cannot create " + tmpPath_);
  char lsnBytes[8];
  putU64(lsnBytes, lsn);
  buffer_.append(kArchiveMagic);
  buffer_.append(lsnBytes, 8);
}

ArchiveWriter::~ArchiveWriter() {
  if (fd_ < 0) return;
  ::close(fd_);
  ::unlink(tmpPath_.c_str());
}

void ArchiveWriter::add(std::string_view payload) {
  if (payload.size() > kMaxPayloadBytes) {
    errno = EFBIG;
    ioError("a record of " + std::to_string(payload.size()) + " bytes is too large");
  }
  char header[kRecordHeaderBytes];
  encodeRecordHeader(header, ++records_, payload);
  buffer_.append(header, sizeof header);
  if (buffer_.size() + payload.size() > kWriteBuffer) {
    writeBuffer();
    if (payload.size() > kWriteBuffer) {
      if (!writeAll(fd_, payload.data(), payload.size())) ioError("cannot write " + tmpPath_);
      bytes_ += payload.size();
      return;
    }
  }
  buffer_.append(payload);
}

void ArchiveWriter::writeBuffer() {
  if (!writeAll(fd_, buffer_.data(), buffer_.size())) ioError("cannot write " + tmpPath_);
  bytes_ += buffer_.size();
  buffer_.clear();
}

std::string ArchiveWriter::finish() {
  char count[8];
  putU64(count, records_);
  buffer_.append(kEndMagic);
  buffer_.append(count, 8);
  writeBuffer();
  if (::fsync(fd_) != 0) ioError("cannot fsync " + tmpPath_);
  if (::close(fd_) != 0) {
    fd_ = -1;
    ::unlink(tmpPath_.c_str());
    ioError("cannot close " + tmpPath_);
  }
  fd_ = -1;
  if (::rename(tmpPath_.c_str(), path_.c_str()) != 0) {
    int error = errno;
    ::unlink(tmpPath_.c_str());
    errno = error;
    ioError("cannot rename " + tmpPath_);
  }
  syncDirectory(dir_);
  return path_;
}

std::vector<ArchiveFile> listArchives(const std::string& dir) {
  std::vector<ArchiveFile> archives = listLsnFiles(dir, kSuffix);
  std::reverse(archives.begin(), archives.end());
  return archives;
}

int removeUnfinishedArchives(const std::string& dir) {
  int removed = 0;
  for (const LsnFile& file : listLsnFiles(dir, kTmpSuffix)) removed += std::filesystem::remove(file.path) ? 1 : 0;
  return removed;
}

namespace {

// The file, mapped read-only for the two passes (recovery only; unmapped after).
class MappedFile {
 public:
  explicit MappedFile(const std::string& path) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      error_ = fmt::format("cannot open: {}", std::strerror(errno));
      return;
    }
    struct stat st{};
    if (::fstat(fd, &st) != 0) error_ = fmt::format("cannot stat: {}", std::strerror(errno));
    size_ = static_cast<size_t>(st.st_size);
    if (error_.empty() && size_ > 0) {
      void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
      if (p == MAP_FAILED)
        error_ = fmt::format("cannot map: {}", std::strerror(errno));
      else {
        data_ = static_cast<const char*>(p);
        ::madvise(p, size_, MADV_SEQUENTIAL);
      }
    }
    ::close(fd);
  }
  ~MappedFile() {
    if (data_) ::munmap(const_cast<char*>(data_), size_);
  }
  const std::string& error() const { return error_; }
  std::string_view bytes() const { return {data_ ? data_ : "", data_ ? size_ : 0}; }

 private:
  const char* data_ = nullptr;
  size_t size_ = 0;
  std::string error_;
};

// Walks the records and returns the damage found, if any. The first pass (visit null)
// checks everything; the second, over the same mapped bytes, hands out the payloads
// without computing every checksum again.
std::string walk(std::string_view file, uint64_t& records, const std::function<void(std::string_view)>* visit) {
  if (file.size() < kHeaderBytes || file.substr(0, kArchiveMagic.size()) != kArchiveMagic)
    return "not an archive (bad header)";
  size_t at = kHeaderBytes;
  records = 0;
  for (;;) {
    if (file.size() - at >= kEndBytes && file.substr(at, kEndMagic.size()) == kEndMagic) {
      if (getU64(file.data() + at + 8) != records)
        return fmt::format("the end mark counts a different number of records than the {} found", records);
      if (at + kEndBytes != file.size())
        return fmt::format("{} bytes after the end mark", file.size() - at - kEndBytes);
      return {};
    }
    if (file.size() - at < kRecordHeaderBytes) return fmt::format("cut short at offset {} (no end mark)", at);
    const char* header = file.data() + at;
    uint64_t length = getU32(header);
    uint64_t sequence = getU64(header + 8);
    if (length > file.size() - at - kRecordHeaderBytes)
      return fmt::format("record {} at offset {} is cut short", records + 1, at);
    std::string_view payload = file.substr(at + kRecordHeaderBytes, length);
    if (sequence != records + 1 || (!visit && getU32(header + 4) != recordChecksum(header + 8, payload)))
      return fmt::format("record {} at offset {} is damaged (checksum or sequence)", records + 1, at);
    ++records;
    if (visit) (*visit)(payload);
    at += kRecordHeaderBytes + length;
  }
}

}  // namespace

ArchiveLoad loadArchive(const std::string& path, const std::function<void(std::string_view payload)>& visit) {
  ArchiveLoad result;
  MappedFile file(path);
  result.bytes = file.bytes().size();
  if (!file.error().empty()) {
    result.damage = file.error();
    return result;
  }
  uint64_t records = 0;
  result.damage = walk(file.bytes(), records, nullptr);
  auto lsn = lsnOfFileName(std::filesystem::path(path).filename().string(), kSuffix);
  if (result.damage.empty() && lsn && getU64(file.bytes().data() + 8) != *lsn)
    result.damage = "the header's LSN is not the one in the file name";
  if (!result.damage.empty()) return result;
  walk(file.bytes(), result.records, &visit);
  return result;
}

}  // namespace duet::logging
