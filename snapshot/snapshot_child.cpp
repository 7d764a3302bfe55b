// The snapshot process after fork(): only the executor thread came along, so nothing the
// other threads held (network state, the executor's queue) is touched; the locks a query
// needs (JIT, time zones, statement timer) are made fork-safe where they live
// (pthread_atfork). Each query runs in a session of its own, read-only, and its answer
// is streamed to the server as it is produced.
#include "snapshot/snapshot_child.h"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <new>
#include <thread>

#include <fmt/format.h>

#include "snapshot/forked_child.h"
#include "snapshot/snapshot_protocol.h"
#include "wire/backend_messages.h"
#include "wire/wire_result_sink.h"
#include "wire/wire_writer.h"

namespace duet::snapshot {
namespace {

constexpr size_t kFlushAt = 64 * 1024;

// The answer socket: backend messages are encoded into a buffer that goes out whenever it
// grows past kFlushAt, so a large result streams without being held whole.
class AnswerWriter {
 public:
  explicit AnswerWriter(int fd) : fd_(fd) {}
  std::string& buffer() { return buffer_; }
  // False once the server stopped reading (its end is closed).
  bool flush() {
    size_t at = 0;
    while (at < buffer_.size() && alive_) {
      ssize_t n = ::send(fd_, buffer_.data() + at, buffer_.size() - at, MSG_NOSIGNAL);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0)
        alive_ = false;
      else
        at += static_cast<size_t>(n);
    }
    buffer_.clear();
    return alive_;
  }
  void end(AnswerStatus status) {
    wire::WireWriter w(buffer_);
    w.begin(kAnswerEnd);
    w.byte(static_cast<char>(status));
    w.end();
    flush();
  }

 private:
  int fd_;
  bool alive_ = true;
  std::string buffer_;
};

// The wire encoder over the answer's buffer, which goes out as rows pile up; a gone reader
// stops the query.
class StreamingSink final : public wire::WireResultSink {
 public:
  explicit StreamingSink(AnswerWriter& writer) : WireResultSink(writer.buffer()), writer_(writer) {}
  void dataRow(const Field* fields, size_t count) override {
    WireResultSink::dataRow(fields, count);
    if (writer_.buffer().size() >= kFlushAt && !writer_.flush())
      throw SqlError(sqlstate::kQueryCanceled, "canceling statement: nobody reads its rows");
  }

 private:
  AnswerWriter& writer_;
};

// Cancels the session's statement when the server writes to the answer socket (a cancel
// request) or closes it (the client is gone), until the query ends.
class CancelWatcher {
 public:
  CancelWatcher(int answerFd, Session& session) {
    if (::pipe2(stop_, O_CLOEXEC) != 0) return;
    thread_ = std::thread([answerFd, &session, stopFd = stop_[0]] {
      pollfd fds[2] = {{answerFd, POLLIN | POLLRDHUP, 0}, {stopFd, POLLIN, 0}};
      while (::poll(fds, 2, -1) < 0 && errno == EINTR) {}
      if (fds[0].revents != 0) session.requestCancel();
    });
  }
  ~CancelWatcher() {
    if (!thread_.joinable()) return;
    char byte = 0;
    while (::write(stop_[1], &byte, 1) < 0 && errno == EINTR) {}
    thread_.join();
    ::close(stop_[0]);
    ::close(stop_[1]);
  }

 private:
  int stop_[2] = {-1, -1};
  std::thread thread_;
};

// duet.snapshot_memory_limit: the address space may grow by this much during the query,
// so an allocation beyond it fails (std::bad_alloc, reported as 53200) in this process
// only.
class MemoryLimit {
 public:
  explicit MemoryLimit(int64_t kb) {
    if (kb <= 0 || ::getrlimit(RLIMIT_AS, &before_) != 0) return;
    long pages = 0;
    if (FILE* f = std::fopen("/proc/self/statm", "r")) {
      if (std::fscanf(f, "%ld", &pages) != 1) pages = 0;
      std::fclose(f);
    }
    if (pages <= 0) return;
    rlim_t limit =
        static_cast<rlim_t>(pages) * static_cast<rlim_t>(::sysconf(_SC_PAGESIZE)) + static_cast<rlim_t>(kb) * 1024;
    if (before_.rlim_max != RLIM_INFINITY && limit > before_.rlim_max) limit = before_.rlim_max;
    rlimit now{limit, before_.rlim_max};
    set_ = ::setrlimit(RLIMIT_AS, &now) == 0;
  }
  ~MemoryLimit() {
    if (set_) ::setrlimit(RLIMIT_AS, &before_);
  }

 private:
  rlimit before_{};
  bool set_ = false;
};

void runQuery(Session& session, const SnapshotQuery& q, ResultSink& sink) {
  if (!q.extended) {
    session.simpleQuery(q.sql, sink);
    return;
  }
  session.parse("", q.sql, q.paramTypeOids);
  session.bind("", "", q.params, q.resultFormats);
  session.execute("", 0, sink);
  session.sync();
}

void answer(Engine& engine, const ReceivedQuery& received) {
  AnswerWriter writer(received.answerFd);
  bool failed = false;
  try {
    SnapshotQuery q = decodeQuery(received.message);
    auto params = q.startupParams;
    // Never route again from here (writes are refused: Engine::setParallelThreads marked
    // this engine a snapshot process's).
    params.emplace_back("duet.snapshot_routing", "never");
    // This process's limit is its address space (below), not the executor's.
    params.emplace_back("duet.executor_memory_limit", "0");
    MemoryLimit limit(q.memoryLimitKb);
    try {
      std::unique_ptr<Session> session = engine.openSession(params);
      session->setClientInfo(q.backendPid, "", -1);
      CancelWatcher watcher(received.answerFd, *session);
      StreamingSink sink(writer);
      runQuery(*session, q, sink);
    } catch (const std::bad_alloc&) {
      throw SqlError(
          sqlstate::kOutOfMemory, "out of memory",
          fmt::format("The query on a snapshot needed more than duet.snapshot_memory_limit ({} kB).", q.memoryLimitKb));
    }
  } catch (const SqlError& e) {
    failed = true;
    wire::writeError(writer.buffer(), e, "ERROR");
  } catch (const std::exception& e) {
    failed = true;
    wire::writeError(writer.buffer(), SqlError(sqlstate::kInternalError, e.what()), "ERROR");
  }
  writer.end(failed ? AnswerStatus::Failed : AnswerStatus::Ok);
}

}  // namespace

void runSnapshotChild(Engine& engine, int controlFd, pid_t parent, const SnapshotConfig& config) {
  // Keep only the control socket, as descriptor 3.
  if (controlFd != 3) {
    ::dup2(controlFd, 3);
    controlFd = 3;
  }
  becomeForkedChild(parent, "duet-snapshot", 4, config.nice);
  // Analytic statements here may use every core the process is allowed (the executor
  // stays one thread in the parent): max_parallel_workers_per_gather caps it per session.
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  // Also what marks this engine a snapshot process's, whose transactions write nothing.
  bool known = ::sched_getaffinity(0, sizeof cpus, &cpus) == 0;
  engine.setParallelThreads(known ? static_cast<uint32_t>(CPU_COUNT(&cpus)) : 1);
  while (auto received = receiveQuery(controlFd)) {
    answer(engine, *received);
    ::close(received->answerFd);
  }
  ::_exit(0);
}

}  // namespace duet::snapshot
