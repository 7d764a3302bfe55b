// The end the JIT's threads need in duet_unit_tests: a test's plans may have optimised tiers
// still being compiled when the last test ends, and exit destroys LLVM's static objects
// (compiler.h, finishCompilerThreads). Not in duet_thread_tests, which has no compiler.
#define CATCH_CONFIG_EXTERNAL_INTERFACES  // the listener interface
#include <catch2/catch.hpp>

#include "compiler/compiler.h"

namespace {

struct CompilerThreadsListener : Catch::TestEventListenerBase {
  using TestEventListenerBase::TestEventListenerBase;
  void testRunEnded(const Catch::TestRunStats& stats) override {
    duet::finishCompilerThreads();
    TestEventListenerBase::testRunEnded(stats);
  }
};

}  // namespace

CATCH_REGISTER_LISTENER(CompilerThreadsListener)
