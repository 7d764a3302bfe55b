// rt::ValueSet (compiler/runtime/value_set.h): the set behind long IN lists, = ANY (array)
// and CASE chains - SQL equality by the type's comparison, PostgreSQL's NULLs, first
// positions, strings it owns.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <string>

#include "compiler/runtime/value_set.h"
#include "engine/types/numeric.h"

using duet::SqlType;
using duet::TypeId;
using duet::VarString;
using duet::rt::ValueSet;

namespace {

int32_t probeInt(const ValueSet& s, int32_t v) { return s.probe(&v, false); }

}  // namespace

TEST_CASE("ValueSet: membership, NULL items and NULL probes as x IN (...)", "[runtime][value_set]") {
  ValueSet s(SqlType{TypeId::Int4, -1});
  CHECK(s.probe(nullptr, true) == 0);  // no items: false, even for a NULL x
  for (int32_t v : {5, 3, 9, 3}) s.add(&v);
  s.finish();
  CHECK(probeInt(s, 3) == 1);
  CHECK(probeInt(s, 9) == 1);
  CHECK(probeInt(s, 4) == 0);
  CHECK(s.probe(nullptr, true) == 2);  // NULL x: NULL
  s.clear();
  int32_t one = 1;
  s.add(&one);
  s.addNull();
  s.finish();
  CHECK(probeInt(s, 1) == 1);
  CHECK(probeInt(s, 2) == 2);  // not found among items with a NULL: NULL
}

TEST_CASE("ValueSet: the first position of equal items", "[runtime][value_set]") {
  ValueSet s(SqlType{TypeId::Int8, -1});
  int64_t items[] = {7, 2, 7, 4, 2};
  s.addNull();  // position 0
  for (int64_t& v : items) s.add(&v);
  s.finish();
  int64_t seven = 7, two = 2, four = 4, eight = 8;
  CHECK(s.find(&seven) == 1);
  CHECK(s.find(&two) == 2);
  CHECK(s.find(&four) == 4);
  CHECK(s.find(&eight) == -1);
}

TEST_CASE("ValueSet: equality of each type, not of bytes", "[runtime][value_set]") {
  SECTION("numeric of different scales") {
    ValueSet s(SqlType{TypeId::Numeric, -1});
    duet::NumericRep a = duet::parseNumeric("1.50"), b = duet::parseNumeric("2");
    s.add(&a);
    s.add(&b);
    s.finish();
    duet::NumericRep x = duet::parseNumeric("1.5"), y = duet::parseNumeric("2.000"), z = duet::parseNumeric("2.01");
    CHECK(s.probe(&x, false) == 1);
    CHECK(s.probe(&y, false) == 1);
    CHECK(s.probe(&z, false) == 0);
  }
  SECTION("NaN equals NaN") {
    ValueSet s(SqlType{TypeId::Float8, -1});
    double nan = std::nan(""), one = 1;
    s.add(&nan);
    s.add(&one);
    s.finish();
    double otherNan = -std::nan("");
    CHECK(s.probe(&otherNan, false) == 1);
  }
  SECTION("strings are copied; char(n) ignores trailing blanks") {
    ValueSet s(SqlType{TypeId::Char, -1});
    {
      std::string scratch(sizeof(VarString) + 3, '\0');
      auto* v = reinterpret_cast<VarString*>(scratch.data());
      v->len = 3;
      std::memcpy(v->data, "ab ", 3);
      const VarString* p = v;
      s.add(&p);
      std::memset(v->data, 'z', 3);  // the set kept its own copy
    }
    s.finish();
    std::string probe(sizeof(VarString) + 2, '\0');
    auto* q = reinterpret_cast<VarString*>(probe.data());
    q->len = 2;
    std::memcpy(q->data, "ab", 2);
    const VarString* qp = q;
    CHECK(s.probe(&qp, false) == 1);
  }
}
