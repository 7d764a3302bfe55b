#include "bench/tpcc/copy_stream.h"

#include <charconv>

namespace tpcc {

namespace {

// Pieces of about this size: large enough that per-piece costs (a CopyData message) vanish,
// small enough that a server can start on the rows early.
constexpr std::size_t kFlushBytes = 1 << 18;

}  // namespace

CopyStream::CopyStream(CopyTarget& target, std::string_view table) : target_(target) {
  target_.start(table);
  buffer_.reserve(kFlushBytes + 4096);
}

void CopyStream::separate() {
  if (rowStarted_) buffer_ += '\t';
  rowStarted_ = true;
}

CopyStream& CopyStream::add(std::int64_t value) {
  separate();
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
  buffer_.append(digits, end);
  return *this;
}

CopyStream& CopyStream::add(std::string_view value) {
  separate();
  buffer_ += value;
  return *this;
}

CopyStream& CopyStream::addNull() {
  separate();
  buffer_ += "\\N";
  return *this;
}

CopyStream& CopyStream::addDecimal(std::int64_t units, int scale) {
  separate();
  if (units < 0) {
    buffer_ += '-';
    units = -units;
  }
  std::int64_t divisor = 1;
  for (int i = 0; i < scale; ++i) divisor *= 10;
  char digits[24];
  buffer_.append(digits, std::to_chars(digits, digits + sizeof digits, units / divisor).ptr);
  buffer_ += '.';
  // The fraction with its leading zeros: add the divisor, print, drop the leading '1'.
  const auto end = std::to_chars(digits, digits + sizeof digits, divisor + units % divisor).ptr;
  buffer_.append(digits + 1, end);
  return *this;
}

void CopyStream::endRow() {
  buffer_ += '\n';
  rowStarted_ = false;
  ++rows_;
  if (buffer_.size() >= kFlushBytes) flush();
}

void CopyStream::flush() {
  if (buffer_.empty()) return;
  target_.send(buffer_);
  buffer_.clear();
}

std::int64_t CopyStream::finish() {
  flush();
  target_.finish();
  return rows_;
}

}  // namespace tpcc
