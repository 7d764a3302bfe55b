// A statement run for a utility statement (see internal_query.h).
#include "session/internal_query.h"

#include <utility>

#include "compiler/compiler.h"
#include "session/live_system_rows.h"

namespace duet {

InternalQuery::InternalQuery(SessionState& state, StatementPlanner& planner, std::string sql, Table* target)
    : state_(state), planner_(planner) {
  auto parsed = sql::parseQuery(sql, sql::ParseOptions{.liftLiterals = true});
  if (parsed.size() != 1 ||
      (parsed[0].stmt->kind != sql::StmtKind::Select && parsed[0].stmt->kind != sql::StmtKind::Insert))
    throw SqlError(sqlstate::kSyntaxError, "expected one SELECT or INSERT");
  auto text = std::make_shared<const std::string>(std::move(sql));
  statement_ = Statement{text, *text, std::move(parsed[0]), {}, nullptr, {}};
  if (!target) {
    statement_.plan = planner_.planFor(statement_);
    return;
  }
  PlanRequest request = planner_.planRequest(statement_);
  request.resolveTable = [target, resolve = std::move(request.resolveTable)](const sql::QualifiedName& name) {
    if (name.parts.size() == 1 && "\"" + name.name() + "\"" == kTarget)
      return TableBinding{target, 0, target->name(), {}, nullptr};
    return resolve(name);
  };
  statement_.plan = planStatement(request);
}

std::vector<OutputColumn> InternalQuery::columns() const {
  std::vector<OutputColumn> columns = statement_.plan->columns;
  for (OutputColumn& c : columns)
    if (c.type.id == TypeId::Unknown) c.type = SqlType{TypeId::Text};
  return columns;
}

int64_t InternalQuery::run(UndoLog* undo) {
  class Counter final : public rt::RowConsumer {
   public:
    void consume(const uint8_t*) override { ++rows; }
    int64_t rows = 0;
  };
  std::unique_ptr<ParamTuple> params = planner_.literalParams(statement_);
  Counter counter;
  rt::QueryContext ctx = state_.queryContext(params->data());
  ctx.output = &counter;
  if (undo) ctx.undo = undo;
  fillSystemTables(state_, *statement_.plan);
  statement_.plan->compiled->run(&ctx);
  return statement_.parsed.stmt->kind == sql::StmtKind::Insert ? ctx.affectedRows : counter.rows;
}

}  // namespace duet
