#include "session/cursor_runner.h"

#include <algorithm>

#include <fmt/format.h>

#include "session/value_io.h"

namespace duet {
namespace {

// Keeps each row of the query in the cursor's portal.
class CursorConsumer final : public rt::RowConsumer {
 public:
  explicit CursorConsumer(rt::TupleBuffer& rows) : rows_(rows) {}
  void consume(const uint8_t* tuple) override { rows_.append(tuple); }

 private:
  rt::TupleBuffer& rows_;
};

// A portal's columns as RowDescription describes them, in text format: by name and type
// only, as for a PL/pgSQL routine's cursor (DECLARE knows the tables they come from).
std::vector<ColumnDesc> portalColumns(const rt::Portal& portal) {
  std::vector<ColumnDesc> columns;
  const TupleLayout& layout = portal.rows->layout();
  for (size_t i = 0; i < layout.types.size(); ++i) {
    SqlType t = layout.types[i];
    std::string name = i < portal.columnNames.size() ? portal.columnNames[i] : "?column?";
    columns.push_back(ColumnDesc{std::move(name), 0, 0, typeOid(t), typeLen(t), atttypmod(t), 0});
  }
  return columns;
}

rt::FetchKind fetchKind(sql::FetchStmt::Direction d) {
  using D = sql::FetchStmt::Direction;
  switch (d) {
    case D::Forward: return rt::FetchKind::Forward;
    case D::Backward: return rt::FetchKind::Backward;
    case D::Absolute: return rt::FetchKind::Absolute;
    case D::Relative: return rt::FetchKind::Relative;
  }
  return rt::FetchKind::Forward;
}

[[noreturn]] void noCursor(const std::string& name) {
  throw SqlError(sqlstate::kInvalidCursorName, fmt::format("cursor \"{}\" does not exist", name));
}

}  // namespace

const SqlCursor* CursorRunner::find(const std::string& name) const {
  auto it = state_.cursors.find(name);
  return it == state_.cursors.end() ? nullptr : &it->second;
}

PlanRequest CursorRunner::queryRequest(const Statement& st) {
  PlanRequest request = planner_.planRequest(st);
  request.stmt = st.parsed.stmt->as<sql::DeclareCursorStmt>().query.get();
  request.cursorQuery = true;
  return request;
}

std::vector<ColumnDesc> CursorRunner::fetchColumns(const sql::Stmt& stmt, const std::vector<int16_t>& formats) const {
  if (stmt.kind != sql::StmtKind::Fetch || stmt.as<sql::FetchStmt>().move) return {};
  const SqlCursor* cursor = find(stmt.as<sql::FetchStmt>().name);
  if (!cursor) return {};
  std::vector<ColumnDesc> columns = cursor->columns;
  std::vector<int16_t> f;
  if (formats.empty()) {
    f.assign(columns.size(), cursor->binaryCursor ? 1 : 0);
  } else {
    expandResultFormats(formats, columns.size(), f);
  }
  for (size_t i = 0; i < columns.size(); ++i) columns[i].format = f[i];
  return columns;
}

void CursorRunner::run(const Statement& st, const uint8_t* params, const std::vector<int16_t>& formats,
                       ResultSink& sink, bool describe) {
  const sql::Stmt& stmt = *st.parsed.stmt;
  switch (stmt.kind) {
    case sql::StmtKind::DeclareCursor: declare(st, params, sink); break;
    case sql::StmtKind::Fetch: fetch(stmt.as<sql::FetchStmt>(), formats, sink, describe); break;
    case sql::StmtKind::ClosePortal: {
      const auto& s = stmt.as<sql::ClosePortalStmt>();
      if (s.name.empty()) {
        // As PostgreSQL's, not while a PL/pgSQL FOR loop reads one.
        for (auto& [name, cursor] : state_.cursors)
          if (cursor.portal.pinned) close(cursor.portal);
        state_.cursors.clear();
      } else {
        rt::Portal* p = portal(s.name);
        if (!p) noCursor(s.name);
        close(*p);
      }
      sink.commandComplete(s.name.empty() ? "CLOSE CURSOR ALL" : "CLOSE CURSOR");
      break;
    }
    default: break;
  }
}

void CursorRunner::declare(const Statement& st, const uint8_t* params, ResultSink& sink) {
  const auto& s = st.parsed.stmt->as<sql::DeclareCursorStmt>();
  if (state_.cursors.count(s.name)) {
    throw SqlError(sqlstate::kDuplicateCursor, fmt::format("cursor \"{}\" already exists", s.name));
  }
  if (!s.hold && !state_.txn.inTransactionBlock()) {
    throw SqlError(sqlstate::kNoActiveSqlTransaction, "DECLARE CURSOR can only be used in transaction blocks");
  }
  // The plan a statement of this text gets, cached under the DECLARE's key.
  std::string key = "cursor|" + planner_.planKey(st);
  EngineState& engine = state_.engine;
  std::shared_ptr<PreparedPlan> plan = engine.plans.find(key, engine.catalogVersion);
  if (!plan) {
    plan = planStatement(queryRequest(st));
    plan->catalogVersion = engine.catalogVersion;
    engine.plans.put(key, plan);
  }
  if (const char* command = writingCommand(*plan, *s.query)) state_.txn.undo().checkWritable(command);
  std::vector<std::string> names;
  for (const OutputColumn& c : plan->columns) names.push_back(c.name);
  // A query with FOR UPDATE/SHARE moves forwards only, as PostgreSQL's (its rows are locked
  // as they are fetched), and SCROLL says otherwise.
  bool locking =
      s.query->kind == sql::StmtKind::Select && s.query->as<sql::SelectStmt>().locking != sql::LockStrength::None;
  if (locking && s.scroll)
    throw SqlError(sqlstate::kFeatureNotSupported, "DECLARE SCROLL CURSOR ... FOR UPDATE is not supported",
                   "Scrollable cursors must be READ ONLY.");
  CursorRows kept = cursorRows(*plan, plan->compiled->outputLayout);
  SqlCursor cursor(rt::Portal(s.name, kept.layout, std::move(names), !s.noScroll && !locking));
  cursor.portal.rowIds = std::move(kept.rowIds);
  cursor.columns = columnsOf(*plan, {});
  cursor.binaryCursor = s.binary;
  cursor.hold = s.hold;
  cursor.portal.number = ++state_.cursorsDeclared;
  CursorConsumer consumer(*cursor.portal.rows);
  rt::QueryContext ctx = state_.queryContext(params);
  ctx.output = &consumer;
  plan->compiled->run(&ctx);
  state_.cursors.emplace(s.name, std::move(cursor));
  sink.commandComplete("DECLARE CURSOR");
}

rt::Portal& CursorRunner::open(std::string name, const TupleLayout& layout, std::vector<std::string> columnNames,
                               bool scrollable) {
  if (state_.cursors.count(name))
    throw SqlError(sqlstate::kDuplicateCursor, fmt::format("cursor \"{}\" already in use", name));
  SqlCursor cursor(rt::Portal(name, layout, std::move(columnNames), scrollable));
  cursor.columns = portalColumns(cursor.portal);
  cursor.portal.number = ++state_.cursorsDeclared;
  return state_.cursors.emplace(std::move(name), std::move(cursor)).first->second.portal;
}

rt::Portal* CursorRunner::portal(std::string_view name) {
  auto it = state_.cursors.find(std::string(name));
  return it == state_.cursors.end() ? nullptr : &it->second.portal;
}

uint64_t CursorRunner::currentRow(std::string_view name, const Table& table) {
  auto it = state_.cursors.find(std::string(name));
  if (it == state_.cursors.end()) noCursor(std::string(name));
  if (!it->second.declaredInTransaction)
    throw SqlError(sqlstate::kInvalidCursorState,
                   fmt::format("cursor \"{}\" is held from a previous transaction", name));
  state_.currentOfCursors.emplace(name);
  return it->second.portal.currentRow(table);
}

void CursorRunner::close(rt::Portal& portal) {
  if (portal.pinned)
    throw SqlError(sqlstate::kInvalidCursorState, fmt::format("cannot drop pinned portal \"{}\"", portal.name));
  state_.cursors.erase(portal.name);
}

// PostgreSQL's CreateNewPortal: the next number whose name is free.
std::string CursorRunner::unnamedName() {
  std::string name;
  do {
    name = fmt::format("<unnamed portal {}>", ++unnamed_);
  } while (state_.cursors.count(name));
  return name;
}

void CursorRunner::fetch(const sql::FetchStmt& s, const std::vector<int16_t>& formats, ResultSink& sink,
                         bool describe) {
  auto it = state_.cursors.find(s.name);
  if (it == state_.cursors.end()) noCursor(s.name);
  rt::Portal& portal = it->second.portal;
  std::vector<uint64_t> rows;  // 1-based row numbers, in the order sent
  uint64_t processed = portal.position().fetch(fetchKind(s.direction), s.count, s.move, &rows);
  if (s.move) {
    sink.commandComplete(fmt::format("MOVE {}", processed));
    return;
  }
  std::vector<ColumnDesc> columns = fetchColumns(s, formats);
  if (describe) sink.rowDescription(columns);
  std::vector<int16_t> columnFormats;
  for (const ColumnDesc& c : columns) columnFormats.push_back(c.format);
  RowEncoder encoder(portal.rows->layout(), std::move(columnFormats));
  for (uint64_t r : rows) {
    encoder.encode(portal.rows->at(r - 1), state_.settings.typeContext());
    sink.dataRow(encoder.fields(), encoder.size());
  }
  sink.commandComplete(fmt::format("FETCH {}", rows.size()));
}

}  // namespace duet
