#include "session/copy_io.h"

#include <fmt/format.h>

#include "engine/error.h"
#include "engine/types/strings.h"
#include "session/binary_copy.h"

namespace duet {

CopyOptions CopyOptions::forFormat(Format format) {
  CopyOptions o;
  o.format = format;
  if (format == Format::Csv) {
    o.delimiter = ',';
    o.null = "";
  }
  return o;
}

CopyInParser::CopyInParser(CopyOptions options, std::vector<std::string> columnNames)
    : options_(std::move(options)), columns_(std::move(columnNames)) {
  row_.fields.reserve(columns_.size());
  if (options_.format == CopyOptions::Format::Binary) binary_ = std::make_unique<BinaryCopyParser>(columns_.size());
}

CopyInParser::~CopyInParser() = default;

int64_t CopyInParser::lineNumber() const { return binary_ ? binary_->lineNumber() : line_; }

void CopyInParser::feed(std::string_view data, const RowHandler& onRow) {
  if (binary_) return binary_->feed(data);
  if (ended_) return;  // PostgreSQL ignores whatever follows the \. marker
  pending_.append(data);
  size_t pos = 0;
  while (!ended_) {
    size_t end = rowEnd(pos);
    if (end == std::string::npos) break;
    std::string_view line(pending_.data() + pos, end - pos);
    pos = end;
    if (!line.empty() && line.back() == '\n') line.remove_suffix(1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    parseRow(line, onRow);
  }
  pending_.erase(0, pos);
}

void CopyInParser::finish(const RowHandler& onRow) {
  if (binary_) return binary_->finish(onRow);
  if (!ended_ && !pending_.empty()) {
    std::string_view line(pending_);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    parseRow(line, onRow);
  }
  pending_.clear();
}

size_t CopyInParser::rowEnd(size_t from) const {
  if (options_.format == CopyOptions::Format::Text) {
    size_t nl = pending_.find('\n', from);
    return nl == std::string::npos ? nl : nl + 1;
  }
  bool inQuotes = false;
  for (size_t i = from; i < pending_.size(); ++i) {
    char c = pending_[i];
    if (inQuotes) {
      if (c == options_.escape && options_.escape != options_.quote && i + 1 < pending_.size() &&
          (pending_[i + 1] == options_.quote || pending_[i + 1] == options_.escape)) {
        ++i;
      } else if (c == options_.quote) {
        inQuotes = false;  // a doubled quote re-enters at the next character
      }
    } else if (c == options_.quote) {
      inQuotes = true;
    } else if (c == '\n') {
      return i + 1;
    }
  }
  return std::string::npos;
}

void CopyInParser::parseRow(std::string_view line, const RowHandler& onRow) {
  ++line_;
  if (line == "\\.") {
    ended_ = true;
    return;
  }
  if (options_.header && !headerSkipped_) {
    headerSkipped_ = true;
    return;
  }
  row_.fields.clear();
  row_.rawLine = line;
  if (options_.format == CopyOptions::Format::Text) {
    parseTextFields(line);
  } else {
    parseCsvFields(line);
  }
  if (row_.fields.size() < columns_.size()) {
    fail(fmt::format("missing data for column \"{}\"", columns_[row_.fields.size()]), line);
  }
  if (row_.fields.size() > columns_.size()) fail("extra data after last expected column", line);
  onRow(row_);
}

void CopyInParser::parseTextFields(std::string_view line) {
  size_t i = 0;
  while (true) {
    size_t start = i;
    std::string value;
    while (i < line.size() && line[i] != options_.delimiter) {
      char c = line[i++];
      if (c != '\\' || i >= line.size()) {
        value += c;
        continue;
      }
      char e = line[i++];
      switch (e) {
        case 'b': value += '\b'; break;
        case 'f': value += '\f'; break;
        case 'n': value += '\n'; break;
        case 'r': value += '\r'; break;
        case 't': value += '\t'; break;
        case 'v': value += '\v'; break;
        case 'x':
          if (i < line.size() && hexDigitValue(line[i]) >= 0) {
            int v = hexDigitValue(line[i++]);
            if (i < line.size() && hexDigitValue(line[i]) >= 0) v = v * 16 + hexDigitValue(line[i++]);
            value += static_cast<char>(v);
          } else {
            value += 'x';
          }
          break;
        default:
          if (e >= '0' && e <= '7') {
            int v = e - '0';
            for (int k = 0; k < 2 && i < line.size() && line[i] >= '0' && line[i] <= '7'; ++k) {
              v = v * 8 + (line[i++] - '0');
            }
            value += static_cast<char>(v);
          } else {
            value += e;  // \\, \<delimiter> and any other character stand for themselves
          }
      }
    }
    // The NULL marker is compared with the field as written, before de-escaping.
    if (line.substr(start, i - start) == options_.null) {
      row_.fields.emplace_back(std::nullopt);
    } else {
      row_.fields.emplace_back(std::move(value));
    }
    if (i >= line.size()) break;
    ++i;  // the delimiter
  }
}

void CopyInParser::parseCsvFields(std::string_view line) {
  size_t i = 0;
  while (true) {
    size_t start = i;
    std::string value;
    bool quoted = false;
    while (i < line.size() && line[i] != options_.delimiter) {
      if (line[i] != options_.quote) {
        value += line[i++];
        continue;
      }
      quoted = true;
      ++i;
      while (true) {
        if (i >= line.size()) fail("unterminated CSV quoted field", line);
        char c = line[i];
        if (c == options_.escape && i + 1 < line.size() &&
            (line[i + 1] == options_.quote || line[i + 1] == options_.escape) &&
            (options_.escape != options_.quote || line[i + 1] == options_.quote)) {
          value += line[i + 1];
          i += 2;
        } else if (c == options_.quote) {
          ++i;
          break;
        } else {
          value += c;
          ++i;
        }
      }
    }
    // Only an unquoted field matching the NULL string is NULL ("" stays an empty string).
    if (!quoted && line.substr(start, i - start) == options_.null) {
      row_.fields.emplace_back(std::nullopt);
    } else {
      row_.fields.emplace_back(std::move(value));
    }
    if (i >= line.size()) break;
    ++i;
  }
}

void CopyInParser::fail(const std::string& message, std::string_view line) const {
  throw SqlError(sqlstate::kBadCopyFileFormat, message, fmt::format("COPY, line {}: \"{}\"", line_, line));
}

void appendCopyRow(const CopyOptions& options, const std::vector<std::string_view>& fields,
                   const std::vector<bool>& isNull, std::string& out) {
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) out += options.delimiter;
    if (isNull[i]) {
      out += options.null;
      continue;
    }
    std::string_view f = fields[i];
    if (options.format == CopyOptions::Format::Text) {
      for (char c : f) {
        switch (c) {
          case '\\': out += "\\\\"; break;
          case '\n': out += "\\n"; break;
          case '\r': out += "\\r"; break;
          case '\t': out += "\\t"; break;
          case '\b': out += "\\b"; break;
          case '\f': out += "\\f"; break;
          case '\v': out += "\\v"; break;
          default:
            if (c == options.delimiter) out += '\\';
            out += c;
        }
      }
      continue;
    }
    // A lone \. would read back as the end-of-data marker.
    bool needsQuotes = f == options.null || (fields.size() == 1 && f == "\\.");
    for (char c : f) {
      if (c == options.delimiter || c == options.quote || c == options.escape || c == '\n' || c == '\r') {
        needsQuotes = true;
      }
    }
    if (!needsQuotes) {
      out += f;
      continue;
    }
    out += options.quote;
    for (char c : f) {
      if (c == options.quote || c == options.escape) out += options.escape;
      out += c;
    }
    out += options.quote;
  }
  out += '\n';
}

}  // namespace duet
