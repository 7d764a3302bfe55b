// planTree and the statement kinds: which planner part plans each, and the parameter types
// decided last.
#include "compiler/planner/statement_planner.h"

#include <fmt/format.h>
#include <algorithm>

#include "compiler/parser/ast_routine.h"
#include "compiler/planner/direct_call.h"
#include "compiler/planner/plan_building.h"
#include "engine/error.h"
#include "engine/storage/table.h"

namespace duet::planner {

PlannedStatement StatementPlanner::run() {
  auto out = std::make_unique<PreparedPlan>();
  NodePtr root;
  switch (req_.stmt->kind) {
    case sql::StmtKind::Select:
      out->command = PreparedPlan::Command::Select;
      root = planSelect(req_.stmt->as<sql::SelectStmt>(), out->columns);
      out->returnsRows = true;
      if (req_.cursorQuery) keepCursorRowIds(*root, req_.stmt->as<sql::SelectStmt>(), *out);
      break;
    case sql::StmtKind::Insert:
      out->command = PreparedPlan::Command::Insert;
      root = planInsert(req_.stmt->as<sql::InsertStmt>(), out->columns);
      break;
    case sql::StmtKind::Update:
      out->command = PreparedPlan::Command::Update;
      root = planUpdate(req_.stmt->as<sql::UpdateStmt>(), out->columns);
      break;
    case sql::StmtKind::Delete:
      out->command = PreparedPlan::Command::Delete;
      root = planDelete(req_.stmt->as<sql::DeleteStmt>(), out->columns);
      break;
    case sql::StmtKind::Call: {
      // CALL p(args): the procedure's row (its OUT arguments), if it has one.
      out->command = PreparedPlan::Command::Call;
      const sql::FuncCall& call = *req_.stmt->as<sql::CallStmt>().call;
      const RoutineCandidate& r = resolveCall(call, true);
      for (size_t a = 0; a < r.argOutputs.size(); ++a)
        if (r.argOutputs[a]) out->callOutputs.emplace_back(static_cast<int>(a), r.argNames[a]);
      root = functionScan(r, boundArgs_);
      for (size_t i = 0; i < r.resultTypes.size(); ++i) out->columns.push_back({r.resultNames[i], r.resultTypes[i]});
      out->returnsRows = !r.resultTypes.empty();
      break;
    }
    default: throw SqlError(sqlstate::kInternalError, "planTree called for a utility statement");
  }
  if (out->command != PreparedPlan::Command::Select && out->command != PreparedPlan::Command::Call)
    out->returnsRows = !root->returning.empty();
  if (const auto* top = dynamic_cast<const sql::WithList*>(req_.stmt)) checkDataModifyingWithRead(*top);
  for (auto& t : b_.paramTypes())
    if (t.id == TypeId::Unknown) t = {TypeId::Text, -1};
  out->paramTypes = b_.paramTypes();
  fixParamTypes(*root);
  estimateRows(*root);
  computeOnBuildSides(*root, b_.paramClasses());
  markGroupFilters(*root);
  out->planOutline = plan::outline(*root);
  out->footprint = plan::footprint(*root);
  out->directCall = directCallOf(*root, out->paramTypes);
  if (out->directCall)
    for (const OutputColumn& c : out->columns) out->directCall->resultRow.push_back(c.type);
  return {std::move(out), std::move(root)};
}

void StatementPlanner::fixExpr(plan::Expr& e) {
  if (e.kind == ExprKind::Param) e.type = b_.paramTypes()[e.param];
  for (auto& a : e.args) fixExpr(*a);
  if (e.subplan) fixParamTypes(*e.subplan);
}

void StatementPlanner::fixParamTypes(Node& n) {
  auto fixAll = [&](std::vector<ExprPtr>& v) {
    for (auto& e : v)
      if (e) fixExpr(*e);
  };
  fixAll(n.keys);
  fixAll(n.exprs);
  fixAll(n.rightKeys);
  fixAll(n.returning);
  if (n.rangeLow) fixExpr(*n.rangeLow);
  if (n.rangeHigh) fixExpr(*n.rangeHigh);
  for (auto& r : n.rows) fixAll(r);
  if (n.predicate) fixExpr(*n.predicate);
  if (n.limit) fixExpr(*n.limit);
  if (n.offset) fixExpr(*n.offset);
  for (auto& a : n.aggs) {
    if (a.arg) fixExpr(*a.arg);
    fixAll(a.extraArgs);
    if (a.filter) fixExpr(*a.filter);
    for (auto& o : a.orderBy) fixExpr(*o.expr);
  }
  for (auto& c : n.children) fixParamTypes(*c);
}

ScopeEntry StatementPlanner::entryFor(const TableBinding& t, const std::string& alias, int offset) {
  ScopeEntry e;
  e.alias = alias.empty() ? t.name : alias;
  e.table = &t;
  for (const auto& c : t.table->columns()) {
    e.names.push_back(c.name);
    e.types.push_back(c.type);
  }
  e.names.push_back("");  // the hidden rowid column: no name can reach it
  e.types.push_back({TypeId::Int8, -1});
  e.joinColumn.assign(e.names.size(), -1);
  e.offset = offset;
  return e;
}

const TableBinding& StatementPlanner::resolve(const sql::QualifiedName& name) {
  bindings_.push_back(std::make_unique<TableBinding>(req_.resolveTable(name)));
  if (req_.noteRelation && expandingViews_.empty()) req_.noteRelation(*bindings_.back(), name);
  return *bindings_.back();
}

}  // namespace duet::planner

namespace duet {

PlannedStatement planTree(const PlanRequest& request) {
  planner::StatementPlanner planner(request);
  return planner.run();
}

}  // namespace duet
