// The serial executor's scheduling rule (FIFO, except a transaction-block holder runs alone),
// its idle-in-transaction timeout, and cleanup tasks that run past a holder.
#include <catch2/catch.hpp>

#include <chrono>
#include <future>
#include <mutex>
#include <string>
#include <vector>

#include "fake_engine.h"
#include "session/executor.h"

using namespace duet;
using namespace std::chrono_literals;

namespace {

// Records the order tasks ran in.
struct Trace {
  std::mutex mutex;
  std::vector<std::string> events;
  void add(std::string e) {
    std::lock_guard lock(mutex);
    events.push_back(std::move(e));
  }
  std::vector<std::string> get() {
    std::lock_guard lock(mutex);
    return events;
  }
};

// Blocks until every task submitted so far (that can run) has run.
void drain(Executor& executor, Session* owner = nullptr) {
  std::promise<void> done;
  executor.submit(owner, [&] { done.set_value(); });
  REQUIRE(done.get_future().wait_for(5s) == std::future_status::ready);
}

}  // namespace

TEST_CASE("executor runs tasks of different sessions in FIFO order", "[executor]") {
  test::FakeEngineState state;
  test::FakeSession a(state), b(state);
  Executor executor;
  executor.start();
  Trace trace;
  executor.submit(&a, [&] { trace.add("a1"); });
  executor.submit(&b, [&] { trace.add("b1"); });
  executor.submit(&a, [&] { trace.add("a2"); });
  drain(executor);
  CHECK(trace.get() == std::vector<std::string>{"a1", "b1", "a2"});
}

TEST_CASE("a session with an open block holds the executor until the block ends", "[executor]") {
  test::FakeEngineState state;
  test::FakeSession a(state), b(state);
  Executor executor;
  executor.start();
  Trace trace;
  executor.submit(&a, [&] {
    a.setInBlock(true);
    trace.add("a-begin");
  });
  executor.submit(&b, [&] { trace.add("b1"); });
  executor.submit(nullptr, [&] { trace.add("startup"); });
  std::this_thread::sleep_for(50ms);
  CHECK(trace.get() == std::vector<std::string>{"a-begin"});
  executor.submit(&a, [&] { trace.add("a-work"); });
  std::this_thread::sleep_for(50ms);
  CHECK(trace.get() == std::vector<std::string>{"a-begin", "a-work"});
  executor.submit(&a, [&] {
    a.setInBlock(false);
    trace.add("a-commit");
  });
  drain(executor);
  CHECK(trace.get() == std::vector<std::string>{"a-begin", "a-work", "a-commit", "b1", "startup"});
}

TEST_CASE("a task that may run beside a holder does, and knows it", "[executor]") {
  test::FakeEngineState state;
  test::FakeSession a(state), b(state);
  Executor executor;
  executor.start();
  Trace trace;
  executor.submit(&b, [&] { trace.add(Executor::runningBesideHolder() ? "b0-beside" : "b0"); }, false, true);
  executor.submit(&a, [&] {
    a.setInBlock(true);
    trace.add("a-begin");
  });
  executor.submit(&b, [&] { trace.add("b1"); });  // waits for the block
  executor.submit(&b, [&] { trace.add(Executor::runningBesideHolder() ? "b2-beside" : "b2"); }, false, true);
  std::this_thread::sleep_for(50ms);
  CHECK(trace.get() == std::vector<std::string>{"b0", "a-begin", "b2-beside"});
  executor.submit(&a, [&] { trace.add(Executor::runningBesideHolder() ? "a-beside" : "a-work"); }, false, true);
  executor.submit(&a, [&] {
    a.setInBlock(false);
    trace.add("a-commit");
  });
  drain(executor);
  CHECK(trace.get() == std::vector<std::string>{"b0", "a-begin", "b2-beside", "a-work", "a-commit", "b1"});
}

TEST_CASE("an idle holder is rolled back and its owner notified after the timeout", "[executor]") {
  test::FakeEngineState state;
  state.idleTimeoutMs = 100;
  test::FakeSession a(state), b(state);
  Executor executor;
  std::promise<Session*> timedOut;
  executor.setIdleTimeoutHandler([&](Session* s) { timedOut.set_value(s); });
  executor.start();
  Trace trace;
  auto started = std::chrono::steady_clock::now();
  executor.submit(&a, [&] { a.setInBlock(true); });
  executor.submit(&b, [&] { trace.add("b1"); });
  auto future = timedOut.get_future();
  REQUIRE(future.wait_for(5s) == std::future_status::ready);
  CHECK(future.get() == &a);
  CHECK(std::chrono::steady_clock::now() - started >= 100ms);
  CHECK(state.rollbacks == 1);
  CHECK_FALSE(a.holdsExecutor());
  drain(executor);
  CHECK(trace.get() == std::vector<std::string>{"b1"});
}

TEST_CASE("the idle timer restarts after each of the holder's tasks", "[executor]") {
  test::FakeEngineState state;
  state.idleTimeoutMs = 150;
  test::FakeSession a(state);
  Executor executor;
  std::atomic<int> timeouts = 0;
  executor.setIdleTimeoutHandler([&](Session*) { ++timeouts; });
  executor.start();
  executor.submit(&a, [&] { a.setInBlock(true); });
  for (int i = 0; i < 4; ++i) {
    std::this_thread::sleep_for(80ms);
    executor.submit(&a, [] {});
  }
  CHECK(timeouts == 0);
  executor.submit(&a, [&] { a.setInBlock(false); });
  drain(executor);
  CHECK(timeouts == 0);
}

TEST_CASE("a cleanup task runs past a holder and drops its owner's queued tasks", "[executor]") {
  test::FakeEngineState state;
  test::FakeSession a(state);
  auto b = std::make_unique<test::FakeSession>(state);
  Executor executor;
  executor.start();
  Trace trace;
  executor.submit(&a, [&] { a.setInBlock(true); });
  executor.submit(b.get(), [&] { trace.add("b-dropped"); });
  std::promise<void> cleaned;
  Session* raw = b.get();
  executor.submitCleanup(raw, [&] {
    b.reset();
    trace.add("b-cleanup");
    cleaned.set_value();
  });
  REQUIRE(cleaned.get_future().wait_for(5s) == std::future_status::ready);
  CHECK(a.holdsExecutor());
  executor.submit(&a, [&] { a.setInBlock(false); });
  drain(executor);
  CHECK(trace.get() == std::vector<std::string>{"b-cleanup"});
  CHECK(state.liveSessions == 1);
}

TEST_CASE("a task that throws does not stop the executor", "[executor]") {
  Executor executor;
  executor.start();
  executor.submit(nullptr, [] { throw std::runtime_error("boom"); });
  drain(executor);
  executor.stop();
  CHECK_FALSE(executor.submit(nullptr, [] {}));
}
