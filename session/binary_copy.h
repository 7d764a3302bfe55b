// COPY's binary format, PostgreSQL's: an 11-byte signature, a 32-bit flags field and a
// header extension (a 32-bit length and that many bytes, skipped); then per row a 16-bit
// field count and per field a 32-bit length (-1: NULL) and the value in its type's binary
// send format, as the extended protocol's binary parameters and results carry it; a field
// count of -1 ends the data. All integers are big-endian.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "session/copy_io.h"
#include "session/session_api.h"  // Field

namespace duet {

// COPY FROM STDIN's binary data, split into rows whose fields stay in binary.
class BinaryCopyParser {
 public:
  explicit BinaryCopyParser(size_t columns) : columns_(columns) { row_.fields.reserve(columns); }

  using RowHandler = std::function<void(const CopyRow& row)>;
  // Consumes a CopyData payload; rows are handed to onRow once finish() sees them whole.
  void feed(std::string_view data) { pending_.append(data); }
  // CopyDone: parses the data, calling onRow for every row. Throws SqlError 22P04 for a bad
  // header or a malformed row, with PostgreSQL's messages.
  void finish(const RowHandler& onRow);
  // 1-based number of the row being processed, for error messages (PostgreSQL's "line").
  int64_t lineNumber() const { return line_; }

 private:
  void parseHeader();
  // The next `n` bytes; false (reading nothing) where fewer are left.
  bool read(size_t n, std::string_view& out);
  bool readInt16(int16_t& v);
  bool readInt32(int32_t& v);
  [[noreturn]] static void fail(const std::string& message);

  size_t columns_;
  std::string pending_;
  size_t pos_ = 0;
  CopyRow row_;
  int64_t line_ = 0;
};

// COPY TO STDOUT's binary data: the header (before the first row), one row of fields
// already in binary (Field::len < 0 for NULL), and the trailer (after the last row).
void appendBinaryCopyHeader(std::string& out);
void appendBinaryCopyRow(const Field* fields, size_t count, std::string& out);
void appendBinaryCopyTrailer(std::string& out);

}  // namespace duet
