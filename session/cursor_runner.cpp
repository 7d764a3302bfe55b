#include "session/cursor_runner.h"

#include <algorithm>

#include <fmt/format.h>

#include "session/value_io.h"

namespace duet {
namespace {

// Encodes each row of the query in text and in binary.
class CursorConsumer final : public rt::RowConsumer {
 public:
  CursorConsumer(const TupleLayout& layout, SqlCursor& cursor, const TypeContext& ctx)
      : text_(layout, std::vector<int16_t>(layout.types.size(), 0)),
        binary_(layout, std::vector<int16_t>(layout.types.size(), 1)),
        cursor_(cursor),
        ctx_(ctx) {}
  void consume(const uint8_t* tuple) override {
    keep(text_, tuple, cursor_.text);
    keep(binary_, tuple, cursor_.binary);
  }

 private:
  void keep(RowEncoder& encoder, const uint8_t* tuple, SqlCursor::Rows& rows) {
    encoder.encode(tuple, ctx_);
    auto& row = rows.emplace_back();
    row.reserve(encoder.size());
    for (size_t i = 0; i < encoder.size(); ++i) {
      const Field& f = encoder.fields()[i];
      if (f.len < 0) {
        row.emplace_back(std::nullopt);
      } else {
        row.emplace_back(std::string(f.data, static_cast<size_t>(f.len)));
      }
    }
  }
  RowEncoder text_, binary_;
  SqlCursor& cursor_;
  const TypeContext& ctx_;
};

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
        state_.cursors.clear();
      } else if (!state_.cursors.erase(s.name)) {
        noCursor(s.name);
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
  SqlCursor cursor;
  cursor.columns = columnsOf(*plan, {});
  cursor.binaryCursor = s.binary;
  cursor.noScroll = s.noScroll;
  cursor.hold = s.hold;
  cursor.number = ++state_.cursorsDeclared;
  CursorConsumer consumer(plan->compiled->outputLayout, cursor, state_.settings.typeContext());
  rt::QueryContext ctx = state_.queryContext(params);
  ctx.output = &consumer;
  plan->compiled->entry(&ctx);
  state_.cursors.emplace(s.name, std::move(cursor));
  sink.commandComplete("DECLARE CURSOR");
}

void CursorRunner::fetch(const sql::FetchStmt& s, const std::vector<int16_t>& formats, ResultSink& sink,
                         bool describe) {
  auto it = state_.cursors.find(s.name);
  if (it == state_.cursors.end()) noCursor(s.name);
  SqlCursor& c = it->second;
  using D = sql::FetchStmt::Direction;
  int64_t n = c.size();
  // Where the cursor goes: every row it passes on the way is one FETCH returns.
  auto backwardRefused = [&] {
    throw SqlError(sqlstate::kObjectNotInPrerequisiteState, "cursor can only scan forward", {},
                   "Declare it with SCROLL option to enable backward scan.");
  };
  std::vector<int64_t> rows;  // 1-based row numbers, in the order sent
  bool onRow = c.position >= 1 && c.position <= n;
  // NO SCROLL refuses whatever PostgreSQL would run backward: a move back, a row fetched
  // again (a count of 0 on a row; BACKWARD 0 anywhere; MOVE 0 only counts), a rewind, LAST.
  D direction = s.direction;
  int64_t count = s.count;
  if ((direction == D::Forward || direction == D::Backward) && count == 0) {
    if (c.noScroll && !s.move && (onRow || direction == D::Backward)) backwardRefused();
    direction = D::Relative;
  }
  switch (direction) {
    case D::Forward:
      for (int64_t k = 0; k < count && c.position <= n; ++k) {
        if (++c.position <= n) rows.push_back(c.position);
      }
      break;
    case D::Backward:
      if (c.noScroll) backwardRefused();
      for (int64_t k = 0; k < count && c.position >= 1; ++k) {
        if (--c.position >= 1) rows.push_back(c.position);
      }
      break;
    case D::Absolute:
    case D::Relative: {
      // Saturating: a count near the limits only means "past either end".
      __int128 wide = direction == D::Absolute ? (count >= 0 ? __int128(count) : __int128(n) + 1 + count)
                                               : __int128(c.position) + count;
      int64_t target = static_cast<int64_t>(std::clamp<__int128>(wide, -1, __int128(n) + 1));
      if (c.noScroll) {
        bool back = direction == D::Absolute ? count < 0 || (count == 0 && c.position > 0) ||
                                                   (count > 0 && c.position >= 1 && count <= c.position)
                                             : count < 0 || (count == 0 && onRow && !s.move);
        if (back) backwardRefused();
      }
      if (target >= 1 && target <= n) {
        c.position = target;
        rows.push_back(target);
      } else {
        c.position = target < 1 ? 0 : n + 1;
      }
      break;
    }
  }
  if (s.move) {
    sink.commandComplete(fmt::format("MOVE {}", rows.size()));
    return;
  }
  std::vector<ColumnDesc> columns = fetchColumns(s, formats);
  if (describe) sink.rowDescription(columns);
  std::vector<Field> fields(columns.size());
  for (int64_t r : rows) {
    for (size_t i = 0; i < columns.size(); ++i) {
      const auto& v = (columns[i].format == 1 ? c.binary : c.text)[static_cast<size_t>(r - 1)][i];
      fields[i] = v ? Field{v->data(), static_cast<int32_t>(v->size())} : Field{nullptr, -1};
    }
    sink.dataRow(fields.data(), fields.size());
  }
  sink.commandComplete(fmt::format("FETCH {}", rows.size()));
}

}  // namespace duet
