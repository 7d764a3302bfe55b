// COPY FROM STDIN into a table and COPY (table | query) TO STDOUT.
#include "session/copy_runner.h"

#include <algorithm>
#include <functional>

#include <fmt/format.h>

#include "engine/types/text_functions.h"
#include "engine/types/value_io.h"
#include "session/binary_copy.h"  // COPY TO's binary rows

namespace duet {
namespace {

std::string quoteIdent(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

char singleChar(const sql::DefElem& o) {
  if (o.value.size() != 1) {
    throw SqlError(sqlstate::kFeatureNotSupported, fmt::format("COPY {} must be a single one-byte character", o.name));
  }
  return o.value[0];
}

CopyOptions copyOptions(const std::vector<sql::DefElem>& elems) {
  CopyOptions::Format format = CopyOptions::Format::Text;
  for (const auto& o : elems) {
    if (o.name == "format") {
      if (o.value == "csv") {
        format = CopyOptions::Format::Csv;
      } else if (o.value == "text") {
        format = CopyOptions::Format::Text;
      } else if (o.value == "binary") {
        format = CopyOptions::Format::Binary;
      } else {
        throw SqlError(sqlstate::kInvalidParameterValue, fmt::format("COPY format \"{}\" not recognized", o.value));
      }
    } else if (o.name == "csv") {
      format = CopyOptions::Format::Csv;
    }
  }
  CopyOptions opts = CopyOptions::forFormat(format);
  bool escapeSet = false;
  for (const auto& o : elems) {
    if (o.name == "delimiter") {
      opts.delimiter = singleChar(o);
    } else if (o.name == "null") {
      opts.null = o.value;
    } else if (o.name == "header") {
      opts.header = o.valueKind == sql::DefElem::ValueKind::None || o.value == "true" || o.value == "on" ||
                    o.value == "1" || o.value == "match";
    } else if (o.name == "quote") {
      opts.quote = singleChar(o);
      if (!escapeSet) opts.escape = opts.quote;
    } else if (o.name == "escape") {
      opts.escape = singleChar(o);
      escapeSet = true;
    }
    // freeze, encoding, force_* and the rest are accepted and ignored.
  }
  // What the binary format has no use for (PostgreSQL's ProcessCopyOptions).
  if (format == CopyOptions::Format::Binary) {
    for (const auto& o : elems) {
      if (o.name == "delimiter") throw SqlError(sqlstate::kSyntaxError, "cannot specify DELIMITER in BINARY mode");
      if (o.name == "null") throw SqlError(sqlstate::kSyntaxError, "cannot specify NULL in BINARY mode");
      if (o.name == "header" && opts.header)
        throw SqlError(sqlstate::kFeatureNotSupported, "cannot specify HEADER in BINARY mode");
    }
  }
  return opts;
}

}  // namespace

QueryState CopyRunner::run(const Statement& st, ResultSink& sink) {
  const auto& s = st.parsed.stmt->as<sql::CopyStmt>();
  if (!s.file.empty()) {
    throw SqlError(sqlstate::kFeatureNotSupported, "COPY to or from a file is not supported", "",
                   "Use COPY ... FROM STDIN / TO STDOUT, or psql's \\copy.");
  }
  if (!s.isFrom) {
    copyOut(st, sink);
    return QueryState::Done;
  }
  if (s.query) {
    throw SqlError(sqlstate::kSyntaxError, "COPY FROM does not support a query");
  }
  auto state = std::make_unique<CopyInState>();
  state->table = &state_.tableByName(s.table, {"cannot copy to view \"{}\"", "",
                                               "To enable copying to a view, provide an INSTEAD OF INSERT trigger."});
  TableInfo& t = *state->table;
  if (s.columns.empty()) {
    for (size_t i = 0; i < t.columns.size(); ++i) {
      state->columns.push_back(static_cast<int>(i));
      state->names.push_back(t.columns[i].name);
    }
  } else {
    for (const auto& c : s.columns) {
      int idx = t.columnIndex(c);
      if (idx < 0) {
        throw SqlError(sqlstate::kUndefinedColumn,
                       fmt::format("column \"{}\" of relation \"{}\" does not exist", c, t.name));
      }
      state->columns.push_back(idx);
      state->names.push_back(c);
    }
  }
  // Once the table and columns are known, before any data is asked for (PostgreSQL's DoCopy).
  state_.txn.undo().checkWritable("COPY FROM");
  // Columns not listed get their DEFAULT, as in INSERT: evaluated once when it is stable
  // (now() is fixed per transaction), for every row when volatile (nextval(), random()).
  // The value goes into each row through the column type's text input.
  for (size_t c = 0; c < t.columns.size(); ++c) {
    if (std::find(state->columns.begin(), state->columns.end(), static_cast<int>(c)) != state->columns.end()) continue;
    if (t.columns[c].defaultSql.empty()) continue;
    std::shared_ptr<ValueQuery> query = prepareValue("SELECT " + t.columns[c].defaultSql);
    if (query->isVolatile)
      state->rowDefaults.emplace_back(static_cast<int>(c), std::move(query));
    else
      state->defaults.emplace_back(static_cast<int>(c), evaluate(*query));
  }
  state->options = copyOptions(s.options);
  state->mark = state_.txn.undo().mark();
  int n = static_cast<int>(state->columns.size());
  copyIn_ = std::move(state);
  sink.copyInBegin(n, copyIn_->options.format == CopyOptions::Format::Binary);
  return QueryState::CopyIn;
}

bool CopyRunner::receive(std::string_view data, ResultSink& sink) {
  if (!copyIn_) {
    throw SqlError(sqlstate::kProtocolViolation, "unexpected COPY data: no COPY is in progress");
  }
  std::unique_ptr<CopyInState> state = std::move(copyIn_);
  TableInfo& t = *state->table;
  Table& table = *t.table;
  const TupleLayout& layout = table.layout();
  std::vector<__int128> storage((layout.size + 15) / 16 + 1);
  uint8_t* tuple = reinterpret_cast<uint8_t*>(storage.data());
  Arena arena;
  int64_t count = 0;
  UndoLog::Mark mark = state_.txn.undo().mark();
  CopyInParser parser(state->options, state->names);
  // A table with CHECK constraints takes its rows through a compiled INSERT of parameters,
  // whose code evaluates them (the rows' tuples are its parameter tuples); others straight.
  std::function<void(const uint8_t*)> insertRow = [&](const uint8_t* row) { table.insert(row, state_.txn.undo()); };
  std::unique_ptr<Statement> checked = t.checks.empty() ? nullptr : checkedInsert(t);
  if (checked)
    insertRow = [&](const uint8_t* row) {
      rt::QueryContext ctx = state_.queryContext(row);
      checked->plan->compiled->run(&ctx);
    };
  // Every row starts from the defaults (NULL unless a DEFAULT says otherwise).
  std::vector<__int128> defaultStorage(storage.size());
  uint8_t* defaultTuple = reinterpret_cast<uint8_t*>(defaultStorage.data());
  Arena defaultArena;
  const TypeContext& ctx = state_.settings.typeContext();
  for (size_t c = 0; c < t.columns.size(); ++c) defaultTuple[layout.nullOffset(c)] = 1;
  for (const auto& [c, value] : state->defaults) {
    if (!value) continue;
    defaultTuple[layout.nullOffset(c)] = 0;
    parseText(layout.types[c], *value, defaultTuple + layout.offsets[c], defaultArena, ctx);
  }
  // The binary format's fields go through the types' receive functions, as binary Bind
  // parameters do.
  bool binary = state->options.format == CopyOptions::Format::Binary;
  auto onRow = [&](const CopyRow& row) {
    std::copy(defaultStorage.begin(), defaultStorage.end(), storage.begin());
    for (const auto& [c, query] : state->rowDefaults) {
      std::optional<std::string> value = evaluate(*query);
      if (!value) continue;
      tuple[layout.nullOffset(c)] = 0;
      parseText(layout.types[c], *value, tuple + layout.offsets[c], arena, ctx);
    }
    for (size_t i = 0; i < state->columns.size(); ++i) {
      int c = state->columns[i];
      const auto& f = row.fields[i];
      if (!f) continue;
      tuple[layout.nullOffset(c)] = 0;
      try {
        if (binary)
          parseBinary(layout.types[c], *f, tuple + layout.offsets[c], arena);
        else
          parseText(layout.types[c], *f, tuple + layout.offsets[c], arena, ctx);
      } catch (const SqlError& e) {
        throw SqlError(e.code, e.what(),
                       binary ? fmt::format("COPY {}, line {}, column {}", t.name, parser.lineNumber(), state->names[i])
                              : fmt::format("COPY {}, line {}, column {}: \"{}\"", t.name, parser.lineNumber(),
                                            state->names[i], *f));
      }
    }
    try {
      insertRow(tuple);
    } catch (const SqlError& e) {
      throw SqlError(e.code, e.what(),
                     e.detail.empty() ? fmt::format("COPY {}, line {}", t.name, parser.lineNumber()) : e.detail);
    }
    ++count;
    if ((count & 1023) == 0) arena.reset();
    if (state_.cancel.load()) throw SqlError(sqlstate::kQueryCanceled, "canceling statement due to user request");
  };
  try {
    parser.feed(data, onRow);
    parser.finish(onRow);
    state_.txn.undo().runDeferred();  // foreign keys, at the end of the statement
  } catch (const SqlError&) {
    if (state_.txn.mode() != TransactionState::Mode::None) transaction_.failStatement(mark);
    state_.flushReports(sink);
    throw;
  }
  sink.commandComplete(fmt::format("COPY {}", count));
  if (state->log) {
    state->log->copyData = std::string(data);
    redo_.add(std::move(*state->log));
  }
  return state->fromSimpleQuery;
}

void CopyRunner::fail(std::string_view message, ResultSink& sink) {
  copyIn_.reset();
  if (state_.txn.mode() != TransactionState::Mode::None) transaction_.failStatement(state_.txn.undo().mark());
  state_.flushReports(sink);
  throw SqlError(sqlstate::kQueryCanceled, fmt::format("COPY from stdin failed: {}", message));
}

void CopyRunner::copyOut(const Statement& st, ResultSink& sink) {
  const auto& s = st.parsed.stmt->as<sql::CopyStmt>();
  std::string query;
  if (s.query) {
    query = st.sql.substr(s.query->begin, s.query->end - s.query->begin);
  } else {
    TableInfo& t =
        state_.tableByName(s.table, {"cannot copy from view \"{}\"", "", "Try the COPY (SELECT ...) TO variant."});
    std::string cols;
    if (s.columns.empty()) {
      for (const auto& c : t.columns) cols += (cols.empty() ? "" : ", ") + quoteIdent(c.name);
    } else {
      for (const auto& c : s.columns) {
        if (t.columnIndex(c) < 0) {
          throw SqlError(sqlstate::kUndefinedColumn,
                         fmt::format("column \"{}\" of relation \"{}\" does not exist", c, t.name));
        }
        cols += (cols.empty() ? "" : ", ") + quoteIdent(c);
      }
    }
    std::string table;
    for (const auto& p : s.table.parts) table += (table.empty() ? "" : ".") + quoteIdent(p);
    query = fmt::format("SELECT {} FROM {}", cols, table);
  }
  CopyOptions options = copyOptions(s.options);
  auto parsed = sql::parseQuery(query, sql::ParseOptions{.liftLiterals = true});
  if (parsed.size() != 1 || !isQuery(*parsed[0].stmt)) {
    throw SqlError(sqlstate::kSyntaxError, "COPY query must be a single SELECT");
  }
  auto text = std::make_shared<const std::string>(std::move(query));
  Statement q{text, *text, std::move(parsed[0]), {}, nullptr, {}};
  q.plan = planner_.planFor(q);
  auto params = planner_.literalParams(q);
  const PreparedPlan& plan = *q.plan;

  class CopyConsumer final : public rt::RowConsumer {
   public:
    CopyConsumer(const TupleLayout& layout, size_t n, ResultSink& sink, const TypeContext& ctx,
                 const CopyOptions& options)
        : encoder_(layout, std::vector<int16_t>(n, options.format == CopyOptions::Format::Binary ? 1 : 0)),
          sink_(sink),
          ctx_(ctx),
          options_(options),
          views_(n),
          nulls_(n) {}
    void consume(const uint8_t* tuple) override {
      encoder_.encode(tuple, ctx_);
      const Field* f = encoder_.fields();
      ++rows;
      if (options_.format == CopyOptions::Format::Binary) {
        appendBinaryCopyRow(f, encoder_.size(), buffer_);
        flush();
        return;
      }
      for (size_t i = 0; i < views_.size(); ++i) {
        nulls_[i] = f[i].len < 0;
        views_[i] = nulls_[i] ? std::string_view() : std::string_view(f[i].data, f[i].len);
      }
      // One CopyData per row, as PostgreSQL sends it (psycopg's rows() relies on it).
      appendCopyRow(options_, views_, nulls_, buffer_);
      flush();
    }
    void flush() {
      if (!buffer_.empty()) sink_.copyData(buffer_);
      buffer_.clear();
    }
    // What goes before the first row's data (the binary format's header), sent with it.
    std::string& pending() { return buffer_; }
    int64_t rows = 0;

   private:
    RowEncoder encoder_;
    ResultSink& sink_;
    const TypeContext& ctx_;
    const CopyOptions& options_;
    std::vector<std::string_view> views_;
    std::vector<bool> nulls_;
    std::string buffer_;
  };

  size_t n = plan.columns.size();
  bool binary = options.format == CopyOptions::Format::Binary;
  sink.copyOutBegin(static_cast<int>(n), binary);
  std::string header;
  if (options.header) {
    std::vector<std::string_view> names;
    for (const auto& c : plan.columns) names.push_back(c.name);
    appendCopyRow(options, names, std::vector<bool>(n, false), header);
    sink.copyData(header);
  }
  CopyConsumer consumer(plan.compiled->outputLayout, n, sink, state_.settings.typeContext(), options);
  // As PostgreSQL sends it: the binary header with the first row, the trailer on its own.
  if (binary) appendBinaryCopyHeader(consumer.pending());
  rt::QueryContext ctx = state_.queryContext(params->data());
  ctx.output = &consumer;
  plan.compiled->run(&ctx);
  consumer.flush();
  if (binary) {
    appendBinaryCopyTrailer(consumer.pending());
    consumer.flush();
  }
  sink.copyOutDone();
  sink.commandComplete(fmt::format("COPY {}", consumer.rows));
}

std::unique_ptr<Statement> CopyRunner::checkedInsert(const TableInfo& t) {
  std::string values;
  for (size_t c = 0; c < t.columns.size(); ++c) values += fmt::format("{}${}", c ? ", " : "", c + 1);
  std::string query =
      fmt::format("INSERT INTO {}.{} VALUES ({})", quoteIdent(t.schema->name), quoteIdent(t.name), values);
  auto text = std::make_shared<const std::string>(query);
  auto st =
      std::make_unique<Statement>(Statement{text, *text, std::move(sql::parseQuery(query).at(0)), {}, nullptr, {}});
  for (const ColumnDef& c : t.columns) st->declaredTypes.push_back(c.type);
  st->plan = planner_.planFor(*st);
  const TupleLayout& params = st->plan->compiled->paramLayout;
  const TupleLayout& rows = t.table->layout();
  if (params.size != rows.size || params.offsets != rows.offsets)
    throw SqlError(sqlstate::kInternalError, "COPY: parameter and row layouts differ");
  return st;
}

std::shared_ptr<CopyRunner::ValueQuery> CopyRunner::prepareValue(const std::string& query) {
  auto v = std::make_shared<ValueQuery>();
  v->text = std::make_shared<const std::string>(query);
  auto parsed = sql::parseQuery(query, sql::ParseOptions{.liftLiterals = true});
  v->statement = std::make_unique<Statement>(Statement{v->text, *v->text, std::move(parsed.at(0)), {}, nullptr, {}});
  v->statement->plan = planner_.planFor(*v->statement);
  v->params = planner_.literalParams(*v->statement);
  const PreparedPlan& plan = *v->statement->plan;
  v->isVolatile = !plan.footprint.routines.empty();
  for (const std::string& f : plan.footprint.functions) v->isVolatile = v->isVolatile || builtinFunctionVolatile(f);
  return v;
}

std::optional<std::string> CopyRunner::evaluate(const ValueQuery& query) {
  const PreparedPlan& plan = *query.statement->plan;

  class FirstValue final : public rt::RowConsumer {
   public:
    FirstValue(const TupleLayout& layout, const TypeContext& ctx) : encoder_(layout, {0}), ctx_(ctx) {}
    void consume(const uint8_t* tuple) override {
      encoder_.encode(tuple, ctx_);
      const Field& f = encoder_.fields()[0];
      if (f.len >= 0) value = std::string(f.data, static_cast<size_t>(f.len));
    }
    std::optional<std::string> value;

   private:
    RowEncoder encoder_;
    const TypeContext& ctx_;
  };
  FirstValue consumer(plan.compiled->outputLayout, state_.settings.typeContext());
  rt::QueryContext ctx = state_.queryContext(query.params->data());
  ctx.output = &consumer;
  plan.compiled->run(&ctx);
  return consumer.value;
}

}  // namespace duet
