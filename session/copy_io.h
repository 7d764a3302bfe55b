// COPY's data formats, independent of tables: splitting the CopyData stream of COPY FROM
// STDIN into rows of text fields (text and CSV formats, rows may span CopyData messages;
// the binary format's rows, whose fields stay binary, come from binary_copy.h through it),
// and encoding rows for COPY TO STDOUT. Field values are still text; the caller converts
// them with the column types' input functions.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace duet {

struct CopyOptions {
  enum class Format : uint8_t { Text, Csv, Binary };  // Binary: binary_copy.h
  Format format = Format::Text;
  char delimiter = '\t';     // ',' for CSV
  std::string null = "\\N";  // "" for CSV
  bool header = false;
  char quote = '"';   // CSV only
  char escape = '"';  // CSV only
  // Sets the format's defaults for the options not given; call after choosing the format.
  static CopyOptions forFormat(Format format);
};

// One parsed row; fields[i] is nullopt for NULL. Reused between rows.
struct CopyRow {
  std::vector<std::optional<std::string>> fields;
  std::string_view rawLine;  // the row as received, for error context
};

class BinaryCopyParser;

class CopyInParser {
 public:
  // `columns`: how many fields each row must have (22P04 otherwise).
  CopyInParser(CopyOptions options, std::vector<std::string> columnNames);
  ~CopyInParser();

  using RowHandler = std::function<void(const CopyRow& row)>;
  // Consumes a CopyData payload, calling onRow for every row it completes. Throws
  // SqlError 22P04 for malformed rows, with the context in the detail.
  void feed(std::string_view data, const RowHandler& onRow);
  // CopyDone: a last row without a trailing newline is still a row.
  void finish(const RowHandler& onRow);
  // 1-based number of the line (binary format: the row) being processed, for error messages.
  int64_t lineNumber() const;
  bool sawEndMarker() const { return ended_; }

 private:
  // Length of the first complete row in pending_ from `from` (including its newline), or
  // npos. CSV rows may contain newlines inside quotes.
  size_t rowEnd(size_t from) const;
  void parseRow(std::string_view line, const RowHandler& onRow);
  void parseTextFields(std::string_view line);
  void parseCsvFields(std::string_view line);
  [[noreturn]] void fail(const std::string& message, std::string_view line) const;

  CopyOptions options_;
  std::vector<std::string> columns_;
  std::string pending_;
  CopyRow row_;
  int64_t line_ = 0;
  bool headerSkipped_ = false;
  bool ended_ = false;
  std::unique_ptr<BinaryCopyParser> binary_;  // the binary format's parser, which does it all
};

// Appends one row in COPY's output format (text or CSV), newline included. fields[i] null
// data means NULL.
void appendCopyRow(const CopyOptions& options, const std::vector<std::string_view>& fields,
                   const std::vector<bool>& isNull, std::string& out);

}  // namespace duet
