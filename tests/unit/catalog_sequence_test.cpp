// Sequences' arithmetic and parameter checks (engine/catalog/sequence.h): the bounds of
// each type, steps that would overflow int64, CYCLE in both directions, and ALTER's rules.
#include <catch2/catch.hpp>

#include "catalog_test_util.h"
#include "engine/catalog/sequence.h"
#include "engine/error.h"

using namespace duet;
using test::errorOf;

namespace {

SequenceInfo created(const SequenceOptions& options) {
  SequenceInfo s;
  s.name = "s";
  s.apply(options, true);
  return s;
}

}  // namespace

TEST_CASE("sequence defaults follow the type and the direction", "[catalog]") {
  SequenceInfo up = created({});
  CHECK(up.minValue == 1);
  CHECK(up.maxValue == INT64_MAX);
  CHECK(up.next() == 1);
  CHECK(up.next() == 2);
  SequenceInfo down = created({.type = TypeId::Int2, .increment = -1});
  CHECK(down.minValue == INT16_MIN);
  CHECK(down.maxValue == -1);
  CHECK(down.next() == -1);
  CHECK(down.next() == -2);
}

TEST_CASE("a step past int64's end is the sequence's limit, not an overflow", "[catalog]") {
  SequenceInfo s = created({.increment = INT64_MAX / 2 + 1});
  CHECK(s.next() == 1);
  CHECK(s.next() == INT64_MAX / 2 + 2);
  CHECK(errorOf([&] { s.next(); }) == "2200H nextval: reached maximum value of sequence \"s\" (9223372036854775807)");
  SequenceInfo d = created({.increment = INT64_MIN + 1, .minValue = INT64_MIN, .maxValue = 0});
  CHECK(d.next() == 0);
  CHECK(d.next() == INT64_MIN + 1);
  CHECK(errorOf([&] { d.next(); }).starts_with("2200H nextval: reached minimum value"));
}

TEST_CASE("CYCLE wraps to the other bound", "[catalog]") {
  SequenceInfo s = created({.increment = 2, .minValue = 1, .maxValue = 4, .cycle = true});
  CHECK(s.next() == 1);
  CHECK(s.next() == 3);
  CHECK(s.next() == 1);
  SequenceInfo d = created({.increment = -3, .minValue = -5, .maxValue = 2, .cycle = true});
  CHECK(d.next() == 2);
  CHECK(d.next() == -1);
  CHECK(d.next() == -4);
  CHECK(d.next() == 2);
}

TEST_CASE("setval and ALTER keep the bounds", "[catalog]") {
  SequenceInfo s = created({.maxValue = 10});
  CHECK(errorOf([&] { s.set(11, true); }) == "22003 setval: value 11 is out of bounds for sequence \"s\" (1..10)");
  s.set(10, false);
  CHECK(s.next() == 10);
  // The current value must fit new bounds; a failed ALTER changes nothing.
  CHECK(errorOf([&] { s.apply({.maxValue = 5}, false); }) ==
        "22023 RESTART value (10) cannot be greater than MAXVALUE (5)");
  CHECK(s.maxValue == 10);
  // A type change takes bounds that were the old type's own along.
  SequenceInfo t = created({.type = TypeId::Int2});
  t.apply({.type = TypeId::Int4}, false);
  CHECK(t.maxValue == INT32_MAX);
  t.apply({.restart = true, .restartWith = 7}, false);
  CHECK(t.next() == 7);
}
