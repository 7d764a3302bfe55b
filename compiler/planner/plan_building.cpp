#include "compiler/planner/plan_building.h"

#include "engine/storage/table.h"

namespace duet::planner {

using plan::ExprKind;
using plan::ExprPtr;
using plan::Node;
using plan::NodeKind;
using plan::NodePtr;

std::vector<SqlType> tableRowTypes(const Table& t) {
  std::vector<SqlType> types;
  for (const auto& c : t.columns()) types.push_back(c.type);
  types.push_back({TypeId::Int8, -1});  // rowid
  return types;
}

void splitConjuncts(ExprPtr e, std::vector<ExprPtr>& out) {
  if (e->kind == ExprKind::And) {
    for (auto& a : e->args) splitConjuncts(std::move(a), out);
    return;
  }
  out.push_back(std::move(e));
}

ExprPtr conjunction(std::vector<ExprPtr> parts) {
  if (parts.empty()) return nullptr;
  if (parts.size() == 1) return std::move(parts[0]);
  auto e = std::make_unique<plan::Expr>(ExprKind::And, SqlType{TypeId::Bool, -1});
  e->args = std::move(parts);
  return e;
}

NodePtr filter(NodePtr child, ExprPtr predicate) {
  if (!predicate) return child;
  auto n = std::make_unique<Node>(NodeKind::Filter);
  n->outputTypes = child->outputTypes;
  n->predicate = std::move(predicate);
  n->children.push_back(std::move(child));
  return n;
}

NodePtr project(NodePtr child, std::vector<ExprPtr> exprs) {
  auto n = std::make_unique<Node>(NodeKind::Project);
  for (const auto& e : exprs) n->outputTypes.push_back(e->type);
  n->exprs = std::move(exprs);
  n->children.push_back(std::move(child));
  return n;
}

NodePtr materialize(NodePtr child) {
  auto m = std::make_unique<Node>(NodeKind::Materialize);
  m->outputTypes = child->outputTypes;
  m->children.push_back(std::move(child));
  return m;
}

}  // namespace duet::planner
