// A plan turned into native code, plus everything that code points at (layouts, sort
// specifications, string constants), which must live as long as the code.
#pragma once
#include <condition_variable>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "compiler/codegen/machine_code.h"
#include "compiler/plan/compile_tiers.h"
#include "compiler/plan/plan.h"
#include "compiler/runtime/code_tiers.h"
#include "compiler/runtime/query_runtime.h"

namespace duet {

// The optimised tier of an adaptive compile, shared by its CompiledQuery and the optimiser
// thread's job, which fills it (or drops it: then it is finished with no code).
struct OptimisedTier {
  rt::CodeTiers addresses;
  MachineCode code;  // set before the addresses are published

  void publish(MachineCode made);
  void finish();  // the job is done with it, published or dropped
  // Waits until finish() (EXPLAIN ANALYZE, to show the tier's compile time; tests).
  void wait();

 private:
  std::mutex mutex_;
  std::condition_variable finished_;
  bool done_ = false;
};

struct CompiledQuery {
  using Entry = void (*)(rt::QueryContext*);
  // Runs the statement: the optimised tier's code once it is there, else the first tier's.
  void run(rt::QueryContext* ctx) const;

  Entry entry = nullptr;  // the first tier's code: the cheap one, or the only one
  MachineCode code;       // frees the code when the query goes
  // An adaptive compile's optimised tier (null: one tier).
  std::shared_ptr<OptimisedTier> optimised;
  size_t functions = 0;  // the statement's function and its parallel workers
  rt::LayoutPool layouts;
  std::vector<std::unique_ptr<std::vector<rt::SortSpec>>> sortSpecs;
  std::vector<std::unique_ptr<unsigned char[]>> constants;
  TupleLayout paramLayout;   // how parameters are passed (QueryContext::params)
  TupleLayout outputLayout;  // rows given to QueryContext::output
  bool producesRows = false;
  // What the statement waited before it ran: IR generation, then the first tier's
  // optimisation (none for the cheap tier) and machine code.
  double generateMs = 0, compileMs = 0;

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

// Generates, optimises and JIT-compiles `root` in the given tiers; the optimised tier at
// optLevel. `paramTypes` decide paramLayout; the rows of the root node (or its RETURNING
// list) become the output.
std::unique_ptr<CompiledQuery> compileQuery(const plan::Node& root, const std::vector<SqlType>& paramTypes,
                                            CompileTiers tiers, int optLevel, int optimiseBudgetMs,
                                            const Instrument& instrument = {});

}  // namespace duet
