// DUET_INVARIANT (engine/invariant.h): a broken invariant stops the statement with XX000
// naming it, instead of letting code that relies on it run.
#include <catch2/catch.hpp>

#include <string>

#include "engine/error.h"
#include "engine/invariant.h"

using namespace duet;

TEST_CASE("invariant: a broken one is XX000 naming it, file and line", "[engine]") {
  int checked = 0;
  DUET_INVARIANT(++checked == 1, "never broken");
  CHECK(checked == 1);  // the condition is evaluated once
  try {
    DUET_INVARIANT(checked == 2, "field inside its tuple");
    FAIL("no error");
  } catch (const SqlError& e) {
    CHECK(e.code == sqlstate::kInternalError);
    std::string message = e.what();
    CHECK(message.find("field inside its tuple") != std::string::npos);
    CHECK(message.find("engine_invariant_test.cpp:") != std::string::npos);
  }
}
