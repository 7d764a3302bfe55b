// Archive files: a round trip (records small, empty and larger than the write buffer), the
// newest-first listing that ignores unfinished files, an unfinished writer leaving nothing,
// and damage of every kind found before any record is handed out: a flipped byte, a cut
// end, a missing end mark, bytes after it, a wrong header.
#include <stdlib.h>
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "logging/archive_file.h"
#include "logging_test_util.h"

using namespace duet::logging;
namespace fs = std::filesystem;

namespace {

using duet::test::TempDir;

std::string readFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}
void writeFile(const fs::path& p, const std::string& bytes) {
  std::ofstream(p, std::ios::binary | std::ios::trunc) << bytes;
}

std::vector<std::string> load(const std::string& path, std::string* damage = nullptr) {
  std::vector<std::string> out;
  ArchiveLoad l = loadArchive(path, [&](std::string_view p) { out.emplace_back(p); });
  if (damage) *damage = l.damage;
  return out;
}

}  // namespace

TEST_CASE("archive files round trip and list newest first", "[logging]") {
  TempDir dir;
  std::vector<std::string> records = {"first", "", std::string(3 << 20, 'x'), "last"};
  std::string path;
  {
    ArchiveWriter w(dir.path.string(), 42);
    for (const auto& r : records) w.add(r);
    path = w.finish();
  }
  {
    ArchiveWriter w(dir.path.string(), 7);
    w.add("old");
    w.finish();
  }
  {
    ArchiveWriter unfinished(dir.path.string(), 99);
    unfinished.add("never finished");
  }
  CHECK(fs::path(path).filename() == "00000000000000000042.archive");
  auto list = listArchives(dir.path.string());
  REQUIRE(list.size() == 2);
  CHECK(list[0].lsn == 42);
  CHECK(list[1].lsn == 7);
  std::string damage = "unset";
  CHECK(load(path, &damage) == records);
  CHECK(damage.empty());
  // A crash while writing leaves the temporary file; startup removes it.
  writeFile(dir.path / "00000000000000000100.archive.tmp", "partial");
  CHECK(listArchives(dir.path.string()).size() == 2);
  CHECK(removeUnfinishedArchives(dir.path.string()) == 1);
  CHECK(listArchives((dir.path / "missing").string()).empty());
}

TEST_CASE("damaged archives load nothing", "[logging]") {
  TempDir dir;
  std::string path;
  {
    ArchiveWriter w(dir.path.string(), 5);
    w.add("alpha");
    w.add("beta");
    w.add("gamma");
    path = w.finish();
  }
  const std::string good = readFile(path);
  auto damaged = [&](const std::string& bytes) {
    writeFile(path, bytes);
    std::string damage;
    auto visited = load(path, &damage);
    CHECK(visited.empty());
    return damage;
  };
  std::string flipped = good;
  flipped[good.find("beta")] ^= 1;
  CHECK_THAT(damaged(flipped), Catch::Contains("record 2"));
  CHECK_THAT(damaged(good.substr(0, good.size() - 20)), Catch::Contains("cut short"));
  CHECK_THAT(damaged(good.substr(0, good.size() - 16)), Catch::Contains("cut short"));
  CHECK_THAT(damaged(good + "x"), Catch::Contains("after the end mark"));
  std::string header = good;
  header[0] = 'X';
  CHECK_THAT(damaged(header), Catch::Contains("header"));
  std::string lsn = good;
  lsn[8] = 6;
  CHECK_THAT(damaged(lsn), Catch::Contains("LSN"));
  fs::remove(path);
  CHECK_THAT(damaged(""), Catch::Contains("header"));
  writeFile(path, good);
  CHECK(load(path).size() == 3);
}
