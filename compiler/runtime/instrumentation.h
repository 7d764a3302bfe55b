// EXPLAIN ANALYZE's counters: what each plan node did while the statement ran. Code
// generated for analysis (compileQuery with an Instrument) calls duet_q_node_start where a
// node begins producing, duet_q_node_row for each row it passes on and, when timed,
// duet_q_node_end where it finishes; normal plans have none of these calls. Each thread
// counts into the Instrumentation of its own QueryContext: a parallel run gives each
// worker one and adds them into the leader's when the run ends.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace duet::rt {

struct QueryContext;

struct NodeStats {
  uint64_t rows = 0;   // rows passed on, all loops together
  uint64_t loops = 0;  // times the node started
  // TIMING: nanoseconds to the first row and to the end (the last row, or where the node
  // finished), summed over the loops closed so far; and the open loop's start and last
  // moment.
  int64_t startupNs = 0, totalNs = 0;
  int64_t startNs = 0, lastNs = 0;
  bool running = false, sawRow = false;
};

struct Instrumentation {
  bool timing = false;
  std::vector<NodeStats> nodes;  // by node number (plan::explainNumbers)
  // Morsels of parallel runs taken by workers of the cheap and of the optimised tier
  // (code_tiers.h): how much of the run the optimised code served.
  uint64_t cheapMorsels = 0, optimisedMorsels = 0;

  Instrumentation(bool timed, size_t count) : timing(timed), nodes(count) {}
  // Closes every open loop: call once the statement (or the worker) has finished.
  void finish();
  // Adds a finished worker's counts.
  void absorb(const Instrumentation& worker);
};

}  // namespace duet::rt

extern "C" {
void duet_q_node_start(duet::rt::QueryContext* ctx, uint32_t node);
void duet_q_node_row(duet::rt::QueryContext* ctx, uint32_t node);
void duet_q_node_end(duet::rt::QueryContext* ctx, uint32_t node);
}
