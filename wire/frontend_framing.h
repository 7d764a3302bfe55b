// Splitting the client's byte stream into messages, on the network thread, before anything
// reaches the executor: the startup packet (length-prefixed, no type byte) and then typed
// messages. Only lengths and type bytes are checked here; bodies are read on the executor.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace duet::wire {

inline constexpr size_t kMaxStartupPacket = 10000;            // as PostgreSQL's MAX_STARTUP_PACKET_LENGTH
inline constexpr size_t kMaxMessageLength = size_t(1) << 30;  // 1 GiB, PostgreSQL's MaxAllocSize

inline constexpr int32_t kSslRequestCode = 80877103;
inline constexpr int32_t kGssEncRequestCode = 80877104;
inline constexpr int32_t kCancelRequestCode = 80877102;

// How much of a buffer holds complete, well-formed typed messages; `violation` is set when
// the message after them is malformed (bad type or length), with the FATAL text to send.
struct FrameScan {
  size_t completeBytes = 0;
  std::optional<std::string> violation;
};
FrameScan scanMessages(std::string_view buffer);

struct StartupPacket {
  enum class Kind { Incomplete, Invalid, SslRequest, GssEncRequest, Cancel, Startup };
  Kind kind = Kind::Incomplete;
  size_t length = 0;  // bytes the packet occupies in the buffer
  std::string error;  // Invalid: FATAL text; its SQLSTATE is errorCode
  const char* errorCode = "08P01";
  int32_t cancelPid = 0;
  int32_t cancelSecret = 0;
  int32_t protocolMinor = 0;                                // Startup: the 3.x minor the client asked for
  std::vector<std::pair<std::string, std::string>> params;  // Startup, without _pq_. options
  std::vector<std::string> unknownOptions;                  // Startup: _pq_. options
};
StartupPacket parseStartupPacket(std::string_view buffer);

}  // namespace duet::wire
