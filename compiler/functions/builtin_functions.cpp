#include "compiler/functions/builtin_functions.h"

#include <unordered_map>

#include "compiler/runtime/query_runtime.h"
#include "engine/types/runtime.h"

namespace duet {
namespace {

// The runtime function a row calls: its name, for generated code, and its address, for the JIT.
#define DUET_FN(fn) #fn, reinterpret_cast<void*>(&fn)

using enum TypeId;
constexpr Volatility kImmutable = Volatility::Immutable;
constexpr Volatility kStable = Volatility::Stable;
constexpr Volatility kVolatile = Volatility::Volatile;

// clang-format off: one function a line
const std::vector<BuiltinFunction> kBuiltinFunctions = {
    // name                  arguments          result        volatility  strict  runtime function
    // Date/time: the transaction's start, the statement's start, the clock (replayable).
    {"now",                   {},                TimestampTz, kStable,    true, DUET_FN(duet_q_now)},
    {"transaction_timestamp", {},                TimestampTz, kStable,    true, DUET_FN(duet_q_now)},
    {"current_timestamp",     {},                TimestampTz, kStable,    true, DUET_FN(duet_q_now)},
    {"statement_timestamp",   {},                TimestampTz, kStable,    true, DUET_FN(duet_q_statement_timestamp)},
    {"clock_timestamp",       {},                TimestampTz, kVolatile,  true, DUET_FN(duet_q_clock_timestamp)},
    // Random numbers from the session's generator (its state is what a replay restores).
    {"random",                {},                Float8,      kVolatile,  true, DUET_FN(duet_q_random)},
    // Settings.
    {"current_setting",       {Text},            Text,        kStable,    true, DUET_FN(duet_q_current_setting)},
    // Strings.
    {"length",                {Text},            Int4,        kImmutable, true, DUET_FN(duet_rt_text_length)},
    {"char_length",           {Text},            Int4,        kImmutable, true, DUET_FN(duet_rt_text_length)},
    {"character_length",      {Text},            Int4,        kImmutable, true, DUET_FN(duet_rt_text_length)},
    {"lower",                 {Text},            Text,        kImmutable, true, DUET_FN(duet_rt_text_lower)},
    {"upper",                 {Text},            Text,        kImmutable, true, DUET_FN(duet_rt_text_upper)},
    // Numbers.
    {"round",                 {Float8},          Float8,      kImmutable, true, DUET_FN(duet_rt_float8_round)},
    {"round",                 {Numeric},         Numeric,     kImmutable, true, DUET_FN(duet_rt_numeric_round_integral)},
    {"round",                 {Numeric, Int4},   Numeric,     kImmutable, true, DUET_FN(duet_rt_numeric_round)},
    {"trunc",                 {Float8},          Float8,      kImmutable, true, DUET_FN(duet_rt_float8_trunc)},
    {"trunc",                 {Numeric},         Numeric,     kImmutable, true, DUET_FN(duet_rt_numeric_trunc_integral)},
    {"trunc",                 {Numeric, Int4},   Numeric,     kImmutable, true, DUET_FN(duet_rt_numeric_trunc)},
};
// clang-format on

#undef DUET_FN

}  // namespace

std::span<const BuiltinFunction> builtinFunctions() { return kBuiltinFunctions; }

std::vector<const BuiltinFunction*> builtinFunctionsNamed(std::string_view name) {
  static const auto byName = [] {
    std::unordered_multimap<std::string_view, const BuiltinFunction*> m;
    for (const BuiltinFunction& f : kBuiltinFunctions) m.emplace(f.name, &f);
    return m;
  }();
  std::vector<const BuiltinFunction*> out;
  auto [begin, end] = byName.equal_range(name);
  for (auto it = begin; it != end; ++it) out.push_back(it->second);
  return out;
}

const BuiltinFunction* builtinFunctionBySymbol(std::string_view symbol) {
  static const auto bySymbol = [] {
    std::unordered_map<std::string_view, const BuiltinFunction*> m;
    for (const BuiltinFunction& f : kBuiltinFunctions) m.emplace(f.symbol, &f);
    return m;
  }();
  auto it = bySymbol.find(symbol);
  return it == bySymbol.end() ? nullptr : it->second;
}

}  // namespace duet
