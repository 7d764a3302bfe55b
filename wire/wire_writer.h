// Appends PostgreSQL v3 backend messages to an output buffer: a type byte, a big-endian
// length that is patched in when the message ends, and the body.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace duet::wire {

class WireWriter {
 public:
  explicit WireWriter(std::string& out) : out_(out) {}

  void begin(char type) {
    out_.push_back(type);
    lengthAt_ = out_.size();
    out_.append(4, '\0');
  }
  void end() { patch32(lengthAt_, static_cast<uint32_t>(out_.size() - lengthAt_)); }

  void byte(char c) { out_.push_back(c); }
  void int16(int16_t v) {
    uint16_t u = static_cast<uint16_t>(v);
    char b[2] = {static_cast<char>(u >> 8), static_cast<char>(u)};
    out_.append(b, 2);
  }
  void int32(int32_t v) {
    size_t at = out_.size();
    out_.append(4, '\0');
    patch32(at, static_cast<uint32_t>(v));
  }
  void cstr(std::string_view s) {
    out_.append(s);
    out_.push_back('\0');
  }
  void bytes(const char* data, size_t len) { out_.append(data, len); }

 private:
  void patch32(size_t at, uint32_t v) {
    out_[at] = static_cast<char>(v >> 24);
    out_[at + 1] = static_cast<char>(v >> 16);
    out_[at + 2] = static_cast<char>(v >> 8);
    out_[at + 3] = static_cast<char>(v);
  }

  std::string& out_;
  size_t lengthAt_ = 0;
};

}  // namespace duet::wire
