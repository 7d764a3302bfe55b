// PREPARE and EXECUTE, the SQL statements (StatementRunner's, kept apart from its frame):
// PREPARE makes the prepared statement the extended protocol's Parse would, EXECUTE binds
// its arguments and runs its plan.
#include <algorithm>

#include <fmt/format.h>

#include "session/statement_runner.h"

namespace duet {

void StatementRunner::prepare(const Statement& st) {
  const auto& s = st.parsed.stmt->as<sql::PrepareStmt>();
  std::vector<uint32_t> types;
  for (const sql::TypeName& t : s.paramTypes) {
    if (!t.resolved) {
      throw SqlError(sqlstate::kUndefinedObject, fmt::format("type \"{}\" does not exist", t.name()), {}, {},
                     static_cast<int>(t.location) + 1);
    }
    types.push_back(typeOid(t.sqlType()));
  }
  if (state_.statements.count(s.name)) {
    throw SqlError(sqlstate::kDuplicatePreparedStatement,
                   fmt::format("prepared statement \"{}\" already exists", s.name));
  }
  prepare_(s.name, st.sql.substr(s.stmt->begin, s.stmt->end - s.stmt->begin), types);
}

namespace {
// Keeps the one row of EXECUTE's arguments, as text.
class ArgumentSink final : public IgnoringSink {
 public:
  void dataRow(const Field* fields, size_t count) override {
    for (size_t i = 0; i < count; ++i) {
      values.push_back(fields[i].len < 0 ? std::nullopt
                                         : std::optional<std::string>(
                                               std::string(fields[i].data, static_cast<size_t>(fields[i].len))));
    }
  }
  std::vector<std::optional<std::string>> values;
};
}  // namespace

void StatementRunner::execute(const Statement& st, std::unique_ptr<ParamTuple>& bound,
                              const std::vector<int16_t>& formats, ResultSink& sink, bool describe) {
  const auto& s = st.parsed.stmt->as<sql::ExecuteStmt>();
  // Its arguments are evaluated apart from its own Bind: a $n there has no value.
  if (st.parsed.explicitParams > 0) {
    throw SqlError(sqlstate::kUndefinedParameter, fmt::format("there is no parameter ${}", st.parsed.firstParam), {},
                   {}, sql::sqlPosition(st.sql, st.parsed.firstParamLocation));
  }
  auto it = state_.statements.find(s.name);
  if (it == state_.statements.end()) {
    throw SqlError(sqlstate::kUndefinedPstatement, fmt::format("prepared statement \"{}\" does not exist", s.name));
  }
  std::shared_ptr<Statement> prepared = it->second;
  if (!prepared->plan) {
    throw SqlError(sqlstate::kFeatureNotSupported, fmt::format("EXECUTE of \"{}\" is not supported", s.name));
  }
  if (planner_.stale(*prepared->plan)) prepared->plan = planner_.replan(*prepared);
  size_t required = std::max<size_t>(std::max(prepared->parsed.explicitParams, 0), prepared->declaredTypes.size());
  if (s.args.size() != required) {
    throw SqlError(sqlstate::kSyntaxError,
                   fmt::format("wrong number of parameters for prepared statement \"{}\"", s.name),
                   fmt::format("Expected {} parameters but got {}.", required, s.args.size()));
  }
  // The arguments, each cast to its parameter's type, as one SELECT of the same session.
  ArgumentSink args;
  if (required > 0) {
    std::string query = "SELECT ";
    for (size_t i = 0; i < required; ++i) {
      SqlType type = i < prepared->plan->paramTypes.size() ? prepared->plan->paramTypes[i] : SqlType{TypeId::Text, -1};
      if (type.id == TypeId::Unknown) type = SqlType{TypeId::Text, -1};
      auto [begin, end] = s.argRanges[i];
      query += fmt::format("{}CAST(({}) AS {})", i ? ", " : "", st.sql.substr(begin, end - begin), typeName(type));
    }
    Statement argStatement;
    argStatement.text = std::make_shared<const std::string>(query);
    argStatement.sql = *argStatement.text;
    std::vector<sql::ParsedStatement> parsed = sql::parseQuery(query, sql::ParseOptions{.liftLiterals = true});
    argStatement.parsed = std::move(parsed.at(0));
    argStatement.plan = planner_.planFor(argStatement);
    std::unique_ptr<ParamTuple> literals = planner_.literalParams(argStatement);
    runPlan(argStatement, literals->data(), {}, args, false);
  }
  bound = std::make_unique<ParamTuple>(prepared->plan->compiled->paramLayout);
  const TypeContext& ctx = state_.settings.typeContext();
  for (size_t i = 0; i < args.values.size() && i < static_cast<size_t>(prepared->parsed.explicitParams); ++i) {
    std::optional<std::string_view> v;
    if (args.values[i]) v = std::string_view(*args.values[i]);
    bound->set(i, v, 0, ctx);
  }
  for (const auto& lit : prepared->parsed.literals) bound->set(lit.paramNumber - 1, lit.value(), 0, ctx);
  runPlan(*prepared, bound->data(), formats, sink, describe);
}

}  // namespace duet
