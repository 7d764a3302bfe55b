// COPY's binary format (session/binary_copy.h): what the writer makes the reader reads back,
// data split across CopyData messages, the end of data with or without the trailer, and
// PostgreSQL's 22P04 errors for a bad header or row.
#include <catch2/catch.hpp>

#include "engine/error.h"
#include "session/binary_copy.h"

using namespace duet;

namespace {

using Rows = std::vector<std::vector<std::optional<std::string>>>;

Rows parseAll(size_t columns, const std::vector<std::string>& chunks) {
  BinaryCopyParser parser(columns);
  for (const auto& c : chunks) parser.feed(c);
  Rows rows;
  parser.finish([&](const CopyRow& row) { rows.push_back(row.fields); });
  return rows;
}

std::string header() {
  std::string out;
  appendBinaryCopyHeader(out);
  return out;
}

std::string row(const std::vector<std::optional<std::string>>& values) {
  std::vector<Field> fields;
  for (const auto& v : values)
    fields.push_back(v ? Field{v->data(), static_cast<int32_t>(v->size())} : Field{nullptr, -1});
  std::string out;
  appendBinaryCopyRow(fields.data(), fields.size(), out);
  return out;
}

std::string trailer() {
  std::string out;
  appendBinaryCopyTrailer(out);
  return out;
}

void requireError(size_t columns, const std::string& data, const std::string& message) {
  try {
    parseAll(columns, {data});
    FAIL("no error for " << message);
  } catch (const SqlError& e) {
    CHECK(e.code == sqlstate::kBadCopyFileFormat);
    CHECK(std::string(e.what()) == message);
  }
}

}  // namespace

TEST_CASE("binary copy: rows written are read back, NULLs and empty values apart", "[session][copy]") {
  std::string data = header() + row({std::string("\0\0\0\1", 4), std::nullopt, std::string()}) +
                     row({std::string("x"), std::string("yz"), std::nullopt}) + trailer();
  CHECK(data.substr(0, 11) == std::string("PGCOPY\n\377\r\n\0", 11));
  CHECK(data.substr(11, 8) == std::string(8, '\0'));  // no flags, no header extension
  Rows rows = parseAll(3, {data});
  REQUIRE(rows.size() == 2);
  CHECK(rows[0][0] == std::string("\0\0\0\1", 4));
  CHECK_FALSE(rows[0][1].has_value());
  CHECK(rows[0][2] == std::string());
  CHECK(rows[1][1] == "yz");
  // Split anywhere across messages, and without the trailer.
  std::vector<std::string> bytes;
  for (char c : data.substr(0, data.size() - 2)) bytes.emplace_back(1, c);
  CHECK(parseAll(3, bytes) == rows);
  // A header extension is skipped.
  std::string extended = header();
  extended[18] = 3;
  CHECK(parseAll(1, {extended + "abc" + row({std::string("v")}) + trailer()}).size() == 1);
}

TEST_CASE("binary copy: PostgreSQL's errors for a bad header or row", "[session][copy]") {
  requireError(1, "PGCOPY\n", "COPY file signature not recognized");
  requireError(1, std::string("PGCOPY\n\377\r\n\1", 11) + std::string(8, '\0'), "COPY file signature not recognized");
  requireError(1, header().substr(0, 13), "invalid COPY file header (missing flags)");
  std::string oids = header();
  oids[12] = 1;  // bit 16 (the flags are big-endian, from byte 11)
  requireError(1, oids, "invalid COPY file header (WITH OIDS)");
  std::string critical = header();
  critical[11] = 1;  // bit 24
  requireError(1, critical, "unrecognized critical flags in COPY file header");
  requireError(1, header().substr(0, 17), "invalid COPY file header (missing length)");
  std::string extended = header();
  extended[18] = 9;
  requireError(1, extended + "abc", "invalid COPY file header (wrong length)");
  requireError(2, header() + row({std::string("x")}), "row field count is 1, expected 2");
  requireError(1, header() + row({std::string("xyz")}).substr(0, 7), "unexpected EOF in COPY data");
  requireError(1, header() + std::string("\0\1\0\0", 4), "unexpected EOF in COPY data");
  requireError(1, header() + std::string("\0\1\xff\xff\xff\xfe", 6), "invalid field size");
  requireError(1, header() + trailer() + "x", "received copy data after EOF marker");
}
