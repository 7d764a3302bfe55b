#include "snapshot/snapshot_protocol.h"

#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "wire/message_reader.h"
#include "wire/wire_writer.h"

namespace duet::snapshot {
namespace {

// The control message's type byte; its frame is a backend message's (type, length, body).
constexpr char kQueryMessage = 'q';

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

bool readAll(int fd, char* data, size_t size) {
  while (size > 0) {
    ssize_t n = ::read(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

// One byte of stream data with room for one descriptor beside it (SCM_RIGHTS), for
// sendmsg and recvmsg alike.
struct DescriptorMessage {
  explicit DescriptorMessage(char* byte) : iov{byte, 1} {
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
  }
  iovec iov;
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
  msghdr msg{};
};

}  // namespace

std::string encodeQuery(const SnapshotQuery& q) {
  // Bind's way with parameters: a count, then each as a length (-1: NULL) and bytes.
  std::string out;
  wire::WireWriter w(out);
  w.begin(kQueryMessage);
  w.int32(static_cast<int32_t>(q.startupParams.size()));
  for (const auto& [name, value] : q.startupParams) {
    w.cstr(name);
    w.cstr(value);
  }
  w.cstr(q.sql);
  w.byte(q.extended ? 1 : 0);
  w.int32(static_cast<int32_t>(q.paramTypeOids.size()));
  for (uint32_t oid : q.paramTypeOids) w.int32(static_cast<int32_t>(oid));
  w.int32(static_cast<int32_t>(q.params.size()));
  for (const BindParam& p : q.params) {
    w.int16(p.format);
    w.int32(p.value ? static_cast<int32_t>(p.value->size()) : -1);
    if (p.value) w.bytes(p.value->data(), p.value->size());
  }
  w.int32(static_cast<int32_t>(q.resultFormats.size()));
  for (int16_t f : q.resultFormats) w.int16(f);
  w.int32(static_cast<int32_t>(q.memoryLimitKb >> 32));
  w.int32(static_cast<int32_t>(q.memoryLimitKb));
  w.int32(q.backendPid);
  w.end();
  return out;
}

SnapshotQuery decodeQuery(std::string_view message) {
  wire::MessageReader r(message);
  if (r.byte() != kQueryMessage) throw wire::protocolViolation("snapshot: not a query message");
  r.int32();  // the frame's length, checked by receiveQuery
  SnapshotQuery q;
  for (int32_t n = r.int32(); n > 0; --n) {
    std::string name(r.cstr());
    q.startupParams.emplace_back(std::move(name), std::string(r.cstr()));
  }
  q.sql = r.cstr();
  q.extended = r.byte() != 0;
  for (int32_t n = r.int32(); n > 0; --n) q.paramTypeOids.push_back(static_cast<uint32_t>(r.int32()));
  for (int32_t n = r.int32(); n > 0; --n) {
    BindParam p;
    p.format = r.int16();
    int32_t length = r.int32();
    if (length >= 0) p.value = std::string(r.bytes(static_cast<size_t>(length)));
    q.params.push_back(std::move(p));
  }
  for (int32_t n = r.int32(); n > 0; --n) q.resultFormats.push_back(r.int16());
  uint64_t high = static_cast<uint32_t>(r.int32());
  q.memoryLimitKb = static_cast<int64_t>((high << 32) | static_cast<uint32_t>(r.int32()));
  q.backendPid = r.int32();
  r.expectEnd();
  return q;
}

bool sendQuery(int controlFd, std::string_view message, int answerFd) {
  // The descriptor travels with the first byte; the rest follows as plain stream data.
  char first = message[0];
  DescriptorMessage m(&first);
  cmsghdr* c = CMSG_FIRSTHDR(&m.msg);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof(int));
  std::memcpy(CMSG_DATA(c), &answerFd, sizeof(int));
  ssize_t n;
  do n = ::sendmsg(controlFd, &m.msg, MSG_NOSIGNAL);
  while (n < 0 && errno == EINTR);
  return n == 1 && sendAll(controlFd, message.data() + 1, message.size() - 1);
}

std::optional<ReceivedQuery> receiveQuery(int controlFd) {
  ReceivedQuery received;
  received.message.resize(5);
  DescriptorMessage m(received.message.data());
  ssize_t n;
  do n = ::recvmsg(controlFd, &m.msg, MSG_CMSG_CLOEXEC);
  while (n < 0 && errno == EINTR);
  if (n != 1) return std::nullopt;
  for (cmsghdr* c = CMSG_FIRSTHDR(&m.msg); c != nullptr; c = CMSG_NXTHDR(&m.msg, c)) {
    if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
      std::memcpy(&received.answerFd, CMSG_DATA(c), sizeof(int));
  }
  if (received.answerFd < 0) return std::nullopt;
  bool ok = readAll(controlFd, received.message.data() + 1, 4);
  if (ok) {
    uint32_t length = wire::readLength(received.message.data() + 1);
    ok = length >= 4;
    if (ok) {
      received.message.resize(1 + static_cast<size_t>(length));
      ok = readAll(controlFd, received.message.data() + 5, static_cast<size_t>(length) - 4);
    }
  }
  if (!ok) {
    ::close(received.answerFd);
    return std::nullopt;
  }
  return received;
}

}  // namespace duet::snapshot
