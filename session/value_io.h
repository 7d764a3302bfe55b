// Values between the wire and tuples: parameter tuples built from Bind values or lifted
// literals, and result tuples encoded as DataRow fields (text or binary).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/storage/layout.h"
#include "engine/types/type_context.h"
#include "engine/types/value.h"
#include "session/session_api.h"

namespace duet {

// A tuple of parameter values in a TupleLayout; string values live in its own arena so a
// portal's parameters outlive the Bind message.
class ParamTuple {
 public:
  explicit ParamTuple(const TupleLayout& layout);
  // Makes this an all-zero tuple of `layout` again, keeping its memory, when that is large
  // enough (else false): the unnamed portal of each call reuses the last one's.
  bool reuseFor(const TupleLayout& layout);
  const uint8_t* data() const { return reinterpret_cast<const uint8_t*>(storage_.data()); }
  // Sets parameter i (0-based) from text or binary wire data; nullopt is NULL. Errors name
  // the parameter as PostgreSQL does ("... in bind parameter 2" for binary data).
  void set(size_t i, std::optional<std::string_view> value, int16_t format, const TypeContext& ctx);
  // Sets parameter i to field `field` of a tuple of `layout` (of the parameter's physical
  // type); a string stays where it is, so it must outlive this tuple's use.
  void set(size_t i, const TupleLayout& layout, const uint8_t* tuple, size_t field);

 private:
  uint8_t* bytes() { return reinterpret_cast<uint8_t*>(storage_.data()); }
  const TupleLayout* layout_;
  std::vector<__int128> storage_;  // 16-byte aligned, as numeric fields need
  Arena arena_;
};

// Encodes result tuples into Fields, reusing one buffer for every row.
class RowEncoder {
 public:
  // formats: one per column (0 text, 1 binary).
  RowEncoder(const TupleLayout& layout, std::vector<int16_t> formats)
      : layout_(&layout), formats_(std::move(formats)), fields_(layout.types.size()) {}
  RowEncoder() = default;
  // Encodes rows of another layout and formats from now on, keeping the buffers (a
  // session's encoder for routine calls).
  void reset(const TupleLayout& layout, const std::vector<int16_t>& formats) {
    layout_ = &layout;
    formats_.assign(formats.begin(), formats.end());
    fields_.resize(layout.types.size());
  }
  void encode(const uint8_t* tuple, const TypeContext& ctx);
  const Field* fields() const { return fields_.data(); }
  size_t size() const { return fields_.size(); }

 private:
  const TupleLayout* layout_ = nullptr;
  std::vector<int16_t> formats_;
  std::string buffer_;
  std::vector<int32_t> starts_, ends_;  // byte range of each field in buffer_
  std::vector<Field> fields_;
};

// Result formats from Bind: none = all text, one = applies to all, else one per column.
// Written into `out`, whose memory is reused.
void expandResultFormats(const std::vector<int16_t>& formats, size_t columns, std::vector<int16_t>& out);

}  // namespace duet
