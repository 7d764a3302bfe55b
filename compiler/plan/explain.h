// EXPLAIN: a physical plan as PostgreSQL shows one - a tree of operators under PostgreSQL's
// names (Seq Scan, Hash Join, HashAggregate, ...), each with its estimated rows and detail
// lines (Filter, Hash Cond, Index Cond, Sort Key, Group Key, Workers Planned), and with
// EXPLAIN ANALYZE the rows and time each operator actually produced; as text or as
// PostgreSQL's JSON document. docs/explain.md describes the output.
//
// The plan's own nodes do not map one to one onto PostgreSQL's: a Filter and a Project
// become detail lines ("Filter:", "Output:") of the node below them, a hash join shows its
// build side under a "Hash" node, an index join is a Nested Loop over an Index Scan, and a
// parallel root sits under a Gather.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "compiler/plan/plan.h"
#include "engine/types/type_context.h"

namespace duet::plan {

// The options of EXPLAIN (option [value], ...), as PostgreSQL 15 has them. BUFFERS is
// accepted and shows nothing (no buffer pool).
struct ExplainOptions {
  enum class Format : uint8_t { Text, Json };
  bool analyze = false;
  bool verbose = false;
  bool costs = true;
  bool timing = true;    // with ANALYZE
  bool summary = false;  // Planning/Compile/Execution Time; on by default with ANALYZE
  bool buffers = false;
  Format format = Format::Text;
};

// What the generated code measured of one plan node under EXPLAIN ANALYZE
// (rt::NodeStats, summed over the threads that ran it).
struct NodeActuals {
  uint64_t rows = 0;                  // rows it passed on, all loops together
  uint64_t loops = 0;                 // times it started
  double startupMs = 0, totalMs = 0;  // to its first row and to its end, all loops together
};

// Every node of a plan, its subqueries' plans included, numbered in one walk: the slots of
// EXPLAIN ANALYZE's counters (codegen counts node k's rows in slot k).
std::unordered_map<const Node*, uint32_t> explainNumbers(const Node& root);

// ANALYZE with SUMMARY: how the statement's code was made (PostgreSQL's "JIT:" section),
// per compile tier (docs/codegen.md, "Compile tiers"): the cheap tier's, which the
// statement waited for, then the optimised tier's, which the optimiser thread made while
// it ran; with the morsels of its parallel runs each tier's workers took.
struct ExplainJit {
  size_t functions = 0;  // the statement's function and its parallel workers
  double generateMs = 0;
  bool cheap = false;  // a cheap tier ran first
  double cheapEmitMs = 0;
  // The optimised tier: made (first, or by the optimiser thread), or not at all (cheap
  // only, or a module too big to optimise).
  bool optimised = false;
  double optimiseMs = 0, optimisedEmitMs = 0;
  uint64_t cheapMorsels = 0, optimisedMorsels = 0;
};

struct ExplainInput {
  const Node* root = nullptr;
  ExplainOptions options;
  // SQL names of what the plan knows by other names: a built-in function's runtime symbol,
  // a user-defined routine's oid. Unset, or an empty answer: the symbol or "function N".
  std::function<std::string(const std::string& symbol)> functionName;
  std::function<std::string(uint32_t oid)> routineName;
  // The value of $n (0-based) as its output text, when known (else false: "$n" is shown);
  // isNull for a NULL.
  std::function<bool(int param, std::string& text, bool& isNull)> paramValue;
  TypeContext typeContext;  // how constants print (dates, time zones)
  // ANALYZE: per node number (explainNumbers), what it did.
  const std::vector<NodeActuals>* actuals = nullptr;
  // Where the statement runs: "executor" or "snapshot" (docs/snapshots.md); empty: no line.
  std::string runsOn;
  double planningMs = 0, compileMs = 0, executionMs = 0;  // SUMMARY
  const ExplainJit* jit = nullptr;                        // ANALYZE and SUMMARY
};

// A value of `type` (its output text) as PostgreSQL writes a constant in an expression:
// integer and numeric bare unless negative, booleans as true/false, anything else quoted
// with its type, 'x'::text, '5'::bigint.
std::string literalText(SqlType type, const std::string& text);

// The rows EXPLAIN returns in its one column "QUERY PLAN": a line each (TEXT), or the whole
// document in one (JSON).
std::vector<std::string> explain(const ExplainInput& input);

}  // namespace duet::plan
