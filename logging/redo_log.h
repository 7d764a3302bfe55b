// The redo log's files: segments of checksummed, LSN-numbered records whose payloads are
// opaque bytes (the engine frames and replays them), a writer thread that makes them
// durable in batches (group commit), and the recovery read that finds the last good record
// and cuts off a torn or damaged tail. Format: docs/logging.md, "Redo log format".
#pragma once
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

namespace duet::logging {

struct LogConfig {
  std::string dir;                             // e.g. DATADIR/log, created if missing
  uint64_t segmentBytes = uint64_t{64} << 20;  // a new segment file starts once a segment reaches this size
  // Zero-filled ahead of the records, this much at a time (up to segmentBytes): an
  // fdatasync after overwriting space a file has is several times cheaper than one after
  // appending, which must also write the file's new size. 0: append only.
  uint64_t preallocateBytes = uint64_t{4} << 20;
  // fdatasync each batch. false writes only, for tests; synchronous_commit=off is the server
  // not waiting for whenDurable, while the log still syncs in the background.
  bool sync = true;
};

// Payloads longer than this are refused by append and read as corruption.
// Records nobody waits for are written at the latest this long after they were appended
// (PostgreSQL's wal_writer_delay, for asynchronous commits): the loss window of
// synchronous_commit = off.
inline constexpr std::chrono::milliseconds kBackgroundFlush{10};

inline constexpr uint64_t kMaxPayloadBytes = uint64_t{1} << 30;

// Archived segments kept as spares (renamed, not removed) for new segments to reuse, as
// PostgreSQL recycles WAL segments: a reused file needs no zero-filling.
inline constexpr size_t kSpareSegments = 2;

class RedoLog {
 public:
  // Opens the log for appending after the last good record: call readLog first (recovery),
  // which truncates a torn tail; `nextLsn` is readLog's lastLsn + 1 (any LSN if the log is
  // empty). The first batch starts a new segment named after its first LSN. Throws
  // std::system_error when the directory can't be created or opened.
  RedoLog(LogConfig config, uint64_t nextLsn);
  // Writes and syncs what was appended, stops the writer thread. Callbacks whose LSN never
  // became durable (after an error) are dropped without running.
  ~RedoLog();
  RedoLog(const RedoLog&) = delete;
  RedoLog& operator=(const RedoLog&) = delete;

  // Appends one record and returns its LSN (consecutive from nextLsn). Called from one
  // thread (the executor); never blocks on I/O: the writer thread writes batches. Throws
  // SqlError (54000) for a payload over kMaxPayloadBytes.
  uint64_t append(std::string_view payload);
  uint64_t appendedLsn() const;  // last LSN appended (nextLsn - 1 before any)
  uint64_t durableLsn() const;   // last LSN written and fdatasync'ed
  // Calls `done` once `lsn` is durable: on the writer thread after the batch's fdatasync
  // (callbacks in LSN order), or at once on the caller's thread if it already is. Any
  // thread. `done` must not throw and should be quick: it holds up the next batch.
  void whenDurable(uint64_t lsn, std::function<void()> done);
  // Blocks until everything appended so far is durable, or the log failed (see error()).
  void flush();
  uint64_t bytesWritten() const;  // since open, for benchmarks
  // Empty while healthy; else the write error that stopped the log. A failed log writes
  // nothing more and acknowledges nothing more (durableLsn stays, callbacks never run):
  // what it holds is decided by the next recovery.
  std::string error() const;

 private:
  void writerLoop();
  // Writer thread: writes framed records, rolling segments; false (and error set) on failure.
  bool writeBatch(const std::string& batch);
  bool startSegment(uint64_t firstLsn);
  // Writer thread: the oldest spare renamed to path and opened, or -1 if none could be.
  int takeSpare(const std::string& path, uint64_t& fileSize);
  // Writer thread: zero-fills the segment file from `needed` bytes up to the next
  // preallocateBytes boundary (at most segmentBytes) when `needed` is past what it has.
  bool preallocate(uint64_t needed);
  // Writer thread: records the error in errno for `what` and stops the log.
  void fail(const std::string& what);

  const LogConfig config_;
  const int dirFd_;  // the log directory, fsync'ed when a segment file is created

  // Executor thread only.
  uint64_t nextLsn_;

  mutable std::mutex mutex_;
  std::condition_variable writerWake_;                      // pending records or stopping
  std::condition_variable durableChanged_;                  // for flush()
  std::string pending_;                                     // framed records not yet taken by the writer
  std::multimap<uint64_t, std::function<void()>> waiting_;  // whenDurable callbacks by LSN
  bool stopping_ = false;
  bool flushWanted_ = false;  // flush() waits for everything appended
  // The writer is running (and then destroying) a batch's whenDurable callbacks outside the
  // mutex: flush() also waits for that, so that what they hold (a connection) is gone before
  // the caller tears down what it needs (the server's I/O context, at shutdown).
  bool runningCallbacks_ = false;
  std::string error_;

  std::atomic<uint64_t> appendedLsn_;
  std::atomic<uint64_t> durableLsn_;
  std::atomic<uint64_t> bytesWritten_{0};

  // Writer thread only.
  std::string batch_;  // swapped with pending_, so both keep their capacity
  int segmentFd_ = -1;
  std::string segmentPath_;
  uint64_t segmentSize_ = 0;       // where the segment's records end
  uint64_t segmentAllocated_ = 0;  // the file's size: records up to here overwrite zeros or a spare's old bytes

  std::thread writer_;  // last: starts once everything above is initialized
};

// Removes whole segment files of the log in dir all of whose records have LSN <= lsn (after
// an archive), oldest first, syncing the directory after each; never the newest segment,
// which may be the one being written. Up to kSpareSegments of them are kept as spares
// ("<LSN>.spare") instead. Any thread or process (the archive writer's child calls it).
// Throws std::system_error.
void removeSegmentsUpTo(const std::string& dir, uint64_t lsn);

struct ReadResult {
  uint64_t lastLsn = 0;    // LSN of the last good record (0: none)
  uint64_t records = 0;    // how many were visited (LSN > afterLsn)
  std::string stopReason;  // empty at a clean end; else e.g. "torn record at segment X offset Y"
};

// Reads every segment of `dir` in order, verifying each record's checksum and that LSNs are
// consecutive; calls visit for each record with LSN > afterLsn. Segments that hold only
// records up to afterLsn (the next segment starts at or before afterLsn + 1) are skipped
// unread. Stops at the end or at the first torn (incomplete) or corrupt record of the newest
// segment, which it then truncates at the last good record, so that appends continue
// cleanly; a newest segment left without records is deleted (the next RedoLog starts a
// segment of that name). Leftover segment files still being created (*.log.tmp) are
// deleted. A missing dir is an empty log. `payload` is valid during the call only.
// Throws std::runtime_error, changing no file, when the log is damaged in a way no crash
// leaves it: a segment with a missing or bad header, a gap between segments, or a torn or
// corrupt record before the newest segment (docs/logging.md, "Recovery"). Throws
// std::system_error on I/O errors; exceptions from visit propagate, before anything is cut.
ReadResult readLog(const std::string& dir, uint64_t afterLsn,
                   const std::function<void(uint64_t lsn, std::string_view payload)>& visit);

}  // namespace duet::logging
