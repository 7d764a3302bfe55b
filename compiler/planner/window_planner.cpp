// Window functions: one Window node per distinct window of a select list's calls (calls
// with the same PARTITION BY and ORDER BY share it, and so one sort), each above a
// projection that adds the window's keys as columns where they are not columns already.
// The nodes sit between the aggregation (or the FROM row) and the select list's projection,
// as PostgreSQL's WindowAgg nodes do.
#include "compiler/planner/plan_building.h"
#include "compiler/planner/statement_planner.h"

namespace duet::planner {

namespace {

void replaceWindowResults(ExprPtr& e, const std::vector<int>& columns) {
  if (e->kind == ExprKind::WindowResult) {
    e = plan::makeColumn(columns[e->column], e->type);
    return;
  }
  for (auto& a : e->args) replaceWindowResults(a, columns);
}

}  // namespace

NodePtr StatementPlanner::planWindows(NodePtr node, binder::WindowContext& windows, std::vector<ExprPtr>& targets) {
  std::vector<int> resultColumn(windows.calls.size());
  for (size_t w = 0; w < windows.windows.size(); ++w) {
    binder::WindowContext::Window& window = windows.windows[w];
    int width = static_cast<int>(node->outputTypes.size());
    std::vector<ExprPtr> keyExprs;  // the keys that are not input columns, as columns after them
    auto keyColumn = [&](ExprPtr& e) {
      if (e->kind == ExprKind::Column) return e->column;
      keyExprs.push_back(std::move(e));
      return width + static_cast<int>(keyExprs.size()) - 1;
    };
    auto wn = std::make_unique<Node>(NodeKind::Window);
    for (auto& p : window.partition) wn->sortKeys.push_back({keyColumn(p), false, false});
    for (size_t i = 0; i < window.order.size(); ++i) {
      plan::SortKey k = window.orderKeys[i];
      k.column = keyColumn(window.order[i]);
      wn->sortKeys.push_back(k);
    }
    wn->partitionKeys = static_cast<int>(window.partition.size());
    if (!keyExprs.empty()) {
      std::vector<ExprPtr> exprs;
      for (int c = 0; c < width; ++c) exprs.push_back(plan::makeColumn(c, node->outputTypes[c]));
      for (auto& e : keyExprs) exprs.push_back(std::move(e));
      node = project(std::move(node), std::move(exprs));
    }
    wn->outputTypes = node->outputTypes;
    for (size_t k = 0; k < windows.calls.size(); ++k) {
      if (windows.calls[k].window != w) continue;
      resultColumn[k] = static_cast<int>(wn->outputTypes.size());
      wn->outputTypes.push_back(windows.calls[k].call.resultType);
      wn->windowCalls.push_back(std::move(windows.calls[k].call));
    }
    wn->children.push_back(std::move(node));
    node = std::move(wn);
  }
  for (auto& t : targets) replaceWindowResults(t, resultColumn);
  return node;
}

}  // namespace duet::planner
