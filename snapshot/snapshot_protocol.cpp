#include "snapshot/snapshot_protocol.h"

#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace duet::snapshot {
namespace {

void putU32(std::string& out, uint32_t v) {
  char b[4] = {char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
  out.append(b, 4);
}
void putString(std::string& out, std::string_view s) {
  putU32(out, static_cast<uint32_t>(s.size()));
  out.append(s);
}
void putU64(std::string& out, uint64_t v) {
  putU32(out, static_cast<uint32_t>(v >> 32));
  putU32(out, static_cast<uint32_t>(v));
}

struct Reader {
  std::string_view in;
  uint32_t u32() {
    if (in.size() < 4) throw std::runtime_error("snapshot query: truncated");
    uint32_t v = (uint32_t(uint8_t(in[0])) << 24) | (uint32_t(uint8_t(in[1])) << 16) |
                 (uint32_t(uint8_t(in[2])) << 8) | uint32_t(uint8_t(in[3]));
    in.remove_prefix(4);
    return v;
  }
  uint64_t u64() {
    uint64_t high = u32();
    return (high << 32) | u32();
  }
  std::string string() {
    uint32_t n = u32();
    if (in.size() < n) throw std::runtime_error("snapshot query: truncated");
    std::string s(in.substr(0, n));
    in.remove_prefix(n);
    return s;
  }
};

// Loops over partial writes and EINTR; false when the peer is gone.
bool sendAll(int fd, const char* data, size_t size) {
  while (size > 0) {
    ssize_t n = ::send(fd, data, size, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

std::string encodeQuery(const SnapshotQuery& q) {
  std::string out;
  putU32(out, static_cast<uint32_t>(q.startupParams.size()));
  for (const auto& [name, value] : q.startupParams) {
    putString(out, name);
    putString(out, value);
  }
  putString(out, q.sql);
  putU32(out, q.extended ? 1 : 0);
  putU32(out, static_cast<uint32_t>(q.paramTypeOids.size()));
  for (uint32_t oid : q.paramTypeOids) putU32(out, oid);
  putU32(out, static_cast<uint32_t>(q.params.size()));
  for (const BindParam& p : q.params) {
    putU32(out, p.value ? 1 : 0);
    putString(out, p.value ? *p.value : std::string());
    putU32(out, static_cast<uint32_t>(static_cast<uint16_t>(p.format)));
  }
  putU32(out, static_cast<uint32_t>(q.resultFormats.size()));
  for (int16_t f : q.resultFormats) putU32(out, static_cast<uint32_t>(static_cast<uint16_t>(f)));
  putU64(out, static_cast<uint64_t>(q.memoryLimitKb));
  return out;
}

SnapshotQuery decodeQuery(std::string_view payload) {
  Reader r{payload};
  SnapshotQuery q;
  for (uint32_t n = r.u32(); n > 0; --n) {
    std::string name = r.string();
    q.startupParams.emplace_back(std::move(name), r.string());
  }
  q.sql = r.string();
  q.extended = r.u32() != 0;
  for (uint32_t n = r.u32(); n > 0; --n) q.paramTypeOids.push_back(r.u32());
  for (uint32_t n = r.u32(); n > 0; --n) {
    BindParam p;
    bool present = r.u32() != 0;
    std::string value = r.string();
    if (present) p.value = std::move(value);
    p.format = static_cast<int16_t>(r.u32());
    q.params.push_back(std::move(p));
  }
  for (uint32_t n = r.u32(); n > 0; --n) q.resultFormats.push_back(static_cast<int16_t>(r.u32()));
  q.memoryLimitKb = static_cast<int64_t>(r.u64());
  return q;
}

bool sendQuery(int controlFd, std::string_view payload, int answerFd) {
  std::string message;
  putU32(message, static_cast<uint32_t>(payload.size()));
  message.append(payload);
  // The fd travels with the first byte; the rest follows as plain stream data.
  iovec iov{message.data(), 1};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control;
  msg.msg_controllen = sizeof control;
  cmsghdr* c = CMSG_FIRSTHDR(&msg);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof(int));
  std::memcpy(CMSG_DATA(c), &answerFd, sizeof(int));
  ssize_t n;
  do n = ::sendmsg(controlFd, &msg, MSG_NOSIGNAL);
  while (n < 0 && errno == EINTR);
  if (n != 1) return false;
  return sendAll(controlFd, message.data() + 1, message.size() - 1);
}

std::optional<ReceivedQuery> receiveQuery(int controlFd) {
  ReceivedQuery received;
  char first = 0;
  iovec iov{&first, 1};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control;
  msg.msg_controllen = sizeof control;
  ssize_t n;
  do n = ::recvmsg(controlFd, &msg, MSG_CMSG_CLOEXEC);
  while (n < 0 && errno == EINTR);
  if (n != 1) return std::nullopt;
  for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c != nullptr; c = CMSG_NXTHDR(&msg, c)) {
    if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
      std::memcpy(&received.answerFd, CMSG_DATA(c), sizeof(int));
  }
  auto readAll = [&](char* data, size_t size) {
    while (size > 0) {
      ssize_t got = ::read(controlFd, data, size);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) return false;
      data += got;
      size -= static_cast<size_t>(got);
    }
    return true;
  };
  char rest[3];
  if (received.answerFd < 0 || !readAll(rest, 3)) {
    if (received.answerFd >= 0) ::close(received.answerFd);
    return std::nullopt;
  }
  uint32_t length = (uint32_t(uint8_t(first)) << 24) | (uint32_t(uint8_t(rest[0])) << 16) |
                    (uint32_t(uint8_t(rest[1])) << 8) | uint32_t(uint8_t(rest[2]));
  received.payload.resize(length);
  if (!readAll(received.payload.data(), length)) {
    ::close(received.answerFd);
    return std::nullopt;
  }
  return received;
}

}  // namespace duet::snapshot
