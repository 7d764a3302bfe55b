// COPY data formats: text escapes, CSV quoting, NULL markers, rows split across CopyData
// messages, the \. marker, and column-count errors.
#include <catch2/catch.hpp>

#include "engine/error.h"
#include "session/copy_io.h"

using namespace duet;

namespace {
using Rows = std::vector<std::vector<std::optional<std::string>>>;

Rows parseAll(const CopyOptions& o, int ncols, const std::vector<std::string>& chunks) {
  std::vector<std::string> names;
  for (int i = 0; i < ncols; ++i) names.push_back("c" + std::to_string(i));
  CopyInParser p(o, names);
  Rows rows;
  auto onRow = [&](const CopyRow& r) { rows.push_back(r.fields); };
  for (const auto& c : chunks) p.feed(c, onRow);
  p.finish(onRow);
  return rows;
}
}  // namespace

TEST_CASE("copy text format: escapes and NULL") {
  auto rows = parseAll(CopyOptions{}, 3, {"1\ta\\tb\t\\N\n2\t\\\\N\t\\x41\\101\n"});
  REQUIRE(rows.size() == 2);
  CHECK(rows[0][1] == "a\tb");
  CHECK_FALSE(rows[0][2].has_value());
  CHECK(rows[1][1] == "\\N");
  CHECK(rows[1][2] == "AA");
}

TEST_CASE("copy text format: rows split across chunks, CRLF, end marker, last line") {
  auto rows = parseAll(CopyOptions{}, 2, {"1\tx", "y\r\n2\t", "z\n\\.\n3\tignored\n"});
  REQUIRE(rows.size() == 2);
  CHECK(rows[0][1] == "xy");
  CHECK(rows[1][1] == "z");
  rows = parseAll(CopyOptions{}, 2, {"1\ta\n2\tb"});
  CHECK(rows.size() == 2);
}

TEST_CASE("copy csv format: quotes, embedded newlines, header, NULL vs empty") {
  CopyOptions o = CopyOptions::forFormat(CopyOptions::Format::Csv);
  o.header = true;
  auto rows = parseAll(o, 3, {"a,b,c\n1,\"x,\"\"y\"\"\",\n2,\"multi\nline\",\"\"\n"});
  REQUIRE(rows.size() == 2);
  CHECK(rows[0][1] == "x,\"y\"");
  CHECK_FALSE(rows[0][2].has_value());
  CHECK(rows[1][1] == "multi\nline");
  CHECK(rows[1][2] == "");
}

TEST_CASE("copy: wrong column counts are 22P04 with line context") {
  try {
    parseAll(CopyOptions{}, 2, {"1\t2\n3\n"});
    FAIL("expected an error");
  } catch (const SqlError& e) {
    CHECK(e.code == "22P04");
    CHECK(std::string(e.what()) == "missing data for column \"c1\"");
    CHECK(e.detail == "COPY, line 2: \"3\"");
  }
  CHECK_THROWS_AS(parseAll(CopyOptions{}, 1, {"1\t2\n"}), SqlError);
}

TEST_CASE("copy out: text escaping and CSV quoting") {
  std::string out;
  appendCopyRow(CopyOptions{}, {"a\tb", "", "x\\y"}, {false, true, false}, out);
  CHECK(out == "a\\tb\t\\N\tx\\\\y\n");
  out.clear();
  CopyOptions csv = CopyOptions::forFormat(CopyOptions::Format::Csv);
  appendCopyRow(csv, {"plain", "", "", "a,\"b\""}, {false, true, false, false}, out);
  CHECK(out == "plain,,\"\",\"a,\"\"b\"\"\"\n");
}
