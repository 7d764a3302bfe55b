// The built-in function table (compiler/functions/builtin_functions.h) and the candidate
// ranking the binder chooses its rows with (binder::CandidateScore).
#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <tuple>
#include <utility>

#include "compiler/binder/type_rules.h"
#include "compiler/functions/builtin_functions.h"

using namespace duet;
using binder::CandidateScore;

TEST_CASE("built-in functions: every row is callable as generated code calls it", "[functions]") {
  std::set<std::tuple<std::string, std::vector<TypeId>, int>> seen;
  for (const BuiltinFunction& f : builtinFunctions()) {
    INFO(f.name);
    // Generated code passes no NULL flags: a row that is not strict cannot be called yet
    // (functions that see NULLs take them as "any" arguments, inside a never-NULL array,
    // or as a nullElement row's null addresses).
    CHECK(f.strict);
    // An element type exactly for array results (an anycompatible row's is the arguments'
    // common type: array_remove); NULL as a null pointer only for pointers.
    if (f.result == TypeId::Array)
      CHECK((f.resultElement != TypeId::Unknown || f.anyCompatible));
    else
      CHECK(f.resultElement == TypeId::Unknown);
    if (f.nullResult) CHECK(isVarlenaType(f.result));
    // NULL element arguments go by (null) address: only anycompatible rows pass them so.
    if (f.nullElement) CHECK(f.anyCompatible);
    CHECK(f.anyArgs >= kVariadicAny);
    // A set-returning row's function is given the query context (and fills its buffer).
    if (f.returnsSet) CHECK(std::string(f.symbol).rfind("duet_q_", 0) == 0);
    CHECK(f.address != nullptr);
    std::string symbol = f.symbol;
    CHECK((symbol.rfind("duet_rt_", 0) == 0 || symbol.rfind("duet_q_", 0) == 0));
    // One row per name and argument list, or a call could not choose.
    CHECK(seen.insert({std::string(f.name), f.args, f.anyArgs}).second);
    CHECK(builtinFunctionBySymbol(f.symbol) != nullptr);
  }
}

TEST_CASE("built-in functions: lookup by name and volatility", "[functions]") {
  CHECK(builtinFunctionsNamed("round").size() == 3);
  CHECK(builtinFunctionsNamed("no_such_function").empty());
  const BuiltinFunction* random = builtinFunctionsNamed("random").at(0);
  CHECK(random->volatility == Volatility::Volatile);
  CHECK(builtinFunctionBySymbol(random->symbol) == random);
  CHECK(builtinFunctionsNamed("now").at(0)->volatility == Volatility::Stable);
  CHECK(builtinFunctionsNamed("length").at(0)->volatility == Volatility::Immutable);
  CHECK(builtinFunctionBySymbol("duet_rt_array_has") == nullptr);  // the binder's own call
}

namespace {
CandidateScore score(SqlType arg, SqlType param, bool* ok = nullptr) {
  CandidateScore s;
  bool fits = s.add(arg, param);
  if (ok) *ok = fits;
  return s;
}
}  // namespace

TEST_CASE("candidate ranking follows func_select_candidate", "[functions][binder]") {
  const SqlType int4{TypeId::Int4, -1}, float8{TypeId::Float8, -1}, numeric{TypeId::Numeric, -1},
      text{TypeId::Text, -1}, varchar{TypeId::Varchar, -1}, unknown{TypeId::Unknown, -1};
  // Exact matches first.
  CHECK(score(numeric, numeric) > score(numeric, float8));
  // Then the preferred type of the argument's category: integer to float8 over numeric.
  CHECK(score(int4, float8) > score(int4, numeric));
  // Unknown: a string parameter, then the preferred one (text over varchar).
  CHECK(score(unknown, text) > score(unknown, int4));
  CHECK(score(unknown, text) > score(unknown, varchar));
  CHECK(score(unknown, varchar) > score(unknown, int4));
  // Two parameters of one category, neither preferred: a tie (42725 for the caller).
  CHECK(score(unknown, int4) == score(unknown, numeric));
  // No implicit cast: the candidate does not fit.
  bool ok = true;
  score(int4, text, &ok);
  CHECK_FALSE(ok);
  score(text, int4, &ok);
  CHECK_FALSE(ok);
}
