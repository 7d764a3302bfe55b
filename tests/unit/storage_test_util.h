// Helpers for storage tests: build tuples in a TupleLayout and read fields back.
#pragma once
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "engine/storage/layout.h"
#include "engine/types/value.h"

namespace duet::test {

class TupleBuf {
 public:
  explicit TupleBuf(const TupleLayout& l) : layout_(l), bytes_(l.size, 0) {}
  TupleBuf& null(uint32_t c) {
    bytes_[c] = 1;
    return *this;
  }
  template <typename T>
  TupleBuf& set(uint32_t c, T v) {
    bytes_[c] = 0;
    std::memcpy(bytes_.data() + layout_.offsets[c], &v, sizeof v);
    return *this;
  }
  TupleBuf& str(uint32_t c, const std::string& s) {
    strings_.push_back(std::vector<uint8_t>(sizeof(VarString) + s.size()));
    auto* v = reinterpret_cast<VarString*>(strings_.back().data());
    v->len = static_cast<uint32_t>(s.size());
    std::memcpy(v->data, s.data(), s.size());
    return set<const VarString*>(c, v);
  }
  const uint8_t* data() const { return bytes_.data(); }
  uint8_t* data() { return bytes_.data(); }

 private:
  const TupleLayout& layout_;
  std::vector<uint8_t> bytes_;
  std::vector<std::vector<uint8_t>> strings_;
};

template <typename T>
T field(const TupleLayout& l, const uint8_t* t, uint32_t c) {
  T v;
  std::memcpy(&v, t + l.offsets[c], sizeof v);
  return v;
}

inline std::string strField(const TupleLayout& l, const uint8_t* t, uint32_t c) {
  return std::string(field<const VarString*>(l, t, c)->view());
}

}  // namespace duet::test
