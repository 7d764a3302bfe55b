// EXPLAIN [ANALYZE]: options, planning, the analysed run and the rows of the rendering.
#include "session/explain_runner.h"

#include <chrono>

#include <fmt/format.h>

#include "engine/elapsed.h"
#include "engine/types/value_io.h"

namespace duet {
namespace {

// Hands the rows of an analysed statement nowhere (its root node counts them).
class DiscardingConsumer final : public rt::RowConsumer {
 public:
  void consume(const uint8_t*) override {}
};

}  // namespace

plan::ExplainOptions explainOptions(const sql::ExplainStmt& s, std::string_view sql) {
  plan::ExplainOptions o;
  bool timingSet = false, summarySet = false;
  for (const sql::DefElem& d : s.options) {
    if (d.name == "analyze") {
      o.analyze = booleanOption(d);
    } else if (d.name == "verbose") {
      o.verbose = booleanOption(d);
    } else if (d.name == "costs") {
      o.costs = booleanOption(d);
    } else if (d.name == "buffers" || d.name == "wal" || d.name == "settings") {
      o.buffers = booleanOption(d) || o.buffers;  // accepted; nothing to show
    } else if (d.name == "timing") {
      timingSet = true;
      o.timing = booleanOption(d);
    } else if (d.name == "summary") {
      summarySet = true;
      o.summary = booleanOption(d);
    } else if (d.name == "format") {
      if (d.valueKind == sql::DefElem::ValueKind::None)
        throw SqlError(sqlstate::kSyntaxError, "format requires a parameter");
      std::string v = d.value;
      for (char& c : v) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (v == "text") {
        o.format = plan::ExplainOptions::Format::Text;
      } else if (v == "json") {
        o.format = plan::ExplainOptions::Format::Json;
      } else if (v == "xml" || v == "yaml") {
        throw SqlError(sqlstate::kFeatureNotSupported, fmt::format("EXPLAIN format \"{}\" is not supported", v));
      } else {
        throw SqlError(sqlstate::kInvalidParameterValue,
                       fmt::format("unrecognized value for EXPLAIN option \"format\": \"{}\"", d.value), {}, {},
                       sql::sqlPosition(sql, d.location));
      }
    } else {
      throw SqlError(sqlstate::kSyntaxError, fmt::format("unrecognized EXPLAIN option \"{}\"", d.name), {}, {},
                     sql::sqlPosition(sql, d.location));
    }
  }
  for (const sql::DefElem& d : s.options)
    if (d.name == "wal" && booleanOption(d) && !o.analyze)
      throw SqlError(sqlstate::kInvalidParameterValue, "EXPLAIN option WAL requires ANALYZE");
  if (timingSet && o.timing && !o.analyze)
    throw SqlError(sqlstate::kInvalidParameterValue, "EXPLAIN option TIMING requires ANALYZE");
  if (!timingSet) o.timing = o.analyze;
  if (!summarySet) o.summary = o.analyze;
  return o;
}

std::vector<ColumnDesc> explainColumns() { return {ColumnDesc{"QUERY PLAN", 0, 0, oid::kText, -1, -1, 0}}; }

PlanRequest ExplainRunner::innerRequest(const Statement& st) {
  PlanRequest request = planner_.planRequest(st);
  request.stmt = st.parsed.stmt->as<sql::ExplainStmt>().stmt.get();
  return request;
}

std::optional<TextParams> ExplainRunner::run(const Statement& st, const uint8_t* params, ResultSink& sink,
                                             bool describe) {
  const auto& explainStmt = st.parsed.stmt->as<sql::ExplainStmt>();
  plan::ExplainOptions options = explainOptions(explainStmt, st.sql);
  PlanRequest request = innerRequest(st);
  ExplainedStatement planned = planForExplain(request);
  const PreparedPlan& plan = *planned.plan;

  plan::ExplainInput in;
  in.root = planned.root.get();
  in.options = options;
  in.functionName = sqlFunctionName;
  in.routineName = [this](uint32_t oid) {
    const RoutineInfo* r = routines_.routineByOid(oid);
    return r ? r->name : std::string();
  };
  in.typeContext = state_.settings.typeContext();
  in.runsOn = state_.engine.snapshotProcess ? "snapshot" : "executor";
  in.planningMs = planned.planningMs;
  // $n with a value (the extended protocol's Bind) show it.
  TupleLayout paramLayout = TupleLayout::of(plan.paramTypes);
  if (params) {
    in.paramValue = [&](int i, std::string& text, bool& isNull) {
      if (i < 0 || static_cast<size_t>(i) >= paramLayout.types.size()) return false;
      isNull = params[paramLayout.nullOffset(i)] != 0;
      if (!isNull) formatText(paramLayout.types[i], params + paramLayout.offsets[i], text, in.typeContext);
      return true;
    };
  }

  std::vector<plan::NodeActuals> actuals;
  plan::ExplainJit jit;
  std::optional<TextParams> ranWith;
  if (options.analyze) {
    // It runs: a read-only transaction refuses what it would refuse of the statement.
    if (const char* command = writingCommand(plan, *explainStmt.stmt)) state_.txn.undo().checkWritable(command);
    auto numbers = plan::explainNumbers(*planned.root);
    compileForAnalyze(planned, request, numbers, options.timing);
    rt::Instrumentation counts(options.timing, numbers.size());
    DiscardingConsumer discard;
    rt::QueryContext ctx = state_.queryContext(params);
    ctx.output = &discard;
    ctx.instrumentation = &counts;
    auto start = std::chrono::steady_clock::now();
    planned.plan->compiled->run(&ctx);
    in.executionMs = msSince(start);
    in.compileMs = planned.plan->compiled->compileMs;
    counts.finish();
    actuals = nodeActuals(counts);
    in.actuals = &actuals;
    if (options.summary) {
      jit = explainJit(*planned.plan->compiled, counts);
      in.jit = &jit;
    }
    if (params) ranWith = explicitParamsAsText(st, plan, params, state_.settings.typeContext());
  }

  std::vector<std::string> rows = plan::explain(in);
  if (describe) sink.rowDescription(explainColumns());
  for (const std::string& row : rows) {
    Field f{row.data(), static_cast<int32_t>(row.size())};
    sink.dataRow(&f, 1);
  }
  sink.commandComplete("EXPLAIN");
  return ranWith;
}

}  // namespace duet
