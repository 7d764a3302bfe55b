// When the huge page collapser starts its passes (snapshot/huge_page_collapser.h): once no
// forked child has been alive for two ticks, and, if asked, while children live, every
// kAliveTicks ticks once the newest fork is that old; never while a fork is that recent.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include "snapshot/huge_page_collapser.h"

using duet::snapshot::HugePageCollapser;

namespace {

void forkAndReap() {
  pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  REQUIRE(child > 0);
  ::waitpid(child, nullptr, 0);
}

// Ticks (100 a second, as the server's timer does 10) until `passes` passes have started,
// at most a second; a pass still running holds the next one back.
void tickUntil(HugePageCollapser& c, bool childrenAlive, uint64_t passes) {
  for (int i = 0; i < 100 && c.passesStarted() < passes; ++i) {
    c.tick(childrenAlive);
    ::usleep(10000);
  }
}

}  // namespace

TEST_CASE("the collapser passes once no child is alive, and while children live only if asked", "[snapshot]") {
  forkAndReap();  // a fork since the collapser's start: something may want joining
  SECTION("no child alive: after two quiet ticks, then not again without a fork") {
    HugePageCollapser c(0, 0);
    c.tick(false);
    CHECK(c.passesStarted() == 0);
    c.tick(false);
    CHECK(c.passesStarted() == 1);
    tickUntil(c, false, 2);
    CHECK(c.passesStarted() == 1);  // that pass found nothing shared: done until a fork
    forkAndReap();
    tickUntil(c, false, 2);
    CHECK(c.passesStarted() == 2);
  }
  SECTION("children alive, while-alive joining off: never") {
    HugePageCollapser c(0, 0);
    for (int i = 0; i < 3 * HugePageCollapser::kAliveTicks; ++i) c.tick(true);
    CHECK(c.passesStarted() == 0);
  }
  SECTION("children alive, while-alive joining on: every kAliveTicks ticks after a fork") {
    HugePageCollapser c(0, 88);
    c.tick(true);  // sees the fork count
    for (int i = 0; i < HugePageCollapser::kAliveTicks - 1; ++i) c.tick(true);
    CHECK(c.passesStarted() == 0);
    c.tick(true);
    CHECK(c.passesStarted() == 1);
    forkAndReap();  // a new fork: the count starts again, and passes go on
    tickUntil(c, true, 3);
    CHECK(c.passesStarted() == 3);
  }
}
