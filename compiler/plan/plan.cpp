// outline(): a compact, stable text form of a plan tree (see plan.h).
#include "compiler/plan/plan.h"

#include "engine/storage/index.h"
#include "engine/storage/table.h"

namespace duet::plan {
namespace {

const char* kindName(NodeKind k) {
  switch (k) {
    case NodeKind::TableScan: return "TableScan";
    case NodeKind::IndexLookup: return "IndexLookup";
    case NodeKind::IndexRange: return "IndexRange";
    case NodeKind::CurrentOf: return "CurrentOf";
    case NodeKind::Values: return "Values";
    case NodeKind::Filter: return "Filter";
    case NodeKind::Project: return "Project";
    case NodeKind::NestedLoopJoin: return "NestedLoopJoin";
    case NodeKind::HashJoin: return "HashJoin";
    case NodeKind::Aggregate: return "Aggregate";
    case NodeKind::Sort: return "Sort";
    case NodeKind::Limit: return "Limit";
    case NodeKind::Distinct: return "Distinct";
    case NodeKind::Insert: return "Insert";
    case NodeKind::Update: return "Update";
    case NodeKind::Delete: return "Delete";
    case NodeKind::Materialize: return "Materialize";
    case NodeKind::FunctionScan: return "FunctionScan";
    case NodeKind::IndexJoin: return "IndexJoin";
    case NodeKind::ProjectSet: return "ProjectSet";
    case NodeKind::Append: return "Append";
    case NodeKind::Repeat: return "Repeat";
    case NodeKind::RecursiveUnion: return "RecursiveUnion";
    case NodeKind::WorkTableScan: return "WorkTableScan";
    case NodeKind::CteScan: return "CteScan";
    case NodeKind::Window: return "Window";
  }
  return "?";
}

// "t_ab: a = ?, b >= ?, b < ?": which key columns an IndexRange pins and bounds.
std::string rangeDetail(const Node& n) {
  const auto& cols = n.table->columns();
  const auto& key = n.index->columns();
  std::string s = n.index->name() + ":";
  auto term = [&](size_t k, const char* op) {
    if (s.back() != ':') s += ",";
    s += " " + cols[key[k]].name + " " + op + " ?";
  };
  for (size_t k = 0; k < n.keys.size(); ++k) term(k, static_cast<int>(k) == n.keySet ? "= ANY" : "=");
  if (n.rangeLow) term(n.keys.size(), n.lowInclusive ? ">=" : ">");
  if (n.rangeHigh) term(n.keys.size(), n.highInclusive ? "<=" : "<");
  if (n.descending) s += " desc";
  return s;
}

// The plans of the subqueries in an expression, outermost first.
void subplansOf(const Expr* e, std::vector<const Node*>& out) {
  if (!e) return;
  if (e->subplan) out.push_back(e->subplan.get());
  for (const auto& a : e->args) subplansOf(a.get(), out);
}

std::vector<const Node*> subplansOf(const Node& n) {
  std::vector<const Node*> out;
  forEachExpr(n, [&](const Expr& e) { subplansOf(&e, out); });
  return out;
}

void callsOf(const Expr* e, ReadFootprint& f) {
  if (!e) return;
  if (e->kind == ExprKind::RoutineCall) f.routines.push_back(e->routine);
  if (e->kind == ExprKind::Call) f.functions.push_back(e->function);
  for (const auto& a : e->args) callsOf(a.get(), f);
}

void collectFootprint(const Node& n, ReadFootprint& f) {
  if (n.kind == NodeKind::TableScan || n.kind == NodeKind::IndexRange || walksRange(n)) f.walked.push_back(n.table);
  if (n.kind == NodeKind::FunctionScan && n.function.empty()) f.routines.push_back(n.routine);
  if (n.kind == NodeKind::Insert || n.kind == NodeKind::Update || n.kind == NodeKind::Delete) f.writes = true;
  forEachExpr(n, [&](const Expr& e) { callsOf(&e, f); });
  for (const Node* sub : subplansOf(n)) collectFootprint(*sub, f);
  for (const auto& c : n.children) collectFootprint(*c, f);
}

}  // namespace

void forEachExpr(const Node& n, const std::function<void(const Expr&)>& visit) {
  auto one = [&](const ExprPtr& e) {
    if (e) visit(*e);
  };
  for (const auto& e : n.keys) one(e);
  one(n.rangeLow);
  one(n.rangeHigh);
  one(n.predicate);
  for (const auto& e : n.exprs) one(e);
  for (const auto& e : n.rightKeys) one(e);
  for (const auto& r : n.rows)
    for (const auto& e : r) one(e);
  for (const auto& a : n.aggs) {
    one(a.arg);
    for (const auto& e : a.extraArgs) one(e);
    one(a.filter);
    for (const auto& o : a.orderBy) one(o.expr);
  }
  one(n.limit);
  one(n.offset);
  for (const auto& e : n.returning) one(e);
  for (const auto& w : n.windowCalls) {
    for (const auto& e : w.args) one(e);
    one(w.agg.arg);
    one(w.frame.startOffset);
    one(w.frame.endOffset);
  }
}

ReadFootprint footprint(const Node& root) {
  ReadFootprint f;
  collectFootprint(root, f);
  return f;
}

const Node* groupedProbe(const Node& join, std::vector<size_t>* groupKeys) {
  if (join.kind != NodeKind::HashJoin || join.outer || join.keepBuildSide || join.semiBuildsOuter ||
      (join.semi != SemiJoin::None && join.semi != SemiJoin::Semi))
    return nullptr;
  std::vector<int> columns;  // each probe key's column, followed down to the aggregation
  for (const auto& k : join.rightKeys) {
    if (k->kind != ExprKind::Column) return nullptr;
    columns.push_back(k->column);
  }
  const Node* n = join.children[1].get();
  for (; n->kind == NodeKind::Filter || n->kind == NodeKind::Project; n = n->children[0].get()) {
    if (n->kind == NodeKind::Filter) continue;
    for (int& c : columns) {
      const Expr& e = *n->exprs[static_cast<size_t>(c)];
      if (e.kind != ExprKind::Column) return nullptr;
      c = e.column;
    }
  }
  if (n->kind != NodeKind::Aggregate || !n->groupingSets.empty()) return nullptr;
  std::vector<size_t> keys;
  for (size_t k = 0; k < columns.size(); ++k) {
    auto c = static_cast<size_t>(columns[k]);
    if (c >= n->exprs.size() || n->exprs[c]->type.id != join.exprs[k]->type.id) return nullptr;
    keys.push_back(c);
  }
  if (groupKeys) *groupKeys = std::move(keys);
  return n;
}

bool walksRange(const Node& n) {
  return n.kind == NodeKind::IndexJoin &&
         (!n.index->unique() || n.keys.size() < n.index->columns().size() || n.rangeLow || n.rangeHigh);
}

static std::string outlineOf(const Node& node) {
  std::string s = kindName(node.kind);
  if (node.kind == NodeKind::IndexRange || (node.kind == NodeKind::IndexLookup && node.keySet >= 0) || walksRange(node))
    s += "[" + rangeDetail(node) + "]";
  else if (node.kind == NodeKind::IndexLookup || node.kind == NodeKind::IndexJoin)
    s += "[" + node.index->name() + "]";
  else if (node.kind == NodeKind::TableScan || node.kind == NodeKind::CurrentOf)
    s += "[" + node.table->name() + (node.morsels ? ", morsels" : "") + "]";
  if (node.outer) s += node.keepBuildSide ? "[full]" : "[outer]";
  if (node.semi != SemiJoin::None)
    s += node.semi == SemiJoin::Semi ? "[semi]" : node.semi == SemiJoin::Anti ? "[anti]" : "[not in]";
  if (node.parallelThreads > 1) s += "[parallel " + std::to_string(node.parallelThreads) + "]";
  if (node.outerBuildThreads > 1) s += "[outer built on " + std::to_string(node.outerBuildThreads) + "]";
  for (const Node* sub : subplansOf(node)) s += "{" + outline(*sub) + "}";
  if (node.children.empty()) return s;
  s += "(";
  for (size_t i = 0; i < node.children.size(); ++i) {
    if (i) s += ", ";
    s += outline(*node.children[i]);
  }
  return s + ")";
}

std::string outline(const Node& node) {
  if (node.gatherThreads > 1)
    return "Gather[parallel " + std::to_string(node.gatherThreads) + "](" + outlineOf(node) + ")";
  return outlineOf(node);
}

}  // namespace duet::plan
