#include "session/value_io.h"

#include <algorithm>

#include <fmt/format.h>

#include "engine/error.h"
#include "engine/storage/tuple_storage.h"
#include "engine/types/value_io.h"

namespace duet {

ParamTuple::ParamTuple(const TupleLayout& layout) : layout_(&layout), storage_((layout.size + 15) / 16 + 1, 0) {}

bool ParamTuple::reuseFor(const TupleLayout& layout) {
  if ((layout.size + 15) / 16 + 1 > storage_.size()) return false;
  layout_ = &layout;
  std::fill(storage_.begin(), storage_.end(), 0);
  arena_.reset();
  return true;
}

void ParamTuple::set(size_t i, std::optional<std::string_view> value, int16_t format, const TypeContext& ctx) {
  uint8_t* tuple = bytes();
  if (!value) {
    tuple[layout_->nullOffset(i)] = 1;
    return;
  }
  tuple[layout_->nullOffset(i)] = 0;
  void* out = tuple + layout_->offsets[i];
  if (format == 0) {
    parseText(layout_->types[i], *value, out, arena_, ctx);
    return;
  }
  try {
    parseBinary(layout_->types[i], *value, out, arena_);
  } catch (SqlError& e) {
    throw SqlError(e.code, fmt::format("{} in bind parameter {}", e.what(), i + 1), e.detail, e.hint);
  }
}

void ParamTuple::set(size_t i, const TupleLayout& layout, const uint8_t* tuple, size_t field) {
  copyField(layout, tuple, field, *layout_, bytes(), i);
}

void RowEncoder::encode(const uint8_t* tuple, const TypeContext& ctx) {
  size_t n = fields_.size();
  buffer_.clear();
  starts_.assign(n, -1);
  ends_.assign(n, -1);
  for (size_t i = 0; i < n; ++i) {
    if (tuple[layout_->nullOffset(i)]) continue;
    starts_[i] = static_cast<int32_t>(buffer_.size());
    const void* value = tuple + layout_->offsets[i];
    if (formats_[i] == 0) {
      formatText(layout_->types[i], value, buffer_, ctx);
    } else {
      formatBinary(layout_->types[i], value, buffer_);
    }
    ends_[i] = static_cast<int32_t>(buffer_.size());
  }
  // Pointers are taken only now: appending may have moved the buffer.
  for (size_t i = 0; i < n; ++i) {
    if (starts_[i] < 0) {
      fields_[i] = Field{nullptr, -1};
    } else {
      fields_[i] = Field{buffer_.data() + starts_[i], ends_[i] - starts_[i]};
    }
  }
}

void expandResultFormats(const std::vector<int16_t>& formats, size_t columns, std::vector<int16_t>& out) {
  if (formats.size() > 1 && formats.size() != columns) {
    throw SqlError(sqlstate::kProtocolViolation,
                   fmt::format("bind message has {} result formats but query has {} columns", formats.size(), columns));
  }
  if (formats.size() > 1)
    out.assign(formats.begin(), formats.end());
  else
    out.assign(columns, formats.empty() ? int16_t{0} : formats[0]);
}

}  // namespace duet
