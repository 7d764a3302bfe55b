// Running a routine's dynamic SQL (see dynamic_statements.h), with the checks and errors of
// PostgreSQL's SPI as PL/pgSQL calls it (exec_stmt_dynexecute, exec_dynquery_with_params,
// exec_stmt_return_query).
#include "session/dynamic_statements.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "engine/storage/tuple_storage.h"
#include "engine/types/value_io.h"
#include "session/live_system_rows.h"

namespace duet {
namespace {

// What a utility statement answers: its rows as text, with their column types, and its
// command tag; its notices go to the client after the calling statement, as RAISE's do.
class UtilityResult final : public IgnoringSink {
 public:
  explicit UtilityResult(SessionState& state) : state_(state) {}
  void rowDescription(const std::vector<ColumnDesc>& columns) override {
    described = true;
    std::vector<SqlType> types;
    for (const ColumnDesc& c : columns) types.push_back(sqlTypeFromOid(c.typeOid));
    for (const ColumnDesc& c : columns) names.push_back(c.name);
    layout = TupleLayout::of(types);
  }
  void dataRow(const Field* fields, size_t count) override {
    auto& row = rows.emplace_back();
    for (size_t i = 0; i < count; ++i)
      row.push_back(fields[i].len < 0 ? std::nullopt
                                      : std::optional<std::string>(std::string(fields[i].data, fields[i].len)));
  }
  void commandComplete(std::string_view commandTag) override { tag = commandTag; }
  void notice(const Notice& n) override { state_.pendingNotices.push_back(n); }  // filtered by sendNotice

  bool described = false;
  TupleLayout layout;
  std::vector<std::string> names;
  std::vector<std::vector<std::optional<std::string>>> rows;
  std::string tag;

 private:
  SessionState& state_;
};

// Counts the rows a plan hands out and passes them on.
class CountingRows final : public rt::RowConsumer {
 public:
  explicit CountingRows(rt::RowConsumer& rows) : rows_(rows) {}
  void consume(const uint8_t* tuple) override {
    ++count;
    rows_.consume(tuple);
  }
  uint64_t count = 0;

 private:
  rt::RowConsumer& rows_;
};

// Whether the statement returns rows (PostgreSQL: has a result descriptor).
bool returnsRows(const Statement& st) {
  if (st.plan) return st.plan->returnsRows;
  sql::StmtKind kind = st.parsed.stmt->kind;
  return kind == sql::StmtKind::Show || kind == sql::StmtKind::Explain;
}

// The statement's name in EXECUTE's errors, as PostgreSQL's command tags name it: what a
// plan does, what a utility statement changes, else the statement's first word (SET, SHOW).
std::string commandName(const Statement& st) {
  const sql::Stmt& stmt = *st.parsed.stmt;
  if (st.plan) {
    if (const char* writing = writingCommand(*st.plan, stmt)) return writing;
    return st.plan->command == PreparedPlan::Command::Call ? "CALL" : "SELECT";
  }
  if (const char* changing = changingCommand(stmt)) return changing;
  std::string_view text = st.sql.substr(stmt.begin, stmt.end - stmt.begin);
  std::string word;
  for (char c : text) {
    if (!std::isalpha(static_cast<unsigned char>(c))) break;
    word += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  return word;
}

// Statements SPI refuses to run for PL/pgSQL (_SPI_execute_plan, exec_stmt_dynexecute).
void refuseForExecute(const sql::Stmt& stmt) {
  if (stmt.kind == sql::StmtKind::Copy)
    throw SqlError(sqlstate::kFeatureNotSupported, "cannot COPY to/from client in PL/pgSQL");
  if (stmt.kind == sql::StmtKind::Transaction) {
    switch (stmt.as<sql::TransactionStmt>().action) {
      case sql::TransactionKind::SetTransaction:
      case sql::TransactionKind::SetSessionCharacteristics:
      case sql::TransactionKind::SetConstraints: return;  // settings, not transaction control
      default: throw SqlError(sqlstate::kFeatureNotSupported, "EXECUTE of transaction commands is not implemented");
    }
  }
  if (stmt.kind == sql::StmtKind::CreateTable && stmt.as<sql::CreateTableStmt>().selectInto)
    throw SqlError(sqlstate::kFeatureNotSupported, "EXECUTE of SELECT ... INTO is not implemented", {},
                   "You might want to use EXECUTE ... INTO or EXECUTE CREATE TABLE ... AS instead.");
}

// Whether a non-volatile routine may run it: a SELECT that locks and changes nothing
// (PostgreSQL's CommandIsReadOnly; utility statements never are).
bool readOnly(const Statement& st) {
  return st.plan && st.plan->command == PreparedPlan::Command::Select && !writingCommand(*st.plan, *st.parsed.stmt);
}

// The context a dynamic statement's plan runs in: the calling statement's, with the
// statement's own parameters, output and runtime state.
rt::QueryContext nestedContext(const rt::QueryContext& caller, const uint8_t* params) {
  rt::QueryContext ctx;
  ctx.params = params;
  ctx.undo = caller.undo;
  ctx.cancel = caller.cancel;
  ctx.timedOut = caller.timedOut;
  ctx.typeContext = caller.typeContext;
  ctx.transactionTimestamp = caller.transactionTimestamp;
  ctx.statementTimestamp = caller.statementTimestamp;
  ctx.clock = caller.clock;
  ctx.randomState = caller.randomState;
  ctx.session = caller.session;
  ctx.settings = caller.settings;
  return ctx;
}

// The number a command tag ends with (CREATE TABLE AS's "SELECT n").
uint64_t tagCount(std::string_view tag) {
  size_t space = tag.rfind(' ');
  uint64_t n = 0;
  if (space != std::string_view::npos) std::from_chars(tag.data() + space + 1, tag.data() + tag.size(), n);
  return n;
}

}  // namespace

rt::DynamicOutcome DynamicStatements::run(rt::QueryContext& caller, const rt::DynamicQuery& query,
                                          rt::DynamicRows& rows) {
  struct Nesting {
    int& depth;
    ~Nesting() { --depth; }
  } nesting{++state_.nestedStatements};
  const std::vector<SqlType>& usingTypes = query.paramLayout->types;
  std::vector<sql::ParsedStatement> parsed;
  try {
    parsed = sql::parseQuery(query.sql, sql::ParseOptions{.liftLiterals = true});
    std::erase_if(parsed, [](const sql::ParsedStatement& p) { return p.stmt->kind == sql::StmtKind::Empty; });
    for (const sql::ParsedStatement& p : parsed) checkParamNumbers(p, query.sql, static_cast<int>(usingTypes.size()));
  } catch (SqlError& e) {
    e.position = 0;  // a place in the command string, not in the client's statement
    throw;
  }
  if (query.use == rt::DynamicUse::Cursor && parsed.size() != 1)
    throw SqlError("42P11", "cannot open multi-query plan as cursor");
  if (query.use == rt::DynamicUse::ReturnQuery && parsed.empty())
    throw SqlError(sqlstate::kSyntaxError, "empty query does not return tuples");
  auto text = std::make_shared<const std::string>(query.sql);
  rt::DynamicOutcome outcome;
  for (sql::ParsedStatement& p : parsed) {
    Statement st{text, *text, std::move(p), {}, nullptr, {}};
    st.declaredTypes.assign(usingTypes.begin(), usingTypes.begin() + st.parsed.explicitParams);
    try {
      outcome = runStatement(caller, st, query, rows);
    } catch (SqlError& e) {
      e.position = 0;
      throw;
    }
  }
  return outcome;
}

rt::DynamicOutcome DynamicStatements::runStatement(rt::QueryContext& caller, Statement& st,
                                                   const rt::DynamicQuery& query, rt::DynamicRows& rows) {
  const sql::Stmt& stmt = *st.parsed.stmt;
  if (isQuery(stmt)) st.plan = planner_.planFor(st);
  if (!returnsRows(st)) {
    if (query.use == rt::DynamicUse::Cursor)
      throw SqlError("42P11", fmt::format("cannot open {} query as cursor", commandName(st)));
    if (query.use == rt::DynamicUse::ReturnQuery)
      throw SqlError(sqlstate::kSyntaxError, fmt::format("{} query does not return tuples", commandName(st)));
  }
  refuseForExecute(stmt);
  // A utility statement runs on its text alone (CREATE TABLE AS plans its query anew), so
  // it has no USING values to give its $n; EXPLAIN alone takes them.
  if (!st.plan && stmt.kind != sql::StmtKind::Explain && st.parsed.explicitParams > 0)
    throw SqlError(sqlstate::kFeatureNotSupported,
                   fmt::format("{} with parameters ($n) is not supported in EXECUTE yet", commandName(st)));
  if (query.readOnly && !readOnly(st))
    throw SqlError(sqlstate::kFeatureNotSupported,
                   fmt::format("{} is not allowed in a non-volatile function", commandName(st)));
  return st.plan ? runPlan(caller, st, query, rows) : runUtility(st, query, rows);
}

rt::DynamicOutcome DynamicStatements::runPlan(rt::QueryContext& caller, Statement& st, const rt::DynamicQuery& query,
                                              rt::DynamicRows& rows) {
  PreparedPlan& plan = *st.plan;
  // Before it runs, so a change of no row is refused too, as for a client's statement.
  if (const char* command = writingCommand(plan, *st.parsed.stmt)) state_.txn.undo().checkWritable(command);
  std::unique_ptr<ParamTuple> params = planner_.literalParams(st);
  for (int i = 0; i < st.parsed.explicitParams; ++i)
    params->set(static_cast<size_t>(i), *query.paramLayout, query.params, static_cast<size_t>(i));
  fillSystemTables(state_, plan);
  rt::QueryContext ctx = nestedContext(caller, params->data());
  CountingRows counting(rows);
  ctx.output = &counting;
  if (plan.returnsRows) {
    std::vector<std::string> names;
    for (const OutputColumn& c : plan.columns) names.push_back(c.name);
    rows.start(plan.compiled->outputLayout, names);
  }
  auto start = std::chrono::steady_clock::now();
  plan.compiled->run(&ctx);
  plan.executionNs += static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count());
  ++plan.executions;
  rt::DynamicOutcome outcome;
  outcome.returnedRows = plan.returnsRows;
  bool changes = plan.command != PreparedPlan::Command::Select && plan.command != PreparedPlan::Command::Call;
  outcome.processed = changes ? static_cast<uint64_t>(ctx.affectedRows) : counting.count;
  return outcome;
}

rt::DynamicOutcome DynamicStatements::runUtility(Statement& st, const rt::DynamicQuery& query, rt::DynamicRows& rows) {
  const sql::Stmt& stmt = *st.parsed.stmt;
  UndoLog::Mark start = state_.txn.undo().mark();
  uint64_t catalogVersion = state_.engine.catalogVersion;
  UtilityResult result(state_);
  if (stmt.kind == sql::StmtKind::Explain) {
    // Its $n are the USING values, in a tuple of just their types.
    TupleLayout layout = TupleLayout::of(st.declaredTypes);
    TupleStorage params(layout.size);
    for (size_t i = 0; i < layout.types.size(); ++i)
      copyField(*query.paramLayout, query.params, i, layout, params.data(), i);
    explain_.run(st, layout.types.empty() ? nullptr : params.data(), result, true);
  } else {
    utility_.run(st, result);
  }
  if (state_.engine.catalogVersion != catalogVersion) {
    if (ddlTransaction_ != state_.endedTransactions) ddlStarts_.clear();
    ddlTransaction_ = state_.endedTransactions;
    ddlStarts_.push_back(start);
  }
  rt::DynamicOutcome outcome;
  outcome.returnedRows = result.described;
  if (result.described) {
    rows.start(result.layout, result.names);
    const TypeContext& typeContext = state_.settings.typeContext();
    for (const auto& row : result.rows) {
      TupleStorage tuple(result.layout.size);
      for (size_t c = 0; c < row.size(); ++c) {
        tuple.data()[result.layout.nullOffset(c)] = row[c] ? 0 : 1;
        if (row[c])
          parseText(result.layout.types[c], *row[c], tuple.data() + result.layout.offsets[c], state_.arena,
                    typeContext);
      }
      rows.consume(tuple.data());
    }
    outcome.processed = result.rows.size();
  } else if (stmt.kind == sql::StmtKind::CreateTable && stmt.as<sql::CreateTableStmt>().query) {
    outcome.processed = tagCount(result.tag);  // CREATE TABLE AS: the rows it inserted
  }
  return outcome;
}

void DynamicStatements::subtransactionRolledBack() {
  if (ddlTransaction_ != state_.endedTransactions) ddlStarts_.clear();
  UndoLog::Mark now = state_.txn.undo().mark();
  if (std::none_of(ddlStarts_.begin(), ddlStarts_.end(), [&](UndoLog::Mark m) { return m >= now; })) return;
  std::erase_if(ddlStarts_, [&](UndoLog::Mark m) { return m >= now; });
  ++state_.engine.catalogVersion;
  routines_.discardStaleRoutines();
}

}  // namespace duet
