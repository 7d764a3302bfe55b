// The run-time half of dynamic SQL (dynamic_sql.h): the session runs the command, and the
// rows it returns are converted here to the types of the routine's targets.
#include "compiler/plpgsql/dynamic_sql.h"

#include <fmt/format.h>

#include <cstring>
#include <mutex>

#include "compiler/binder/type_rules.h"
#include "compiler/codegen/jit_symbols.h"
#include "compiler/parser/lexer.h"
#include "compiler/plpgsql/strict_params.h"
#include "compiler/runtime/portal.h"
#include "engine/storage/tuple_storage.h"
#include "engine/types/value_io.h"

namespace duet::plpgsql {

std::optional<std::string> constantCommand(const SqlText& command) {
  sql::DecodedTexts decoded;
  std::vector<sql::Token> tokens = sql::tokenize(command.text, decoded);
  if (tokens.size() != 2 || tokens[0].kind != sql::TokenKind::String) return std::nullopt;
  return tokens[0].str();
}

void registerDynamicSqlRuntime() {
  static std::once_flag once;
  std::call_once(once, [] {
    registerJitSymbol("duet_plpgsql_execute", reinterpret_cast<void*>(&duet_plpgsql_execute));
    registerJitSymbol("duet_plpgsql_execute_rows", reinterpret_cast<void*>(&duet_plpgsql_execute_rows));
    registerJitSymbol("duet_plpgsql_execute_row", reinterpret_cast<void*>(&duet_plpgsql_execute_row));
    registerJitSymbol("duet_plpgsql_return_query_execute", reinterpret_cast<void*>(&duet_plpgsql_return_query_execute));
    registerJitSymbol("duet_plpgsql_cursor_open_execute", reinterpret_cast<void*>(&duet_plpgsql_cursor_open_execute));
  });
}

const TypeContext& typeContextOf(const rt::QueryContext* ctx) {
  static const TypeContext kDefault;
  return ctx->typeContext ? *ctx->typeContext : kDefault;
}

namespace {

// PL/pgSQL's exec_cast_value: a value of type `from` for a variable of type `to`, by the
// assignment cast PostgreSQL has for the pair, else through text (the value's output
// function, then the target's input function): numeric 1.6 becomes integer 2, true
// becomes the integer input 't' (an error), 1 the boolean '1' (true). Strings, also
// those taken over unchanged, are copied to the statement's arena: the rows they came
// from go before the variables do.
void assignValue(SqlType from, const void* in, SqlType to, void* out, const TypeContext& typeContext) {
  Arena& arena = statementArena();
  if (from.id == TypeId::Unknown) from = {TypeId::Text, -1};
  bool same = from.id == to.id && from.element == to.element && (to.typmod < 0 || to.typmod == from.typmod);
  bool assignable = from.isArray() && to.isArray()
                        ? binder::castAllowed(from.element, to.element, binder::CastContext::Assignment)
                        : binder::castAllowed(from.id, to.id, binder::CastContext::Assignment);
  if (same) {
    std::memcpy(out, in, physicalSize(to.id));
  } else if (assignable) {
    castValue(from, in, to, out, false, arena, typeContext);
  } else {
    std::string text;
    formatText(from, in, text, typeContext);
    parseText(to, text, out, arena, typeContext);
  }
  if (!isVarlenaType(to.id) || !isVarlenaType(from.id)) return;
  const VarString* result;
  const VarString* source;
  std::memcpy(&result, out, sizeof result);
  std::memcpy(&source, in, sizeof source);
  if (result != source) return;
  const VarString* copy = arena.makeString(source->view());
  std::memcpy(out, &copy, sizeof copy);
}

}  // namespace

void convertRow(const TupleLayout& from, const uint8_t* row, const TupleLayout& to, uint8_t* out,
                const TypeContext& typeContext) {
  for (size_t c = 0; c < to.types.size(); ++c) {
    bool isNull = c >= from.types.size() || row[from.nullOffset(c)];
    out[to.nullOffset(c)] = isNull ? 1 : 0;
    if (!isNull) assignValue(from.types[c], row + from.offsets[c], to.types[c], out + to.offsets[c], typeContext);
  }
}

namespace {

rt::DynamicQuery queryOf(const DynamicSpec& spec, const VarString* command, const uint8_t* params) {
  if (!command) throw SqlError("22004", "query string argument of EXECUTE is null");
  rt::DynamicQuery query;
  query.sql = command->view();
  query.paramLayout = &spec.paramLayout;
  query.params = params;
  query.use = spec.use;
  query.readOnly = spec.readOnly;
  return query;
}

rt::DynamicOutcome run(rt::QueryContext* ctx, const DynamicSpec& spec, const VarString* command, const uint8_t* params,
                       rt::DynamicRows& rows) {
  // While it runs, the routine's CONTEXT line has the command (`SQL statement "..."`).
  struct Showing {
    RoutineFrame* frame;
    Showing(RoutineFrame* f, std::string_view command) : frame(f) {
      if (frame) frame->dynamicSql = command;
    }
    ~Showing() {
      if (frame) frame->dynamicSql = {};
    }
  } showing(runningFrame(), command ? command->view() : std::string_view());
  try {
    return rt::sessionFor(ctx, "EXECUTE").executeDynamic(*ctx, queryOf(spec, command, params), rows);
  } catch (SqlError& e) {
    setErrorContext(e, showing.frame);
    throw;
  }
}

// EXECUTE's rows: the first one of the last statement that returned rows, and their count.
class FirstRow final : public rt::DynamicRows {
 public:
  void start(const TupleLayout& layout, const std::vector<std::string>&) override {
    rows_ = std::make_unique<rt::TupleBuffer>(layout);
    count_ = 0;
  }
  void consume(const uint8_t* tuple) override {
    if (count_++ == 0) rows_->append(tuple);
  }
  uint64_t count() const { return count_; }
  const rt::TupleBuffer& rows() const { return *rows_; }

 private:
  std::unique_ptr<rt::TupleBuffer> rows_;
  uint64_t count_ = 0;
};

// FOR's rows: all of them, in a buffer of the runtime state of the statement that called
// the routine.
class AllRows final : public rt::DynamicRows {
 public:
  explicit AllRows(rt::QueryContext& ctx) : ctx_(ctx) {}
  void start(const TupleLayout& layout, const std::vector<std::string>&) override {
    ctx_.buffers.push_back(std::make_unique<rt::TupleBuffer>(layout));
    rows_ = ctx_.buffers.back().get();
  }
  void consume(const uint8_t* tuple) override { rows_->append(tuple); }
  rt::TupleBuffer* rows() const { return rows_; }

 private:
  rt::QueryContext& ctx_;
  rt::TupleBuffer* rows_ = nullptr;
};

// OPEN FOR EXECUTE's rows, with their column names: the portal's.
class PortalRows final : public rt::DynamicRows {
 public:
  void start(const TupleLayout& layout, const std::vector<std::string>& names) override {
    rows = std::make_unique<rt::TupleBuffer>(layout);
    this->names = names;
  }
  void consume(const uint8_t* tuple) override { rows->append(tuple); }
  std::unique_ptr<rt::TupleBuffer> rows;
  std::vector<std::string> names;
};

// RETURN QUERY's rows, appended to the call's result; each statement's columns must have
// the result's types, as PostgreSQL's convert_tuples_by_position checks (typmods aside).
class ResultRows final : public rt::DynamicRows {
 public:
  ResultRows(const TupleLayout& result, rt::TupleBuffer& out) : result_(result), out_(out), row_(result.size) {}
  void start(const TupleLayout& layout, const std::vector<std::string>&) override {
    const std::vector<SqlType>& expected = result_.types;
    for (size_t c = 0; c < layout.types.size() && c < expected.size(); ++c) {
      SqlType t = layout.types[c].id == TypeId::Unknown ? SqlType{TypeId::Text, -1} : layout.types[c];
      if (t.id != expected[c].id || t.element != expected[c].element)
        throw SqlError("42804", "structure of query does not match function result type",
                       fmt::format("Returned type {} does not match expected type {} in column {}.", typeName(t),
                                   typeName(expected[c]), c + 1));
    }
    if (layout.types.size() != expected.size())
      throw SqlError("42804", "structure of query does not match function result type",
                     fmt::format("Number of returned columns ({}) does not match expected column count ({}).",
                                 layout.types.size(), expected.size()));
    layout_ = &layout;
  }
  void consume(const uint8_t* tuple) override {
    for (size_t c = 0; c < result_.types.size(); ++c) copyField(*layout_, tuple, c, result_, row_.data(), c);
    out_.append(row_.data());
    ++count_;
  }
  uint64_t count() const { return count_; }

 private:
  const TupleLayout& result_;
  rt::TupleBuffer& out_;
  TupleStorage row_;
  const TupleLayout* layout_ = nullptr;
  uint64_t count_ = 0;
};

}  // namespace
}  // namespace duet::plpgsql

using namespace duet;
using namespace duet::plpgsql;

extern "C" {

int64_t duet_plpgsql_execute(rt::QueryContext* ctx, const DynamicSpec* spec, const VarString* command,
                             const uint8_t* params, uint8_t* target) {
  FirstRow rows;
  rt::DynamicOutcome outcome = run(ctx, *spec, command, params, rows);
  if (spec->into) {
    // exec_stmt_dynexecute's checks, in its order.
    if (!outcome.returnedRows) throw SqlError("42601", "INTO used with a command that cannot return data");
    if (spec->strict && rows.count() != 1) {
      std::string detail;
      if (printStrictParams(ctx, spec->printStrictParams))
        detail = strictParamsDetail({}, spec->paramLayout, params, ctx);
      if (rows.count() == 0) throw SqlError("P0002", "query returned no rows", detail);
      throw SqlError("P0003", "query returned more than one row", detail);
    }
    const TupleLayout& to = spec->targetLayout;
    if (rows.count() == 0) {
      std::memset(target, 1, to.types.size());
    } else {
      convertRow(rows.rows().layout(), rows.rows().at(0), to, target, typeContextOf(ctx));
    }
  }
  return static_cast<int64_t>(outcome.processed);
}

rt::TupleBuffer* duet_plpgsql_execute_rows(rt::QueryContext* ctx, const DynamicSpec* spec, const VarString* command,
                                           const uint8_t* params) {
  AllRows rows(*ctx);
  run(ctx, *spec, command, params, rows);
  return rows.rows();  // the session made sure there is one statement returning rows
}

void duet_plpgsql_execute_row(rt::QueryContext* ctx, const DynamicSpec* spec, rt::TupleBuffer* rows, uint64_t i,
                              uint8_t* target) {
  convertRow(rows->layout(), rows->at(i), spec->targetLayout, target, typeContextOf(ctx));
}

int64_t duet_plpgsql_return_query_execute(rt::QueryContext* ctx, RoutineFrame* frame, const DynamicSpec* spec,
                                          const VarString* command, const uint8_t* params) {
  ResultRows rows(spec->targetLayout, *frame->rows);
  run(ctx, *spec, command, params, rows);
  return static_cast<int64_t>(rows.count());
}

void duet_plpgsql_cursor_open_execute(rt::QueryContext* ctx, const DynamicSpec* spec, const VarString* command,
                                      const uint8_t* params, const VarString* name, bool scrollable) {
  rt::SessionServices& session = rt::sessionFor(ctx, "a cursor");
  if (session.findCursor(name->view()))
    throw SqlError(sqlstate::kDuplicateCursor, fmt::format("cursor \"{}\" already in use", name->view()));
  PortalRows rows;
  run(ctx, *spec, command, params, rows);  // the session made sure there is one statement returning rows
  rt::Portal& portal = session.openCursor(std::string(name->view()), rows.rows->layout(), rows.names, scrollable);
  portal.rows = std::move(rows.rows);
}

}  // extern "C"
