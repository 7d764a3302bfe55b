// Rows in COPY's text format, for the TPC-C population (population.h). A CopyStream formats
// rows into one buffer and hands it in large pieces to a CopyTarget, which sends them to a
// server over libpq (pg_copy.h) or to an in-process session (inprocess_session.h): the
// generators do not know which.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace tpcc {

// Where COPY ... FROM STDIN data goes: start(table) once, send() the text in pieces of whole
// rows, finish() once; each throws std::runtime_error with the server's message on failure.
class CopyTarget {
 public:
  virtual ~CopyTarget() = default;
  virtual void start(std::string_view table) = 0;
  virtual void send(std::string_view rows) = 0;
  virtual void finish() = 0;
};

// Streams rows into one table: the constructor starts the COPY, fields are added left to
// right, endRow() closes a row, finish() ends the COPY. Field values must not contain tab,
// newline or backslash, the characters COPY's text format escapes; the loader writes only
// letters, digits, spaces and "-.:#", so nothing is.
class CopyStream {
 public:
  CopyStream(CopyTarget& target, std::string_view table);

  CopyStream& add(std::int64_t value);
  CopyStream& add(std::string_view value);
  CopyStream& addNull();
  // A decimal given in units of 10^-scale: addDecimal(-1000, 2) writes "-10.00".
  CopyStream& addDecimal(std::int64_t units, int scale);
  void endRow();

  // Ends the COPY; returns the number of rows sent.
  std::int64_t finish();

 private:
  void separate();
  void flush();

  CopyTarget& target_;
  std::string buffer_;
  bool rowStarted_ = false;
  std::int64_t rows_ = 0;
};

}  // namespace tpcc
