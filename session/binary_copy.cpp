#include "session/binary_copy.h"

#include <cstring>

#include <fmt/format.h>

#include "engine/error.h"

namespace duet {
namespace {

constexpr std::string_view kSignature("PGCOPY\n\377\r\n\0", 11);
constexpr int32_t kOidsFlag = 1 << 16;  // WITH OIDS, which PostgreSQL 12 dropped

void appendInt16(std::string& out, int16_t v) {
  auto u = static_cast<uint16_t>(v);
  out.push_back(static_cast<char>(u >> 8));
  out.push_back(static_cast<char>(u & 0xff));
}

void appendInt32(std::string& out, int32_t v) {
  auto u = static_cast<uint32_t>(v);
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>((u >> shift) & 0xff));
}

}  // namespace

void BinaryCopyParser::fail(const std::string& message) { throw SqlError(sqlstate::kBadCopyFileFormat, message); }

bool BinaryCopyParser::read(size_t n, std::string_view& out) {
  if (pending_.size() - pos_ < n) return false;
  out = std::string_view(pending_).substr(pos_, n);
  pos_ += n;
  return true;
}

bool BinaryCopyParser::readInt16(int16_t& v) {
  std::string_view b;
  if (!read(2, b)) return false;
  v = static_cast<int16_t>((static_cast<uint8_t>(b[0]) << 8) | static_cast<uint8_t>(b[1]));
  return true;
}

bool BinaryCopyParser::readInt32(int32_t& v) {
  std::string_view b;
  if (!read(4, b)) return false;
  uint32_t u = 0;
  for (char c : b) u = (u << 8) | static_cast<uint8_t>(c);
  v = static_cast<int32_t>(u);
  return true;
}

// PostgreSQL's ReceiveCopyBinaryHeader, with its messages.
void BinaryCopyParser::parseHeader() {
  std::string_view signature;
  if (!read(kSignature.size(), signature) || signature != kSignature) fail("COPY file signature not recognized");
  int32_t flags;
  if (!readInt32(flags)) fail("invalid COPY file header (missing flags)");
  if (flags & kOidsFlag) fail("invalid COPY file header (WITH OIDS)");
  // The low 16 bits are flags a reader may ignore, the high ones flags it must understand.
  if ((flags & ~kOidsFlag) >> 16) fail("unrecognized critical flags in COPY file header");
  int32_t extension;
  if (!readInt32(extension) || extension < 0) fail("invalid COPY file header (missing length)");
  std::string_view skipped;
  if (!read(static_cast<size_t>(extension), skipped)) fail("invalid COPY file header (wrong length)");
}

void BinaryCopyParser::finish(const RowHandler& onRow) {
  parseHeader();
  for (;;) {
    ++line_;
    int16_t count;
    // The data may end without the trailer, as PostgreSQL accepts.
    if (!readInt16(count)) return;
    if (count == -1) {
      if (pos_ < pending_.size()) fail("received copy data after EOF marker");
      return;
    }
    if (count != static_cast<int64_t>(columns_))
      fail(fmt::format("row field count is {}, expected {}", count, columns_));
    row_.fields.clear();
    for (size_t i = 0; i < columns_; ++i) {
      int32_t size;
      if (!readInt32(size)) fail("unexpected EOF in COPY data");
      if (size == -1) {
        row_.fields.emplace_back(std::nullopt);
        continue;
      }
      if (size < 0) fail("invalid field size");
      std::string_view bytes;
      if (!read(static_cast<size_t>(size), bytes)) fail("unexpected EOF in COPY data");
      row_.fields.emplace_back(std::string(bytes));
    }
    onRow(row_);
  }
}

void appendBinaryCopyHeader(std::string& out) {
  out.append(kSignature);
  appendInt32(out, 0);  // flags
  appendInt32(out, 0);  // no header extension
}

void appendBinaryCopyRow(const Field* fields, size_t count, std::string& out) {
  appendInt16(out, static_cast<int16_t>(count));
  for (size_t i = 0; i < count; ++i) {
    appendInt32(out, fields[i].len < 0 ? -1 : fields[i].len);
    if (fields[i].len > 0) out.append(fields[i].data, static_cast<size_t>(fields[i].len));
  }
}

void appendBinaryCopyTrailer(std::string& out) { appendInt16(out, -1); }

}  // namespace duet
