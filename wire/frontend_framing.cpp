#include "wire/frontend_framing.h"

#include <fmt/format.h>

#include "wire/message_reader.h"

namespace duet::wire {

namespace {

bool isFrontendType(char type) {
  switch (type) {
    case 'Q':
    case 'P':
    case 'B':
    case 'D':
    case 'E':
    case 'C':
    case 'S':
    case 'H':
    case 'X':
    case 'd':
    case 'c':
    case 'f':
    case 'F': return true;
    default: return false;
  }
}

}  // namespace

FrameScan scanMessages(std::string_view buffer) {
  FrameScan scan;
  size_t at = 0;
  while (buffer.size() - at >= 1) {
    char type = buffer[at];
    if (!isFrontendType(type)) {
      scan.violation = fmt::format("invalid frontend message type {}", int(uint8_t(type)));
      break;
    }
    if (buffer.size() - at < 5) break;
    uint32_t length = readLength(buffer.data() + at + 1);
    if (length < 4 || length > kMaxMessageLength) {
      scan.violation = fmt::format("invalid message length {} for message type \"{}\"", length, type);
      break;
    }
    if (buffer.size() - at - 1 < length) break;
    at += 1 + length;
  }
  scan.completeBytes = at;
  return scan;
}

StartupPacket parseStartupPacket(std::string_view buffer) {
  StartupPacket packet;
  if (buffer.size() < 4) return packet;
  uint32_t length = readLength(buffer.data());
  if (length < 8 || length > kMaxStartupPacket) {
    packet.kind = StartupPacket::Kind::Invalid;
    packet.error = "invalid length of startup packet";
    return packet;
  }
  if (buffer.size() < length) return packet;
  packet.length = length;
  MessageReader reader(buffer.substr(4, length - 4));
  int32_t code = reader.int32();
  if (code == kSslRequestCode || code == kGssEncRequestCode) {
    packet.kind = code == kSslRequestCode ? StartupPacket::Kind::SslRequest : StartupPacket::Kind::GssEncRequest;
    return packet;
  }
  if (code == kCancelRequestCode) {
    if (length != 16) {
      packet.kind = StartupPacket::Kind::Invalid;
      packet.error = "invalid length of cancel request packet";
      return packet;
    }
    packet.kind = StartupPacket::Kind::Cancel;
    packet.cancelPid = reader.int32();
    packet.cancelSecret = reader.int32();
    return packet;
  }
  int major = static_cast<uint32_t>(code) >> 16;
  packet.protocolMinor = code & 0xffff;
  if (major != 3) {
    packet.kind = StartupPacket::Kind::Invalid;
    packet.errorCode = "0A000";
    packet.error =
        fmt::format("unsupported frontend protocol {}.{}: server supports 3.0 to 3.0", major, packet.protocolMinor);
    return packet;
  }
  // Name/value pairs, ended by an empty name.
  try {
    for (;;) {
      std::string_view name = reader.cstr();
      if (name.empty()) break;
      std::string_view value = reader.cstr();
      if (name.starts_with("_pq_."))
        packet.unknownOptions.emplace_back(name);
      else
        packet.params.emplace_back(std::string(name), std::string(value));
    }
    reader.expectEnd();
  } catch (const SqlError&) {
    packet.kind = StartupPacket::Kind::Invalid;
    packet.error = "invalid startup packet layout: expected terminator as last byte";
    return packet;
  }
  packet.kind = StartupPacket::Kind::Startup;
  return packet;
}

}  // namespace duet::wire
