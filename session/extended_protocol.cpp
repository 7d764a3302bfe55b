// The extended query protocol: Parse / Bind / Describe / Execute / Close / Sync.
// Statements are parsed with literal lifting (explicit $n keep their numbers, lifted
// literals follow them) and planned at Parse through the engine's plan cache. Execute
// runs through the same statement runner as Simple Query; statements between Syncs form
// one implicit transaction unless a BEGIN block is open.
#include "session/extended_protocol.h"

#include <algorithm>
#include <exception>

#include <fmt/format.h>

#include "engine/types/strings.h"
#include "session/utility_statements.h"

namespace duet {
namespace {

std::string stmtName(const std::string& name) {
  return name.empty() ? std::string("unnamed prepared statement") : fmt::format("prepared statement \"{}\"", name);
}

// Forwards everything but RowDescription (Execute never sends one).
class NoDescribeSink : public ForwardingSink {
 public:
  explicit NoDescribeSink(ResultSink& inner) : ForwardingSink(inner) {}
  void rowDescription(const std::vector<ColumnDesc>&) override {}
};

// Buffers rows and the tag, for Execute with a row limit.
class BufferSink final : public NoDescribeSink {
 public:
  BufferSink(ResultSink& inner, std::vector<std::vector<std::optional<std::string>>>& rows, std::string& tag)
      : NoDescribeSink(inner), rows_(rows), tag_(tag) {}
  void dataRow(const Field* fields, size_t count) override {
    auto& row = rows_.emplace_back();
    row.reserve(count);
    for (size_t i = 0; i < count; ++i) {
      if (fields[i].len < 0) {
        row.emplace_back(std::nullopt);
      } else {
        row.emplace_back(std::string(fields[i].data, fields[i].len));
      }
    }
  }
  void commandComplete(std::string_view tag) override { tag_ = std::string(tag); }

 private:
  std::vector<std::vector<std::optional<std::string>>>& rows_;
  std::string& tag_;
};

}  // namespace

void ExtendedProtocol::parse(const std::string& name, std::string_view sql,
                             const std::vector<uint32_t>& paramTypeOids) {
  TimeoutGuard timeout(state_, true);
  prepare(name, sql, paramTypeOids);
}

void ExtendedProtocol::prepare(const std::string& name, std::string_view sql,
                               const std::vector<uint32_t>& paramTypeOids) {
  if (!name.empty() && state_.statements.count(name)) {
    throw SqlError("42P05", fmt::format("prepared statement \"{}\" already exists", name));
  }
  checkUtf8(sql);
  std::vector<sql::ParsedStatement> parsed = sql::parseQuery(sql, sql::ParseOptions{.liftLiterals = true});
  for (const sql::ParsedStatement& p : parsed) checkParamNumbers(p, sql, kMaxBindParams);
  // Drop empty statements around the real one (e.g. a trailing ';').
  std::vector<sql::ParsedStatement> real;
  for (auto& p : parsed) {
    if (p.stmt->kind != sql::StmtKind::Empty) real.push_back(std::move(p));
  }
  if (real.size() > 1) {
    throw SqlError(sqlstate::kSyntaxError, "cannot insert multiple commands into a prepared statement");
  }
  // In a failed block only COMMIT / ROLLBACK may be prepared, as in PostgreSQL.
  if (!real.empty()) transaction_.checkNotFailed(*real[0].stmt);
  auto st = std::make_shared<Statement>();
  st->text = std::make_shared<const std::string>(sql);
  st->sql = *st->text;
  st->parsed = real.empty() ? std::move(parsed.at(0)) : std::move(real[0]);
  for (uint32_t o : paramTypeOids) {
    bool known = true;
    SqlType type = o == 0 ? SqlType{TypeId::Unknown, -1} : sqlTypeFromOid(o, &known);
    if (o != 0 && !known) {
      throw SqlError(sqlstate::kUndefinedObject, fmt::format("type with OID {} does not exist", o));
    }
    st->declaredTypes.push_back(type);
  }
  if (isQuery(*st->parsed.stmt)) {
    st->plan = planner_.planFor(*st);
    // As in PostgreSQL, the parameter types decided now are the statement's for good: the
    // client sends values of these types (Describe said so), and a re-plan after DDL (a
    // function replaced or dropped) must read them as such, not infer types afresh.
    size_t explicitParams = static_cast<size_t>(std::max(st->parsed.explicitParams, 0));
    if (st->declaredTypes.size() < explicitParams)
      st->declaredTypes.resize(explicitParams, SqlType{TypeId::Unknown, -1});
    for (size_t i = 0; i < explicitParams && i < st->plan->paramTypes.size(); ++i)
      if (st->declaredTypes[i].id == TypeId::Unknown) st->declaredTypes[i] = st->plan->paramTypes[i];
  } else if ((st->parsed.stmt->kind == sql::StmtKind::Explain ||
              st->parsed.stmt->kind == sql::StmtKind::DeclareCursor) &&
             st->parsed.explicitParams > 0) {
    // EXPLAIN's and DECLARE's $n take the types the statement it explains (the cursor's
    // query) gives them (planned, not compiled, now), and Bind keeps their values for it.
    std::vector<SqlType> types =
        planTree(st->parsed.stmt->kind == sql::StmtKind::Explain ? runner_.explain().innerRequest(*st)
                                                                 : runner_.cursors().queryRequest(*st))
            .plan->paramTypes;
    st->declaredTypes.resize(static_cast<size_t>(st->parsed.explicitParams), SqlType{TypeId::Unknown, -1});
    for (size_t i = 0; i < st->declaredTypes.size() && i < types.size(); ++i)
      if (st->declaredTypes[i].id == TypeId::Unknown) st->declaredTypes[i] = types[i];
    st->utilityParams = TupleLayout::of(st->declaredTypes);
  }
  if (name.empty()) {
    state_.statements[name] = std::move(st);
  } else {
    state_.statements.emplace(name, std::move(st));
  }
}

void ExtendedProtocol::closeStatement(const std::string& name) { state_.statements.erase(name); }

const PreparedPlan* ExtendedProtocol::executedPlan(const sql::Stmt& stmt) const {
  if (stmt.kind != sql::StmtKind::Execute) return nullptr;
  auto it = state_.statements.find(stmt.as<sql::ExecuteStmt>().name);
  return it == state_.statements.end() ? nullptr : it->second->plan.get();
}

StatementDescription ExtendedProtocol::describeStatement(const std::string& name) {
  auto it = state_.statements.find(name);
  if (it == state_.statements.end()) {
    throw SqlError(sqlstate::kUndefinedPstatement, fmt::format("{} does not exist", stmtName(name)));
  }
  Statement& st = *it->second;
  StatementDescription d;
  if (st.plan) {
    if (planner_.stale(*st.plan)) st.plan = planner_.replan(st);
    const PreparedPlan& plan = *st.plan;
    size_t n = std::max<size_t>(st.parsed.explicitParams, 0);
    for (size_t i = 0; i < n && i < plan.paramTypes.size(); ++i) {
      d.paramTypeOids.push_back(typeOid(plan.paramTypes[i]));
    }
    d.returnsRows = plan.returnsRows;
    if (plan.returnsRows) d.columns = columnsOf(plan, {});
  } else {
    for (const SqlType& t : st.declaredTypes) d.paramTypeOids.push_back(typeOid(t));
    if (st.parsed.stmt->kind == sql::StmtKind::Show) {
      d.returnsRows = true;
      d.columns = showColumns(st.parsed.stmt->as<sql::ShowStmt>());
    } else if (st.parsed.stmt->kind == sql::StmtKind::Explain) {
      d.returnsRows = true;
      d.columns = explainColumns();
    } else if (st.parsed.stmt->kind == sql::StmtKind::Fetch) {
      d.columns = runner_.cursors().fetchColumns(*st.parsed.stmt, {});
      for (auto& c : d.columns) c.format = 0;
      d.returnsRows = !d.columns.empty();
    } else if (const PreparedPlan* plan = executedPlan(*st.parsed.stmt)) {
      d.returnsRows = plan->returnsRows;
      if (plan->returnsRows) d.columns = columnsOf(*plan, {});
    }
  }
  return d;
}

void ExtendedProtocol::bind(const std::string& portalName, const std::string& statement,
                            const std::vector<BindParam>& params, const std::vector<int16_t>& resultFormats) {
  TimeoutGuard timeout(state_, true);
  auto it = state_.statements.find(statement);
  if (it == state_.statements.end()) {
    throw SqlError(sqlstate::kUndefinedPstatement, fmt::format("{} does not exist", stmtName(statement)));
  }
  std::shared_ptr<Statement> st = it->second;
  size_t required = std::max<size_t>(st->parsed.explicitParams, st->declaredTypes.size());
  if (params.size() != required) {
    throw SqlError(sqlstate::kProtocolViolation, fmt::format("bind message supplies {} parameters, but {} requires {}",
                                                             params.size(), stmtName(statement), required));
  }
  transaction_.checkNotFailed(*st->parsed.stmt);
  Portal portal = portalName.empty() ? takeUnnamedPortal() : Portal{};
  if (st->plan) {
    if (planner_.stale(*st->plan)) st->plan = planner_.replan(*st);
    portal.stmt = st;
    portal.plan = st->plan;
    const TupleLayout& paramLayout = st->plan->compiled->paramLayout;
    if (!portal.params || !portal.params->reuseFor(paramLayout))
      portal.params = std::make_unique<ParamTuple>(paramLayout);
    const TypeContext& ctx = state_.settings.typeContext();
    for (size_t i = 0; i < params.size() && i < static_cast<size_t>(st->parsed.explicitParams); ++i) {
      const BindParam& p = params[i];
      std::optional<std::string_view> v;
      if (p.value) v = std::string_view(*p.value);
      portal.params->set(i, v, p.format, ctx);
    }
    for (const auto& lit : st->parsed.literals) {
      portal.params->set(lit.paramNumber - 1, lit.value(), 0, ctx);
    }
    expandResultFormats(resultFormats, st->plan->columns.size(), portal.formats);
  } else if (st->utilityParams) {  // EXPLAIN with $n
    portal.stmt = st;
    portal.params = std::make_unique<ParamTuple>(*st->utilityParams);
    for (size_t i = 0; i < params.size(); ++i) {
      std::optional<std::string_view> v;
      if (params[i].value) v = std::string_view(*params[i].value);
      portal.params->set(i, v, params[i].format, state_.settings.typeContext());
    }
    portal.formats = resultFormats;
  } else {
    portal.stmt = st;
    portal.params.reset();
    portal.formats = resultFormats;
    // A FETCH's rows are text unless the Bind says otherwise (a BINARY cursor's too).
    if (st->parsed.stmt->kind == sql::StmtKind::Fetch && resultFormats.empty()) portal.formats = {0};
  }
  if (portalName.empty() && spareUnnamedPortal_) {
    // Into the spare node: no map node allocated.
    state_.portals.erase(portalName);
    spareUnnamedPortal_.mapped() = std::move(portal);
    state_.portals.insert(std::move(spareUnnamedPortal_));
    return;
  }
  state_.portals[portalName] = std::move(portal);
}

StatementDescription ExtendedProtocol::describePortal(const std::string& name) {
  auto it = state_.portals.find(name);
  if (it == state_.portals.end()) {
    // A cursor DECLARE made is a portal too (psycopg describes its named cursors).
    if (const SqlCursor* cursor = runner_.cursors().find(name)) {
      StatementDescription d;
      d.returnsRows = true;
      d.columns = cursor->columns;
      for (auto& c : d.columns) c.format = cursor->binaryCursor ? 1 : 0;
      return d;
    }
    throw SqlError(sqlstate::kInvalidCursorName, fmt::format("portal \"{}\" does not exist", name));
  }
  Portal& p = it->second;
  StatementDescription d;
  if (p.stmt->plan) {
    const PreparedPlan& plan = *p.stmt->plan;
    d.returnsRows = plan.returnsRows;
    if (plan.returnsRows) d.columns = columnsOf(plan, p.formats);
  } else if (p.stmt->parsed.stmt->kind == sql::StmtKind::Show) {
    d.returnsRows = true;
    d.columns = showColumns(p.stmt->parsed.stmt->as<sql::ShowStmt>());
  } else if (p.stmt->parsed.stmt->kind == sql::StmtKind::Explain) {
    d.returnsRows = true;
    d.columns = explainColumns();
    for (auto& c : d.columns)
      if (!p.formats.empty()) c.format = p.formats[0];
  } else if (const PreparedPlan* plan = executedPlan(*p.stmt->parsed.stmt)) {
    // EXECUTE name: the prepared statement's rows.
    d.returnsRows = plan->returnsRows;
    if (plan->returnsRows) {
      std::vector<int16_t> formats;
      expandResultFormats(p.formats, plan->columns.size(), formats);
      d.columns = columnsOf(*plan, formats);
    }
  } else if (p.stmt->parsed.stmt->kind == sql::StmtKind::Fetch) {
    // The extended protocol's FETCH sends its rows in the Bind's formats (text if none).
    d.columns =
        runner_.cursors().fetchColumns(*p.stmt->parsed.stmt, p.formats.empty() ? std::vector<int16_t>{0} : p.formats);
    d.returnsRows = !d.columns.empty();
  }
  return d;
}

ExecuteState ExtendedProtocol::execute(const std::string& name, int64_t maxRows, ResultSink& sink) {
  auto it = state_.portals.find(name);
  if (it == state_.portals.end()) {
    throw SqlError(sqlstate::kInvalidCursorName, fmt::format("portal \"{}\" does not exist", name));
  }
  Portal& p = it->second;
  Statement& st = *p.stmt;
  if (st.parsed.stmt->kind == sql::StmtKind::Empty) {
    sink.emptyQuery();
    return ExecuteState::Complete;
  }
  if (p.finished) {
    // As PostgreSQL: a finished portal that returns rows completes again with none left
    // ("SELECT 0", "INSERT 0 0", "SHOW"); any other finished portal cannot be run.
    if (p.plan && p.plan->returnsRows) {
      sink.commandComplete(commandTag(*p.plan, 0, 0));
    } else if (st.parsed.stmt->kind == sql::StmtKind::Show) {
      sink.commandComplete("SHOW");
    } else if (st.parsed.stmt->kind == sql::StmtKind::Explain) {
      sink.commandComplete("EXPLAIN");
    } else {
      throw SqlError(sqlstate::kObjectNotInPrerequisiteState, fmt::format("portal \"{}\" cannot be run", name));
    }
    return ExecuteState::Complete;
  }
  if (!p.ran && router_.routeExecute(p)) {
    // Fetched in pieces, the rows come back to the portal (fillPortal) and are handed out
    // from there, as when the executor runs it.
    p.ran = true;
    p.finished = maxRows <= 0;
    return ExecuteState::OnSnapshot;
  }
  // Beside another session's block, what a snapshot cannot run waits for its end (a
  // portal partly fetched already hands out its rows: no table is read for that).
  if (state_.besideHolder && !p.ran) throw StatementDeferred{};
  const uint8_t* params = p.params ? p.params->data() : nullptr;
  if (!p.ran && maxRows <= 0) {
    NoDescribeSink out(sink);
    runner_.runStatement(st, params, p.formats, out, false);
    p.ran = p.finished = true;
    return ExecuteState::Complete;
  }
  if (!p.ran) {
    BufferSink buffer(sink, p.rows, p.tag);
    p.ran = true;
    runner_.runStatement(st, params, p.formats, buffer, false);
    p.next = 0;
  }
  size_t end = p.rows.size();
  if (maxRows > 0) end = std::min(end, p.next + static_cast<size_t>(maxRows));
  std::vector<Field> fields;
  for (; p.next < end; ++p.next) {
    const auto& row = p.rows[p.next];
    fields.clear();
    for (const auto& f : row) {
      fields.push_back(f ? Field{f->data(), static_cast<int32_t>(f->size())} : Field{nullptr, -1});
    }
    sink.dataRow(fields.data(), fields.size());
  }
  if (p.next < p.rows.size()) return ExecuteState::Suspended;
  if (!p.tag.empty()) sink.commandComplete(p.tag);
  p.tag.clear();
  p.finished = true;
  return ExecuteState::Complete;
}

void ExtendedProtocol::fillPortal(const std::string& name, std::vector<std::vector<std::optional<std::string>>> rows,
                                  std::string tag) {
  auto it = state_.portals.find(name);
  if (it == state_.portals.end()) return;  // closed meanwhile: nothing to hand out
  Portal& p = it->second;
  p.rows = std::move(rows);
  p.tag = std::move(tag);
  p.next = 0;
}

void ExtendedProtocol::sync() {
  std::exception_ptr refused;  // the commit failed: reported once the cycle is cleaned up
  if (state_.txn.mode() == TransactionState::Mode::Implicit) {
    try {
      transaction_.endTransaction(!state_.txn.failed());
    } catch (const SqlError&) {
      refused = std::current_exception();
    }
  }
  // The unnamed portal does not survive the end of a transaction cycle; its memory does.
  if (!state_.txn.inBlock()) {
    if (!spareUnnamedPortal_) spareUnnamedPortal_ = state_.portals.extract("");
    state_.portals.clear();
  }
  if (refused) std::rethrow_exception(refused);
}

// A fresh Portal, with the parameter tuple and format vector of the spare one, if any.
Portal ExtendedProtocol::takeUnnamedPortal() {
  Portal fresh;
  if (spareUnnamedPortal_) {
    Portal& old = spareUnnamedPortal_.mapped();
    fresh.params = std::move(old.params);
    fresh.formats = std::move(old.formats);
    old = Portal{};  // drops its statement and plan now
  }
  return fresh;
}

}  // namespace duet
