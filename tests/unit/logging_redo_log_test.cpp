// Redo log files: round trip across several segments (and reading after an LSN), whenDurable
// callbacks (order, thread, already durable, registered from another thread), reopening
// continues the LSNs, a torn tail (mid-record, and a segment left without records) is cut and
// appended after, damage no crash leaves (a flipped byte before the newest segment, a bad or
// missing header, a missing segment) refuses and changes nothing, a segment file left
// half-created is removed, removeSegmentsUpTo keeps the newest segment, a write error stops
// acknowledgements, archived segments kept as spares and reused (their old records never read
// as the log's), and an empty or missing directory.
#include <stdlib.h>
#include <unistd.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "logging/log_format.h"
#include "logging/redo_log.h"
#include "logging_test_util.h"

using namespace duet::logging;
namespace fs = std::filesystem;

namespace {

using duet::test::TempDir;

// Distinct, varied sizes, some empty.
std::string payloadFor(uint64_t lsn) {
  if (lsn % 50 == 0) return {};
  return "record " + std::to_string(lsn) + " " + std::string(lsn * 37 % 200, char('a' + lsn % 26));
}

// Segments of 4 KiB, zero-filled 1 KiB at a time.
LogConfig testConfig(const std::string& dir, uint64_t segmentBytes = 4096, bool sync = false) {
  LogConfig config;
  config.dir = dir;
  config.segmentBytes = segmentBytes;
  config.preallocateBytes = 1024;
  config.sync = sync;
  return config;
}

// Appends payloadFor(lsn) for LSNs first..last and waits until they are durable.
void appendRange(RedoLog& log, uint64_t first, uint64_t last) {
  for (uint64_t lsn = first; lsn <= last; ++lsn) REQUIRE(log.append(payloadFor(lsn)) == lsn);
  log.flush();
  REQUIRE(log.durableLsn() == last);
}

void writeLog(const std::string& dir, uint64_t first, uint64_t last) {
  RedoLog log(testConfig(dir), first);
  appendRange(log, first, last);
}

struct ReadBack {
  ReadResult result;
  std::vector<std::pair<uint64_t, std::string>> records;
};

ReadBack readBack(const std::string& dir, uint64_t afterLsn = 0) {
  ReadBack back;
  back.result = readLog(dir, afterLsn, [&](uint64_t lsn, std::string_view payload) {
    back.records.emplace_back(lsn, std::string(payload));
  });
  return back;
}

// Every record from first to last, with its payload.
void checkRecords(const ReadBack& back, uint64_t first, uint64_t last) {
  REQUIRE(back.records.size() == last - first + 1);
  for (uint64_t lsn = first; lsn <= last; ++lsn) {
    const auto& [readLsn, payload] = back.records[lsn - first];
    REQUIRE(readLsn == lsn);
    REQUIRE(payload == payloadFor(lsn));
  }
}

std::vector<fs::path> segmentFiles(const std::string& dir) {
  std::vector<fs::path> files;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir))
    if (entry.path().extension() == ".log") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

uint64_t firstLsnOf(const fs::path& segment) { return std::stoull(segment.stem().string()); }

std::string fileBytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Where the record of `lsn` (with a payload that is not empty) ends in segment.
uint64_t recordEnd(const fs::path& segment, uint64_t lsn) {
  const std::string payload = payloadFor(lsn);
  REQUIRE_FALSE(payload.empty());
  const size_t at = fileBytes(segment).rfind(payload);
  REQUIRE(at != std::string::npos);
  return at + payload.size();
}

}  // namespace

TEST_CASE("redo log round trip across segments", "[logging]") {
  TempDir tmp;
  uint64_t bytesWritten = 0;
  {
    RedoLog log(testConfig(tmp.log()), 1);
    REQUIRE(log.appendedLsn() == 0);
    REQUIRE(log.durableLsn() == 0);
    appendRange(log, 1, 2000);
    REQUIRE(log.appendedLsn() == 2000);
    REQUIRE(log.error().empty());
    bytesWritten = log.bytesWritten();
  }
  const std::vector<fs::path> segments = segmentFiles(tmp.log());
  REQUIRE(segments.size() >= 10);
  REQUIRE(segments.front().filename() == "00000000000000000001.log");
  uint64_t onDisk = 0;
  for (const fs::path& segment : segments) {
    onDisk += fs::file_size(segment);
    // A segment ends with the record that made it reach segmentBytes, and the end marker;
    // it has at least the first 1 KiB zero-filled.
    REQUIRE(fs::file_size(segment) < 4096 + 16 + 300 + 16);
    REQUIRE(fs::file_size(segment) >= 1024);
    REQUIRE(fs::status(segment).permissions() == (fs::perms::owner_read | fs::perms::owner_write));
  }
  REQUIRE(bytesWritten <= onDisk);

  ReadBack all = readBack(tmp.log());
  REQUIRE(all.result.stopReason == "");
  REQUIRE(all.result.lastLsn == 2000);
  REQUIRE(all.result.records == 2000);
  checkRecords(all, 1, 2000);

  ReadBack tail = readBack(tmp.log(), 1500);
  REQUIRE(tail.result.lastLsn == 2000);
  REQUIRE(tail.result.records == 500);
  checkRecords(tail, 1501, 2000);
  REQUIRE(segmentFiles(tmp.log()) == segments);  // a clean read changes nothing

  // Segments wholly before afterLsn are not read: damage there goes unseen by a read after
  // an archive (one that starts earlier would find it).
  REQUIRE(firstLsnOf(segments[2]) <= 1500);
  {
    std::fstream f(segments[1], std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(40);
    f.put('\x7f');
  }
  ReadBack skipped = readBack(tmp.log(), 1500);
  REQUIRE(skipped.result.stopReason == "");
  REQUIRE(skipped.result.lastLsn == 2000);
  checkRecords(skipped, 1501, 2000);
  REQUIRE(segmentFiles(tmp.log()) == segments);
}

TEST_CASE("redo log whenDurable callbacks run in LSN order once durable", "[logging]") {
  TempDir tmp;
  const std::thread::id caller = std::this_thread::get_id();
  std::mutex mutex;
  std::vector<uint64_t> order;
  bool ranOnWriter = true;
  {
    RedoLog log(testConfig(tmp.log(), 4096, /*sync=*/true), 1);
    // Registered before the records exist, newest first.
    for (uint64_t lsn = 100; lsn >= 1; --lsn) {
      log.whenDurable(lsn, [&, lsn] {
        std::lock_guard lock(mutex);
        order.push_back(lsn);
        ranOnWriter = ranOnWriter && std::this_thread::get_id() != caller;
      });
    }
    appendRange(log, 1, 100);
  }  // the destructor joins the writer: every callback has run
  std::vector<uint64_t> expected(100);
  for (uint64_t i = 0; i < 100; ++i) expected[i] = i + 1;
  REQUIRE(order == expected);
  REQUIRE(ranOnWriter);

  SECTION("an LSN already durable runs at once on the caller's thread") {
    RedoLog log(testConfig(tmp.log()), 101);
    appendRange(log, 101, 105);
    bool ran = false;
    log.whenDurable(103, [&] { ran = std::this_thread::get_id() == caller; });
    REQUIRE(ran);
  }
}

TEST_CASE("redo log whenDurable from another thread while appending", "[logging]") {
  TempDir tmp;
  constexpr uint64_t kRecords = 20000;
  std::atomic<uint64_t> acknowledged{0};
  {
    RedoLog log(testConfig(tmp.log(), 64 << 10, /*sync=*/true), 1);
    // A connection thread waits for each commit as soon as the executor has appended it.
    std::thread waiter([&] {
      for (uint64_t lsn = 1; lsn <= kRecords; ++lsn) {
        while (log.appendedLsn() < lsn) std::this_thread::yield();
        log.whenDurable(lsn, [&] { acknowledged.fetch_add(1, std::memory_order_relaxed); });
      }
    });
    for (uint64_t lsn = 1; lsn <= kRecords; ++lsn) log.append(payloadFor(lsn));
    waiter.join();
    log.flush();
  }
  REQUIRE(acknowledged.load() == kRecords);
  ReadBack read = readBack(tmp.log());
  REQUIRE(read.result.stopReason == "");
  checkRecords(read, 1, kRecords);
}

TEST_CASE("redo log writes records nobody waits for within kBackgroundFlush", "[logging]") {
  // synchronous_commit off: no whenDurable, no flush; the writer comes for them anyway.
  TempDir dir;
  RedoLog log(testConfig(dir.log()), 1);
  for (uint64_t lsn = 1; lsn <= 3; ++lsn) log.append(payloadFor(lsn));
  auto deadline = std::chrono::steady_clock::now() + 20 * kBackgroundFlush;
  while (log.durableLsn() < 3 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(kBackgroundFlush / 4);
  CHECK(log.durableLsn() == 3);
  // And again after the writer went idle.
  log.append(payloadFor(4));
  deadline = std::chrono::steady_clock::now() + 20 * kBackgroundFlush;
  while (log.durableLsn() < 4 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(kBackgroundFlush / 4);
  CHECK(log.durableLsn() == 4);
}

TEST_CASE("redo log reopened after close continues the LSNs", "[logging]") {
  TempDir tmp;
  writeLog(tmp.log(), 1, 10);
  ReadBack first = readBack(tmp.log());
  REQUIRE(first.result.lastLsn == 10);
  REQUIRE(first.result.stopReason == "");

  writeLog(tmp.log(), first.result.lastLsn + 1, 20);
  ReadBack second = readBack(tmp.log());
  REQUIRE(second.result.stopReason == "");
  REQUIRE(second.result.lastLsn == 20);
  checkRecords(second, 1, 20);
  // Each open starts its own segment.
  const std::vector<fs::path> segments = segmentFiles(tmp.log());
  REQUIRE(segments.size() == 2);
  REQUIRE(firstLsnOf(segments[1]) == 11);
}

TEST_CASE("redo log torn tail is cut and appended after", "[logging]") {
  TempDir tmp;
  writeLog(tmp.log(), 1, 499);
  const fs::path lastSegment = segmentFiles(tmp.log()).back();
  const uint64_t lastSegmentFirst = firstLsnOf(lastSegment);
  uint64_t lastGood = 0;
  uint64_t tornFileSize = 0;

  SECTION("in the middle of the last record") {
    REQUIRE(payloadFor(499).size() > 10);
    fs::resize_file(lastSegment, recordEnd(lastSegment, 499) - 10);
    lastGood = 498;
    tornFileSize = fs::file_size(lastSegment);
  }
  SECTION("in the middle of the last record, followed by zero-filled space") {
    const uint64_t end = recordEnd(lastSegment, 499);
    const std::string zeros(fs::file_size(lastSegment) - (end - 10), '\0');
    std::fstream out(lastSegment, std::ios::binary | std::ios::in | std::ios::out);
    out.seekp(static_cast<std::streamoff>(end - 10));
    out.write(zeros.data(), static_cast<std::streamsize>(zeros.size()));
    out.close();
    lastGood = 498;
    tornFileSize = fs::file_size(lastSegment);
  }
  SECTION("in the first record of the last segment: the segment goes") {
    REQUIRE(lastSegmentFirst > 1);
    fs::resize_file(lastSegment, 16 + 5);
    lastGood = lastSegmentFirst - 1;
  }

  ReadBack torn = readBack(tmp.log());
  INFO(torn.result.stopReason);
  const std::string tornAt = " at segment " + lastSegment.filename().string();
  REQUIRE(torn.result.stopReason.find(tornAt) != std::string::npos);
  REQUIRE(torn.result.lastLsn == lastGood);
  checkRecords(torn, 1, lastGood);
  if (tornFileSize != 0) {
    REQUIRE(fs::file_size(lastSegment) < tornFileSize);  // cut at the end of the last good record
  } else {
    REQUIRE_FALSE(fs::exists(lastSegment));
  }

  writeLog(tmp.log(), torn.result.lastLsn + 1, 520);
  ReadBack healed = readBack(tmp.log());
  REQUIRE(healed.result.stopReason == "");
  REQUIRE(healed.result.lastLsn == 520);
  checkRecords(healed, 1, 520);
}

// Every file of dir with its bytes, to check that a refused recovery changed nothing.
std::vector<std::pair<std::string, std::string>> snapshotFiles(const std::string& dir) {
  std::vector<std::pair<std::string, std::string>> files;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir))
    files.emplace_back(entry.path().filename().string(), fileBytes(entry.path()));
  std::sort(files.begin(), files.end());
  return files;
}

// Recovery refuses (throwing a message that contains `why`) and leaves every file as it was.
void requireRefused(const std::string& dir, const std::string& why) {
  const auto before = snapshotFiles(dir);
  try {
    readBack(dir);
    FAIL("readLog accepted a damaged log");
  } catch (const std::runtime_error& e) {
    INFO(e.what());
    REQUIRE(std::string(e.what()).find(why) != std::string::npos);
  }
  REQUIRE(snapshotFiles(dir) == before);
}

TEST_CASE("redo log flipped byte before the newest segment refuses, changing nothing", "[logging]") {
  TempDir tmp;
  writeLog(tmp.log(), 1, 1000);
  const std::vector<fs::path> segments = segmentFiles(tmp.log());
  REQUIRE(segments.size() >= 5);
  const fs::path& damaged = segments[2];
  const uint64_t flipped = firstLsnOf(damaged) + 3;
  REQUIRE_FALSE(payloadFor(flipped).empty());
  const std::string bytes = fileBytes(damaged);
  const size_t at = bytes.find(payloadFor(flipped));
  REQUIRE(at != std::string::npos);
  {
    std::fstream out(damaged, std::ios::binary | std::ios::in | std::ios::out);
    out.seekp(static_cast<std::streamoff>(at + 2));
    out.put(static_cast<char>(bytes[at + 2] ^ 0x10));
  }
  // The later segments were durable before the damaged one's successor was created: a
  // crash cannot have torn it, and cutting there would drop acknowledged commits.
  requireRefused(tmp.log(), "checksum mismatch at segment " + damaged.filename().string());
}

TEST_CASE("redo log segment header damage refuses, changing nothing", "[logging]") {
  TempDir tmp;
  writeLog(tmp.log(), 1, 1000);
  const std::vector<fs::path> segments = segmentFiles(tmp.log());
  REQUIRE(segments.size() >= 3);

  SECTION("the only segment truncated to 0 bytes") {
    for (size_t i = 1; i < segments.size(); ++i) fs::remove(segments[i]);
    fs::resize_file(segments[0], 0);
    requireRefused(tmp.log(), "shorter than its header");
  }
  SECTION("the newest segment truncated to 0 bytes") {
    // The writer names a segment only once its header is durable: no crash leaves this.
    fs::resize_file(segments.back(), 0);
    requireRefused(tmp.log(), "segment " + segments.back().filename().string() + " is 0 bytes long");
  }
  SECTION("the newest segment cut inside its header") {
    fs::resize_file(segments.back(), 7);
    requireRefused(tmp.log(), "shorter than its header");
  }
  SECTION("a bad magic in a middle segment") {
    std::fstream out(segments[1], std::ios::binary | std::ios::in | std::ios::out);
    out.put('X');
    out.close();
    requireRefused(tmp.log(), "bad header in segment " + segments[1].filename().string());
  }
  SECTION("a segment missing in the middle") {
    fs::remove(segments[1]);
    requireRefused(tmp.log(), "segment " + segments[2].filename().string() + " starts at LSN");
  }
}

TEST_CASE("redo log leaves no temporary file, and recovery removes one a crash left", "[logging]") {
  TempDir tmp;
  writeLog(tmp.log(), 1, 300);
  for (const fs::directory_entry& entry : fs::directory_iterator(tmp.log()))
    REQUIRE(entry.path().extension() == ".log");
  // A crash between creating the next segment and naming it: it never held a record.
  const fs::path leftover = fs::path(tmp.log()) / lsnFileName(301, kSegmentTmpSuffix);
  { std::ofstream(leftover) << "DUET"; }
  ReadBack read = readBack(tmp.log());
  REQUIRE(read.result.stopReason == "");
  checkRecords(read, 1, 300);
  REQUIRE_FALSE(fs::exists(leftover));
}

TEST_CASE("redo log removeSegmentsUpTo keeps the newest segment", "[logging]") {
  TempDir tmp;
  RedoLog log(testConfig(tmp.log()), 1);
  appendRange(log, 1, 1000);
  const std::vector<fs::path> segments = segmentFiles(tmp.log());
  REQUIRE(segments.size() >= 4);

  // Up to one LSN short of the end of the second segment: only the first goes.
  removeSegmentsUpTo(tmp.log(), firstLsnOf(segments[2]) - 2);
  REQUIRE(segmentFiles(tmp.log()) == std::vector<fs::path>(segments.begin() + 1, segments.end()));
  removeSegmentsUpTo(tmp.log(), firstLsnOf(segments[2]) - 1);
  REQUIRE(segmentFiles(tmp.log()) == std::vector<fs::path>(segments.begin() + 2, segments.end()));

  removeSegmentsUpTo(tmp.log(), log.durableLsn());
  REQUIRE(segmentFiles(tmp.log()) == std::vector<fs::path>{segments.back()});

  appendRange(log, 1001, 1100);
  const uint64_t newestFirst = firstLsnOf(segments.back());
  ReadBack read = readBack(tmp.log());
  REQUIRE(read.result.stopReason == "");
  REQUIRE(read.result.lastLsn == 1100);
  checkRecords(read, newestFirst, 1100);
}

TEST_CASE("redo log keeps archived segments as spares and reuses them", "[logging]") {
  TempDir tmp;
  RedoLog log(testConfig(tmp.log()), 1);
  appendRange(log, 1, 1000);
  const std::vector<fs::path> segments = segmentFiles(tmp.log());
  REQUIRE(segments.size() >= 6);

  // The first four segments go: two are kept as spares, named after their first LSN.
  removeSegmentsUpTo(tmp.log(), firstLsnOf(segments[4]) - 1);
  REQUIRE(segmentFiles(tmp.log()) == std::vector<fs::path>(segments.begin() + 4, segments.end()));
  const std::vector<LsnFile> spares = listLsnFiles(tmp.log(), kSpareSuffix);
  REQUIRE(spares.size() == kSpareSegments);
  REQUIRE(spares[0].lsn == firstLsnOf(segments[0]));
  REQUIRE(spares[1].lsn == firstLsnOf(segments[1]));

  // The next segment is the oldest spare, renamed: after a few new records and the end
  // marker it still holds its old records, which reading never takes for the log's.
  uint64_t lsn = 1001;
  while (segmentFiles(tmp.log()).size() == segments.size() - 4) appendRange(log, lsn, lsn), ++lsn;
  appendRange(log, lsn, lsn + 2);
  lsn += 3;
  REQUIRE(listLsnFiles(tmp.log(), kSpareSuffix).size() == 1);
  uint64_t oldRecord = firstLsnOf(segments[1]) - 1;  // the spare's last record
  if (payloadFor(oldRecord).empty()) --oldRecord;
  REQUIRE(fileBytes(segmentFiles(tmp.log()).back()).find(payloadFor(oldRecord)) != std::string::npos);
  ReadBack read = readBack(tmp.log());
  REQUIRE(read.result.stopReason == "");
  REQUIRE(read.result.lastLsn == lsn - 1);
  checkRecords(read, firstLsnOf(segments[4]), lsn - 1);

  // Then the other spare, then new files.
  appendRange(log, lsn, lsn + 300);
  REQUIRE(listLsnFiles(tmp.log(), kSpareSuffix).empty());
  read = readBack(tmp.log());
  REQUIRE(read.result.stopReason == "");
  checkRecords(read, firstLsnOf(segments[4]), lsn + 300);
}

TEST_CASE("redo log write error stops acknowledgements", "[logging]") {
  TempDir tmp;
  RedoLog log(testConfig(tmp.log()), 1);
  REQUIRE(log.append(std::string(5000, 'x')) == 1);  // fills the first segment
  log.flush();
  REQUIRE(log.durableLsn() == 1);
  REQUIRE(log.error().empty());
  bool acknowledged = false;
  log.whenDurable(2, [&] { acknowledged = true; });

  // The next record needs a new segment file, in a directory that is gone.
  fs::remove_all(tmp.log());
  REQUIRE(log.append("lost") == 2);
  log.flush();  // returns: the log failed
  INFO(log.error());
  REQUIRE(log.error().find("redo log: create ") == 0);
  REQUIRE(log.durableLsn() == 1);
  REQUIRE(log.append("after the error") == 3);
  log.flush();
  REQUIRE(log.durableLsn() == 1);
  REQUIRE_FALSE(acknowledged);
}

TEST_CASE("redo log empty or missing directory", "[logging]") {
  TempDir tmp;
  ReadBack missing = readBack(tmp.log());
  REQUIRE(missing.result.lastLsn == 0);
  REQUIRE(missing.result.records == 0);
  REQUIRE(missing.result.stopReason == "");
  REQUIRE_FALSE(fs::exists(tmp.log()));

  const std::string nested = (tmp.path / "data" / "log").string();
  { RedoLog log(testConfig(nested), 1); }  // creates the directory, no segment until a record
  REQUIRE(fs::is_directory(nested));
  REQUIRE(segmentFiles(nested).empty());
  ReadBack empty = readBack(nested);
  REQUIRE(empty.result.lastLsn == 0);
  REQUIRE(empty.result.stopReason == "");
}

TEST_CASE("record checksums are CRC32C", "[logging]") {
  // CRC32C of the 8 LSN bytes then the payload: "123456789" split as 8 + 1 gives the
  // standard check value 0xE3069283 of CRC-32C.
  CHECK(duet::logging::recordChecksum("12345678", "9") == 0xE3069283u);
  CHECK(duet::logging::recordChecksum("12345678", "") != duet::logging::recordChecksum("12345679", ""));
  std::string long_(1000, 'x');
  long_[517] = 'y';
  uint32_t a = duet::logging::recordChecksum("abcdefgh", long_);
  long_[517] = 'z';
  CHECK(a != duet::logging::recordChecksum("abcdefgh", long_));
}
