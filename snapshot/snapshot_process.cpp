#include "snapshot/snapshot_process.h"

#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "snapshot/snapshot_child.h"
#include "snapshot/snapshot_protocol.h"

namespace duet::snapshot {

std::shared_ptr<SnapshotProcess> SnapshotProcess::fork(Engine& engine, const SnapshotConfig& config,
                                                       uint64_t commitCount) {
  int sockets[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sockets) != 0) {
    throw SqlError(sqlstate::kInsufficientResources,
                   fmt::format("could not create a snapshot: {}", std::strerror(errno)));
  }
  pid_t parent = ::getpid();
  auto start = std::chrono::steady_clock::now();
  pid_t pid = ::fork();
  if (pid == 0) {
    ::close(sockets[0]);
    runSnapshotChild(engine, sockets[1], parent, config);
  }
  auto end = std::chrono::steady_clock::now();
  int error = errno;
  ::close(sockets[1]);
  if (pid < 0) {
    ::close(sockets[0]);
    throw SqlError(error == ENOMEM ? sqlstate::kOutOfMemory : sqlstate::kInsufficientResources,
                   fmt::format("could not fork a snapshot process: {}", std::strerror(error)));
  }
  std::shared_ptr<SnapshotProcess> p(new SnapshotProcess());
  p->pid_ = pid;
  p->controlFd_ = sockets[0];
  p->commitCount_ = commitCount;
  p->forkedAt_ = start;
  p->forkedAtUnixMicros_ =
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count();
  p->forkMillis_ = std::chrono::duration<double, std::milli>(end - start).count();
  return p;
}

SnapshotProcess::~SnapshotProcess() {
  retire();
  if (!reap()) kill();
}

bool SnapshotProcess::send(const SnapshotQuery& query, int answerFd) {
  std::string message = encodeQuery(query);
  std::lock_guard lock(mutex_);
  return controlFd_ >= 0 && sendQuery(controlFd_, message, answerFd);
}

void SnapshotProcess::retire() {
  std::lock_guard lock(mutex_);
  if (controlFd_ >= 0) ::close(controlFd_);
  controlFd_ = -1;
}

bool SnapshotProcess::reap() {
  std::lock_guard lock(mutex_);
  if (!reaped_) {
    pid_t r = ::waitpid(pid_, nullptr, WNOHANG);
    reaped_ = r == pid_ || (r < 0 && errno == ECHILD);
  }
  return reaped_;
}

void SnapshotProcess::kill() {
  std::lock_guard lock(mutex_);
  if (reaped_) return;
  ::kill(pid_, SIGKILL);
  while (::waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {}
  reaped_ = true;
}

}  // namespace duet::snapshot
