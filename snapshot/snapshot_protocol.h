// What the server and a snapshot process say to each other (docs/snapshots.md).
//
// Control socket (one per snapshot process, a Unix stream socketpair made before fork):
// the server sends one message per query, framed as a wire message (type 'q', length,
// body: the SnapshotQuery), and with it (SCM_RIGHTS) the socket the answer goes to. The snapshot answers each query in
// turn; the server closing the control socket tells the process to exit.
//
// Answer socket (one per query): the backend messages for the client, exactly as they go
// on the wire, then an end message of the private type kAnswerEnd with one status byte.
// A stream that stops without it means the process died. A byte the server writes on it
// is a cancel request; the server closing it means nobody reads the answer any more.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "session/session_api.h"

namespace duet::snapshot {

// Never a PostgreSQL backend message type: the server keeps it from the client.
inline constexpr char kAnswerEnd = '\xff';
enum class AnswerStatus : uint8_t { Ok = 0, Failed = 1 };

// The whole control message (frame included).
std::string encodeQuery(const SnapshotQuery& query);
// Throws SqlError (08P01) on a malformed message: a bug, reported to the statement's client.
SnapshotQuery decodeQuery(std::string_view message);

// Sends a control message with answerFd attached; false if the peer is gone.
bool sendQuery(int controlFd, std::string_view message, int answerFd);
// Receives one control message and the attached fd, or nullopt at end of stream (or error).
struct ReceivedQuery {
  std::string message;
  int answerFd = -1;
};
std::optional<ReceivedQuery> receiveQuery(int controlFd);

}  // namespace duet::snapshot
