// The built-in SQL functions, as data: one row per function and argument list (PostgreSQL's
// pg_proc, reduced to what DuetDB needs), from which the binder resolves calls by name and
// argument types and the JIT registers the runtime functions generated code calls. Adding a
// function is adding a row here and its C++ implementation in a runtime file
// (engine/types/runtime.h for values, compiler/runtime/query_runtime.h for what reads the
// query's context).
//
// Not here: what PostgreSQL parses as special forms (COALESCE, NULLIF, GREATEST, LEAST),
// operators, casts, aggregates, and the few functions the binder rewrites into other
// expressions (array_length and its kin, abs, current_setting's two-argument form,
// version()); Binder::bindFunction handles those first.
#pragma once
#include <cstdint>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/types/type_id.h"

namespace duet {

// PostgreSQL's provolatile: whether a call may be evaluated once for equal arguments
// (immutable), once per statement (stable), or every time (volatile: random(),
// clock_timestamp()). Volatile calls keep a plan off parallel workers, whose results
// would not be the ones the session's replay draws.
enum class Volatility : uint8_t { Immutable, Stable, Volatile };

// BuiltinFunction::anyArgs of a VARIADIC "any" function.
inline constexpr int8_t kVariadicAny = -1;

struct BuiltinFunction {
  // SQL name, lowercase: in pg_catalog, or qualified with the schema a call must name
  // ("information_schema._pg_expandarray", not on the search path).
  std::string_view name;
  std::vector<TypeId> args;  // argument types, in order
  TypeId result;
  Volatility volatility;
  // PostgreSQL's proisstrict: a NULL argument gives NULL without a call. Generated code
  // passes no NULL flags to runtime functions, so every row here is strict in what it is
  // passed (the unit test checks it), but for the element arguments of a nullElement row. Functions that see NULLs
  // (concat, format, quote_nullable) take them as "any" arguments (anyArgs below): those travel inside one text[] that
  // is never NULL itself, its elements NULL for NULL arguments.
  bool strict;
  // The runtime function generated code calls. A duet_q_* function receives the query's
  // context (rt::QueryContext*) before the arguments; a duet_rt_* function does not.
  const char* symbol;
  void* address;
  // The rest have defaults, which most rows keep.
  // The element type when `result` is Array (regexp_match: text[]); Unknown in an
  // anyCompatible row, whose result is an array of the arguments' common type
  // (array_remove).
  TypeId resultElement = TypeId::Unknown;
  // Arguments of any type after `args`, as PostgreSQL's "any" parameters: 0 for none, n
  // for exactly n, kVariadicAny for one or more (VARIADIC "any"). The binder converts each
  // to its output text (PostgreSQL's output function: booleans are t and f) and passes
  // them as one text[] after the others, NULL arguments as NULL elements. A call that says
  // VARIADIC passes an array of them instead, whose elements are converted alike when it
  // runs (duet_q_array_element_texts); a NULL array makes the result NULL.
  int8_t anyArgs = 0;
  // The runtime function returns a null pointer for a NULL result (regexp_match without a
  // match); only for results passed as pointers (strings, arrays).
  bool nullResult = false;
  // A set-returning function (regexp_matches): its duet_q_* function receives the query
  // context, the arguments and the rows' TupleLayout*, and returns an rt::TupleBuffer* of
  // one-column rows of `result`. Called from FROM (FunctionScan) or a select list
  // (ProjectSet), never inside an expression; NULL arguments give no rows (strict).
  bool returnsSet = false;
  // PostgreSQL's anyarray: the Array arguments take an array of any element type, and a
  // result of type Unknown is that element type (unnest).
  bool anyArray = false;
  // Parameter names, for calls in named notation (make_interval(days => 3)); empty for
  // rows that take positional arguments only.
  std::vector<std::string_view> argNames = {};
  // How many trailing parameters may be left out: they default to zero.
  uint8_t defaults = 0;
  // PostgreSQL's anycompatible and anycompatiblearray: parameters declared Unknown take a
  // value of any scalar type and those declared Array an array of any element type; the
  // binder converts them all to their common type (its array for the Array ones), 42883
  // when they have none. The runtime function receives an Unknown parameter as a pointer to
  // its value's physical representation (value_io.h), whose type is the arrays' element
  // type (width_bucket(operand, thresholds)).
  bool anyCompatible = false;
  // The "any" arguments travel as their JSON texts (to_json's, NULL for NULL) instead of
  // their output texts: json_build_object and its kin.
  bool anyArgsAsJson = false;
  // The element type of the Array parameters of a row that is not anyArray nor
  // anyCompatible (jsonb_set's text[] path).
  TypeId argElement = TypeId::Unknown;
  // A parameter's type.
  SqlType paramType(size_t i) const { return {args[i], -1, args[i] == TypeId::Array ? argElement : TypeId::Unknown}; }
  // A result of type Record: its fields, named, in order; a field declared Unknown has the
  // anyarray argument's element type (_pg_expandarray's x).
  std::vector<std::pair<std::string_view, TypeId>> recordFields = {};
  // An anyCompatible row that is not strict in its Unknown (element) arguments: a NULL one
  // reaches the runtime function as a null address instead of making the result NULL
  // (array_remove(a, NULL) removes a's NULL elements).
  bool nullElement = false;
  // Called with VARIADIC (f(..., VARIADIC array): the array's elements are the "any"
  // arguments), a NULL array counts as no "any" arguments (format) instead of making the
  // result NULL.
  bool variadicNullIsEmpty = false;
};

// The json and jsonb rows (json_builtin_functions.cpp), part of the table.
std::vector<BuiltinFunction> jsonBuiltinFunctions();

// Every row, in one table (builtin_functions.cpp).
std::span<const BuiltinFunction> builtinFunctions();
// The rows called `name`; empty when there is no built-in function of that name.
std::vector<const BuiltinFunction*> builtinFunctionsNamed(std::string_view name);
// The row whose runtime function is `symbol`, or null (a call the binder made itself).
const BuiltinFunction* builtinFunctionBySymbol(std::string_view symbol);

}  // namespace duet
