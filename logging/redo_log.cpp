#include "logging/redo_log.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <stdio.h>  // renameat2
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <system_error>
#include <vector>

#include "engine/error.h"
#include "logging/log_format.h"

namespace duet::logging {

namespace {

// Creates dir if missing (and makes its entry durable), returns it opened for fsync.
int openLogDirectory(const std::string& dir) {
  namespace fs = std::filesystem;
  fs::path path = fs::absolute(dir).lexically_normal();
  if (!path.has_filename()) path = path.parent_path();  // "DATADIR/log/"
  if (fs::create_directories(path)) syncDirectory(path.parent_path().string());
  int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) throw std::system_error(errno, std::generic_category(), "redo log: cannot open " + dir);
  return fd;
}

}  // namespace

RedoLog::RedoLog(LogConfig config, uint64_t nextLsn)
    : config_(std::move(config)),
      dirFd_(openLogDirectory(config_.dir)),
      nextLsn_(nextLsn),
      appendedLsn_(nextLsn - 1),
      durableLsn_(nextLsn - 1),
      writer_([this] { writerLoop(); }) {}

RedoLog::~RedoLog() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  writerWake_.notify_one();
  writer_.join();
  if (segmentFd_ >= 0) ::close(segmentFd_);
  ::close(dirFd_);
}

uint64_t RedoLog::append(std::string_view payload) {
  if (payload.size() > kMaxPayloadBytes)
    throw SqlError(
        sqlstate::kProgramLimitExceeded,
        fmt::format("redo log record of {} bytes exceeds the maximum of {} bytes", payload.size(), kMaxPayloadBytes));
  const uint64_t lsn = nextLsn_++;
  // The checksum is computed before taking the mutex, so the writer never waits on it.
  char header[kRecordHeaderBytes];
  encodeRecordHeader(header, lsn, payload);
  bool firstOfBatch;
  {
    std::lock_guard lock(mutex_);
    firstOfBatch = pending_.empty();
    if (error_.empty()) {  // a failed log writes nothing more: don't let pending_ grow
      pending_.append(header, sizeof header);
      pending_.append(payload);
    }
    appendedLsn_.store(lsn, std::memory_order_release);
  }
  // The writer sleeps while nothing is pending: the first record of a batch wakes it, and
  // it then writes as soon as someone waits (whenDurable, flush), or kBackgroundFlush
  // later. Commits nobody waits for (synchronous_commit off) share that write: the rest
  // of the batch costs no thread switch.
  if (firstOfBatch) writerWake_.notify_one();
  return lsn;
}

uint64_t RedoLog::appendedLsn() const { return appendedLsn_.load(std::memory_order_acquire); }

uint64_t RedoLog::durableLsn() const { return durableLsn_.load(std::memory_order_acquire); }

void RedoLog::whenDurable(uint64_t lsn, std::function<void()> done) {
  if (lsn > durableLsn_.load(std::memory_order_acquire)) {
    std::lock_guard lock(mutex_);
    // Checked again under the mutex: the writer publishes durableLsn_ and takes the
    // callbacks it covers under it, so none is left behind.
    if (lsn > durableLsn_.load(std::memory_order_relaxed)) {
      waiting_.emplace(lsn, std::move(done));
      writerWake_.notify_one();
      return;
    }
  }
  done();
}

void RedoLog::flush() {
  std::unique_lock lock(mutex_);
  const uint64_t target = appendedLsn_.load(std::memory_order_relaxed);
  flushWanted_ = true;
  writerWake_.notify_one();
  durableChanged_.wait(lock, [&] {
    return (durableLsn_.load(std::memory_order_relaxed) >= target && !runningCallbacks_) || !error_.empty();
  });
}

void removeSegmentsUpTo(const std::string& dir, uint64_t lsn) {
  std::vector<SegmentFile> segments = listSegments(dir);
  size_t spares = listLsnFiles(dir, kSpareSuffix).size();
  // Segment i holds LSNs [firstLsn_i, firstLsn_i+1); the newest one's end is not known,
  // and it may be the one the writer appends to.
  for (size_t i = 0; i + 1 < segments.size() && segments[i + 1].lsn - 1 <= lsn; ++i) {
    if (spares < kSpareSegments) {
      const std::string spare = dir + "/" + lsnFileName(segments[i].lsn, kSpareSuffix);
      if (::rename(segments[i].path.c_str(), spare.c_str()) != 0)
        throw std::system_error(errno, std::generic_category(), "redo log: cannot rename " + segments[i].path);
      ++spares;
    } else if (::unlink(segments[i].path.c_str()) != 0) {
      throw std::system_error(errno, std::generic_category(), "redo log: cannot remove " + segments[i].path);
    }
    // A directory sync per file, oldest first: after a crash the segments left still follow
    // each other without a gap, which recovery would take for damage.
    syncDirectory(dir);
  }
}

uint64_t RedoLog::bytesWritten() const { return bytesWritten_.load(std::memory_order_relaxed); }

std::string RedoLog::error() const {
  std::lock_guard lock(mutex_);
  return error_;
}

void RedoLog::writerLoop() {
  std::vector<std::function<void()>> ready;
  std::unique_lock lock(mutex_);
  for (;;) {
    writerWake_.wait(lock, [&] { return stopping_ || !pending_.empty(); });
    writerWake_.wait_for(lock, kBackgroundFlush, [&] { return stopping_ || flushWanted_ || !waiting_.empty(); });
    flushWanted_ = false;
    if (pending_.empty()) {
      if (stopping_) return;  // everything appended is written
      continue;
    }
    pending_.swap(batch_);
    // append() stores appendedLsn_ under the mutex, so this is the batch's last record.
    const uint64_t batchLastLsn = appendedLsn_.load(std::memory_order_relaxed);
    lock.unlock();

    // Every append made meanwhile joins the next batch: one fdatasync for all of them.
    const bool written = writeBatch(batch_);
    batch_.clear();
    lock.lock();
    if (!written) return;

    durableLsn_.store(batchLastLsn, std::memory_order_release);
    auto covered = waiting_.upper_bound(batchLastLsn);
    for (auto it = waiting_.begin(); it != covered; ++it) ready.push_back(std::move(it->second));
    waiting_.erase(waiting_.begin(), covered);
    runningCallbacks_ = !ready.empty();
    durableChanged_.notify_all();

    lock.unlock();
    for (std::function<void()>& done : ready) done();
    ready.clear();
    lock.lock();
    if (runningCallbacks_) {
      runningCallbacks_ = false;
      durableChanged_.notify_all();
    }
  }
}

bool RedoLog::writeBatch(const std::string& batch) {
  size_t pos = 0;
  while (pos < batch.size()) {
    if (segmentFd_ < 0 || segmentSize_ >= config_.segmentBytes) {
      if (!startSegment(getU64(batch.data() + pos + 8))) return false;
    }
    // Whole records, up to the one that makes the segment reach segmentBytes.
    size_t end = pos;
    do {
      end += kRecordHeaderBytes + getU32(batch.data() + end);
    } while (end < batch.size() && segmentSize_ + (end - pos) < config_.segmentBytes);
    if (!preallocate(segmentSize_ + (end - pos) + kRecordHeaderBytes)) return false;
    // The records, then the end marker, which the next batch overwrites: what follows in
    // the file (zeros, or a reused spare's old records) is then never read as a torn record.
    static const char endMarker[kRecordHeaderBytes] = {};
    if (!writeAllAt(segmentFd_, batch.data() + pos, end - pos, endMarker, sizeof endMarker, segmentSize_)) {
      fail("write to " + segmentPath_);
      return false;
    }
    segmentSize_ += end - pos;
    segmentAllocated_ = std::max(segmentAllocated_, segmentSize_ + sizeof endMarker);
    bytesWritten_.fetch_add(end - pos, std::memory_order_relaxed);
    pos = end;
  }
  if (config_.sync && ::fdatasync(segmentFd_) != 0) {
    fail("fdatasync of " + segmentPath_);
    return false;
  }
  return true;
}

bool RedoLog::startSegment(uint64_t firstLsn) {
  if (segmentFd_ >= 0) {
    // The batch's closing fdatasync covers only the new segment.
    if (config_.sync && ::fdatasync(segmentFd_) != 0) {
      fail("fdatasync of " + segmentPath_);
      return false;
    }
    ::close(segmentFd_);
    segmentFd_ = -1;
  }
  segmentPath_ = config_.dir + "/" + segmentFileName(firstLsn);
  // The header is made durable under a temporary name, and the file gets its segment name
  // only then: a segment file thus always has its header, and recovery can take a missing
  // or damaged header for damage (refusing to start) rather than for a crash right after
  // the file was created. A .tmp left by a crash never held a record; recovery removes it.
  const std::string tmpPath = config_.dir + "/" + lsnFileName(firstLsn, kSegmentTmpSuffix);
  uint64_t fileSize = 0;
  segmentFd_ = takeSpare(tmpPath, fileSize);
  if (segmentFd_ < 0) segmentFd_ = ::open(tmpPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (segmentFd_ < 0) {
    fail("create " + tmpPath);
    return false;
  }
  std::string header;
  appendSegmentHeader(header, firstLsn);
  if (!writeAllAt(segmentFd_, header.data(), header.size(), 0)) {
    fail("write to " + tmpPath);
    return false;
  }
  segmentSize_ = header.size();
  segmentAllocated_ = std::max<uint64_t>(fileSize, header.size());
  // The first chunk is zero-filled now, with the header's sync, rather than by the first batch.
  if (!preallocate(segmentSize_)) return false;
  if (config_.sync && ::fdatasync(segmentFd_) != 0) {
    fail("fdatasync of " + tmpPath);
    return false;
  }
  // RENAME_NOREPLACE: never write into a segment recovery did not vouch for.
  if (::renameat2(AT_FDCWD, tmpPath.c_str(), AT_FDCWD, segmentPath_.c_str(), RENAME_NOREPLACE) != 0) {
    fail("rename of " + tmpPath + " to " + segmentPath_);
    return false;
  }
  bytesWritten_.fetch_add(header.size(), std::memory_order_relaxed);
  if (config_.sync && ::fsync(dirFd_) != 0) {
    fail("fsync of " + config_.dir);
    return false;
  }
  return true;
}

int RedoLog::takeSpare(const std::string& path, uint64_t& fileSize) {
  std::vector<LsnFile> spares;
  try {
    spares = listLsnFiles(config_.dir, kSpareSuffix);
  } catch (const std::system_error&) {
    return -1;  // a new file then: its creation reports what is wrong with the directory
  }
  for (const LsnFile& spare : spares) {
    // RENAME_NOREPLACE, as for a segment: a leftover .tmp is never reused blindly.
    if (::renameat2(AT_FDCWD, spare.path.c_str(), AT_FDCWD, path.c_str(), RENAME_NOREPLACE) != 0) continue;
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || ::fstat(fd, &st) != 0) {
      if (fd >= 0) ::close(fd);
      ::unlink(path.c_str());
      continue;
    }
    fileSize = static_cast<uint64_t>(st.st_size);
    return fd;
  }
  return -1;
}

bool RedoLog::preallocate(uint64_t needed) {
  if (needed < segmentAllocated_ || config_.preallocateBytes == 0) return true;
  const uint64_t chunk = config_.preallocateBytes;
  const uint64_t target = std::min((needed / chunk + 1) * chunk, std::max(config_.segmentBytes, needed));
  // Bytes below `needed` are about to be written with records: only the rest is zeroed.
  static const std::string zeros(64 << 10, '\0');
  for (uint64_t at = std::max(needed, segmentAllocated_); at < target;) {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(zeros.size(), target - at));
    if (!writeAllAt(segmentFd_, zeros.data(), n, at)) {
      fail("zero-filling " + segmentPath_);
      return false;
    }
    at += n;
  }
  segmentAllocated_ = std::max(segmentAllocated_, target);
  return true;
}

void RedoLog::fail(const std::string& what) {
  const int err = errno;  // before anything below can change it
  std::string message = "redo log: " + what + " failed: " + std::generic_category().message(err);
  std::lock_guard lock(mutex_);
  // No retry: after a failed fdatasync the kernel may have dropped the dirty pages, so a
  // later success would prove nothing. Recovery decides what the log holds.
  error_ = std::move(message);
  pending_.clear();
  durableChanged_.notify_all();
}

}  // namespace duet::logging
