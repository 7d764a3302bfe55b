// The statement memory limit (engine/limits/statement_memory.h): charges against the
// innermost scope's limit, releases, the answer counted until the next message, and the
// arena and runtime arrays that charge it.
#include <catch2/catch.hpp>

#include "engine/error.h"
#include "engine/limits/statement_memory.h"
#include "engine/types/value.h"

using namespace duet;

namespace {
bool outOfMemory(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const SqlError& e) {
    return e.code == sqlstate::kOutOfMemory;
  }
  return false;
}
}  // namespace

TEST_CASE("statement memory: a charge past the limit fails and is not counted", "[exec]") {
  StatementMemoryScope scope(1000);
  chargeStatementMemory(600);
  CHECK(outOfMemory([] { chargeStatementMemory(500); }));
  chargeStatementMemory(400);  // the failed charge left nothing behind
  releaseStatementMemory(1000);
  chargeStatementMemory(1000);
  releaseStatementMemory(5000);  // never below zero: later charges still count
  chargeStatementMemory(1000);
  CHECK(outOfMemory([] { chargeStatementMemory(1); }));
}

TEST_CASE("statement memory: scopes nest, the outermost starts the count", "[exec]") {
  {
    StatementMemoryScope outer(1000);
    chargeStatementMemory(800);
    {
      StatementMemoryScope inner(1000);  // planning done, now running: still the same statement
      CHECK(outOfMemory([] { chargeStatementMemory(300); }));
    }
  }
  StatementMemoryScope next(1000);  // a new statement starts from zero
  chargeStatementMemory(900);
  StatementMemoryScope unlimited(0);
  chargeStatementMemory(size_t{1} << 40);
}

TEST_CASE("statement memory: the answer counts until the next message", "[exec]") {
  startMessageAnswer();
  {
    StatementMemoryScope first(1000);
    chargeAnswerMemory(700);
  }
  {
    StatementMemoryScope second(1000);  // same message: its answer is still waiting
    CHECK(outOfMemory([] { chargeStatementMemory(400); }));
  }
  startMessageAnswer();
  StatementMemoryScope third(1000);
  chargeStatementMemory(900);
}

TEST_CASE("statement memory: arenas and runtime arrays charge what they hold", "[exec]") {
  StatementMemoryScope scope(2 << 20);
  {
    Arena arena;
    CHECK(outOfMemory([&] { arena.allocate(4 << 20); }));
    arena.allocate(512 << 10);  // a 1 MB block
  }  // freed: the next block fits again
  Arena again;
  again.allocate(512 << 10);
  StatementVector<uint64_t> v;
  CHECK(outOfMemory([&] { v.resize(300'000); }));
  CHECK(v.empty());
}
