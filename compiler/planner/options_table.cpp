// FROM pg_options_to_table(options): the "name=value" entries of a text[] (reloptions,
// fdwoptions, ...) as rows (option_name, option_value), as pg_dump reads them. Planned as
// unnest(options) split at each entry's first '=', so it needs no runtime of its own.
#include <cstring>

#include "compiler/planner/plan_building.h"
#include "compiler/planner/statement_planner.h"

namespace duet::planner {
namespace {

const SqlType kText{TypeId::Text, -1}, kInt4{TypeId::Int4, -1};

ExprPtr textConstant(std::string s) {
  auto e = std::make_unique<plan::Expr>(ExprKind::Const, kText);
  e->constString = std::move(s);
  return e;
}

ExprPtr int4Constant(int32_t v) {
  auto e = std::make_unique<plan::Expr>(ExprKind::Const, kInt4);
  std::memcpy(e->constant, &v, sizeof v);
  return e;
}

}  // namespace

NodePtr StatementPlanner::optionsTableItem(const sql::RangeFunction& f, ScopeEntry& e) {
  const sql::FuncCall& call = *f.call;
  Scope none;
  std::vector<ExprPtr> args;
  Binder::Clause clause(b_, "functions in FROM");
  for (const auto& a : call.args) args.push_back(b_.bind(*a, none));
  if (args.size() != 1 || !(args[0]->type.isArray() || args[0]->type.id == TypeId::Unknown))
    b_.failUndefinedRoutine(call.names.back(), args, false, call.location);
  args[0] = b_.coerce(std::move(args[0]), SqlType::arrayOf(kText), CastContext::Implicit, call.location);
  ExprPtr unnest = b_.builtinSetCall("unnest", args, call.location);
  auto scan = std::make_unique<Node>(NodeKind::FunctionScan);
  scan->function = unnest->function;
  scan->exprs = std::move(unnest->args);
  scan->outputTypes = {kText};
  // split_part(entry, '=', 1), substr(entry, strpos(entry, '=') + 1)
  std::vector<ExprPtr> nameArgs;
  nameArgs.push_back(plan::makeColumn(0, kText));
  nameArgs.push_back(textConstant("="));
  nameArgs.push_back(int4Constant(1));
  std::vector<ExprPtr> positionArgs;
  positionArgs.push_back(plan::makeColumn(0, kText));
  positionArgs.push_back(textConstant("="));
  auto start = std::make_unique<plan::Expr>(ExprKind::Binary, kInt4);
  start->op = plan::Op::Add;
  start->args.push_back(b_.builtinCall("strpos", positionArgs, call.location));
  start->args.push_back(int4Constant(1));
  std::vector<ExprPtr> valueArgs;
  valueArgs.push_back(plan::makeColumn(0, kText));
  valueArgs.push_back(std::move(start));
  std::vector<ExprPtr> row;
  row.push_back(b_.builtinCall("split_part", nameArgs, call.location));
  row.push_back(b_.builtinCall("substr", valueArgs, call.location));
  NodePtr node = project(std::move(scan), std::move(row));
  e.alias = f.alias && !f.alias->name.empty() ? f.alias->name : "pg_options_to_table";
  e.names = {"option_name", "option_value"};
  if (f.alias)
    for (size_t i = 0; i < f.alias->columns.size() && i < 2; ++i) e.names[i] = f.alias->columns[i];
  e.types = {kText, kText};
  e.joinColumn.assign(2, -1);
  return node;
}

}  // namespace duet::planner
