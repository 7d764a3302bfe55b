// The plan shapes of a bare routine call:
//   CALL p(args)             FunctionScan
//   SELECT * FROM f(args)    Project(every column, in order) over FunctionScan
//   SELECT f(args)           Project(RoutineCall) over Values(one empty row)
// where every argument is a parameter of the routine's argument type (or a narrower
// integer, widened when the call is made), or NULL. Anything
// else around the call (WHERE, ORDER BY, LIMIT, a column list, another expression, an
// argument that is computed, a DEFAULT filled in) leaves the statement to its plan.
#include "compiler/planner/direct_call.h"

namespace duet {
namespace {

using plan::Expr;
using plan::ExprKind;
using plan::Node;
using plan::NodeKind;

// The parameter an argument is, DirectCall::kNull for a NULL, or nullopt. Casts to the
// type the value already has change nothing and are looked through, as are integer
// widenings (the call makes those).
std::optional<int> paramOf(const Expr& arg, const std::vector<SqlType>& paramTypes) {
  const Expr* e = &arg;
  while (e->kind == ExprKind::Cast && e->args.size() == 1 &&
         (e->args[0]->type == e->type || widensInteger(e->args[0]->type, e->type)))
    e = e->args[0].get();
  if (e->kind == ExprKind::Const && e->constNull) return DirectCall::kNull;
  if (e->kind != ExprKind::Param || e->param < 0 || static_cast<size_t>(e->param) >= paramTypes.size())
    return std::nullopt;
  const SqlType& type = paramTypes[e->param];
  if (e->type != type || (type != arg.type && !widensInteger(type, arg.type))) return std::nullopt;
  return e->param;
}

std::optional<DirectCall> callOf(uint32_t routine, DirectCall::Form form, const std::vector<plan::ExprPtr>& args,
                                 const std::vector<SqlType>& paramTypes) {
  DirectCall call;
  call.routine = routine;
  call.form = form;
  for (const auto& a : args) {
    std::optional<int> param = paramOf(*a, paramTypes);
    if (!param) return std::nullopt;
    call.argParams.push_back(*param);
    call.argTypes.push_back(a->type);
  }
  return call;
}

// Project's expressions are the columns of its input, all of them, in order.
bool projectsAllColumns(const Node& project, const Node& input) {
  if (project.exprs.size() != input.outputTypes.size()) return false;
  for (size_t i = 0; i < project.exprs.size(); ++i) {
    const Expr& e = *project.exprs[i];
    if (e.kind != ExprKind::Column || e.column != static_cast<int>(i) || e.type != input.outputTypes[i]) return false;
  }
  return true;
}

}  // namespace

bool widensInteger(const SqlType& from, const SqlType& to) {
  auto rank = [](TypeId t) { return t == TypeId::Int2 ? 1 : t == TypeId::Int4 ? 2 : t == TypeId::Int8 ? 3 : 0; };
  return rank(from.id) > 0 && rank(from.id) < rank(to.id);
}

std::optional<DirectCall> directCallOf(const Node& root, const std::vector<SqlType>& paramTypes) {
  if (root.kind == NodeKind::FunctionScan && !root.function.empty()) return std::nullopt;  // a built-in
  if (root.kind == NodeKind::FunctionScan) return callOf(root.routine, DirectCall::Form::Rows, root.exprs, paramTypes);
  if (root.kind != NodeKind::Project || root.children.size() != 1) return std::nullopt;
  const Node& input = *root.children[0];
  if (input.kind == NodeKind::FunctionScan && input.function.empty() && projectsAllColumns(root, input))
    return callOf(input.routine, DirectCall::Form::Rows, input.exprs, paramTypes);
  bool oneEmptyRow = input.kind == NodeKind::Values && input.rows.size() == 1 && input.rows[0].empty();
  if (oneEmptyRow && root.exprs.size() == 1 && root.exprs[0]->kind == ExprKind::RoutineCall)
    return callOf(root.exprs[0]->routine, DirectCall::Form::Value, root.exprs[0]->args, paramTypes);
  return std::nullopt;
}

}  // namespace duet
