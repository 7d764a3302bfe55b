// Reads the body of one frontend message with bounds checks. Running past the end, or a
// string without its terminator, is a protocol violation that ends the connection.
#pragma once
#include <cstdint>
#include <cstring>
#include <string_view>

#include "engine/error.h"

namespace duet::wire {

// The big-endian 32-bit length field of a message frame (the frame's bytes after the type
// byte, the length field included).
inline uint32_t readLength(const char* p) {
  return (uint32_t(uint8_t(p[0])) << 24) | (uint32_t(uint8_t(p[1])) << 16) | (uint32_t(uint8_t(p[2])) << 8) |
         uint32_t(uint8_t(p[3]));
}

// A malformed message: FATAL 08P01, the connection is closed after reporting it.
inline SqlError protocolViolation(std::string message) {
  SqlError e(sqlstate::kProtocolViolation, std::move(message));
  e.fatal = true;
  return e;
}

class MessageReader {
 public:
  explicit MessageReader(std::string_view body) : p_(body.data()), end_(body.data() + body.size()) {}

  uint8_t byte() {
    need(1);
    return static_cast<uint8_t>(*p_++);
  }
  int16_t int16() {
    need(2);
    auto u = static_cast<uint16_t>((uint8_t(p_[0]) << 8) | uint8_t(p_[1]));
    p_ += 2;
    return static_cast<int16_t>(u);
  }
  int32_t int32() {
    need(4);
    uint32_t u = (uint32_t(uint8_t(p_[0])) << 24) | (uint32_t(uint8_t(p_[1])) << 16) | (uint32_t(uint8_t(p_[2])) << 8) |
                 uint32_t(uint8_t(p_[3]));
    p_ += 4;
    return static_cast<int32_t>(u);
  }
  std::string_view cstr() {
    const void* nul = std::memchr(p_, '\0', static_cast<size_t>(end_ - p_));
    if (nul == nullptr) throw protocolViolation("invalid string in message");
    std::string_view s(p_, static_cast<const char*>(nul) - p_);
    p_ += s.size() + 1;
    return s;
  }
  std::string_view bytes(size_t n) {
    need(n);
    std::string_view s(p_, n);
    p_ += n;
    return s;
  }
  size_t remaining() const { return static_cast<size_t>(end_ - p_); }
  void expectEnd() const {
    if (p_ != end_) throw protocolViolation("invalid message format");
  }

 private:
  void need(size_t n) const {
    if (static_cast<size_t>(end_ - p_) < n) throw protocolViolation("insufficient data left in message");
  }

  const char* p_;
  const char* end_;
};

}  // namespace duet::wire
