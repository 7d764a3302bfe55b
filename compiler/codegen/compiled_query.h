// A plan turned into native code, plus everything that code points at (layouts, sort
// specifications, string constants), which must live as long as the code.
#pragma once
#include <memory>
#include <unordered_map>
#include <vector>

#include "compiler/codegen/machine_code.h"
#include "compiler/plan/plan.h"
#include "compiler/runtime/query_runtime.h"

namespace duet {

struct CompiledQuery {
  using Entry = void (*)(rt::QueryContext*);
  Entry entry = nullptr;
  MachineCode code;  // frees the code when the query goes
  rt::LayoutPool layouts;
  std::vector<std::unique_ptr<std::vector<rt::SortSpec>>> sortSpecs;
  std::vector<std::unique_ptr<unsigned char[]>> constants;
  TupleLayout paramLayout;   // how parameters are passed (QueryContext::params)
  TupleLayout outputLayout;  // rows given to QueryContext::output
  bool producesRows = false;
  double compileMs = 0;  // IR generation + optimisation + machine code

  CompiledQuery() = default;
  CompiledQuery(const CompiledQuery&) = delete;
  CompiledQuery& operator=(const CompiledQuery&) = delete;
};

// EXPLAIN ANALYZE: the nodes whose rows the generated code counts (and, with `timing`,
// times) into QueryContext::instrumentation, by number (plan::explainNumbers). Without
// `nodes` the code has no counters at all.
struct Instrument {
  const std::unordered_map<const plan::Node*, uint32_t>* nodes = nullptr;
  bool timing = false;
};

// Generates, optimises and JIT-compiles `root`. `paramTypes` decide paramLayout; the rows
// of the root node (or its RETURNING list) become the output.
std::unique_ptr<CompiledQuery> compileQuery(const plan::Node& root, const std::vector<SqlType>& paramTypes,
                                            int optLevel, int optimiseBudgetMs, const Instrument& instrument = {});

}  // namespace duet
