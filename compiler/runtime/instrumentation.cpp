#include "compiler/runtime/instrumentation.h"

#include <chrono>

#include "compiler/runtime/query_runtime.h"

namespace duet::rt {
namespace {

int64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void closeLoop(NodeStats& s) {
  if (!s.running) return;
  s.totalNs += s.lastNs - s.startNs;
  s.running = false;
}

}  // namespace

void Instrumentation::finish() {
  for (NodeStats& s : nodes) closeLoop(s);
}

void Instrumentation::absorb(const Instrumentation& worker) {
  cheapMorsels += worker.cheapMorsels;
  optimisedMorsels += worker.optimisedMorsels;
  for (size_t i = 0; i < nodes.size() && i < worker.nodes.size(); ++i) {
    const NodeStats& w = worker.nodes[i];
    NodeStats& s = nodes[i];
    s.rows += w.rows;
    s.loops += w.loops;
    s.startupNs += w.startupNs;
    s.totalNs += w.totalNs;
  }
}

}  // namespace duet::rt

using duet::rt::NodeStats;
using duet::rt::QueryContext;

extern "C" {

void duet_q_node_start(QueryContext* ctx, uint32_t node) {
  NodeStats& s = ctx->instrumentation->nodes[node];
  duet::rt::closeLoop(s);
  ++s.loops;
  s.running = true;
  s.sawRow = false;
  if (ctx->instrumentation->timing) s.startNs = s.lastNs = duet::rt::nowNs();
}

void duet_q_node_row(QueryContext* ctx, uint32_t node) {
  NodeStats& s = ctx->instrumentation->nodes[node];
  ++s.rows;
  if (!ctx->instrumentation->timing) return;
  s.lastNs = duet::rt::nowNs();
  if (!s.sawRow) {
    s.startupNs += s.lastNs - s.startNs;
    s.sawRow = true;
  }
}

void duet_q_node_end(QueryContext* ctx, uint32_t node) {
  NodeStats& s = ctx->instrumentation->nodes[node];
  if (s.running) s.lastNs = duet::rt::nowNs();
}
}
